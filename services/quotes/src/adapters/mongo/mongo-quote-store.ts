import mongoose, { type Connection, type Model } from 'mongoose';
import type { ContactMessage, QuoteRequest } from '@forgeline/contracts/quotes';
import type { MailMessage } from '@forgeline/mailer/mailer';
import type { OutboxEntry, OutboxMail, QuoteStore } from '../../ports.ts';

interface QuoteDoc extends Omit<QuoteRequest, 'id'> {
  _id: string;
  /** The outbox mails as JSON until they are in the outbox collection (see saveQuoteRequest). */
  unqueuedMails?: string;
}
interface ContactDoc extends Omit<ContactMessage, 'id'> {
  _id: string;
  unqueuedMails?: string;
}
interface OutboxDoc {
  _id: string;
  refId: string;
  message: string;
  status: 'pending' | 'sent';
  attempts: number;
  nextAttemptAt: Date;
  leaseUntil: Date;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
}
interface CaptchaDoc {
  _id: string;
  expiresAt: Date;
}

const str = { type: String, required: true };
const optStr = { type: String, default: '' };

/** What saveWithMails and recoverUnqueued need of the quote and contact models. */
type RecordModel = Model<{ _id: string; unqueuedMails?: string }>;

const isDuplicateKey = (err: unknown) => (err as { code?: number } | null)?.code === 11000;

const toEntry = (d: OutboxDoc): OutboxEntry => ({
  id: d._id,
  refId: d.refId,
  message: JSON.parse(d.message) as MailMessage,
  status: d.status,
  attempts: d.attempts,
  nextAttemptAt: new Date(d.nextAttemptAt),
  lastError: d.lastError ?? null,
  sentAt: d.sentAt ? new Date(d.sentAt) : null,
});

/**
 * Quotes storage on MongoDB (mongoose). MongoDB makes one document's write atomic, not two: a record is inserted
 * together with its mails (as `unqueuedMails`), the mails are then upserted into the outbox by their stable ids and
 * the field removed. A crash between the two steps leaves `unqueuedMails`, which the next claim moves over, so a
 * stored record never loses its mails. No transactions needed (FerretDB and standalone servers lack them).
 */
export class MongoQuoteStore implements QuoteStore {
  private readonly quotes: Model<QuoteDoc>;
  private readonly contacts: Model<ContactDoc>;
  private readonly outbox: Model<OutboxDoc>;
  private readonly captchas: Model<CaptchaDoc>;
  private readonly claims: Model<CaptchaDoc & { leaseUntil: Date }>;
  private pruneAt = 0;
  private pruneClaimsAt = 0;

  private constructor(private readonly conn: Connection) {
    const opts = { versionKey: false, autoIndex: true } as const;
    this.quotes = conn.model<QuoteDoc>(
      'QuoteRequest',
      new mongoose.Schema<QuoteDoc>(
        {
          _id: str,
          productId: str,
          productName: optStr,
          productSku: optStr,
          customerName: str,
          customerEmail: str,
          customerPhone: optStr,
          customerCountry: optStr,
          quantity: { type: Number, required: true },
          message: optStr,
          status: { type: String, default: 'pending' },
          createdAt: str,
          unqueuedMails: { type: String, index: { sparse: true } },
        },
        { ...opts, collection: 'quote_requests' },
      ),
    );
    this.contacts = conn.model<ContactDoc>(
      'ContactMessage',
      new mongoose.Schema<ContactDoc>(
        {
          _id: str,
          name: str,
          email: str,
          countryCode: optStr,
          phone: optStr,
          subject: optStr,
          message: str,
          createdAt: str,
          unqueuedMails: { type: String, index: { sparse: true } },
        },
        { ...opts, collection: 'contact_messages' },
      ),
    );
    const outboxSchema = new mongoose.Schema<OutboxDoc>(
      {
        _id: str,
        refId: { type: String, required: true, index: true },
        message: str,
        status: { type: String, required: true },
        attempts: { type: Number, default: 0 },
        nextAttemptAt: { type: Date, required: true },
        leaseUntil: { type: Date, required: true },
        lastError: { type: String, default: null },
        createdAt: { type: Date, required: true },
        sentAt: { type: Date, default: null },
      },
      { ...opts, collection: 'outbox' },
    );
    outboxSchema.index({ status: 1, nextAttemptAt: 1 });
    this.outbox = conn.model<OutboxDoc>('OutboxMail', outboxSchema);
    this.captchas = conn.model<CaptchaDoc>(
      'CaptchaUsed',
      new mongoose.Schema<CaptchaDoc>({ _id: str, expiresAt: { type: Date, required: true, index: true } }, { ...opts, collection: 'captcha_used' }),
    );
    this.claims = conn.model<CaptchaDoc & { leaseUntil: Date }>(
      'OutboxClaim',
      new mongoose.Schema({ _id: str, leaseUntil: { type: Date, required: true, index: true } }, { ...opts, collection: 'outbox_claims' }),
    );
  }

