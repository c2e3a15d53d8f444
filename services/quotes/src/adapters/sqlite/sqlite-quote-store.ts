import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ContactMessage, QuoteRequest } from '@forgeline/contracts/quotes';
import type { MailMessage } from '@forgeline/mailer/mailer';
import type { OutboxEntry, OutboxMail, QuoteStore } from '../../ports.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS quote_requests (
  id TEXT PRIMARY KEY,
  product_id TEXT NOT NULL,
  product_name TEXT NOT NULL,
  product_sku TEXT NOT NULL,
  customer_name TEXT NOT NULL,
  customer_email TEXT NOT NULL,
  customer_phone TEXT NOT NULL,
  customer_country TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  message TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS contact_messages (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  country_code TEXT NOT NULL,
  phone TEXT NOT NULL,
  subject TEXT NOT NULL,
  message TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
  id TEXT PRIMARY KEY,
  ref_id TEXT NOT NULL,
  message TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  lease_until INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  sent_at INTEGER
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS outbox_ref ON outbox (ref_id);
CREATE TABLE IF NOT EXISTS captcha_used (
  id TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS captcha_used_expiry ON captcha_used (expires_at);
`;

interface OutboxRow {
  id: string;
  ref_id: string;
  message: string;
  status: 'pending' | 'sent';
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  sent_at: number | null;
}

interface QuoteRow {
  id: string;
  product_id: string;
  product_name: string;
  product_sku: string;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  customer_country: string;
  quantity: number;
  message: string;
  status: string;
  created_at: string;
}

interface ContactRow {
  id: string;
  name: string;
  email: string;
  country_code: string;
  phone: string;
  subject: string;
  message: string;
  created_at: string;
}

const toEntry = (r: OutboxRow): OutboxEntry => ({
  id: r.id,
  refId: r.ref_id,
  message: JSON.parse(r.message) as MailMessage,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: new Date(r.next_attempt_at),
  lastError: r.last_error,
  sentAt: r.sent_at === null ? null : new Date(r.sent_at),
});

/**
 * Quotes storage in one SQLite file (WAL), through two connections:
 * - `durable` (synchronous=FULL) writes records with their outbox rows, one transaction each, so a request answered
 *   201 survives a power cut. Saves arriving together are group-committed: one fsync for the batch, each save in
 *   its own savepoint so one failing does not fail the others.
 * - `fast` (synchronous=NORMAL) claims and marks mails and records used captcha tokens. Its commits survive a
 *   process crash; a power cut may lose the last few (a mail marked sent would be sent again with the same
 *   Message-ID, a captcha token could be used once more within its 10 minutes).
 */
export class SqliteQuoteStore implements QuoteStore {
  private readonly db: Database.Database;
  private readonly fast: Database.Database;
  private pruneAt = 0;
  private pending: { run: () => void; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private flushScheduled = false;

  constructor(file: string) {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    this.fast = file === ':memory:' ? this.db : new Database(file);
    this.fast.pragma('synchronous = NORMAL');
    this.fast.pragma('busy_timeout = 5000');
  }

  /** Runs `run` in a transaction committed with the other saves of this tick. */
  private save(run: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ run, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush() {
    this.flushScheduled = false;
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    const errors: unknown[] = [];
    try {
      this.db.transaction(() => {
        batch.forEach((item, i) => {
          try {
            this.db.transaction(item.run)(); // nested: a SAVEPOINT, rolled back alone on error
          } catch (err) {
            errors[i] = err;
          }
        });
      })();
    } catch (err) {
      for (const item of batch) item.reject(err);
      return;
    }
    batch.forEach((item, i) => (errors[i] === undefined ? item.resolve() : item.reject(errors[i])));
  }

  static inDataDir(dataDir: string) {
    return new SqliteQuoteStore(path.join(dataDir, 'quotes.sqlite'));
  }

  private insertMails(mails: OutboxMail[], now: number) {
    const stmt = this.db.prepare(
      'INSERT INTO outbox (id, ref_id, message, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    for (const m of mails) stmt.run(m.id, m.refId, JSON.stringify(m.message), now, now);
  }

  async saveQuoteRequest(q: QuoteRequest, mails: OutboxMail[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO quote_requests (id, product_id, product_name, product_sku, customer_name, customer_email,
         customer_phone, customer_country, quantity, message, status, created_at)
       VALUES (@id, @productId, @productName, @productSku, @customerName, @customerEmail,
         @customerPhone, @customerCountry, @quantity, @message, @status, @createdAt)`,
    );
    await this.save(() => {
      insert.run(q);
      this.insertMails(mails, Date.now());
    });
  }

  async saveContactMessage(c: ContactMessage, mails: OutboxMail[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO contact_messages (id, name, email, country_code, phone, subject, message, created_at)
       VALUES (@id, @name, @email, @countryCode, @phone, @subject, @message, @createdAt)`,
    );
    await this.save(() => {
      insert.run(c);
      this.insertMails(mails, Date.now());
    });
  }

  async getQuoteRequest(id: string): Promise<QuoteRequest | null> {
    const r = this.db.prepare('SELECT * FROM quote_requests WHERE id = ?').get(id) as QuoteRow | undefined;
    if (!r) return null;
    return {
      id: r.id,
      productId: r.product_id,
      productName: r.product_name,
      productSku: r.product_sku,
      customerName: r.customer_name,
      customerEmail: r.customer_email,
      customerPhone: r.customer_phone,
      customerCountry: r.customer_country,
      quantity: r.quantity,
      message: r.message,
      status: r.status,
      createdAt: r.created_at,
    };
  }

  async getContactMessage(id: string): Promise<ContactMessage | null> {
    const r = this.db.prepare('SELECT * FROM contact_messages WHERE id = ?').get(id) as ContactRow | undefined;
    if (!r) return null;
    return {
      id: r.id,
      name: r.name,
      email: r.email,
      countryCode: r.country_code,
      phone: r.phone,
      subject: r.subject,
      message: r.message,
      createdAt: r.created_at,
    };
  }

  async countQuoteRequests(): Promise<number> {
    return (this.db.prepare('SELECT count(*) AS n FROM quote_requests').get() as { n: number }).n;
  }

  async countContactMessages(): Promise<number> {
    return (this.db.prepare('SELECT count(*) AS n FROM contact_messages').get() as { n: number }).n;
  }

  async useCaptchaToken(id: string, expiresAt: Date): Promise<boolean> {
    const now = Date.now();
    if (now >= this.pruneAt) {
      this.fast.prepare('DELETE FROM captcha_used WHERE expires_at < ?').run(now);
      this.pruneAt = now + 60_000;
    }
    const r = this.fast.prepare('INSERT OR IGNORE INTO captcha_used (id, expires_at) VALUES (?, ?)').run(id, expiresAt.getTime());
    return r.changes === 1;
  }

  async claimDueMails(now: Date, limit: number, leaseMs: number): Promise<OutboxEntry[]> {
    const t = now.getTime();
    const select = this.fast.prepare(
      `SELECT * FROM outbox WHERE status = 'pending' AND next_attempt_at <= ? AND lease_until <= ?
       ORDER BY next_attempt_at, id LIMIT ?`,
    );
    const lease = this.fast.prepare('UPDATE outbox SET lease_until = ?, attempts = attempts + 1 WHERE id = ?');
    // IMMEDIATE: the write lock is taken before the read, so two processes never claim the same row.
    return this.fast
      .transaction(() => {
        const rows = select.all(t, t, limit) as OutboxRow[];
        for (const r of rows) lease.run(t + leaseMs, r.id);
        return rows.map((r) => toEntry({ ...r, attempts: r.attempts + 1 }));
      })
      .immediate();
  }

  async markSent(id: string, at: Date): Promise<void> {
    this.fast
      .prepare(`UPDATE outbox SET status = 'sent', sent_at = ?, lease_until = 0, last_error = NULL WHERE id = ?`)
      .run(at.getTime(), id);
  }

  async markFailed(id: string, nextAttemptAt: Date, error: string): Promise<void> {
    this.fast
      .prepare(`UPDATE outbox SET next_attempt_at = ?, lease_until = 0, last_error = ? WHERE id = ? AND status = 'pending'`)
      .run(nextAttemptAt.getTime(), error.slice(0, 500), id);
  }

  async listMails(refId?: string): Promise<OutboxEntry[]> {
    const rows = (
      refId === undefined
        ? this.db.prepare('SELECT * FROM outbox ORDER BY created_at, id').all()
        : this.db.prepare('SELECT * FROM outbox WHERE ref_id = ? ORDER BY created_at, id').all(refId)
    ) as OutboxRow[];
    return rows.map(toEntry);
  }

  async outboxCounts(): Promise<{ pending: number; sent: number }> {
    const rows = this.db.prepare('SELECT status, count(*) AS n FROM outbox GROUP BY status').all() as { status: string; n: number }[];
    return {
      pending: rows.find((r) => r.status === 'pending')?.n ?? 0,
      sent: rows.find((r) => r.status === 'sent')?.n ?? 0,
    };
  }

  async ping(): Promise<boolean> {
    return this.db.open;
  }

  async close(): Promise<void> {
    if (this.pending.length) this.flush();
    if (this.fast !== this.db && this.fast.open) this.fast.close();
    if (this.db.open) this.db.close();
  }
}
