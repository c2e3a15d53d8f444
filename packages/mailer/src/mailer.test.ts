import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from './smtp-test-server.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, DevMailbox, SmtpMailer } from './mailer.ts';

describe('DevMailbox', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mailer-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes an RFC 822 .eml file named by time, recipient and short id, and logs the subject', async () => {
    const logs: { obj: object; msg: string }[] = [];
    const box = new DevMailbox(path.join(dir, 'a'), 'Shop <shop@example.com>', { info: (obj, msg) => logs.push({ obj, msg }) });
    await box.send({ to: 'buyer@example.com', subject: 'Hello ✅', text: 'plain body', html: '<p>html body</p>', replyTo: 'sales@example.com' });
    const files = await readdir(path.join(dir, 'a'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z-buyer@example\.com-[0-9a-f]{16}\.eml$/);
    const eml = await readFile(path.join(dir, 'a', files[0]!), 'utf8');
    expect(eml).toMatch(/^From: Shop <shop@example.com>$/m);
    expect(eml).toMatch(/^To: buyer@example.com$/m);
    expect(eml).toMatch(/^Reply-To: sales@example.com$/m);
    expect(eml).toMatch(/^Subject: /m);
    expect(eml).toContain('plain body');
    expect(eml).toContain('multipart/alternative');
    expect(logs.some((l) => (l.obj as { subject?: string }).subject === 'Hello ✅')).toBe(true);
  });

  it('writes a message with a given Message-ID once, even from a new mailbox over the same folder (a restart)', async () => {
    const folder = path.join(dir, 'b');
    const msg = { to: 'x@example.com', subject: 's', text: 't', messageId: '<quote-1-buyer@forgeline.parts>' };
    await new DevMailbox(folder, 'a@example.com').send(msg);
    await new DevMailbox(folder, 'a@example.com').send(msg);
    const again = new DevMailbox(folder, 'a@example.com');
    await again.send(msg);
    await again.send({ ...msg, messageId: '<quote-2-buyer@forgeline.parts>' });
    const files = await readdir(folder);
    expect(files).toHaveLength(2);
    const first = await readFile(path.join(folder, files.sort()[0]!), 'utf8');
    expect(first).toMatch(/^Message-ID: <quote-[12]-buyer@forgeline.parts>$/m);
  });

  it('is chosen by createMailer when SMTP_URL is not set, under DATA_DIR/mail', () => {
    const m = createMailer({ DATA_DIR: dir, MAIL_FROM: 'a@example.com' });
    expect(m).toBeInstanceOf(DevMailbox);
    expect((m as DevMailbox).dir).toBe(path.join(dir, 'mail'));
  });
});

describe('SmtpMailer against a real SMTP server', () => {
  const received: ReceivedMail[] = [];
  let server: TestSmtp;
  let url: string;

  beforeAll(async () => {
    server = await startTestSmtp(received);
    url = server.url;
  });
  afterAll(() => server.stop());

  it('delivers the message with its envelope, subject, bodies and Message-ID', async () => {
    const mailer = new SmtpMailer(url, 'Forgeline <no-reply@forgeline.parts>');
    await mailer.send({
      to: 'buyer@example.com',
      subject: 'Your quote',
      text: 'text body',
      html: '<b>html body</b>',
      replyTo: 'sales@forgeline.parts',
      messageId: '<m-1@forgeline.parts>',
    });
    mailer.close();
    expect(received).toHaveLength(1);
    const got = received[0]!;
    expect(got.from).toBe('no-reply@forgeline.parts');
    expect(got.to).toEqual(['buyer@example.com']);
    expect(got.data).toMatch(/^Subject: Your quote\r?$/m);
    expect(got.data).toMatch(/^Message-ID: <m-1@forgeline.parts>\r?$/m);
    expect(got.data).toMatch(/^Reply-To: sales@forgeline.parts\r?$/m);
    expect(got.data).toContain('text body');
    expect(got.data).toContain('<b>html body</b>');
  });

  it('rejects when the server refuses the message, so the caller can retry', async () => {
    const refusing = await startTestSmtp([], 0, { code: 451, message: 'mailbox busy, try later' });
    const mailer = new SmtpMailer(refusing.url, 'a@example.com');
    await expect(mailer.send({ to: 'b@example.com', subject: 's', text: 't' })).rejects.toThrow(/451|busy/);
    mailer.close();
    await refusing.stop();
  });

  it('is chosen by createMailer when SMTP_URL is set', () => {
    const m = createMailer({ DATA_DIR: '/nonexistent', MAIL_FROM: 'a@example.com', SMTP_URL: url });
    expect(m).toBeInstanceOf(SmtpMailer);
    (m as SmtpMailer).close();
  });
});
