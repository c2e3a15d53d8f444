import { describe, expect, it } from 'vitest';
import { freePort } from '@forgeline/test-support/net';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { SmtpMailer } from './mailer.ts';
import { isServerOutage } from './outbox.ts';

const msg = { to: 'b@example.com', subject: 's', text: 't' };

async function refusingServer(code: number) {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onRcptTo(_a, _s, cb) {
      cb(Object.assign(new Error(`refused with ${code}`), { responseCode: code }));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function failureOf(mailer: SmtpMailer): Promise<unknown> {
  try {
    await mailer.send(msg);
  } catch (err) {
    return err;
  } finally {
    mailer.close();
  }
  throw new Error('the send did not fail');
}

describe('isServerOutage (what the outbox logs once per outage)', () => {
  it('calls a refused connection an outage of the mail server', async () => {
    const err = await failureOf(new SmtpMailer(`smtp://127.0.0.1:${await freePort()}`, 'a@example.com'));
    expect(isServerOutage(err)).toBe(true);
  });

  it('calls a 421 "service not available" an outage, and a 451 or 550 about one mail not', async () => {
    for (const [code, outage] of [[421, true], [451, false], [550, false]] as const) {
      const server = await refusingServer(code);
      const err = await failureOf(new SmtpMailer(server.url, 'a@example.com'));
      expect((err as { responseCode?: number }).responseCode).toBe(code);
      expect(isServerOutage(err), String(code)).toBe(outage);
      await server.close();
    }
  });
});