  static async connect(url: string): Promise<MongoQuoteStore> {
    const conn = await mongoose.createConnection(url, { serverSelectionTimeoutMS: 10_000 }).asPromise();
    const store = new MongoQuoteStore(conn);
    await Promise.all([store.quotes.init(), store.contacts.init(), store.outbox.init(), store.captchas.init(), store.claims.init()]);
    return store;
  }

  /**
   * Upserts the mails into the outbox by their stable ids; a mail already there is left as it is. The save and a
   * claim pass's recovery (recoverUnqueued) may copy the same mails at the same moment. MongoDB (4.2+) retries such an
   * upsert on the server when both insert the same _id; FerretDB does not and answers E11000 to the loser, which
   * made a quote request fail with 500 though its mails were queued. So a duplicate-key answer is retried once here:
   * the retry finds the document the other writer inserted and, with only $setOnInsert, changes nothing.
   */
  private async enqueue(mails: OutboxMail[]) {
    const now = new Date();
    for (const m of mails) {
      try {
        await this.upsertMail(m, now);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        await this.upsertMail(m, now);
      }
    }
  }

  private async upsertMail(m: OutboxMail, now: Date) {
    await this.outbox.updateOne(
      { _id: m.id },
      {
        $setOnInsert: {
          refId: m.refId,
          message: JSON.stringify(m.message),
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          leaseUntil: new Date(0),
          lastError: null,
          createdAt: now,
          sentAt: null,
        },
      },
      { upsert: true },
    );
  }

  saveQuoteRequest(q: QuoteRequest, mails: OutboxMail[]): Promise<void> {
    return this.saveWithMails(this.quotes as unknown as RecordModel, q, mails);
  }

  saveContactMessage(c: ContactMessage, mails: OutboxMail[]): Promise<void> {
    return this.saveWithMails(this.contacts as unknown as RecordModel, c, mails);
  }

  /** The record with its mails as `unqueuedMails`, then the mails into the outbox, then the field removed. */
  private async saveWithMails(model: RecordModel, record: { id: string }, mails: OutboxMail[]) {
    const { id, ...rest } = record;
    await model.create({ _id: id, ...rest, unqueuedMails: JSON.stringify(mails) });
    await this.enqueue(mails);
    await model.updateOne({ _id: id }, { $unset: { unqueuedMails: 1 } });
  }

  /** Moves the mails of records whose save was cut short into the outbox. */
  private async recoverUnqueued() {
    for (const model of [this.quotes, this.contacts] as unknown as RecordModel[]) {
      const stranded = await model.find({ unqueuedMails: { $exists: true } }, { unqueuedMails: 1 }).limit(100).lean();
      for (const d of stranded) {
        if (d.unqueuedMails) await this.enqueue(JSON.parse(d.unqueuedMails) as OutboxMail[]);
        await model.updateOne({ _id: d._id }, { $unset: { unqueuedMails: 1 } });
      }
    }
  }

  async getQuoteRequest(id: string): Promise<QuoteRequest | null> {
    const d = await this.quotes.findById(id, { unqueuedMails: 0 }).lean();
    if (!d) return null;
    const { _id, unqueuedMails: _, ...rest } = d;
    return { id: _id, ...rest };
  }

