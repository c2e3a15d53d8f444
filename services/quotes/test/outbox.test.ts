import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { tempDir } from '@forgeline/test-support/net';
import { SmtpMailer } from '@forgeline/mailer/mailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, post, startCatalogStub, startService, validQuote } from './harness.ts';

/** A real SMTP server that refuses mail (451, "try later") while `rejectsLeft` > 0, then takes it. */
async function startFlakySmtp() {
  const state = { rejectsLeft: 0, rejected: 0, received: [] as string[] };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onRcptTo(_address, _session, cb) {
      if (state.rejectsLeft > 0) {
        state.rejectsLeft--;
        state.rejected++;
        cb(Object.assign(new Error('Mailbox temporarily unavailable, try again later'), { responseCode: 451 }));
        return;
      }
      cb();
    },
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '(none)';
        state.received.push(id);
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    state,
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const count = (list: string[]) => list.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());

describe('mail outbox against a real SMTP server that fails, then recovers', () => {
  let catalog: Awaited<ReturnType<typeof startCatalogStub>>;
  let smtp: Awaited<ReturnType<typeof startFlakySmtp>>;
  beforeAll(async () => {
    catalog = await startCatalogStub();
    smtp = await startFlakySmtp();
  });
  afterAll(async () => {
    await smtp?.close();
    await catalog?.close();
  });

  it('retries with backoff and delivers every mail exactly once, none lost across a restart', async () => {
    smtp.state.received = [];
    smtp.state.rejectsLeft = Number.MAX_SAFE_INTEGER; // the mail server is down for now
    const tmp = tempDir('quotes-outbox-');
    try {
      const first = await startService({ catalogUrl: catalog.url, dataDir: tmp.dir, mailer: new SmtpMailer(smtp.url, 'shop@forgeline.parts') });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await post(`${first.url}/api/quote-requests`, validQuote({ customerEmail: `buyer${i}@example.com` }));
        expect(res.status).toBe(201); // accepted although no mail can go out: the request is stored first
        ids.push(res.body.id);
      }
      const captcha = (await (await fetch(`${first.url}/api/captcha`)).json()) as { num1: number; num2: number; token: string };
      const contact = await post(`${first.url}/api/contact`, {
        name: 'Grace',
        email: 'grace@example.com',
        message: 'Hello',
        captchaAnswer: captcha.num1 + captcha.num2,
        captchaToken: captcha.token,
      });
      expect(contact.status).toBe(200);
      // every mail has been tried and refused at least twice (so it went through the backoff) ...
      await eventually(async () => (await first.store.listMails()).every((m) => m.attempts >= 2));
      const beforeRestart = await first.store.listMails();
      expect(beforeRestart).toHaveLength(11);
      expect(beforeRestart.every((m) => m.status === 'pending' && m.lastError?.includes('try again later'))).toBe(true);
      expect(smtp.state.received).toEqual([]);
      // ... then the service stops with all of it unsent,
      await first.close({ keepData: true });

      // the mail server recovers after a few more refusals, and a new process on the same data resumes.
      smtp.state.rejectsLeft = 3;
      const second = await startService({ catalogUrl: catalog.url, dataDir: tmp.dir, mailer: new SmtpMailer(smtp.url, 'shop@forgeline.parts') });
      try {
        await eventually(async () => (await second.store.outboxCounts()).pending === 0);
        const expected = [
          ...ids.flatMap((id) => [`<quote-${id}-buyer@forgeline.parts>`, `<quote-${id}-seller@forgeline.parts>`]),
          ...(await second.store.listMails()).filter((m) => m.id.startsWith('contact-')).map((m) => `<${m.id}@forgeline.parts>`),
        ];
        expect(expected).toHaveLength(11);
        const got = count(smtp.state.received);
        expect([...got.keys()].sort()).toEqual([...expected].sort());
        expect([...got.values()].every((n) => n === 1)).toBe(true);
        expect(await second.store.outboxCounts()).toEqual({ pending: 0, sent: 11 });
        expect(smtp.state.rejected).toBeGreaterThanOrEqual(22 + 3);
      } finally {
        await second.close({ keepData: true });
      }
    } finally {
      tmp.remove();
    }
  });

  it('resumes mail whose claimer died before sending, once its lease ends', async () => {
    smtp.state.received = [];
    smtp.state.rejectsLeft = 0;
    const tmp = tempDir('quotes-outbox-');
    try {
      // A service with the mail server down stores a request, then "dies" holding a lease on its mails.
      smtp.state.rejectsLeft = Number.MAX_SAFE_INTEGER;
      const dead = await startService({
        catalogUrl: catalog.url,
        dataDir: tmp.dir,
        mailer: new SmtpMailer(smtp.url, 'shop@forgeline.parts'),
        outbox: { pollMs: 60_000, baseDelayMs: 60_000 },
      });
      await dead.outbox.stop();
      const res = await post(`${dead.url}/api/quote-requests`, validQuote());
      expect(res.status).toBe(201);
      const held = await dead.store.claimDueMails(new Date(), 10, 300);
      expect(held).toHaveLength(2);
      await dead.close({ keepData: true });

      smtp.state.rejectsLeft = 0;
      const next = await startService({ catalogUrl: catalog.url, dataDir: tmp.dir, mailer: new SmtpMailer(smtp.url, 'shop@forgeline.parts') });
      try {
        await eventually(async () => (await next.store.outboxCounts()).pending === 0);
        expect(smtp.state.received.sort()).toEqual([`<quote-${res.body.id}-buyer@forgeline.parts>`, `<quote-${res.body.id}-seller@forgeline.parts>`]);
      } finally {
        await next.close({ keepData: true });
      }
    } finally {
      tmp.remove();
    }
  });
});
