import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /**
   * A stable RFC 5322 Message-ID such as `<quote-123-buyer@forgeline.parts>`. Optional; when given, a retry
   * after a crash carries the same id (mail clients fold duplicates) and the dev mailbox writes it only once.
   */
  messageId?: string;
  /** Files sent with it (a quote's PDF), base64 so that the message stays JSON in an outbox. */
  attachments?: { filename: string; contentType: string; content: string; encoding: 'base64' }[];
}

/** The mail port shared by the quotes and auth services. */
export interface Mailer {
  send(msg: MailMessage): Promise<void>;
}

/** The part of a pino logger the mailers use. */
export interface MailLogger {
  info(obj: object, msg: string): void;
}

export interface MailerConfig {
  SMTP_URL?: string;
  MAIL_FROM: string;
  DATA_DIR: string;
}

export const DEFAULT_MAIL_FROM = 'Forgeline Parts <no-reply@forgeline.parts>';

/** SMTP through nodemailer. SMTP_URL is a nodemailer connection URL: smtp://user:pass@host:587, smtps://.... */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    // Short timeouts: a hung mail server must fail the attempt (the outbox retries it), not hold it for minutes.
    this.transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  }
  async send(msg: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...msg });
  }
  close(): void {
    this.transport.close();
  }
}

/**
 * The dev mailbox: each message becomes an RFC 822 `.eml` file under `<dir>`, named
 * `<iso-time>-<to>-<short id>.eml`, and its subject is logged. A message with a messageId the mailbox already
 * holds is not written again, so retries after a crash never duplicate a file.
 */
export class DevMailbox implements Mailer {
  private readonly builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  private known: Promise<Set<string>> | undefined;

  constructor(
    readonly dir: string,
    private readonly from: string,
    private readonly logger?: MailLogger,
  ) {}

  private async knownIds(): Promise<Set<string>> {
    return (this.known ??= (async () => {
      await mkdir(this.dir, { recursive: true });
      const ids = new Set<string>();
      for (const name of await readdir(this.dir)) {
        const m = /-([0-9a-f]{16})\.eml$/.exec(name);
        if (m) ids.add(m[1]!);
      }
      return ids;
    })());
  }

  async send(msg: MailMessage): Promise<void> {
    const known = await this.knownIds();
    const shortId = msg.messageId
      ? createHash('sha256').update(msg.messageId).digest('hex').slice(0, 16)
      : randomBytes(8).toString('hex');
    if (known.has(shortId)) {
      this.logger?.info({ to: msg.to, messageId: msg.messageId }, 'dev mailbox: message already written, skipped');
      return;
    }
    known.add(shortId);
    try {
      const info = await this.builder.sendMail({ from: this.from, ...msg });
      const time = new Date().toISOString().replace(/[:.]/g, '-');
      const to = msg.to.replace(/[^\w@.+-]/g, '_').slice(0, 80);
      const file = path.join(this.dir, `${time}-${to}-${shortId}.eml`);
      await writeFile(file, info.message as Buffer, { flag: 'wx' });
      this.logger?.info({ to: msg.to, subject: msg.subject, file }, 'dev mailbox: message written');
    } catch (err) {
      known.delete(shortId);
      throw err;
    }
  }
}

/** SMTP when SMTP_URL is set, otherwise the dev mailbox under DATA_DIR/mail. */
export function createMailer(config: MailerConfig, logger?: MailLogger): Mailer {
  if (config.SMTP_URL) {
    logger?.info({ smtp: redact(config.SMTP_URL) }, 'mail goes out through SMTP');
    return new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  }
  const dir = path.join(config.DATA_DIR, 'mail');
  logger?.info({ dir }, 'SMTP_URL not set: mail is written to the dev mailbox');
  return new DevMailbox(dir, config.MAIL_FROM, logger);
}

/** smtp://user:secret@host -> smtp://user:***@host, for logs. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable SMTP_URL)';
  }
}
