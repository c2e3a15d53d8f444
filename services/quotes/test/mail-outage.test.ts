import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpMailer } from '@forgeline/mailer/mailer';
import { startTestSmtp, type ReceivedMail } from '@forgeline/mailer/smtp-test-server';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { eventually, post, startCatalogStub, startService, validQuote } from './harness.ts';

/*
 * Issue #19: an SMTP outage delays quote mails and loses none. Unlike outbox.test.ts (a server that answers
 * 451), here nothing listens on the SMTP port at first: every connection is refused until a real SMTP server
 * (smtp-server) starts there.
 */
describe('quote mails while the mail server is out', () => {
  let catalog: Awaited<ReturnType<typeof startCatalogStub>>;
  beforeAll(async () => {
    catalog = await startCatalogStub();
  });
  afterAll(async () => {
    await catalog?.close();
  });

  it('answers 201, keeps the mails across a restart, and delivers each once when SMTP comes back (one outage, one recovery logged per process)', async () => {
    const tmp = tempDir('quotes-mail-outage-');
    const smtpPort = await freePort();
    const received: ReceivedMail[] = [];
    const logs: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
    const mailer = () => new SmtpMailer(`smtp://127.0.0.1:${smtpPort}`, 'shop@forgeline.parts');
    const outbox = { baseDelayMs: 50, maxDelayMs: 200, pollMs: 50 };
    const count = (prefix: string) => logs.filter((l) => l.msg.startsWith(prefix)).length;
    try {
      const first = await startService({ catalogUrl: catalog.url, dataDir: tmp.dir, mailer: mailer(), logger, outbox });
      const res = await post(`${first.url}/api/quote-requests`, validQuote({ customerEmail: 'buyer@example.com' }));
      expect(res.status).toBe(201); // as always: the request is stored with its mails before the answer
      const id = res.body.id as string;
      const expected = [`<quote-${id}-buyer@forgeline.parts>`, `<quote-${id}-seller@forgeline.parts>`];
      // Refused, then retried after the backoff.
      await eventually(() => count('mail server still unreachable') >= 3); // both mails tried twice or more
      const held = await first.store.listMails(id);
      expect(held.every((m) => m.status === 'pending' && m.attempts >= 2 && /ECONNREFUSED/.test(m.lastError ?? ''))).toBe(true);
      expect(count('mail server unreachable')).toBe(1);
      // The metrics say so (#37): two mails waiting, both failing, the oldest as old as the request; attempts counted.
      const metrics = await (await fetch(`${first.url}/metrics`)).text();
      expect(metrics).toMatch(/^mail_outbox_pending\{service="quotes"\} 2$/m);
      expect(metrics).toMatch(/^mail_outbox_failing\{service="quotes"\} 2$/m);
      expect(Number(/^mail_outbox_oldest_age_seconds\{service="quotes"\} (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
      expect(Number(/^mail_send_attempts_total\{service="quotes",outcome="unreachable"\} (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(4);
      await first.close({ keepData: true });

      // A new process on the same data, the mail server still out: it says so once, and keeps retrying.
      const second = await startService({ catalogUrl: catalog.url, dataDir: tmp.dir, mailer: mailer(), logger, outbox });
      try {
        await eventually(() => count('mail server unreachable') === 2);
        const smtp = await startTestSmtp(received, smtpPort);
        try {
          await eventually(async () => (await second.store.outboxCounts()).pending === 0);
          await second.outbox.flush();
          expect(received.map((m) => m.messageId).sort()).toEqual([...expected].sort());
          expect(await second.store.outboxCounts()).toEqual({ pending: 0, sent: 2 });
          expect(count('mail server reachable again')).toBe(1);
          expect(await (await fetch(`${second.url}/metrics`)).text()).toMatch(/^mail_outbox_pending\{service="quotes"\} 0$/m);
          expect(count('mail server unreachable')).toBe(2); // once per process, not once per attempt
        } finally {
          await smtp.stop();
        }
      } finally {
        await second.close({ keepData: true });
      }
    } finally {
      tmp.remove();
    }
  }, 60_000);
});