  async getContactMessage(id: string): Promise<ContactMessage | null> {
    const d = await this.contacts.findById(id, { unqueuedMails: 0 }).lean();
    if (!d) return null;
    const { _id, unqueuedMails: _, ...rest } = d;
    return { id: _id, ...rest };
  }

  countQuoteRequests(): Promise<number> {
    return this.quotes.countDocuments();
  }

  countContactMessages(): Promise<number> {
    return this.contacts.countDocuments();
  }

  async useCaptchaToken(id: string, expiresAt: Date): Promise<boolean> {
    const now = Date.now();
    if (now >= this.pruneAt) {
      this.pruneAt = now + 60_000;
      await this.captchas.deleteMany({ expiresAt: { $lt: new Date(now) } });
    }
    try {
      await this.captchas.create({ _id: id, expiresAt });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  /**
   * Claiming is a unique insert of `<mail id>#<attempt>` into outbox_claims, not a findOneAndUpdate: FerretDB does
   * not make findAndModify atomic between clients (the contract test caught two claimers sending the same mail), and
   * a unique _id is atomic everywhere. The winner then leases the mail and counts the attempt.
   */
  async claimDueMails(now: Date, limit: number, leaseMs: number): Promise<OutboxEntry[]> {
    await this.recoverUnqueued();
    await this.pruneClaims(now);
    const candidates = await this.outbox
      .find({ status: 'pending', nextAttemptAt: { $lte: now }, leaseUntil: { $lte: now } })
      .sort({ nextAttemptAt: 1, _id: 1 })
      .limit(limit * 4) // more than asked: simultaneous claimers skip each other's and take the next ones
      .lean();
    const leaseUntil = new Date(now.getTime() + leaseMs);
    const claimed: OutboxEntry[] = [];
    for (const d of candidates) {
      if (claimed.length >= limit) break;
      const attempt = d.attempts + 1;
      const claimId = `${d._id}#${attempt}`;
      try {
        await this.claims.create({ _id: claimId, leaseUntil });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // Someone holds this attempt. If its lease is over, the holder died between claiming and leasing:
        // step the attempt count past it so the next pass can claim the mail again.
        const held = await this.claims.findById(claimId).lean();
        if (held && held.leaseUntil <= now) await this.outbox.updateOne({ _id: d._id, attempts: d.attempts }, { $set: { attempts: attempt } });
        continue;
      }
      await this.outbox.updateOne({ _id: d._id }, { $set: { leaseUntil, attempts: attempt } });
      claimed.push(toEntry({ ...d, attempts: attempt, leaseUntil }));
    }
    return claimed;
  }

  private async pruneClaims(now: Date) {
    if (now.getTime() < this.pruneClaimsAt) return;
    this.pruneClaimsAt = now.getTime() + 60_000;
    await this.claims.deleteMany({ leaseUntil: { $lt: new Date(now.getTime() - 24 * 3_600_000) } });
  }

  async markSent(id: string, at: Date): Promise<void> {
    await this.outbox.updateOne({ _id: id }, { $set: { status: 'sent', sentAt: at, leaseUntil: new Date(0), lastError: null } });
  }

  async markFailed(id: string, nextAttemptAt: Date, error: string): Promise<void> {
    await this.outbox.updateOne(
      { _id: id, status: 'pending' },
      { $set: { nextAttemptAt, leaseUntil: new Date(0), lastError: error.slice(0, 500) } },
    );
  }

  async listMails(refId?: string): Promise<OutboxEntry[]> {
    const docs = await this.outbox
      .find(refId === undefined ? {} : { refId })
      .sort({ createdAt: 1, _id: 1 })
      .lean();
    return docs.map(toEntry);
  }

  async outboxCounts(): Promise<{ pending: number; sent: number }> {
    const [pending, sent] = await Promise.all([
      this.outbox.countDocuments({ status: 'pending' }),
      this.outbox.countDocuments({ status: 'sent' }),
    ]);
    return { pending, sent };
  }

  async ping(): Promise<boolean> {
    await this.conn.db?.admin().ping();
    return true;
  }

  async close(): Promise<void> {
    await this.conn.close();
  }
}
