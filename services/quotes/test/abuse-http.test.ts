/**
 * The quote form is not a mail relay, and the captcha's answer lives server-side (an outside review's findings),
 * over real HTTP on SQLite with the dev mailbox: what a confirmation to an unverified address may carry, how many one
 * recipient gets a day whoever sends, and an opaque single-use captcha token.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@forgeline/service-kit/logger';
import { tempDir } from '@forgeline/test-support/net';
import { captchaKey } from '../src/domain/captcha.ts';
import { eventually, post, PRODUCT, SELLER, startCatalogStub, startService, validQuote, type TestService } from './harness.ts';

const SEAL = { id: 'p-2', name: 'Seal Kit <6I-2503>', sku: 'SK-6I2503', partNumber: '6I-2503' };

/** A mail as the dev mailbox wrote it: its header block (long headers unfolded) and its whole text, quoted-printable undone. */
interface Eml {
  headers: string;
  all: string;
}

function decodeEml(raw: string): Eml {
  const all = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return { headers: raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' '), all };
}

/** The .eml files of one quote request, by role (`buyer` or `seller`), once `expected` of them are written. */
async function mailsOf(dir: string, quoteId: string, expected: number): Promise<Record<string, Eml>> {
  const found: Record<string, Eml> = {};
  await eventually(async () => {
    for (const f of (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'))) {
      const raw = await readFile(path.join(dir, f), 'utf8');
      const role = new RegExp(`^Message-ID:\\s+<quote-${quoteId}-(buyer|seller)@`, 'mi').exec(raw)?.[1];
      if (role) found[role] = decodeEml(raw);
    }
    return Object.keys(found).length === expected;
  });
  return found;
}

describe('the buyer confirmation carries none of the sender\'s text', () => {
  let catalog: Awaited<ReturnType<typeof startCatalogStub>>;
  let svc: TestService;
  beforeAll(async () => {
    catalog = await startCatalogStub([PRODUCT, SEAL]);
    svc = await startService({ catalogUrl: catalog.url, rateLimits: { confirmationsPerDay: 100 } });
  });
  afterAll(async () => {
    await svc?.close();
    await catalog?.close();
  });

  // What a spammer types into every field the form has (and one it has not).
  const SPAM = {
    customerName: 'BUY NOW http://spam.example/name',
    customerPhone: '+1 555 BUY NOW',
    customerCountry: 'BUY NOW at spam.example',
    message: 'BUY NOW: cheap pills at http://spam.example/message',
    company: 'BUY NOW Ltd http://spam.example/company',
  };
  const SPAM_MARKS = ['BUY NOW', 'spam.example', 'pills'];

  const expectClean = (buyer: Eml, stored: { subject: string; text: string; html?: string; to: string; replyTo?: string }) => {
    for (const mark of SPAM_MARKS) {
      expect(buyer.all, `the buyer's .eml holds "${mark}"`).not.toContain(mark);
      for (const [field, value] of Object.entries(stored)) expect(String(value), `${field} holds "${mark}"`).not.toContain(mark);
    }
    expect(buyer.all).not.toMatch(/Dear/);
    // headers: the bare address, no display name; replies go to the seller
    expect(buyer.headers).toMatch(/^To: victim@example\.com$/m);
    expect(buyer.headers).toMatch(new RegExp(`^Reply-To: ${SELLER.replace(/\./g, '\\.')}$`, 'm'));
    expect(stored.to).toBe('victim@example.com');
    expect(stored.replyTo).toBe(SELLER);
  };

  it('a list with a spam payload in every field: the confirmation has the reference, catalogue names and quantities only; the seller gets it all', async () => {
    const { productId: _p, quantity: _q, ...rest } = validQuote();
    const res = await post(`${svc.url}/api/quote-requests`, {
      ...rest,
      ...SPAM,
      customerEmail: 'victim@example.com',
      lines: [
        { productId: PRODUCT.id, quantity: 2 },
        { productId: SEAL.id, quantity: 6, note: 'BUY NOW http://spam.example/note' },
        { text: 'BUY NOW http://spam.example/line', quantity: 3 },
      ],
    });
    expect(res.status).toBe(201);
    const id = res.body.id as string;
    const { buyer, seller } = await mailsOf(svc.mailDir, id, 2);
    const stored = (await svc.store.listMails(id)).find((m) => m.id.endsWith('-buyer'))!.message;
    expectClean(buyer!, stored);
    expect(buyer!.headers).toMatch(/^Subject: Quote request received: 3 parts$/m);
    for (const text of [stored.text, buyer!.all]) {
      expect(text).toContain(id);
      expect(text).toContain(`1. ${PRODUCT.name} | SKU ${PRODUCT.sku} | qty 2`);
      expect(text).toContain(`2. ${SEAL.name} | SKU ${SEAL.sku} | qty 6`);
      expect(text).toContain('3. A part not in our catalogue (as you described it) | qty 3');
    }
    expect(stored.html).toContain('Seal Kit &lt;6I-2503&gt;');
    expect(stored.html).toContain(id);
    // the seller's notification keeps every detail (the company is no field of the form: nobody stores it)
    for (const s of [SPAM.customerName, SPAM.customerPhone, SPAM.customerCountry, SPAM.message, 'BUY NOW http://spam.example/note', 'BUY NOW http://spam.example/line']) {
      expect(seller!.all).toContain(s);
    }
    expect(seller!.headers).toMatch(/^Reply-To: victim@example\.com$/m);
  });

  it('a single product with a spam name and message: the confirmation names the catalogue part and the quantity only', async () => {
    const res = await post(`${svc.url}/api/quote-requests`, validQuote({ ...SPAM, customerEmail: 'victim@example.com', quantity: 7 }));
    expect(res.status).toBe(201);
    const id = res.body.id as string;
    const { buyer, seller } = await mailsOf(svc.mailDir, id, 2);
    const stored = (await svc.store.listMails(id)).find((m) => m.id.endsWith('-buyer'))!.message;
    expectClean(buyer!, stored);
    expect(stored.subject).toBe(`Quote request received: ${PRODUCT.name} (SKU ${PRODUCT.sku})`);
    expect(stored.text).toContain(`Reference: ${id}`);
    expect(stored.text).toContain(`1. ${PRODUCT.name} | SKU ${PRODUCT.sku} | qty 7`);
    expect(seller!.all).toContain(SPAM.message);
    expect(seller!.all).toContain(SPAM.customerName);
  });

  it('a single line the buyer typed: the subject says a part not in the catalogue, not what was typed', async () => {
    const { productId: _p, quantity: _q, ...rest } = validQuote();
    const res = await post(`${svc.url}/api/quote-requests`, { ...rest, ...SPAM, customerEmail: 'victim@example.com', lines: [{ text: 'BUY NOW http://spam.example/only', quantity: 1 }] });
    expect(res.status).toBe(201);
    const mail = (await svc.store.listMails(res.body.id)).find((m) => m.id.endsWith('-buyer'))!.message;
    expect(mail.subject).toBe('Quote request received: 1 part not in our catalogue');
    for (const mark of SPAM_MARKS) expect(JSON.stringify(mail)).not.toContain(mark);
  });
});

describe('confirmations to one recipient per day, whoever sends', () => {
  let catalog: Awaited<ReturnType<typeof startCatalogStub>>;
  const data = tempDir('quotes-abuse-');
  const logs: { msg: string; [k: string]: unknown }[] = [];
  const logger = createLogger('quotes-abuse-test', 'info', { write: (line: string) => void logs.push(JSON.parse(line)) });
  // Two requests per client address per window: the senders below each stay under it, as a botnet would.
  const start = () => startService({ catalogUrl: catalog.url, dataDir: data.dir, logger, rateLimits: { quote: 2, confirmationsPerDay: 3 } });
  let svc: TestService;

  beforeAll(async () => {
    catalog = await startCatalogStub();
    svc = await start();
  });
  afterAll(async () => {
    await svc?.close();
    await catalog?.close();
    data.remove();
  });

  const ask = (email: string, ip: string) => post(`${svc.url}/api/quote-requests`, validQuote({ customerEmail: email }), { 'x-forwarded-for': ip });
  const roles = async (id: string) => (await svc.store.listMails(id)).map((m) => m.id.replace(`quote-${id}-`, '')).sort();

  it('queues 3 confirmations to one address from 4 senders, notifies the seller of all 4, answers 201 each time; another address is unaffected', async () => {
    // one mailbox, written four ways: case and +tags name the same recipient
    const addresses = ['victim@example.com', 'VICTIM@Example.com', 'victim+deal@example.com', 'Victim+x@EXAMPLE.COM'];
    const ids: string[] = [];
    for (const [i, email] of addresses.entries()) {
      const res = await ask(email, `198.51.100.${i + 1}`);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ success: true, status: 'pending', message: 'Quote request received. We will reply within 24 hours.' });
      ids.push(res.body.id);
    }
    expect(await Promise.all(ids.map(roles))).toEqual([['buyer', 'seller'], ['buyer', 'seller'], ['buyer', 'seller'], ['seller']]);
    expect(await svc.store.getQuoteRequest(ids[3]!)).toMatchObject({ customerEmail: 'Victim+x@EXAMPLE.COM', status: 'pending' });
    // said in the log, without the address
    const line = logs.find((l) => /confirmation not queued/.test(l.msg));
    expect(line).toMatchObject({ quoteId: ids[3], to: 'V***@EXAMPLE.COM' });
    expect(JSON.stringify(line)).not.toMatch(/victim\+x/i);

    const other = await ask('someone-else@example.com', '198.51.100.9');
    expect(other.status).toBe(201);
    expect(await roles(other.body.id)).toEqual(['buyer', 'seller']);
    await eventually(async () => (await svc.store.outboxCounts()).pending === 0);
  });

  it('keeps the count in the store: after a restart on the same DATA_DIR the recipient still gets no more today', async () => {
    await svc.close({ keepData: true });
    svc = await start();
    const res = await ask('victim@example.com', '198.51.100.20');
    expect(res.status).toBe(201);
    expect(await roles(res.body.id)).toEqual(['seller']);
    const other = await ask('someone-else@example.com', '198.51.100.21');
    expect(await roles(other.body.id)).toEqual(['buyer', 'seller']);
  });
});

