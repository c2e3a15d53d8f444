import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  downUrl,
  eventually,
  post,
  PRODUCT,
  SELLER,
  startCatalogStub,
  startService,
  validQuote,
  type TestService,
} from './harness.ts';

async function mailFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
}

async function captcha(url: string) {
  const res = await fetch(`${url}/api/captcha`);
  expect(res.status).toBe(200);
  return { ...((await res.json()) as { num1: number; num2: number; token: string }), cacheControl: res.headers.get('cache-control') };
}

const contactBody = (c: { num1: number; num2: number; token: string }, over: Record<string, unknown> = {}) => ({
  name: 'Grace Visitor',
  email: 'grace@example.com',
  countryCode: '+91',
  phone: '98765 43210',
  subject: 'Bulk order',
  message: 'Do you ship to Pune?',
  captchaAnswer: c.num1 + c.num2,
  captchaToken: c.token,
  ...over,
});

describe('quotes service over HTTP (SQLite, dev mailbox)', () => {
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

  describe('POST /api/quote-requests', () => {
    it('checks a security check when one is sent (the no-JavaScript form always sends one): wrong or reused is a 400 naming it', async () => {
      const before = await svc.store.countQuoteRequests();
      const c = await captcha(svc.url);
      const wrong = await post(`${svc.url}/api/quote-requests`, validQuote({ captchaToken: c.token, captchaAnswer: String(c.num1 + c.num2 + 1) }));
      expect(wrong.status).toBe(400);
      expect(wrong.body.issues).toEqual([{ path: 'captchaAnswer', message: 'wrong' }]);
      expect(await svc.store.countQuoteRequests()).toBe(before);

      const fresh = await captcha(svc.url);
      const ok = await post(`${svc.url}/api/quote-requests`, validQuote({ captchaToken: fresh.token, captchaAnswer: String(fresh.num1 + fresh.num2) }));
      expect(ok.status).toBe(201);
      const again = await post(`${svc.url}/api/quote-requests`, validQuote({ captchaToken: fresh.token, captchaAnswer: fresh.num1 + fresh.num2 }));
      expect(again.status).toBe(400);
      expect(again.body.issues).toEqual([{ path: 'captchaAnswer', message: 'replayed' }]);
      expect(await svc.store.countQuoteRequests()).toBe(before + 1);
    });

    it('stores a valid request as pending and mails the buyer a confirmation and the seller every detail', async () => {
      const res = await post(`${svc.url}/api/quote-requests`, validQuote({ message: '<script>alert("x")</script> & more' }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ success: true, status: 'pending' });
      const stored = await svc.store.getQuoteRequest(res.body.id);
      expect(stored).toMatchObject({
        productId: PRODUCT.id,
        productName: PRODUCT.name,
        productSku: PRODUCT.sku,
        customerName: 'Ada Buyer',
        customerEmail: 'ada@example.com',
        customerCountry: 'United Kingdom',
        quantity: 3,
        status: 'pending',
      });
      await eventually(async () => (await svc.store.listMails(res.body.id)).every((m) => m.status === 'sent'));
      const mails = await svc.store.listMails(res.body.id);
      expect(mails.map((m) => m.message.to).sort()).toEqual(['ada@example.com', SELLER]);
      const files = await mailFiles(svc.mailDir);
      const contents = await Promise.all(files.map((f) => readFile(path.join(svc.mailDir, f), 'utf8')));
      const seller = contents.find((c) => c.includes(`quote-${res.body.id}-seller@`))!;
      const buyer = contents.find((c) => c.includes(`quote-${res.body.id}-buyer@`))!;
      expect(seller).toBeDefined();
      expect(buyer).toBeDefined();
      expect(buyer).toMatch(/24 hours/);
      expect(seller).toMatch(/^Reply-To: ada@example.com$/m);
      // user text and product text are escaped in the HTML bodies; the raw tag never appears there. The buyer's
      // confirmation carries no user text at all (abuse-http.test.ts), the seller's every detail.
      for (const m of mails) {
        expect(m.message.html).not.toContain('<script>');
        expect(m.message.html).toContain('Hydraulic Filter &lt;HF-1&gt;');
      }
      expect(mails.find((m) => m.message.to === SELLER)!.message.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
      expect(mails.find((m) => m.message.to !== SELLER)!.message.html).not.toContain('alert');
    });

    it('defaults quantity to 1 and phone and message to empty', async () => {
      const { customerPhone: _p, message: _m, quantity: _q, ...rest } = validQuote();
      const res = await post(`${svc.url}/api/quote-requests`, rest);
      expect(res.status).toBe(201);
      expect(await svc.store.getQuoteRequest(res.body.id)).toMatchObject({ quantity: 1, customerPhone: '', message: '' });
    });

    it.each([
      ['a missing name', { customerName: '' }, 'customerName'],
      ['a blank name', { customerName: '   ' }, 'customerName'],
      ['an invalid e-mail', { customerEmail: 'not-an-email' }, 'customerEmail'],
      ['quantity 0', { quantity: 0 }, 'quantity'],
      ['a fractional quantity', { quantity: 1.5 }, 'quantity'],
      ['a quantity as text', { quantity: '3' }, 'quantity'],
      ['a missing country', { customerCountry: '' }, 'customerCountry'],
      ['a phone over 40 characters', { customerPhone: '1'.repeat(41) }, 'customerPhone'],
      ['a message over 5000 characters', { message: 'x'.repeat(5001) }, 'message'],
      ['a missing productId', { productId: undefined }, 'productId'],
      ['a productId that is an object', { productId: { $ne: null } }, 'productId'],
    ])('refuses %s with 400 naming the field, storing nothing', async (_name, over, field) => {
      const before = await svc.store.countQuoteRequests();
      const res = await post(`${svc.url}/api/quote-requests`, validQuote(over));
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
      expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
      expect(await svc.store.countQuoteRequests()).toBe(before);
    });

    it("says 'Please select your country' when the country is missing", async () => {
      const res = await post(`${svc.url}/api/quote-requests`, validQuote({ customerCountry: '' }));
      expect(res.body.message).toContain('Please select your country');
    });

    it('refuses an unknown product with 400 and a message, storing no orphan row', async () => {
      const before = await svc.store.countQuoteRequests();
      const res = await post(`${svc.url}/api/quote-requests`, validQuote({ productId: 'no-such-product' }));
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/Unknown product/);
      expect(await svc.store.countQuoteRequests()).toBe(before);
    });

    it('refuses with a clean 503 when the catalog fails, storing nothing', async () => {
      const before = await svc.store.countQuoteRequests();
      const lookups = catalog.lookups();
      const res = await post(`${svc.url}/api/quote-requests`, validQuote({ productId: 'catalog-fails' }));
      expect(res.status).toBe(503);
      expect(catalog.lookups() - lookups, 'the first lookup and its two retries').toBe(3);
      expect(res.body.message).toMatch(/try again/);
      expect(await svc.store.countQuoteRequests()).toBe(before);
    });

    it('refuses a body that is not JSON with 400', async () => {
      const res = await post(`${svc.url}/api/quote-requests`, '{"productId":');
      expect(res.status).toBe(400);
      expect(res.body.message).toBeTruthy();
    });

    it('refuses a body over the size limit with 413', async () => {
      const res = await post(`${svc.url}/api/quote-requests`, validQuote({ message: 'x'.repeat(20_000) }));
      expect(res.status).toBe(413);
      expect(res.body.message).toMatch(/too large/i);
    });

    it('answers a filled honeypot like a success, storing and mailing nothing', async () => {
      const before = await svc.store.countQuoteRequests();
      const mailsBefore = (await svc.store.listMails()).length;
      const res = await post(`${svc.url}/api/quote-requests`, validQuote({ website: 'http://spam.example' }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ success: true, status: 'pending' });
      expect(typeof res.body.id).toBe('string');
      expect(await svc.store.countQuoteRequests()).toBe(before);
      expect(await svc.store.getQuoteRequest(res.body.id)).toBeNull();
      expect((await svc.store.listMails()).length).toBe(mailsBefore);
    });
  });

  describe('GET /api/captcha and POST /api/contact', () => {
    it('issues two integers from 1 to 20 and a token, never cached', async () => {
      for (let i = 0; i < 20; i++) {
        const c = await captcha(svc.url);
        expect(Number.isInteger(c.num1) && c.num1 >= 1 && c.num1 <= 20).toBe(true);
        expect(Number.isInteger(c.num2) && c.num2 >= 1 && c.num2 <= 20).toBe(true);
        expect(c.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
        expect(c.cacheControl).toBe('no-store');
      }
    });

    it('stores a message with the right answer and mails the seller, reply-to the visitor, text escaped', async () => {
      const before = await svc.store.countContactMessages();
      const c = await captcha(svc.url);
      const res = await post(`${svc.url}/api/contact`, contactBody(c, { captchaAnswer: String(c.num1 + c.num2), message: 'Hi <b>there</b>' }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: "Thank you for contacting us. We'll get back to you soon!" });
      expect(await svc.store.countContactMessages()).toBe(before + 1);
      const mails = (await svc.store.listMails()).filter((m) => m.id.startsWith('contact-'));
      const mine = mails.at(-1)!;
      expect(mine.message.to).toBe(SELLER);
      expect(mine.message.replyTo).toBe('grace@example.com');
      expect(mine.message.html).toContain('Hi &lt;b&gt;there&lt;/b&gt;');
      expect(mine.message.text).toContain('+91 98765 43210');
      await eventually(async () => (await svc.store.listMails(mine.refId)).every((m) => m.status === 'sent'));
    });

    it('refuses a wrong answer with 400 and a message, and the token is then used up', async () => {
      const c = await captcha(svc.url);
      const wrong = await post(`${svc.url}/api/contact`, contactBody(c, { captchaAnswer: c.num1 + c.num2 + 1 }));
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toMatch(/Incorrect answer/);
      const retry = await post(`${svc.url}/api/contact`, contactBody(c));
      expect(retry.status).toBe(400);
      expect(retry.body.message).toMatch(/already been used/);
    });

    it('refuses a replayed token with 400 and a message, storing the message once', async () => {
      const before = await svc.store.countContactMessages();
      const c = await captcha(svc.url);
      expect((await post(`${svc.url}/api/contact`, contactBody(c))).status).toBe(200);
      const replay = await post(`${svc.url}/api/contact`, contactBody(c));
      expect(replay.status).toBe(400);
      expect(replay.body.message).toMatch(/already been used/);
      expect(await svc.store.countContactMessages()).toBe(before + 1);
    });

    it('refuses an expired token (older than 10 minutes) with 400 and a message', async () => {
      const c = await captcha(svc.url);
      clock += 10 * 60_000 + 1;
      try {
        const res = await post(`${svc.url}/api/contact`, contactBody(c));
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/expired/);
      } finally {
        clock = Date.now();
      }
    });

    it('accepts a token just under 10 minutes old', async () => {
      const c = await captcha(svc.url);
      clock += 10 * 60_000 - 1_000;
      try {
        expect((await post(`${svc.url}/api/contact`, contactBody(c))).status).toBe(200);
      } finally {
        clock = Date.now();
      }
    });

    it.each([
      ['one character changed', (t: string) => `${t.slice(0, -1)}${t.endsWith('A') ? 'B' : 'A'}`],
      ['a made-up value of the same form', () => 'A'.repeat(32)],
      ['garbage', () => 'not-a-token'],
    ])('refuses a token with %s with 400', async (_name, mangle) => {
      const c = await captcha(svc.url);
      const res = await post(`${svc.url}/api/contact`, contactBody(c, { captchaToken: mangle(c.token) }));
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/not valid/);
    });

    it.each([
      ['a missing name', { name: '' }, 'name'],
      ['an invalid e-mail', { email: 'nope' }, 'email'],
      ['a missing message', { message: ' ' }, 'message'],
      ['a missing captcha answer', { captchaAnswer: '' }, 'captchaAnswer'],
      ['a non-numeric captcha answer', { captchaAnswer: 'ten' }, 'captchaAnswer'],
      ['a missing token', { captchaToken: '' }, 'captchaToken'],
      ['a subject over 200 characters', { subject: 's'.repeat(201) }, 'subject'],
    ])('refuses %s with 400 naming the field', async (_name, over, field) => {
      const c = await captcha(svc.url);
      const res = await post(`${svc.url}/api/contact`, contactBody(c, over));
      expect(res.status).toBe(400);
      expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
    });

    it('answers a filled honeypot like a success, storing nothing', async () => {
      const before = await svc.store.countContactMessages();
      const res = await post(`${svc.url}/api/contact`, contactBody({ num1: 1, num2: 1, token: 'whatever' }, { website: 'x' }));
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(await svc.store.countContactMessages()).toBe(before);
    });
  });
});

