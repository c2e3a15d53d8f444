import type { OutboxBacklog } from '@forgeline/mailer/outbox';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ContactMessage, QuoteLine, QuoteRequest } from '@forgeline/contracts/quotes';
import type { MailMessage } from '@forgeline/mailer/mailer';
import type { InboxEvent, InboxItem, InboxLine, InboxStats, InboxStatus } from '@forgeline/contracts/quote-inbox';
import { INBOX_STATUSES } from '@forgeline/contracts/quote-inbox';
import { ORDER_STATUSES } from '@forgeline/contracts/orders';
import { DAY_MS, inboxFromContact, inboxFromQuote, inboxSearchText, median, searchTerms } from '../../domain/inbox.ts';
import { anonymisedEvent, anonymisedNote, anonymisedOrder, anonymisedRequest, redactedMail } from '../../domain/company-history.ts';
import { orderNumber, orderSearchText } from '../../domain/orders.ts';
import type {
  CaptchaTake,
  ClaimedDelivery,
  ConfirmationQuota,
  DeliveryResult,
  ExpiringQuote,
  InboxChange,
  InboxFilter,
  InboxPage,
  InboxRecord,
  OrderChange,
  OrderFilter,
  OrderPage,
  OrderRecord,
  OrderStatus,
  OutboxEntry,
  OutboxMail,
  QuoteLink,
  QuoteStore,
  WebhookEmit,
  WebhookEndpointRecord,
} from '../../ports.ts';
import type { WebhookDelivery, WebhookEvent } from '@forgeline/contracts/webhooks';

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
  created_at TEXT NOT NULL,
  lines TEXT
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
-- Captcha challenges: the expected sum under the SHA-256 of the opaque token; used = 1 once checked.
CREATE TABLE IF NOT EXISTS captcha_challenges (
  key TEXT PRIMARY KEY,
  answer INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS captcha_challenges_expiry ON captcha_challenges (expires_at);
-- The used ids of the signed tokens that came before (their numbers were in the token): no longer read.
DROP TABLE IF EXISTS captcha_used;
-- Buyer confirmations queued per recipient (a hash of the normalised address) and UTC day.
CREATE TABLE IF NOT EXISTS mail_quota (
  recipient TEXT NOT NULL,
  day TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (recipient, day)
);
CREATE TABLE IF NOT EXISTS inbox (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  assignee TEXT,
  version INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  first_reply_at TEXT,
  customer_name TEXT NOT NULL,
  customer_email TEXT NOT NULL,
  email_domain TEXT NOT NULL,
  customer_phone TEXT NOT NULL,
  country TEXT NOT NULL,
  subject TEXT NOT NULL,
  message TEXT NOT NULL,
  lines TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS inbox_created ON inbox (created_at, id);
CREATE INDEX IF NOT EXISTS inbox_status ON inbox (status, created_at);
CREATE INDEX IF NOT EXISTS inbox_assignee ON inbox (assignee, created_at);
CREATE INDEX IF NOT EXISTS inbox_kind ON inbox (kind, created_at);
CREATE INDEX IF NOT EXISTS inbox_replied ON inbox (first_reply_at);
-- The per-status counts under the kind and assignee filters, read from the index alone.
CREATE INDEX IF NOT EXISTS inbox_kind_assignee_status ON inbox (kind, assignee, status);
CREATE INDEX IF NOT EXISTS inbox_assignee_status ON inbox (assignee, status);
-- How many entries per kind, assignee ('' for nobody) and status, kept with every insert and change: the per-status
-- counts of the tab's usual views (everything, a kind, an assignee) without counting 100,000 rows each time.
CREATE TABLE IF NOT EXISTS inbox_tally (kind TEXT NOT NULL, assignee TEXT NOT NULL, status TEXT NOT NULL, n INTEGER NOT NULL,
  PRIMARY KEY (kind, assignee, status));
-- Word search with prefixes ("okaf", "1r-07" as the words 1r + 07...); contentless: the text never changes once
-- stored. (A trigram index found substrings too, but a search of two common words took 50-75 ms at 100,000 entries.)
DROP TABLE IF EXISTS inbox_fts;
DROP TABLE IF EXISTS inbox_counts;
CREATE VIRTUAL TABLE IF NOT EXISTS inbox_words USING fts5(text, content='', tokenize='unicode61', prefix='2 3');
CREATE TABLE IF NOT EXISTS inbox_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  item_id TEXT NOT NULL,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  type TEXT NOT NULL,
  from_value TEXT,
  to_value TEXT,
  text TEXT,
  reply TEXT
);
CREATE INDEX IF NOT EXISTS inbox_events_item ON inbox_events (item_id, seq);
-- The buyers' quote links: the SHA-256 of each token, never the token.
CREATE TABLE IF NOT EXISTS quote_links (
  token_hash TEXT PRIMARY KEY,
  quote_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS quote_links_quote ON quote_links (quote_id);
-- Orders: one per request at most (an accept), numbered per year from order_counters (nextOrderNumber).
CREATE TABLE IF NOT EXISTS orders (
  id TEXT PRIMARY KEY,
  number TEXT NOT NULL UNIQUE,
  quote_id TEXT NOT NULL UNIQUE,
  quote_version INTEGER NOT NULL,
  status TEXT NOT NULL,
  po_number TEXT NOT NULL,
  delivery TEXT NOT NULL,
  note TEXT NOT NULL,
  lines TEXT NOT NULL,
  customer_name TEXT NOT NULL,
  customer_email TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_created ON orders (created_at, id);
CREATE INDEX IF NOT EXISTS orders_status ON orders (status, created_at, id);
CREATE TABLE IF NOT EXISTS order_counters (year TEXT PRIMARY KEY, n INTEGER NOT NULL);
-- Webhooks for the seller's ERP: the endpoints (a removed one keeps its row for its deliveries' history) and the
-- deliveries, one per endpoint and event, written with the change that caused them and sent by the webhook outbox.
CREATE TABLE IF NOT EXISTS webhook_endpoints (
  id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  description TEXT NOT NULL,
  secret TEXT NOT NULL,
  created_at TEXT NOT NULL,
  deleted_at TEXT
);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id TEXT PRIMARY KEY,
  endpoint_id TEXT NOT NULL,
  event TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  lease_until INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  last_attempt_at TEXT,
  response_status INTEGER,
  response TEXT NOT NULL DEFAULT '',
  error TEXT
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at);
CREATE INDEX IF NOT EXISTS webhook_deliveries_created ON webhook_deliveries (created_at);
`;

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event: WebhookEvent;
  body: string;
  status: WebhookDelivery['status'];
  attempts: number;
  next_attempt_at: number;
  created_at: string;
  last_attempt_at: string | null;
  response_status: number | null;
  response: string;
  error: string | null;
}

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  endpointId: r.endpoint_id,
  event: r.event,
  status: r.status,
  attempts: r.attempts,
  createdAt: r.created_at,
  lastAttemptAt: r.last_attempt_at,
  nextAttemptAt: r.status === 'pending' ? new Date(r.next_attempt_at).toISOString() : null,
  responseStatus: r.response_status,
  response: r.response,
  error: r.error,
});

interface OrderRow {
  id: string;
  number: string;
  quote_id: string;
  quote_version: number;
  status: OrderRecord['status'];
  po_number: string;
  delivery: string;
  note: string;
  lines: string;
  customer_name: string;
  customer_email: string;
  created_at: string;
  updated_at: string;
  version: number;
  shipment: string | null;
  cancel_reason: string | null;
  po_document: string | null;
}

const toOrder = (r: OrderRow): OrderRecord => ({
  id: r.id,
  number: r.number,
  quoteId: r.quote_id,
  quoteVersion: r.quote_version,
  status: r.status,
  poNumber: r.po_number,
  poDocument: r.po_document ? (JSON.parse(r.po_document) as OrderRecord['poDocument']) : null,
  delivery: JSON.parse(r.delivery) as OrderRecord['delivery'],
  note: r.note,
  lines: JSON.parse(r.lines) as OrderRecord['lines'],
  customerName: r.customer_name,
  customerEmail: r.customer_email,
  shipment: r.shipment ? (JSON.parse(r.shipment) as OrderRecord['shipment']) : null,
  cancelReason: r.cancel_reason,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  version: r.version,
});

interface InboxRow {
  id: string;
  kind: 'quote' | 'contact';
  status: InboxStatus;
  assignee: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  first_reply_at: string | null;
  customer_name: string;
  customer_email: string;
  email_domain: string;
  customer_phone: string;
  country: string;
  subject: string;
  message: string;
  lines: string;
}

interface EventRow {
  at: string;
  actor: string;
  type: InboxEvent['type'];
  from_value: string | null;
  to_value: string | null;
  text: string | null;
  reply: string | null;
  buyer: string | null;
}

function toRecord(r: InboxRow): InboxRecord {
  const lines = JSON.parse(r.lines) as InboxLine[];
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    emailDomain: r.email_domain,
    country: r.country,
    firstLine: lines[0] ?? null,
    lineCount: lines.length,
    subject: r.subject,
    assignee: r.assignee,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    firstReplyAt: r.first_reply_at,
    version: r.version,
    lines,
    customerPhone: r.customer_phone,
    message: r.message,
  };
}

const toEvent = (r: EventRow): InboxEvent => ({
  at: r.at,
  actor: r.actor,
  type: r.type,
  from: r.from_value,
  to: r.to_value,
  text: r.text,
  reply: r.reply ? (JSON.parse(r.reply) as InboxEvent['reply']) : null,
  ...(r.buyer ? { buyer: JSON.parse(r.buyer) as InboxEvent['buyer'] } : {}),
});

const toItem = (r: InboxRow): InboxItem => {
  const { lines: _l, customerPhone: _p, message: _m, ...item } = toRecord(r);
  return item;
};

/**
 * A search word as an FTS5 prefix phrase: its letters and digits split as the index splits them ("1R-07" → "1r 07"*,
 * the words 1r then 07-something). Null when nothing searchable is left (punctuation only).
 */
function prefixPhrase(term: string): string | null {
  const words = term.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words.length ? `"${words.join(' ')}"*` : null;
}

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
  lines: string | null;
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
 * - `fast` (synchronous=NORMAL) claims and marks mails, keeps captcha challenges and counts confirmations per
 *   recipient. Its commits survive a process crash; a power cut may lose the last few (a mail marked sent would be
 *   sent again with the same Message-ID, a captcha could be checked once more within its 10 minutes or be lost, a
 *   recipient could get a confirmation more that day).
 */
export class SqliteQuoteStore implements QuoteStore {
  private readonly db: Database.Database;
  private readonly fast: Database.Database;
  /**
   * Each entry's status by rowid (an index into INBOX_STATUSES), so a search matching a quarter of 100,000 entries is
   * counted per status from its word matches alone (5 ms) instead of by looking up every matching row (25 ms).
   * Kept by this connection's writes; reloaded when another connection has written (PRAGMA data_version).
   */
  private statusByRow: { version: number; codes: Uint8Array } | null = null;
  private pending: { run: () => unknown; resolve: (value: unknown) => void; reject: (err: unknown) => void }[] = [];
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
    // Multi-part requests (lines, JSON) came after the first databases were made.
    const addColumn = (table: string, column: string) => {
      if (!(this.db.pragma(`table_info(${table})`) as { name: string }[]).some((c) => c.name === column)) {
        this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} TEXT`);
      }
    };
    addColumn('quote_requests', 'lines');
    // The buyer's quote page (issue 34) came after that: the buyer's answers in the history, a decline's reason.
    addColumn('inbox_events', 'buyer');
    addColumn('inbox', 'lost_reason');
    addColumn('orders', 'shipment');
    addColumn('orders', 'cancel_reason');
    addColumn('orders', 'search');
    addColumn('orders', 'po_document');
    addColumn('inbox', 'valid_until');
    this.db.exec('CREATE INDEX IF NOT EXISTS inbox_expiring ON inbox (status, valid_until)');
    // A buyer company's requests and orders (issue 35), by address whatever its case.
    // Covering the list's filter and order, so a page is sorted from the index alone and only its rows are read.
    this.db.exec('CREATE INDEX IF NOT EXISTS inbox_by_buyer ON inbox (lower(customer_email), created_at, id, kind, status)');
    this.db.exec('CREATE INDEX IF NOT EXISTS orders_by_buyer ON orders (lower(customer_email), created_at, id)');
    this.backfillInbox();
  }

  /** Requests stored before the inbox existed get their entries (once; a no-op afterwards). */
  private backfillInbox() {
    this.db.transaction(() => {
      if (this.db.prepare('SELECT count(*) FROM inbox_tally').pluck().get() === 0) {
        this.db.exec(`INSERT INTO inbox_tally (kind, assignee, status, n) SELECT kind, coalesce(assignee, ''), status, count(*) FROM inbox GROUP BY 1, 2, 3`);
      }
      // (Re)build the word index when it is new: entries stored before it existed.
      if (this.db.prepare('SELECT count(*) FROM inbox_words').pluck().get() === 0) {
        const add = this.db.prepare('INSERT INTO inbox_words (rowid, text) VALUES (?, ?)');
        const batch = this.db.prepare('SELECT rowid AS rid, * FROM inbox WHERE rowid > ? ORDER BY rowid LIMIT 2000');
        // In batches read whole: better-sqlite3 allows no write while a statement is still being iterated.
        for (let after = 0, rows = batch.all(after) as (InboxRow & { rid: number })[]; rows.length; rows = batch.all(after) as (InboxRow & { rid: number })[]) {
          for (const row of rows) add.run(row.rid, inboxSearchText(toRecord(row)));
          after = rows[rows.length - 1]!.rid;
        }
      }
    })();
    const quotes = this.db.prepare('SELECT id FROM quote_requests WHERE id NOT IN (SELECT id FROM inbox)').pluck().all() as string[];
    const contacts = this.db.prepare('SELECT id FROM contact_messages WHERE id NOT IN (SELECT id FROM inbox)').pluck().all() as string[];
    if (!quotes.length && !contacts.length) return;
    this.db.transaction(() => {
      for (const id of quotes) this.insertInbox(inboxFromQuote(this.readQuote(id)!));
      for (const id of contacts) this.insertInbox(inboxFromContact(this.readContact(id)!));
    })();
  }

  private insertInbox(r: InboxRecord) {
    const info = this.db
      .prepare(
        `INSERT INTO inbox (id, kind, status, assignee, version, created_at, updated_at, first_reply_at, customer_name, customer_email,
           email_domain, customer_phone, country, subject, message, lines)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(r.id, r.kind, r.status, r.assignee, r.version, r.createdAt, r.updatedAt, r.firstReplyAt, r.customerName, r.customerEmail,
        r.emailDomain, r.customerPhone, r.country, r.subject, r.message, JSON.stringify(r.lines));
    this.db.prepare('INSERT INTO inbox_words (rowid, text) VALUES (?, ?)').run(info.lastInsertRowid, inboxSearchText(r));
    this.tally(r, 1);
    this.noteStatus(info.lastInsertRowid, r.status);
  }

  private statusCodes(): Uint8Array {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (this.statusByRow?.version !== version) {
      const max = (this.db.prepare('SELECT coalesce(max(rowid), 0) FROM inbox').pluck().get() as number) + 1;
      const codes = new Uint8Array(Math.max(1024, max * 2));
      for (const [rid, status] of this.db.prepare('SELECT rowid, status FROM inbox').raw().iterate() as Iterable<[number, InboxStatus]>) {
        codes[rid] = INBOX_STATUSES.indexOf(status) + 1;
      }
      this.statusByRow = { version, codes };
    }
    return this.statusByRow.codes;
  }

  /** Keeps statusByRow in step with this connection's own writes (they do not change data_version). */
  private noteStatus(rid: number | bigint, status: InboxStatus) {
    const m = this.statusByRow;
    if (!m) return;
    const i = Number(rid);
    if (i >= m.codes.length) {
      const grown = new Uint8Array(Math.max(i + 1, m.codes.length * 2));
      grown.set(m.codes);
      m.codes = grown;
    }
    m.codes[i] = INBOX_STATUSES.indexOf(status) + 1;
  }

  private tally(r: { kind: string; assignee: string | null; status: string }, delta: number) {
    this.db
      .prepare('INSERT INTO inbox_tally (kind, assignee, status, n) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n')
      .run(r.kind, r.assignee ?? '', r.status, delta);
  }

  /** Runs `run` in a transaction committed with the other saves of this tick. */
  private save<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ run, resolve: resolve as (value: unknown) => void, reject });
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
    const results: unknown[] = [];
    try {
      this.db.transaction(() => {
        batch.forEach((item, i) => {
          try {
            results[i] = this.db.transaction(item.run)(); // nested: a SAVEPOINT, rolled back alone on error
          } catch (err) {
            errors[i] = err;
          }
        });
      })();
    } catch (err) {
      this.statusByRow = null;
      for (const item of batch) item.reject(err);
      return;
    }
    // A save rolled back may have noted a status that never landed: statusByRow is rebuilt on its next use.
    if (errors.length) this.statusByRow = null;
    batch.forEach((item, i) => (errors[i] === undefined ? item.resolve(results[i]) : item.reject(errors[i])));
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

  async saveQuoteRequest(q: QuoteRequest, mails: OutboxMail[], confirmation?: ConfirmationQuota): Promise<{ confirmed: boolean }> {
    const insert = this.db.prepare(
      `INSERT INTO quote_requests (id, product_id, product_name, product_sku, customer_name, customer_email,
         customer_phone, customer_country, quantity, message, status, created_at, lines)
       VALUES (@id, @productId, @productName, @productSku, @customerName, @customerEmail,
         @customerPhone, @customerCountry, @quantity, @message, @status, @createdAt, @lines)`,
    );
    // The count is taken in the save's own transaction: a write of its own, on the other connection, waited for the
    // group commit's lock on every request and cost a tenth of the quotes/s.
    return this.save(() => {
      insert.run({ ...q, lines: q.lines ? JSON.stringify(q.lines) : null });
      this.insertInbox(inboxFromQuote(q));
      const confirmed = !confirmation || this.takeQuota(this.db, confirmation.recipient, confirmation.day, confirmation.limit);
      this.insertMails(confirmed ? mails : mails.filter((m) => m.id !== confirmation!.mailId), Date.now());
      return { confirmed };
    });
  }

  async saveContactMessage(c: ContactMessage, mails: OutboxMail[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO contact_messages (id, name, email, country_code, phone, subject, message, created_at)
       VALUES (@id, @name, @email, @countryCode, @phone, @subject, @message, @createdAt)`,
    );
    await this.save(() => {
      insert.run(c);
      this.insertInbox(inboxFromContact(c));
      this.insertMails(mails, Date.now());
    });
  }

  async getQuoteRequest(id: string): Promise<QuoteRequest | null> {
    return this.readQuote(id);
  }

  private readQuote(id: string): QuoteRequest | null {
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
      ...(r.lines ? { lines: JSON.parse(r.lines) as QuoteLine[] } : {}),
    };
  }

  async getContactMessage(id: string): Promise<ContactMessage | null> {
    return this.readContact(id);
  }

  private readContact(id: string): ContactMessage | null {
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

  async saveCaptcha(key: string, answer: number, expiresAt: Date): Promise<void> {
    this.fast.prepare('INSERT INTO captcha_challenges (key, answer, expires_at) VALUES (?, ?, ?)').run(key, answer, expiresAt.getTime());
  }

  async takeCaptcha(key: string): Promise<CaptchaTake> {
    // One statement: SQLite's write lock makes the first UPDATE the only one that finds used = 0.
    const row = this.fast
      .prepare('UPDATE captcha_challenges SET used = 1 WHERE key = ? AND used = 0 RETURNING answer, expires_at')
      .get(key) as { answer: number; expires_at: number } | undefined;
    if (row) return { answer: row.answer, expiresAt: new Date(row.expires_at) };
    return this.fast.prepare('SELECT 1 FROM captcha_challenges WHERE key = ?').get(key) ? 'used' : null;
  }

  async purgeCaptchas(expiredBefore: Date): Promise<number> {
    return this.fast.prepare('DELETE FROM captcha_challenges WHERE expires_at < ?').run(expiredBefore.getTime()).changes;
  }

  async takeMailQuota(recipient: string, day: string, limit: number): Promise<boolean> {
    return this.takeQuota(this.fast, recipient, day, limit);
  }

  private readonly quotaStatements = new Map<Database.Database, Database.Statement>();

  /** An upsert that counts only below the limit: no change means none was left. Prepared once per connection. */
  private takeQuota(db: Database.Database, recipient: string, day: string, limit: number): boolean {
    if (limit < 1) return false;
    let stmt = this.quotaStatements.get(db);
    if (!stmt) {
      stmt = db.prepare('INSERT INTO mail_quota (recipient, day, n) VALUES (?, ?, 1) ON CONFLICT (recipient, day) DO UPDATE SET n = n + 1 WHERE n < ?');
      this.quotaStatements.set(db, stmt);
    }
    return stmt.run(recipient, day, limit).changes === 1;
  }

  async purgeMailQuotas(beforeDay: string): Promise<void> {
    this.fast.prepare('DELETE FROM mail_quota WHERE day < ?').run(beforeDay);
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

  async backlog(): Promise<OutboxBacklog> {
    const r = this.db
      .prepare<[], { pending: number; failing: number | null; oldest: number | null }>(
        "SELECT COUNT(*) AS pending, SUM(attempts > 0) AS failing, MIN(created_at) AS oldest FROM outbox WHERE status = 'pending'",
      )
      .get()!;
    return { pending: r.pending, failing: r.failing ?? 0, oldestAt: r.oldest === null ? null : new Date(r.oldest) };
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

  /** The search as an FTS5 query (every word, as a prefix), or null when there is nothing to search for. */
  private phrases(f: InboxFilter): string | null {
    const phrases = (f.q ? searchTerms(f.q) : []).map(prefixPhrase).filter((p): p is string => p !== null);
    return phrases.length ? phrases.join(' AND ') : null;
  }

  /** The WHERE clause of a filter (with its parameters), optionally without the status (the per-status counts). */
  private where(f: InboxFilter, withStatus = true): { sql: string; params: unknown[] } {
    const parts: string[] = [];
    const params: unknown[] = [];
    if (withStatus && f.status) (parts.push('status = ?'), params.push(f.status));
    if (f.kind) (parts.push('kind = ?'), params.push(f.kind));
    if (f.assignee === null) parts.push('assignee IS NULL');
    else if (f.assignee) (parts.push('assignee = ?'), params.push(f.assignee));
    if (f.from) (parts.push('created_at >= ?'), params.push(f.from));
    if (f.toExclusive) (parts.push('created_at < ?'), params.push(f.toExclusive));
    const phrases = this.phrases(f);
    if (phrases) (parts.push('rowid IN (SELECT rowid FROM inbox_words WHERE inbox_words MATCH ?)'), params.push(phrases));
    return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
  }

  async listInbox(f: InboxFilter, offset: number, limit: number): Promise<InboxPage> {
    const w = this.where(f);
    const c = this.where(f, false);
    // A search's word matches, counted first (a few ms): they choose how the page and the counts are read.
    const phrases = this.phrases(f);
    // A search alone is counted per status straight from its matches (countWordMatches), which also gives their number.
    const onlyWords = phrases !== null && !f.kind && f.assignee === undefined && !f.from && !f.toExclusive;
    const wordCounts = onlyWords ? this.countWordMatches(phrases) : null;
    const matches = wordCounts
      ? wordCounts.reduce((sum, r) => sum + r.n, 0)
      : phrases
        ? (this.db.prepare('SELECT count(*) FROM inbox_words WHERE inbox_words MATCH ?').pluck().get(phrases) as number)
        : null;
    const empty = matches === 0;
    // Many matches (a common word): walk the date index newest first and stop at the page, instead of reading and
    // sorting every matching row (48 ms → 7 ms for 8,000 matches of 100,000). Few: read the matches and sort them.
    const byDate = matches !== null && matches > 1_500 ? 'INDEXED BY inbox_created' : '';
    const rows = empty
      ? []
      : (this.db.prepare(`SELECT * FROM inbox ${byDate} ${w.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`).all(...w.params, limit, offset) as InboxRow[]);
    // Kind and assignee filters alone are answered from the tally; searches and date ranges count their rows (past
    // 6,000 matches through the status index, which beats looking up each matching row).
    const fromTally = !f.q && !f.from && !f.toExclusive;
    const tallyWhere = [f.kind ? 'kind = ?' : '', f.assignee !== undefined ? 'assignee = ?' : ''].filter(Boolean);
    const byStatus = (
      empty
        ? []
        : wordCounts
          ? wordCounts
          : fromTally
          ? this.db
              .prepare(`SELECT status, sum(n) AS n FROM inbox_tally ${tallyWhere.length ? `WHERE ${tallyWhere.join(' AND ')}` : ''} GROUP BY status`)
              .all(...[f.kind, f.assignee === undefined ? undefined : (f.assignee ?? '')].filter((v) => v !== undefined))
          : this.db
              .prepare(`SELECT status, count(*) AS n FROM inbox ${matches !== null && matches > 6_000 ? 'INDEXED BY inbox_status' : ''} ${c.sql} GROUP BY status`)
              .all(...c.params)
    ) as { status: InboxStatus; n: number }[];
    const counts = Object.fromEntries(INBOX_STATUSES.map((st) => [st, byStatus.find((r) => r.status === st)?.n ?? 0])) as Record<InboxStatus, number>;
    const total = f.status ? counts[f.status] : byStatus.reduce((sum, r) => sum + r.n, 0);
    return { items: rows.map(toItem), total, counts };
  }

  /** Per status, the entries a search matches, from the word index and statusByRow (see there). */
  private countWordMatches(phrases: string): { status: InboxStatus; n: number }[] {
    const codes = this.statusCodes();
    const n = new Array<number>(INBOX_STATUSES.length + 1).fill(0);
    // all() over iterate(): one call into SQLite for the 25,000 rowids of a common word, not 25,000 (22 ms → ~5 ms).
    const rids = this.db.prepare('SELECT rowid FROM inbox_words WHERE inbox_words MATCH ?').pluck().all(phrases) as number[];
    for (const rid of rids) n[codes[rid] ?? 0]!++;
    return INBOX_STATUSES.map((status, i) => ({ status, n: n[i + 1]! }));
  }

  async *exportInbox(f: InboxFilter, batchSize = 500): AsyncIterable<InboxRecord> {
    const w = this.where(f);
    // Keyset batches: each is its own short read, so a long export never holds the database.
    let after: { created: string; id: string } | null = null;
    for (;;) {
      const keyset = after ? `${w.sql ? `${w.sql} AND` : 'WHERE'} (created_at < ? OR (created_at = ? AND id < ?))` : w.sql;
      const params = after ? [...w.params, after.created, after.created, after.id] : w.params;
      const rows = this.db.prepare(`SELECT * FROM inbox ${keyset} ORDER BY created_at DESC, id DESC LIMIT ?`).all(...params, batchSize) as InboxRow[];
      for (const r of rows) yield toRecord(r);
      if (rows.length < batchSize) return;
      const last = rows[rows.length - 1]!;
      after = { created: last.created_at, id: last.id };
    }
  }

  async getInbox(id: string): Promise<InboxRecord | null> {
    const r = this.db.prepare('SELECT * FROM inbox WHERE id = ?').get(id) as InboxRow | undefined;
    return r ? toRecord(r) : null;
  }

  async inboxHistory(id: string): Promise<InboxEvent[]> {
    const rows = this.db.prepare('SELECT * FROM inbox_events WHERE item_id = ? ORDER BY seq').all(id) as EventRow[];
    return rows.map(toEvent);
  }

  async updateInbox(id: string, expectedVersion: number, change: InboxChange): Promise<InboxRecord | 'conflict' | null> {
    return this.save(() => {
      const r = this.db.prepare('SELECT * FROM inbox WHERE id = ?').get(id) as InboxRow | undefined;
      if (!r) return null;
      if (r.version !== expectedVersion) return 'conflict' as const;
      if (change.order && this.db.prepare('SELECT 1 FROM orders WHERE quote_id = ?').get(id)) return 'conflict' as const;
      const next: InboxRow = {
        ...r,
        status: change.status ?? r.status,
        assignee: change.assignee === undefined ? r.assignee : change.assignee,
        first_reply_at: r.first_reply_at ?? change.firstReplyAt ?? null,
        updated_at: change.updatedAt,
        version: r.version + 1,
      };
      this.db
        .prepare('UPDATE inbox SET status = ?, assignee = ?, first_reply_at = ?, updated_at = ?, version = ? WHERE id = ? AND version = ?')
        .run(next.status, next.assignee, next.first_reply_at, next.updated_at, next.version, id, expectedVersion);
      if (next.status !== r.status || next.assignee !== r.assignee) {
        this.tally(r, -1);
        this.tally(next, 1);
      }
      if (next.status !== r.status) this.noteStatus(this.db.prepare('SELECT rowid FROM inbox WHERE id = ?').pluck().get(id) as number, next.status);
      if (next.status !== r.status && r.kind === 'quote') this.db.prepare('UPDATE quote_requests SET status = ? WHERE id = ?').run(next.status, id);
      if (change.lostReason !== undefined) this.db.prepare('UPDATE inbox SET lost_reason = ? WHERE id = ?').run(change.lostReason, id);
      if (change.validUntil !== undefined) this.db.prepare('UPDATE inbox SET valid_until = ? WHERE id = ?').run(change.validUntil, id);
      const ev = this.db.prepare('INSERT INTO inbox_events (item_id, at, actor, type, from_value, to_value, text, reply, buyer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
      for (const e of change.events) ev.run(id, e.at, e.actor, e.type, e.from, e.to, e.text, e.reply ? JSON.stringify(e.reply) : null, e.buyer ? JSON.stringify(e.buyer) : null);
      if (change.order) this.insertOrder(change.order);
      this.insertMails(change.mails, Date.now());
      this.insertDeliveries(change.webhooks);
      return toRecord(next);
    });
  }

  async inboxStats(now: Date): Promise<InboxStats> {
    const t = now.getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    const week = (this.db.prepare(`SELECT count(*) FROM inbox WHERE kind = 'quote' AND created_at >= ?`).pluck().get(iso(t - 7 * DAY_MS)) as number) ?? 0;
    const replied = this.db
      .prepare(`SELECT created_at, first_reply_at FROM inbox WHERE first_reply_at IS NOT NULL AND created_at >= ?`)
      .all(iso(t - 90 * DAY_MS)) as { created_at: string; first_reply_at: string }[];
    const hours = median(replied.map((r) => (Date.parse(r.first_reply_at) - Date.parse(r.created_at)) / 3_600_000));
    const decided = this.db.prepare(`SELECT status, count(*) AS n FROM inbox WHERE status IN ('won', 'lost') GROUP BY status`).all() as { status: string; n: number }[];
    const won = decided.find((d) => d.status === 'won')?.n ?? 0;
    const lost = decided.find((d) => d.status === 'lost')?.n ?? 0;
    const top = this.db
      .prepare(
        `SELECT json_extract(l.value, '$.productId') AS productId, json_extract(l.value, '$.productSku') AS productSku,
           json_extract(l.value, '$.productName') AS productName, count(*) AS requests
         FROM inbox, json_each(inbox.lines) AS l
         WHERE inbox.kind = 'quote' AND inbox.created_at >= ? AND inbox.status != 'spam' AND json_extract(l.value, '$.productId') != ''
         GROUP BY productId, productSku, productName ORDER BY requests DESC, productSku LIMIT 5`,
      )
      .all(iso(t - 30 * DAY_MS)) as InboxStats['topParts'];
    return {
      requestsThisWeek: week,
      medianHoursToFirstReply: hours === null ? null : Math.round(hours * 10) / 10,
      shareWon: won + lost ? Math.round((won / (won + lost)) * 1000) / 1000 : null,
      topParts: top,
      lostReasons: this.db
        .prepare(`SELECT lost_reason AS reason, count(*) AS requests FROM inbox WHERE status = 'lost' AND lost_reason IS NOT NULL GROUP BY lost_reason ORDER BY requests DESC, reason`)
        .all() as InboxStats['lostReasons'],
    };
  }

  private insertOrder(o: OrderRecord) {
    this.db
      .prepare(
        `INSERT INTO orders (id, number, quote_id, quote_version, status, po_number, delivery, note, lines, customer_name, customer_email,
           created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(o.id, o.number, o.quoteId, o.quoteVersion, o.status, o.poNumber, JSON.stringify(o.delivery), o.note, JSON.stringify(o.lines),
        o.customerName, o.customerEmail, o.createdAt, o.updatedAt, o.version);
    this.db.prepare('UPDATE orders SET search = ?, po_document = ? WHERE id = ?').run(orderSearchText(o), o.poDocument ? JSON.stringify(o.poDocument) : null, o.id);
  }

  async listOrders(f: OrderFilter, offset: number, limit: number): Promise<OrderPage> {
    const where = (withStatus: boolean) => {
      const parts: string[] = [];
      const params: unknown[] = [];
      if (withStatus && f.status) (parts.push('status = ?'), params.push(f.status));
      if (f.from) (parts.push('created_at >= ?'), params.push(f.from));
      if (f.toExclusive) (parts.push('created_at < ?'), params.push(f.toExclusive));
      for (const term of f.q ? searchTerms(f.q) : []) (parts.push('instr(search, ?) > 0'), params.push(term));
      return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
    };
    const w = where(true);
    const c = where(false);
    const rows = this.db.prepare(`SELECT * FROM orders ${w.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`).all(...w.params, limit, offset) as OrderRow[];
    const byStatus = this.db.prepare(`SELECT status, count(*) AS n FROM orders ${c.sql} GROUP BY status`).all(...c.params) as { status: OrderStatus; n: number }[];
    const counts = Object.fromEntries(ORDER_STATUSES.map((st) => [st, byStatus.find((r) => r.status === st)?.n ?? 0])) as Record<OrderStatus, number>;
    return { items: rows.map(toOrder), total: f.status ? counts[f.status] : byStatus.reduce((sum, r) => sum + r.n, 0), counts };
  }

  async listBuyerQuotes(emails: string[], status: InboxStatus | undefined, offset: number, limit: number) {
    if (!emails.length) return { items: [], total: 0 };
    const marks = emails.map(() => '?').join(', ');
    const where = `lower(customer_email) IN (${marks}) AND kind = 'quote' AND ${status ? 'status = ?' : "status != 'spam'"}`;
    const params = status ? [...emails, status] : emails;
    // By the address index (the planner otherwise takes inbox_kind: every quote of the shop, sorted): the page's ids
    // from the index alone, then those rows.
    const page = `SELECT id FROM inbox INDEXED BY inbox_by_buyer WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`;
    const rows = this.db.prepare(`SELECT * FROM inbox WHERE id IN (${page}) ORDER BY created_at DESC, id DESC`).all(...params, limit, offset) as InboxRow[];
    const total = this.db.prepare(`SELECT count(*) FROM inbox INDEXED BY inbox_by_buyer WHERE ${where}`).pluck().get(...params) as number;
    const ids = rows.map((r) => r.id);
    const marksOf = ids.map(() => '?').join(', ');
    const events = ids.length ? (this.db.prepare(`SELECT * FROM inbox_events WHERE item_id IN (${marksOf}) ORDER BY seq`).all(...ids) as (EventRow & { item_id: string })[]) : [];
    const orders = ids.length ? (this.db.prepare(`SELECT * FROM orders WHERE quote_id IN (${marksOf})`).all(...ids) as OrderRow[]) : [];
    const items = rows.map((r) => ({
      record: toRecord(r),
      history: events.filter((e) => e.item_id === r.id).map(toEvent),
      order: ((o) => (o ? toOrder(o) : null))(orders.find((o) => o.quote_id === r.id)),
    }));
    return { items, total };
  }

  async listBuyerOrders(emails: string[], offset: number, limit: number) {
    if (!emails.length) return { items: [], total: 0 };
    const where = `lower(customer_email) IN (${emails.map(() => '?').join(', ')})`;
    const page = `SELECT id FROM orders INDEXED BY orders_by_buyer WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`;
    const rows = this.db.prepare(`SELECT * FROM orders WHERE id IN (${page}) ORDER BY created_at DESC, id DESC`).all(...emails, limit, offset) as OrderRow[];
    const total = this.db.prepare(`SELECT count(*) FROM orders INDEXED BY orders_by_buyer WHERE ${where}`).pluck().get(...emails) as number;
    return { items: rows.map(toOrder), total };
  }

  async anonymiseBuyer(email: string, who: { name: string; email: string }, at: string) {
    return this.save(() => {
      const entries = this.db.prepare('SELECT rowid AS rid, * FROM inbox WHERE lower(customer_email) = ?').all(email) as (InboxRow & { rid: number })[];
      const forgetWords = this.db.prepare("INSERT INTO inbox_words (inbox_words, rowid, text) VALUES ('delete', ?, ?)");
      const addWords = this.db.prepare('INSERT INTO inbox_words (rowid, text) VALUES (?, ?)');
      const setEntry = this.db.prepare(
        'UPDATE inbox SET customer_name = ?, customer_email = ?, email_domain = ?, customer_phone = ?, message = ?, version = version + 1, updated_at = ? WHERE id = ?',
      );
      const setQuote = this.db.prepare('UPDATE quote_requests SET customer_name = ?, customer_email = ?, customer_phone = ?, message = ? WHERE id = ?');
      const setContact = this.db.prepare('UPDATE contact_messages SET name = ?, email = ?, phone = ?, message = ? WHERE id = ?');
      const history = this.db.prepare('SELECT * FROM inbox_events WHERE item_id = ? ORDER BY seq');
      const setEvent = this.db.prepare('UPDATE inbox_events SET to_value = ?, text = ? WHERE seq = ?');
      const addEvent = this.db.prepare('INSERT INTO inbox_events (item_id, at, actor, type, from_value, to_value, text) VALUES (?, ?, ?, ?, ?, ?, ?)');
      const sent = this.db.prepare("SELECT id, message FROM outbox WHERE ref_id = ? AND status = 'sent'");
      const setMail = this.db.prepare('UPDATE outbox SET message = ? WHERE id = ?');
      const revoke = this.db.prepare('UPDATE quote_links SET revoked_at = ? WHERE quote_id = ? AND revoked_at IS NULL');
      for (const e of entries) {
        const before = toRecord(e);
        const after = anonymisedRequest(before, who);
        setEntry.run(after.customerName, after.customerEmail, after.emailDomain, after.customerPhone, after.message, at, e.id);
        // The word index is contentless: a row's words go by giving them back, then the new ones are added.
        forgetWords.run(e.rid, inboxSearchText(before));
        addWords.run(e.rid, inboxSearchText(after));
        setQuote.run(after.customerName, after.customerEmail, after.customerPhone, after.message, e.id);
        setContact.run(after.customerName, after.customerEmail, after.customerPhone, after.message, e.id);
        for (const row of history.all(e.id) as (EventRow & { seq: number })[]) {
          const was = toEvent(row);
          const now = anonymisedEvent(was, email, who);
          if (now !== was) setEvent.run(now.to, now.text, row.seq);
        }
        const note = anonymisedNote(at);
        addEvent.run(e.id, note.at, note.actor, note.type, note.from, note.to, note.text);
        for (const m of sent.all(e.id) as { id: string; message: string }[]) setMail.run(JSON.stringify(redactedMail(JSON.parse(m.message) as MailMessage, email, who)), m.id);
        revoke.run(at, e.id);
      }
      const orders = this.db.prepare('SELECT * FROM orders WHERE lower(customer_email) = ?').all(email) as OrderRow[];
      const setOrder = this.db.prepare('UPDATE orders SET customer_name = ?, customer_email = ?, delivery = ?, note = ?, search = ?, version = version + 1, updated_at = ? WHERE id = ?');
      for (const o of orders) {
        const after = anonymisedOrder(toOrder(o), who);
        setOrder.run(after.customerName, after.customerEmail, JSON.stringify(after.delivery), after.note, orderSearchText(after), at, o.id);
      }
      return { requests: entries.length, orders: orders.length };
    });
  }

  async getOrder(id: string): Promise<OrderRecord | null> {
    const r = this.db.prepare('SELECT * FROM orders WHERE id = ?').get(id) as OrderRow | undefined;
    return r ? toOrder(r) : null;
  }

  async updateOrder(id: string, expectedVersion: number, change: OrderChange): Promise<OrderRecord | 'conflict' | null> {
    return this.save(() => {
      const r = this.db.prepare('SELECT * FROM orders WHERE id = ?').get(id) as OrderRow | undefined;
      if (!r) return null;
      if (r.version !== expectedVersion) return 'conflict' as const;
      const shipment = change.shipment === undefined ? r.shipment : JSON.stringify(change.shipment);
      const reason = change.cancelReason ?? r.cancel_reason;
      this.db
        .prepare('UPDATE orders SET status = ?, shipment = ?, cancel_reason = ?, updated_at = ?, version = ? WHERE id = ? AND version = ?')
        .run(change.status, shipment, reason, change.updatedAt, expectedVersion + 1, id, expectedVersion);
      const ev = this.db.prepare('INSERT INTO inbox_events (item_id, at, actor, type, from_value, to_value, text, reply, buyer) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL)');
      for (const e of change.events) ev.run(r.quote_id, e.at, e.actor, e.type, e.from, e.to, e.text);
      this.insertMails(change.mails, Date.now());
      this.insertDeliveries(change.webhooks);
      return toOrder({ ...r, status: change.status, shipment, cancel_reason: reason, updated_at: change.updatedAt, version: expectedVersion + 1 });
    });
  }

  async nextOrderNumber(year: string): Promise<string> {
    const n = await this.save(
      () => this.db.prepare('INSERT INTO order_counters (year, n) VALUES (?, 1) ON CONFLICT (year) DO UPDATE SET n = n + 1 RETURNING n').pluck().get(year) as number,
    );
    return orderNumber(year, n);
  }

  /** One delivery per endpoint that wants the event, in the caller's transaction. */
  private insertDeliveries(emits: WebhookEmit[] | undefined) {
    if (!emits?.length) return;
    const endpoints = (this.db.prepare('SELECT id, events FROM webhook_endpoints WHERE deleted_at IS NULL').all() as { id: string; events: string }[]).map((e) => ({
      id: e.id,
      events: JSON.parse(e.events) as string[],
    }));
    const insert = this.db.prepare('INSERT OR IGNORE INTO webhook_deliveries (id, endpoint_id, event, body, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    const now = Date.now();
    for (const w of emits) for (const e of endpoints) if (e.events.includes(w.event)) insert.run(`${w.id}:${e.id}`, e.id, w.event, w.body, now, new Date(now).toISOString());
  }

  async saveWebhookEndpoint(e: WebhookEndpointRecord): Promise<void> {
    await this.save(() =>
      this.db
        .prepare('INSERT INTO webhook_endpoints (id, url, events, description, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(e.id, e.url, JSON.stringify(e.events), e.description, e.secret, e.createdAt),
    );
  }

  async listWebhookEndpoints(): Promise<WebhookEndpointRecord[]> {
    const rows = this.db.prepare('SELECT * FROM webhook_endpoints WHERE deleted_at IS NULL ORDER BY created_at, id').all() as {
      id: string; url: string; events: string; description: string; secret: string; created_at: string;
    }[];
    return rows.map((r) => ({ id: r.id, url: r.url, events: JSON.parse(r.events) as WebhookEvent[], description: r.description, secret: r.secret, createdAt: r.created_at }));
  }

  async deleteWebhookEndpoint(id: string, at: Date): Promise<boolean> {
    return this.save(() => {
      const gone = this.db.prepare('UPDATE webhook_endpoints SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL').run(at.toISOString(), id).changes > 0;
      if (gone) {
        this.db
          .prepare(`UPDATE webhook_deliveries SET status = 'failed', error = 'The endpoint was removed.', next_attempt_at = 0 WHERE endpoint_id = ? AND status = 'pending'`)
          .run(id);
      }
      return gone;
    });
  }

  async listWebhookDeliveries(limit: number, endpointId?: string): Promise<WebhookDelivery[]> {
    const rows = (
      endpointId
        ? this.db.prepare('SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY created_at DESC, id DESC LIMIT ?').all(endpointId, limit)
        : this.db.prepare('SELECT * FROM webhook_deliveries ORDER BY created_at DESC, id DESC LIMIT ?').all(limit)
    ) as DeliveryRow[];
    return rows.map(toDelivery);
  }

  async claimDueDeliveries(now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const t = now.getTime();
    const select = this.fast.prepare(
      `SELECT d.*, e.url, e.secret FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND d.lease_until <= ? ORDER BY d.next_attempt_at, d.id LIMIT ?`,
    );
    const lease = this.fast.prepare('UPDATE webhook_deliveries SET lease_until = ?, attempts = attempts + 1 WHERE id = ?');
    // IMMEDIATE, as claimDueMails: the write lock before the read, so two processes never claim one delivery.
    return this.fast
      .transaction(() => {
        const rows = select.all(t, t, limit) as (DeliveryRow & { url: string; secret: string })[];
        for (const r of rows) lease.run(t + leaseMs, r.id);
        return rows.map((r) => ({ id: r.id, endpointId: r.endpoint_id, event: r.event, body: r.body, attempts: r.attempts + 1, url: r.url, secret: r.secret }));
      })
      .immediate();
  }

  async markDelivery(id: string, r: DeliveryResult): Promise<void> {
    this.fast
      .prepare(
        `UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, lease_until = 0, last_attempt_at = ?, response_status = ?, response = ?, error = ?
         WHERE id = ? AND status = 'pending'`,
      )
      .run(r.status, r.nextAttemptAt?.getTime() ?? 0, r.at.toISOString(), r.responseStatus, r.response, r.error, id);
  }

  async listExpiringQuotes(fromDay: string, toDay: string, limit: number): Promise<ExpiringQuote[]> {
    return this.db
      .prepare(
        `SELECT id, customer_name AS customerName, customer_email AS customerEmail, subject, valid_until AS validUntil FROM inbox
         WHERE status = 'quoted' AND valid_until >= ? AND valid_until <= ? ORDER BY valid_until, id LIMIT ?`,
      )
      .all(fromDay, toDay, limit) as ExpiringQuote[];
  }

  async enqueueMails(mails: OutboxMail[]): Promise<number> {
    return this.save(() => {
      const now = Date.now();
      const stmt = this.db.prepare('INSERT OR IGNORE INTO outbox (id, ref_id, message, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?)');
      let n = 0;
      for (const m of mails) n += stmt.run(m.id, m.refId, JSON.stringify(m.message), now, now).changes;
      return n;
    });
  }

  async saveQuoteLink(link: QuoteLink): Promise<void> {
    await this.save(() =>
      this.db.prepare('INSERT INTO quote_links (token_hash, quote_id, created_at, revoked_at) VALUES (?, ?, ?, ?)').run(link.tokenHash, link.quoteId, link.createdAt, link.revokedAt),
    );
  }

  async findQuoteLink(tokenHash: string): Promise<QuoteLink | null> {
    const r = this.db.prepare('SELECT * FROM quote_links WHERE token_hash = ?').get(tokenHash) as
      | { token_hash: string; quote_id: string; created_at: string; revoked_at: string | null }
      | undefined;
    return r ? { tokenHash: r.token_hash, quoteId: r.quote_id, createdAt: r.created_at, revokedAt: r.revoked_at } : null;
  }

  async revokeQuoteLinks(quoteId: string, at: string): Promise<number> {
    return this.save(() => this.db.prepare('UPDATE quote_links SET revoked_at = ? WHERE quote_id = ? AND revoked_at IS NULL').run(at, quoteId).changes);
  }

  async getOrderByQuote(quoteId: string): Promise<OrderRecord | null> {
    const r = this.db.prepare('SELECT * FROM orders WHERE quote_id = ?').get(quoteId) as OrderRow | undefined;
    return r ? toOrder(r) : null;
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