describe('the captcha answer lives server-side', () => {
  let catalog: Awaited<ReturnType<typeof startCatalogStub>>;
  let svc: TestService;
  let clock = Date.now();
  beforeAll(async () => {
    catalog = await startCatalogStub();
    svc = await startService({ catalogUrl: catalog.url, captchaClock: () => clock });
  });
  afterAll(async () => {
    await svc?.close();
    await catalog?.close();
  });

  const captcha = async () => (await (await fetch(`${svc.url}/api/captcha`)).json()) as { num1: number; num2: number; token: string };
  const contact = (c: { token: string }, answer: number) =>
    post(`${svc.url}/api/contact`, { name: 'Grace', email: 'grace@example.com', message: 'Hello', captchaToken: c.token, captchaAnswer: answer });
  const sum = (c: { num1: number; num2: number }) => c.num1 + c.num2;

  it('gives an opaque random token (192 bits, base64url) and keeps the sum in the store under its hash, never the token', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const c = await captcha();
      expect(c.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(Buffer.from(c.token, 'base64url')).toHaveLength(24);
      expect(c.token).not.toContain(`${c.num1}.${c.num2}`);
      seen.add(c.token);
    }
    expect(seen.size).toBe(20);
    const c = await captcha();
    const files = ['quotes.sqlite', 'quotes.sqlite-wal'].map((f) => path.join(svc.dataDir, f)).filter(existsSync);
    for (const f of files) expect(readFileSync(f).includes(Buffer.from(c.token)), f).toBe(false);
    const taken = await svc.store.takeCaptcha(captchaKey(c.token));
    expect(taken).toMatchObject({ answer: sum(c) });
    expect((taken as { expiresAt: Date }).expiresAt.getTime()).toBe(clock + 10 * 60_000);
    // taken from the store, the token is used up: the form gets the replay message
    expect((await contact(c, sum(c))).body.message).toBe('This security check has already been used. Please solve the new math problem.');
  });

  it('uses a token up on its first check: right then refused, wrong then refused even with the right sum, made-up and expired refused', async () => {
    const right = await captcha();
    expect((await contact(right, sum(right))).status).toBe(200);
    expect(await svc.store.takeCaptcha(captchaKey(right.token))).toBe('used');
    const again = await contact(right, sum(right));
    expect(again.status).toBe(400);
    expect(again.body.issues).toEqual([{ path: 'captchaAnswer', message: 'replayed' }]);

    const wrong = await captcha();
    expect((await contact(wrong, sum(wrong) + 1)).body.issues).toEqual([{ path: 'captchaAnswer', message: 'wrong' }]);
    const thenRight = await contact(wrong, sum(wrong));
    expect(thenRight.status).toBe(400);
    expect(thenRight.body.message).toBe('This security check has already been used. Please solve the new math problem.');

    const madeUp = Buffer.alloc(24, 7).toString('base64url');
    expect(await svc.store.takeCaptcha(captchaKey(madeUp))).toBeNull();
    for (const token of [madeUp, `${right.token.slice(0, -1)}${right.token.endsWith('A') ? 'B' : 'A'}`, '1.2.3.4.5']) {
      const res = await contact({ token }, 3);
      expect(res.status, token).toBe(400);
      expect(res.body.message).toBe('The security check is not valid. Please solve the new math problem.');
    }

    const old = await captcha();
    clock += 10 * 60_000;
    try {
      const expired = await contact(old, sum(old));
      expect(expired.status).toBe(400);
      expect(expired.body.message).toBe('The security check has expired. Please solve the new math problem.');
      expect(await svc.store.takeCaptcha(captchaKey(old.token))).toBe('used');
    } finally {
      clock = Date.now();
    }
  });

  it('checks the token of a quote request the same way (the no-JavaScript form sends one), once', async () => {
    const c = await captcha();
    const first = await post(`${svc.url}/api/quote-requests`, validQuote({ captchaToken: c.token, captchaAnswer: String(sum(c)) }));
    expect(first.status).toBe(201);
    expect(await svc.store.takeCaptcha(captchaKey(c.token))).toBe('used');
    const replay = await post(`${svc.url}/api/quote-requests`, validQuote({ captchaToken: c.token, captchaAnswer: String(sum(c)) }));
    expect(replay.status).toBe(400);
    expect(replay.body.issues).toEqual([{ path: 'captchaAnswer', message: 'replayed' }]);
  });
});