describe('when a catalog replica fails an attempt', () => {
  it('asks again and takes the quote: the product lookup is a GET, safe to repeat', async () => {
    const catalog = await startCatalogStub();
    const svc = await startService({ catalogUrl: catalog.url });
    try {
      catalog.failNext('cut', 502);
      const res = await post(`${svc.url}/api/quote-requests`, validQuote());
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(catalog.lookups()).toBe(3);
      expect(await svc.store.countQuoteRequests()).toBe(1);
    } finally {
      await svc.close();
      await catalog.close();
    }
  });
});

describe('when the catalog is down', () => {
  it('refuses a quote request with a clean 503 and stores nothing', async () => {
    const svc = await startService({ catalogUrl: await downUrl() });
    try {
      const res = await post(`${svc.url}/api/quote-requests`, validQuote());
      expect(res.status).toBe(503);
      expect(res.body.message).toMatch(/try again/);
      expect(res.body.requestId).toBeTruthy();
      expect(await svc.store.countQuoteRequests()).toBe(0);
      expect(await svc.store.listMails()).toEqual([]);
    } finally {
      await svc.close();
    }
  });
});

describe('rate limits per client address', () => {
  let catalog: Awaited<ReturnType<typeof startCatalogStub>>;
  let svc: TestService;
  beforeAll(async () => {
    catalog = await startCatalogStub();
    svc = await startService({ catalogUrl: catalog.url, rateLimits: { quote: 2, contact: 1, captcha: 3 } });
  });
  afterAll(async () => {
    await svc?.close();
    await catalog?.close();
  });

  it('answers quote requests over the limit with 429 and a message, storing nothing more', async () => {
    expect((await post(`${svc.url}/api/quote-requests`, validQuote())).status).toBe(201);
    expect((await post(`${svc.url}/api/quote-requests`, validQuote())).status).toBe(201);
    const res = await post(`${svc.url}/api/quote-requests`, validQuote());
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/Too many quote requests/);
    expect(await svc.store.countQuoteRequests()).toBe(2);
  });

  it('counts each client address on its own (X-Forwarded-For from the gateway on loopback)', async () => {
    const res = await post(`${svc.url}/api/quote-requests`, validQuote(), { 'x-forwarded-for': '203.0.113.7' });
    expect(res.status).toBe(201);
  });

  it('limits captchas and contact messages too', async () => {
    const c = await captcha(svc.url);
    await captcha(svc.url);
    await captcha(svc.url);
    const fourth = await fetch(`${svc.url}/api/captcha`);
    expect(fourth.status).toBe(429);
    expect(((await fourth.json()) as { message: string }).message).toMatch(/Too many/);
    expect((await post(`${svc.url}/api/contact`, contactBody(c))).status).toBe(200);
    const res = await post(`${svc.url}/api/contact`, contactBody(c));
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/Too many messages/);
  });
});
