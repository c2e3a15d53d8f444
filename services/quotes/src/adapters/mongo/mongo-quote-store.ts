import type { OutboxBacklog } from '@forgeline/mailer/outbox';
import mongoose, { type Connection, type Model, type mongo } from 'mongoose';
import type { ContactMessage, QuoteRequest } from '@forgeline/contracts/quotes';
import type { MailMessage } from '@forgeline/mailer/mailer';
import { INBOX_STATUSES, type InboxEvent, type InboxStats, type InboxStatus } from '@forgeline/contracts/quote-inbox';
import { ORDER_STATUSES } from '@forgeline/contracts/orders';
import { BUYER_QUOTE_STATUSES } from '@forgeline/contracts/buyer-history';
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
interface InboxDoc extends Omit<InboxRecord, 'id' | 'firstLine' | 'lineCount'> {
  _id: string;
  /** The address lower-cased: a buyer company's requests are found by it (issue 35). */
  emailKey?: string;
  /** The lower-cased text the search looks through (inboxSearchText). */
  search: string;
  /** A change's mails and events until they are in the outbox and history (see updateInbox). */
  unqueuedMails?: string;
  unrecordedEvents?: string;
  /** An accept's order until it is in the orders collection (see updateInbox). */
  unsavedOrder?: string;
  /** A change's webhook events until their deliveries are written. */
  unqueuedWebhooks?: string;
  /** The reason a buyer declined with (issue 34). */
  lostReason?: string | null;
  /** The latest quote version's last valid day (the expiry reminders). */
  validUntil?: string | null;
}
interface WebhookEndpointDoc extends Omit<WebhookEndpointRecord, 'id'> {
  _id: string;
  deletedAt: string | null;
}
interface DeliveryDoc {
  /** `<event id>:<endpoint id>`: a recovery that writes it again writes it once. */
  _id: string;
  endpointId: string;
  event: WebhookEvent;
  body: string;
  status: WebhookDelivery['status'];
  attempts: number;
  nextAttemptAt: Date;
  leaseUntil: Date;
  createdAt: string;
  lastAttemptAt: string | null;
  responseStatus: number | null;
  response: string;
  error: string | null;
}

const toDelivery = (d: DeliveryDoc): WebhookDelivery => ({
  id: d._id,
  endpointId: d.endpointId,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  createdAt: d.createdAt,
  lastAttemptAt: d.lastAttemptAt ?? null,
  nextAttemptAt: d.status === 'pending' ? new Date(d.nextAttemptAt).toISOString() : null,
  responseStatus: d.responseStatus ?? null,
  response: d.response ?? '',
  error: d.error ?? null,
});

interface LinkDoc {
  /** The SHA-256 of the token. */
  _id: string;
  quoteId: string;
  createdAt: string;
  revokedAt: string | null;
}
interface OrderDoc extends Omit<OrderRecord, 'id'> {
  _id: string;
  /** The address lower-cased (issue 35). */
  emailKey?: string;
  /** Set while its accept is being written (see claimOrder). */
  pendingSince?: Date | null;
  /** The lower-cased text the search looks through (number, PO, buyer, parts). */
  search?: string;
  /** A change's mails and events until they are in the outbox and the request's history (see updateOrder). */
  unqueuedMails?: string;
  unrecordedEvents?: string;
  unqueuedWebhooks?: string;
}

function docToOrder(d: OrderDoc): OrderRecord {
  const { _id, pendingSince: _p, search: _s, emailKey: _k, unqueuedMails: _m, unrecordedEvents: _e, unqueuedWebhooks: _w, ...rest } = d;
  return { ...rest, id: _id, shipment: rest.shipment ?? null, cancelReason: rest.cancelReason ?? null, poDocument: rest.poDocument ?? null };
}

/** A pending order older than this belongs to an accept whose process died before finishing it. */
const ORDER_PENDING_MS = 60_000;
interface EventDoc extends InboxEvent {
  /** `<item id>:<version, 9 digits>:<n>`: stable, so a recovery that records an event twice records it once. */
  _id: string;
  itemId: string;
}
interface CaptchaDoc {
  _id: string;
  expiresAt: Date;
}
/** A captcha challenge: the expected sum under the SHA-256 of its token. */
interface ChallengeDoc extends CaptchaDoc {
  answer: number;
}
/** One confirmation queued for a recipient on a day: `_id` is `<recipient>:<day>:<n>`, n from 1 to the limit. */
interface QuotaDoc {
  _id: string;
  recipient: string;
  day: string;
}

const str = { type: String, required: true };
const optStr = { type: String, default: '' };

/** What saveWithMails and recoverUnqueued need of the quote and contact models. */
type RecordModel = Model<{ _id: string; unqueuedMails?: string }>;

const escapeRegex = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * "Any status", named: an inbox query that leaves the status open still begins the inbox's (status, ...) indexes, one
 * range per status merged in date order, instead of needing an index of its own for each mix of the other filters.
 */
const anyStatus = () => ({ $in: [...INBOX_STATUSES] }); // a new one each time: mongoose casts a filter in place

const docToEvent = ({ at, actor, type, from, to, text, reply, buyer }: EventDoc): InboxEvent => ({
  at,
  actor,
  type,
  from: from ?? null,
  to: to ?? null,
  text: text ?? null,
  reply: reply ?? null,
  ...(buyer ? { buyer } : {}),
});

function docToRecord(d: InboxDoc): InboxRecord {
  const { _id, search: _s, emailKey: _k, unqueuedMails: _m, unrecordedEvents: _e, unsavedOrder: _o, lostReason: _l, validUntil: _v, ...rest } = d as InboxDoc & { _id: string };
  const lines = rest.lines ?? [];
  return { ...rest, id: _id, lines, assignee: rest.assignee ?? null, firstReplyAt: rest.firstReplyAt ?? null, firstLine: lines[0] ?? null, lineCount: lines.length };
}

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
  /** The checked challenges' keys: a unique insert here is what uses a challenge up (see takeCaptcha). */
  private readonly captchas: Model<CaptchaDoc>;
  private readonly challenges: Model<ChallengeDoc>;
  private readonly quotas: Model<QuotaDoc>;
  private readonly claims: Model<CaptchaDoc & { leaseUntil: Date }>;
  private readonly inbox: Model<InboxDoc>;
  private readonly events: Model<EventDoc>;
  private readonly links: Model<LinkDoc>;
  private readonly orders: Model<OrderDoc>;
  private readonly webhookEndpoints: Model<WebhookEndpointDoc>;
  private readonly deliveries: Model<DeliveryDoc>;
  /** The order numbers taken, one document each (see nextOrderNumber). */
  private readonly counters: Model<{ _id: string; year: string; n: number }>;
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
          // A multi-part request's lines (absent on a single-product one).
          lines: { type: [mongoose.Schema.Types.Mixed], default: undefined },
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
        refId: str,
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
    // The claim: due mails in order, the lease checked in the index (docs/operating.md#indexes).
    outboxSchema.index({ status: 1, nextAttemptAt: 1, _id: 1, leaseUntil: 1 });
    outboxSchema.index({ refId: 1, createdAt: 1, _id: 1 });
    this.outbox = conn.model<OutboxDoc>('OutboxMail', outboxSchema);
    this.captchas = conn.model<CaptchaDoc>(
      'CaptchaUsed',
      new mongoose.Schema<CaptchaDoc>({ _id: str, expiresAt: { type: Date, required: true, index: true } }, { ...opts, collection: 'captcha_used' }),
    );
    this.challenges = conn.model<ChallengeDoc>(
      'CaptchaChallenge',
      new mongoose.Schema<ChallengeDoc>(
        { _id: str, answer: { type: Number, required: true }, expiresAt: { type: Date, required: true, index: true } },
        { ...opts, collection: 'captcha_challenges' },
      ),
    );
    const quotaSchema = new mongoose.Schema<QuotaDoc>(
      { _id: str, recipient: str, day: { type: String, required: true, index: true } },
      { ...opts, collection: 'mail_quota' },
    );
    quotaSchema.index({ recipient: 1, day: 1 });
    this.quotas = conn.model<QuotaDoc>('MailQuota', quotaSchema);
    this.claims = conn.model<CaptchaDoc & { leaseUntil: Date }>(
      'OutboxClaim',
      new mongoose.Schema({ _id: str, leaseUntil: { type: Date, required: true, index: true } }, { ...opts, collection: 'outbox_claims' }),
    );
    ({ inbox: this.inbox, events: this.events } = this.inboxModels(conn));
    const linkSchema = new mongoose.Schema<LinkDoc>(
      { _id: str, quoteId: str, createdAt: str, revokedAt: { type: String, default: null } },
      { ...opts, collection: 'quote_links' },
    );
    linkSchema.index({ quoteId: 1, revokedAt: 1 });
    this.links = conn.model<LinkDoc>('QuoteLink', linkSchema);
    const orderSchema = new mongoose.Schema<OrderDoc>(
      {
        _id: str,
        number: { type: String, required: true, unique: true },
        quoteId: { type: String, required: true, unique: true },
        quoteVersion: Number,
        status: str,
        poNumber: str,
        poDocument: { type: mongoose.Schema.Types.Mixed, default: null },
        delivery: mongoose.Schema.Types.Mixed,
        note: optStr,
        lines: [mongoose.Schema.Types.Mixed],
        customerName: str,
        customerEmail: str,
        emailKey: optStr,
        createdAt: str,
        updatedAt: str,
        version: Number,
        shipment: { type: mongoose.Schema.Types.Mixed, default: null },
        cancelReason: { type: String, default: null },
        pendingSince: { type: Date, default: null },
        search: optStr,
        unqueuedMails: { type: String, index: { sparse: true } },
        unrecordedEvents: String,
        unqueuedWebhooks: String,
      },
      { ...opts, collection: 'orders' },
    );
    // The list names the status (all of them when none is asked, as the inbox does), newest first.
    orderSchema.index({ status: 1, pendingSince: 1, createdAt: -1, _id: -1 });
    // A buyer company's orders, newest first (issue 35); an address's alone (anonymising) from its beginning.
    orderSchema.index({ emailKey: 1, pendingSince: 1, createdAt: -1, _id: -1 });
    this.orders = conn.model<OrderDoc>('Order', orderSchema);
    const endpointSchema = new mongoose.Schema<WebhookEndpointDoc>(
      { _id: str, url: str, events: [String], description: optStr, secret: str, createdAt: str, deletedAt: { type: String, default: null } },
      { ...opts, collection: 'webhook_endpoints' },
    );
    endpointSchema.index({ deletedAt: 1, createdAt: 1, _id: 1 });
    this.webhookEndpoints = conn.model<WebhookEndpointDoc>('WebhookEndpoint', endpointSchema);
    const deliverySchema = new mongoose.Schema<DeliveryDoc>(
      {
        _id: str,
        endpointId: str,
        event: str,
        body: str,
        status: { type: String, required: true },
        attempts: { type: Number, default: 0 },
        nextAttemptAt: { type: Date, required: true },
        leaseUntil: { type: Date, required: true },
        createdAt: str,
        lastAttemptAt: { type: String, default: null },
        responseStatus: { type: Number, default: null },
        response: optStr,
        error: { type: String, default: null },
      },
      { ...opts, collection: 'webhook_deliveries' },
    );
    // The claim (due deliveries in order, the lease in the index), an endpoint's latest, everyone's latest.
    deliverySchema.index({ status: 1, nextAttemptAt: 1, _id: 1, leaseUntil: 1 });
    deliverySchema.index({ endpointId: 1, createdAt: -1, _id: -1 });
    deliverySchema.index({ endpointId: 1, status: 1 });
    deliverySchema.index({ createdAt: -1, _id: -1 });
    this.deliveries = conn.model<DeliveryDoc>('WebhookDelivery', deliverySchema);
    const numberSchema = new mongoose.Schema({ _id: str, year: str, n: { type: Number, required: true } }, { ...opts, collection: 'order_numbers' });
    numberSchema.index({ year: 1, n: -1 });
    this.counters = conn.model<{ _id: string; year: string; n: number }>('OrderNumber', numberSchema);
  }

  private inboxModels(conn: Connection) {
    const opts = { versionKey: false, autoIndex: true } as const;
    const line = new mongoose.Schema({ productId: str, productName: optStr, productSku: optStr, quantity: Number }, { _id: false });
    const inboxSchema = new mongoose.Schema<InboxDoc>(
      {
        _id: str,
        kind: str,
        status: str,
        assignee: { type: String, default: null },
        version: { type: Number, default: 0 },
        createdAt: str,
        updatedAt: str,
        firstReplyAt: { type: String, default: null },
        customerName: str,
        customerEmail: str,
        emailKey: optStr,
        emailDomain: optStr,
        customerPhone: optStr,
        country: optStr,
        subject: optStr,
        message: optStr,
        lines: [line],
        search: optStr,
        unqueuedMails: { type: String, index: { sparse: true } },
        unrecordedEvents: String,
        unsavedOrder: String,
        unqueuedWebhooks: String,
        lostReason: { type: String, default: null },
        validUntil: { type: String, default: null },
      },
      { ...opts, collection: 'inbox' },
    );
    // Every inbox query names the status (all of them when none is asked: see filter), so these four serve the list,
    // its counts and the stats under any mix of kind and assignee, newest first (docs/operating.md#indexes).
    inboxSchema.index({ status: 1, createdAt: -1, _id: -1 });
    inboxSchema.index({ status: 1, kind: 1, createdAt: -1, _id: -1 });
    inboxSchema.index({ status: 1, assignee: 1, createdAt: -1, _id: -1 });
    inboxSchema.index({ status: 1, kind: 1, assignee: 1, createdAt: -1, _id: -1 });
    // The expiry reminders: quoted requests by their last valid day.
    inboxSchema.index({ status: 1, validUntil: 1, _id: 1 });
    // A buyer company's requests, newest first (issue 35): the statuses named (all a buyer sees when none is asked), as
    // the inbox's are, so a status filter and the count read the index alone; an address's alone from its beginning.
    inboxSchema.index({ emailKey: 1, kind: 1, status: 1, createdAt: -1, _id: -1 });
    const eventSchema = new mongoose.Schema<EventDoc>(
      {
        _id: str,
        itemId: str,
        at: str,
        actor: str,
        type: str,
        from: { type: String, default: null },
        to: { type: String, default: null },
        text: { type: String, default: null },
        reply: { type: mongoose.Schema.Types.Mixed, default: null },
        buyer: { type: mongoose.Schema.Types.Mixed, default: undefined },
      },
      { ...opts, collection: 'inbox_events' },
    );
    eventSchema.index({ itemId: 1, _id: 1 });
    return { inbox: conn.model<InboxDoc>('InboxEntry', inboxSchema), events: conn.model<EventDoc>('InboxEvent', eventSchema) };
  }

  /** `onCommand` hears every command sent, from the first (the tests record the query shapes and the indexes created). */
  static async connect(url: string, opts: { onCommand?: (event: mongo.CommandStartedEvent) => void } = {}): Promise<MongoQuoteStore> {
    const conn = mongoose.createConnection(url, { serverSelectionTimeoutMS: 10_000, monitorCommands: Boolean(opts.onCommand) });
    if (opts.onCommand) conn.on('commandStarted', opts.onCommand);
    await conn.asPromise();
    const store = new MongoQuoteStore(conn);
    await Promise.all([store.quotes.init(), store.contacts.init(), store.outbox.init(), store.captchas.init(), store.challenges.init(), store.quotas.init(), store.claims.init(), store.inbox.init(), store.events.init(), store.links.init(), store.orders.init(), store.counters.init(), store.webhookEndpoints.init(), store.deliveries.init()]);
    await store.backfillInbox();
    await store.backfillEmailKeys();
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

  async saveQuoteRequest(q: QuoteRequest, mails: OutboxMail[], confirmation?: ConfirmationQuota): Promise<{ confirmed: boolean }> {
    // No transaction spans both here: the count is taken first (a save that then fails has used one).
    const confirmed = !confirmation || (await this.takeMailQuota(confirmation.recipient, confirmation.day, confirmation.limit));
    await this.saveWithMails(this.quotes as unknown as RecordModel, q, confirmed ? mails : mails.filter((m) => m.id !== confirmation!.mailId), inboxFromQuote(q));
    return { confirmed };
  }

  saveContactMessage(c: ContactMessage, mails: OutboxMail[]): Promise<void> {
    return this.saveWithMails(this.contacts as unknown as RecordModel, c, mails, inboxFromContact(c));
  }

  /**
   * The record with its mails as `unqueuedMails`, then the mails into the outbox and its inbox entry, then the field
   * removed (a crash in between is finished by recoverUnqueued).
   */
  private async saveWithMails(model: RecordModel, record: { id: string }, mails: OutboxMail[], entry: InboxRecord) {
    const { id, ...rest } = record;
    await model.create({ _id: id, ...rest, unqueuedMails: JSON.stringify(mails) });
    await this.enqueue(mails);
    await this.addInboxEntry(entry);
    await model.updateOne({ _id: id }, { $unset: { unqueuedMails: 1 } });
  }

  /** Inserts the entry unless it is there (a retry or a recovery leaves the existing one as it is). */
  private async addInboxEntry(r: InboxRecord) {
    const { id, firstLine: _f, lineCount: _c, ...rest } = r;
    try {
      await this.inbox.updateOne({ _id: id }, { $setOnInsert: { ...rest, emailKey: r.customerEmail.toLowerCase(), search: inboxSearchText(r) } }, { upsert: true });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }

  /** Requests stored before the inbox existed get their entries (once; cheap afterwards). */
  private async backfillInbox() {
    const [nQuotes, nContacts, nInbox] = await Promise.all([this.quotes.estimatedDocumentCount(), this.contacts.estimatedDocumentCount(), this.inbox.estimatedDocumentCount()]);
    if (nQuotes + nContacts <= nInbox) return;
    for await (const q of this.quotes.find({}, { unqueuedMails: 0 }).lean().cursor()) {
      const { _id, ...rest } = q as QuoteDoc;
      await this.addInboxEntry(inboxFromQuote({ id: _id, ...rest } as QuoteRequest));
    }
    for await (const c of this.contacts.find({}, { unqueuedMails: 0 }).lean().cursor()) {
      const { _id, ...rest } = c as ContactDoc;
      await this.addInboxEntry(inboxFromContact({ id: _id, ...rest } as ContactMessage));
    }
  }

  /** Entries and orders stored before buyers' accounts get their lower-cased address (once; cheap afterwards). */
  private async backfillEmailKeys() {
    for (const model of [this.inbox, this.orders] as unknown as mongoose.Model<{ _id: string; customerEmail: string; emailKey?: string }>[]) {
      for (;;) {
        const docs = await model.find({ emailKey: null }, { customerEmail: 1 }).limit(1_000).lean(); // null: absent too, from the index
        if (!docs.length) break;
        await model.bulkWrite(docs.map((d) => ({ updateOne: { filter: { _id: d._id }, update: { $set: { emailKey: d.customerEmail.toLowerCase() } } } })));
      }
    }
  }

  /** Finishes saves and inbox changes cut short: their mails into the outbox, their entries and events recorded. */
  private async recoverUnqueued() {
    for (const [model, toEntry] of [
      [this.quotes, (d: QuoteDoc) => inboxFromQuote({ ...d, id: d._id } as QuoteRequest)],
      [this.contacts, (d: ContactDoc) => inboxFromContact({ ...d, id: d._id } as ContactMessage)],
    ] as unknown as [RecordModel, (d: unknown) => InboxRecord][]) {
      const stranded = await model.find({ unqueuedMails: { $exists: true } }).limit(100).lean();
      for (const d of stranded) {
        if (d.unqueuedMails) await this.enqueue(JSON.parse(d.unqueuedMails) as OutboxMail[]);
        await this.addInboxEntry(toEntry(d));
        await model.updateOne({ _id: d._id }, { $unset: { unqueuedMails: 1 } });
      }
    }
    const changes = await this.inbox.find({ unqueuedMails: { $exists: true } }, { unqueuedMails: 1, unrecordedEvents: 1, unsavedOrder: 1, unqueuedWebhooks: 1 }).limit(100).lean();
    for (const d of changes) await this.finishChange(d._id, d.unqueuedMails, d.unrecordedEvents, d.unsavedOrder, d.unqueuedWebhooks);
    const orderChanges = await this.orders.find({ unqueuedMails: { $exists: true } }, { unqueuedMails: 1, unrecordedEvents: 1, unqueuedWebhooks: 1 }).limit(100).lean();
    for (const d of orderChanges) await this.finishOrderChange(d._id, d.unqueuedMails, d.unrecordedEvents, d.unqueuedWebhooks);
  }

  private async finishChange(id: string, mails: string | undefined, events: string | undefined, order?: string, webhooks?: string) {
    if (order) await this.insertOrder(JSON.parse(order) as OrderRecord);
    if (webhooks) await this.insertDeliveries(JSON.parse(webhooks) as WebhookEmit[]);
    if (mails) await this.enqueue(JSON.parse(mails) as OutboxMail[]);
    for (const e of events ? (JSON.parse(events) as EventDoc[]) : []) {
      await this.events.updateOne({ _id: e._id }, { $setOnInsert: e }, { upsert: true }).catch((err: unknown) => {
        if (!isDuplicateKey(err)) throw err;
      });
    }
    await this.inbox.updateOne({ _id: id }, { $unset: { unqueuedMails: 1, unrecordedEvents: 1, unsavedOrder: 1, unqueuedWebhooks: 1 } });
  }

  /**
   * An accept's order goes in first, marked pending: the unique index on its request decides which of two
   * simultaneous accepts wins, whatever the server makes of two conditional updates at once (FerretDB let both
   * through). False: the request has an order already. A pending order left by a process that died before its
   * inbox update is taken away after ORDER_PENDING_MS.
   */
  private async claimOrder(o: OrderRecord): Promise<boolean> {
    const { id, ...rest } = o;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.orders.create({ _id: id, ...rest, emailKey: o.customerEmail.toLowerCase(), pendingSince: new Date(), search: orderSearchText(o) });
        return true;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const stale = await this.orders.deleteOne({ quoteId: o.quoteId, pendingSince: { $lt: new Date(Date.now() - ORDER_PENDING_MS) } });
        if (stale.deletedCount === 0) return false;
      }
    }
    return false;
  }

  /** The order of a change that went through: no longer pending (a recovery finds it claimed, or claims it now). */
  private async insertOrder(o: OrderRecord) {
    const { id, ...rest } = o;
    await this.orders.create({ _id: id, ...rest, emailKey: o.customerEmail.toLowerCase(), pendingSince: null, search: orderSearchText(o) }).catch((err: unknown) => {
      if (!isDuplicateKey(err)) throw err;
    });
    await this.orders.updateOne({ _id: id }, { $set: { pendingSince: null } });
  }

  /**
   * Each number taken is a document of its own (`<year>:<n>`), inserted after the year's highest: the unique _id
   * decides between simultaneous takers, and the loser tries the next. (A counter's $inc was not enough: FerretDB
   * gave two simultaneous takers the same number.)
   */
  async nextOrderNumber(year: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const last = await this.counters.findOne({ year }, { n: 1 }).sort({ n: -1 }).lean();
      const n = (last?.n ?? 0) + 1;
      try {
        await this.counters.create({ _id: `${year}:${n}`, year, n });
        return orderNumber(year, n);
      } catch (err) {
        if (!isDuplicateKey(err) || attempt >= 100) throw err;
      }
    }
  }

  async listExpiringQuotes(fromDay: string, toDay: string, limit: number): Promise<ExpiringQuote[]> {
    const docs = await this.inbox
      .find({ status: 'quoted', validUntil: { $gte: fromDay, $lte: toDay } }, { customerName: 1, customerEmail: 1, subject: 1, validUntil: 1 })
      .sort({ validUntil: 1, _id: 1 })
      .limit(limit)
      .lean();
    return docs.map((d) => ({ id: d._id, customerName: d.customerName, customerEmail: d.customerEmail, subject: d.subject, validUntil: d.validUntil! }));
  }

  async enqueueMails(mails: OutboxMail[]): Promise<number> {
    let n = 0;
    for (const m of mails) {
      if (await this.outbox.exists({ _id: m.id })) continue;
      await this.enqueue([m]);
      n++;
    }
    return n;
  }

  async saveQuoteLink(link: QuoteLink): Promise<void> {
    const { tokenHash, ...rest } = link;
    await this.links.create({ _id: tokenHash, ...rest });
  }

  async findQuoteLink(tokenHash: string): Promise<QuoteLink | null> {
    const d = await this.links.findById(tokenHash).lean();
    return d ? { tokenHash: d._id, quoteId: d.quoteId, createdAt: d.createdAt, revokedAt: d.revokedAt ?? null } : null;
  }

  async revokeQuoteLinks(quoteId: string, at: string): Promise<number> {
    return (await this.links.updateMany({ quoteId, revokedAt: null }, { $set: { revokedAt: at } })).modifiedCount;
  }

  async getOrderByQuote(quoteId: string): Promise<OrderRecord | null> {
    const d = await this.orders.findOne({ quoteId }).lean();
    return !d || d.pendingSince ? null : docToOrder(d as OrderDoc);
  }

  private orderFilter(f: OrderFilter, withStatus = true): Record<string, unknown> {
    const q: Record<string, unknown> = { status: withStatus && f.status ? f.status : { $in: [...ORDER_STATUSES] }, pendingSince: null };
    if (f.from || f.toExclusive) q.createdAt = { ...(f.from ? { $gte: f.from } : {}), ...(f.toExclusive ? { $lt: f.toExclusive } : {}) };
    const terms = f.q ? searchTerms(f.q) : [];
    if (terms.length) q.$and = terms.map((t) => ({ search: { $regex: escapeRegex(t) } }));
    return q;
  }

  async listOrders(f: OrderFilter, offset: number, limit: number): Promise<OrderPage> {
    const [docs, byStatus] = await Promise.all([
      this.orders.find(this.orderFilter(f), { search: 0, unqueuedMails: 0, unrecordedEvents: 0 }).sort({ createdAt: -1, _id: -1 }).skip(offset).limit(limit).lean(),
      this.orders.aggregate<{ _id: OrderStatus; n: number }>([{ $match: this.orderFilter(f, false) }, { $group: { _id: '$status', n: { $sum: 1 } } }]),
    ]);
    const counts = Object.fromEntries(ORDER_STATUSES.map((st) => [st, byStatus.find((r) => r._id === st)?.n ?? 0])) as Record<OrderStatus, number>;
    return { items: docs.map((d) => docToOrder(d as OrderDoc)), total: f.status ? counts[f.status] : byStatus.reduce((sum, r) => sum + r.n, 0), counts };
  }

  async listBuyerQuotes(emails: string[], status: InboxStatus | undefined, offset: number, limit: number) {
    if (!emails.length) return { items: [], total: 0 };
    const q: Record<string, unknown> = { emailKey: { $in: emails }, kind: 'quote', status: status ?? { $in: [...BUYER_QUOTE_STATUSES] } };
    const [docs, total] = await Promise.all([
      this.inbox.find(q, { search: 0, unqueuedMails: 0, unrecordedEvents: 0 }).sort({ createdAt: -1, _id: -1 }).skip(offset).limit(limit).lean(),
      this.inbox.countDocuments(q),
    ]);
    const ids = docs.map((d) => d._id);
    const [events, orders] = await Promise.all([
      this.events.find({ itemId: { $in: ids } }).sort({ itemId: 1, _id: 1 }).lean(),
      this.orders.find({ quoteId: { $in: ids }, pendingSince: null }, { search: 0 }).lean(),
    ]);
    const items = docs.map((d) => ({
      record: docToRecord(d as unknown as InboxDoc),
      history: events.filter((e) => e.itemId === d._id).map(docToEvent),
      order: ((o) => (o ? docToOrder(o as OrderDoc) : null))(orders.find((o) => o.quoteId === d._id)),
    }));
    return { items, total };
  }

  async listBuyerOrders(emails: string[], offset: number, limit: number) {
    if (!emails.length) return { items: [], total: 0 };
    const q = { emailKey: { $in: emails }, pendingSince: null };
    const [docs, total] = await Promise.all([
      this.orders.find(q, { search: 0, unqueuedMails: 0, unrecordedEvents: 0 }).sort({ createdAt: -1, _id: -1 }).skip(offset).limit(limit).lean(),
      this.orders.countDocuments(q),
    ]);
    return { items: docs.map((d) => docToOrder(d as OrderDoc)), total };
  }

  async anonymiseBuyer(email: string, who: { name: string; email: string }, at: string) {
    const entries = (await this.inbox.find({ emailKey: email }, { search: 0 }).lean()) as unknown as InboxDoc[];
    for (const d of entries) {
      const after = anonymisedRequest(docToRecord(d), who);
      // The person's traces first and the address last: a run cut short finds the entry again and finishes it.
      for (const e of await this.events.find({ itemId: d._id }).sort({ _id: 1 }).lean()) {
        const was = docToEvent(e);
        const now = anonymisedEvent(was, email, who);
        if (now !== was) await this.events.updateOne({ _id: e._id }, { $set: { to: now.to, text: now.text } });
      }
      for (const m of await this.listMails(d._id)) {
        if (m.status === 'sent') await this.outbox.updateOne({ _id: m.id }, { $set: { message: JSON.stringify(redactedMail(m.message, email, who)) } });
      }
      await this.revokeQuoteLinks(d._id, at);
      await this.quotes.updateOne({ _id: d._id }, { $set: { customerName: after.customerName, customerEmail: after.customerEmail, customerPhone: after.customerPhone, message: after.message } });
      await this.contacts.updateOne({ _id: d._id }, { $set: { name: after.customerName, email: after.customerEmail, phone: after.customerPhone, message: after.message } });
      const fields = { customerName: after.customerName, customerEmail: after.customerEmail, emailKey: after.customerEmail.toLowerCase(), emailDomain: after.emailDomain, customerPhone: after.customerPhone, message: after.message, search: inboxSearchText(after) };
      // On the version read, as staff changes are, with the history's note carried as theirs are (recoverUnqueued).
      for (let version: number | undefined = d.version, tries = 0; version !== undefined; tries++) {
        if (tries === 5) throw new Error(`quote request ${d._id} kept changing while its buyer was anonymised; try again`);
        const events = JSON.stringify([{ ...anonymisedNote(at), _id: `${d._id}:${String(version + 1).padStart(9, '0')}:0`, itemId: d._id }]);
        const res = await this.inbox.updateOne({ _id: d._id, version }, { $set: { ...fields, version: version + 1, updatedAt: at, unqueuedMails: '[]', unrecordedEvents: events } });
        if (res.matchedCount) {
          await this.finishChange(d._id, '[]', events);
          break;
        }
        version = (await this.inbox.findById(d._id, { version: 1 }).lean())?.version;
      }
    }
    const orders = await this.orders.find({ emailKey: email }).lean();
    for (const d of orders) {
      const after = anonymisedOrder(docToOrder(d as OrderDoc), who);
      await this.orders.updateOne(
        { _id: d._id },
        {
          $set: { customerName: after.customerName, customerEmail: after.customerEmail, emailKey: after.customerEmail.toLowerCase(), delivery: after.delivery, note: after.note, search: orderSearchText(after), updatedAt: at },
          $inc: { version: 1 },
        },
      );
    }
    return { requests: entries.length, orders: orders.length };
  }

  async getOrder(id: string): Promise<OrderRecord | null> {
    const d = await this.orders.findById(id).lean();
    return !d || d.pendingSince ? null : docToOrder(d as OrderDoc);
  }

  /** A conditional update on the version carrying the mails and events, finished as updateInbox's are. */
  async updateOrder(id: string, expectedVersion: number, change: OrderChange): Promise<OrderRecord | 'conflict' | null> {
    const d = await this.orders.findById(id).lean();
    if (!d || d.pendingSince) return null;
    if (d.version !== expectedVersion) return 'conflict';
    const version = expectedVersion + 1;
    const events: EventDoc[] = change.events.map((e, i) => ({ ...e, _id: `${d.quoteId}:o${id}:${String(version).padStart(9, '0')}:${i}`, itemId: d.quoteId }));
    const set: Record<string, unknown> = { status: change.status, updatedAt: change.updatedAt, version, unqueuedMails: JSON.stringify(change.mails), unrecordedEvents: JSON.stringify(events) };
    if (change.shipment !== undefined) set.shipment = change.shipment;
    if (change.cancelReason !== undefined) set.cancelReason = change.cancelReason;
    if (change.webhooks?.length) set.unqueuedWebhooks = JSON.stringify(change.webhooks);
    const res = await this.orders.updateOne({ _id: id, version: expectedVersion }, { $set: set });
    if (res.matchedCount === 0) return 'conflict';
    await this.finishOrderChange(id, set.unqueuedMails as string, set.unrecordedEvents as string, set.unqueuedWebhooks as string | undefined);
    const { unqueuedMails: _m, unrecordedEvents: _e, unqueuedWebhooks: _w, ...fields } = set;
    return docToOrder({ ...(d as OrderDoc), ...fields } as OrderDoc);
  }

  private async finishOrderChange(id: string, mails: string | undefined, events: string | undefined, webhooks?: string) {
    await this.finishChange(id, mails, events, undefined, webhooks);
    await this.orders.updateOne({ _id: id }, { $unset: { unqueuedMails: 1, unrecordedEvents: 1, unqueuedWebhooks: 1 } });
  }

  /** One delivery per endpoint that wants each event; written again by a recovery, each stays one (its _id). */
  private async insertDeliveries(emits: WebhookEmit[]) {
    const endpoints = await this.webhookEndpoints.find({ deletedAt: null }, { events: 1 }).lean();
    const now = new Date();
    for (const w of emits) {
      for (const e of endpoints) {
        if (!e.events.includes(w.event)) continue;
        const doc = { endpointId: e._id, event: w.event, body: w.body, status: 'pending', attempts: 0, nextAttemptAt: now, leaseUntil: new Date(0), createdAt: now.toISOString(), lastAttemptAt: null, responseStatus: null, response: '', error: null };
        await this.deliveries.updateOne({ _id: `${w.id}:${e._id}` }, { $setOnInsert: doc }, { upsert: true }).catch((err: unknown) => {
          if (!isDuplicateKey(err)) throw err;
        });
      }
    }
  }

  async saveWebhookEndpoint(e: WebhookEndpointRecord): Promise<void> {
    const { id, ...rest } = e;
    await this.webhookEndpoints.create({ _id: id, ...rest, deletedAt: null });
  }

  async listWebhookEndpoints(): Promise<WebhookEndpointRecord[]> {
    const docs = await this.webhookEndpoints.find({ deletedAt: null }).sort({ createdAt: 1, _id: 1 }).lean();
    return docs.map((d) => ({ id: d._id, url: d.url, events: d.events, description: d.description ?? '', secret: d.secret, createdAt: d.createdAt }));
  }

  async deleteWebhookEndpoint(id: string, at: Date): Promise<boolean> {
    const res = await this.webhookEndpoints.updateOne({ _id: id, deletedAt: null }, { $set: { deletedAt: at.toISOString() } });
    if (res.modifiedCount === 0) return false;
    await this.deliveries.updateMany({ endpointId: id, status: 'pending' }, { $set: { status: 'failed', error: 'The endpoint was removed.' } });
    return true;
  }

  async listWebhookDeliveries(limit: number, endpointId?: string): Promise<WebhookDelivery[]> {
    const docs = await this.deliveries
      .find(endpointId ? { endpointId } : {}, { body: 0 })
      .sort({ createdAt: -1, _id: -1 })
      .limit(limit)
      .lean();
    return docs.map((d) => toDelivery(d as unknown as DeliveryDoc));
  }

  /** As claimDueMails: an attempt is taken by inserting its claim (unique), which decides between claimers. */
  async claimDueDeliveries(now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    await this.recoverUnqueued();
    const candidates = await this.deliveries
      .find({ status: 'pending', nextAttemptAt: { $lte: now }, leaseUntil: { $lte: now } })
      .sort({ nextAttemptAt: 1, _id: 1 })
      .limit(limit * 4)
      .lean();
    const leaseUntil = new Date(now.getTime() + leaseMs);
    const claimed: ClaimedDelivery[] = [];
    for (const d of candidates) {
      if (claimed.length >= limit) break;
      const attempt = d.attempts + 1;
      const claimId = `webhook:${d._id}#${attempt}`;
      try {
        await this.claims.create({ _id: claimId, leaseUntil });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const held = await this.claims.findById(claimId).lean();
        if (held && held.leaseUntil <= now) await this.deliveries.updateOne({ _id: d._id, attempts: d.attempts }, { $set: { attempts: attempt } });
        continue;
      }
      await this.deliveries.updateOne({ _id: d._id }, { $set: { leaseUntil, attempts: attempt } });
      const endpoint = await this.webhookEndpoints.findById(d.endpointId).lean();
      if (!endpoint) continue;
      claimed.push({ id: d._id, endpointId: d.endpointId, event: d.event, body: d.body, attempts: attempt, url: endpoint.url, secret: endpoint.secret });
    }
    return claimed;
  }

  async markDelivery(id: string, r: DeliveryResult): Promise<void> {
    await this.deliveries.updateOne(
      { _id: id, status: 'pending' },
      {
        $set: {
          status: r.status,
          nextAttemptAt: r.nextAttemptAt ?? new Date(0),
          leaseUntil: new Date(0),
          lastAttemptAt: r.at.toISOString(),
          responseStatus: r.responseStatus,
          response: r.response,
          error: r.error,
        },
      },
    );
  }

  private filter(f: InboxFilter, withStatus = true): Record<string, unknown> {
    const q: Record<string, unknown> = { status: withStatus && f.status ? f.status : anyStatus() };
    if (f.kind) q.kind = f.kind;
    if (f.assignee !== undefined) q.assignee = f.assignee;
    if (f.from || f.toExclusive) q.createdAt = { ...(f.from ? { $gte: f.from } : {}), ...(f.toExclusive ? { $lt: f.toExclusive } : {}) };
    const terms = f.q ? searchTerms(f.q) : [];
    if (terms.length) q.$and = terms.map((t) => ({ search: { $regex: escapeRegex(t) } }));
    return q;
  }

  async listInbox(f: InboxFilter, offset: number, limit: number): Promise<InboxPage> {
    const [docs, byStatus] = await Promise.all([
      this.inbox.find(this.filter(f), { search: 0, unqueuedMails: 0, unrecordedEvents: 0 }).sort({ createdAt: -1, _id: -1 }).skip(offset).limit(limit).lean(),
      this.inbox.aggregate<{ _id: InboxStatus; n: number }>([{ $match: this.filter(f, false) }, { $group: { _id: '$status', n: { $sum: 1 } } }]),
    ]);
    const counts = Object.fromEntries(INBOX_STATUSES.map((st) => [st, byStatus.find((r) => r._id === st)?.n ?? 0])) as Record<InboxStatus, number>;
    const total = f.status ? counts[f.status] : byStatus.reduce((sum, r) => sum + r.n, 0);
    const items = docs.map((d) => {
      const { lines: _l, customerPhone: _p, message: _m, ...item } = docToRecord(d as unknown as InboxDoc);
      return item;
    });
    return { items, total, counts };
  }

  async *exportInbox(f: InboxFilter, batchSize = 500): AsyncIterable<InboxRecord> {
    const base = this.filter(f);
    let after: { createdAt: string; id: string } | null = null;
    for (;;) {
      const keyset: Record<string, unknown> = after ? { $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, _id: { $lt: after.id } }] } : {};
      const docs = (await this.inbox.find({ $and: [base, keyset] }, { search: 0 }).sort({ createdAt: -1, _id: -1 }).limit(batchSize).lean()) as unknown as InboxDoc[];
      for (const d of docs) yield docToRecord(d);
      if (docs.length < batchSize) return;
      const last: InboxDoc = docs[docs.length - 1]!;
      after = { createdAt: last.createdAt, id: last._id };
    }
  }

  async getInbox(id: string): Promise<InboxRecord | null> {
    const d = await this.inbox.findById(id, { search: 0, unqueuedMails: 0, unrecordedEvents: 0 }).lean();
    return d ? docToRecord(d as unknown as InboxDoc) : null;
  }

  async inboxHistory(id: string): Promise<InboxEvent[]> {
    const docs = await this.events.find({ itemId: id }).sort({ _id: 1 }).lean();
    return docs.map(docToEvent);
  }

  /**
   * A conditional update on the version (atomic on one document), carrying the change's mails and events; they are
   * then copied to the outbox and history and the fields removed, as saves do (recoverUnqueued finishes a crash).
   */
  async updateInbox(id: string, expectedVersion: number, change: InboxChange): Promise<InboxRecord | 'conflict' | null> {
    const d = await this.inbox.findById(id, { search: 0 }).lean();
    if (!d) return null;
    if (d.version !== expectedVersion) return 'conflict';
    const version = expectedVersion + 1;
    const events: EventDoc[] = change.events.map((e, i) => ({ ...e, _id: `${id}:${String(version).padStart(9, '0')}:${i}`, itemId: id }));
    const set: Record<string, unknown> = { updatedAt: change.updatedAt, version, unqueuedMails: JSON.stringify(change.mails), unrecordedEvents: JSON.stringify(events) };
    if (change.order) set.unsavedOrder = JSON.stringify(change.order);
    if (change.webhooks?.length) set.unqueuedWebhooks = JSON.stringify(change.webhooks);
    if (change.lostReason !== undefined) set.lostReason = change.lostReason;
    if (change.validUntil !== undefined) set.validUntil = change.validUntil;
    if (change.status) set.status = change.status;
    if (change.assignee !== undefined) set.assignee = change.assignee;
    if (change.firstReplyAt && !d.firstReplyAt) set.firstReplyAt = change.firstReplyAt;
    if (change.order && !(await this.claimOrder(change.order))) return 'conflict';
    const res = await this.inbox.updateOne({ _id: id, version: expectedVersion }, { $set: set });
    if (res.matchedCount === 0) {
      if (change.order) await this.orders.deleteOne({ _id: change.order.id, pendingSince: { $ne: null } });
      return 'conflict';
    }
    if (d.kind === 'quote' && change.status) await this.quotes.updateOne({ _id: id }, { $set: { status: change.status } });
    await this.finishChange(id, set.unqueuedMails as string, set.unrecordedEvents as string, set.unsavedOrder as string | undefined, set.unqueuedWebhooks as string | undefined);
    const { unqueuedMails: _m, unrecordedEvents: _e, unsavedOrder: _o, lostReason: _l, validUntil: _v, unqueuedWebhooks: _w, ...fields } = set;
    return docToRecord({ ...(d as InboxDoc), ...fields } as InboxDoc);
  }

  async inboxStats(now: Date): Promise<InboxStats> {
    const t = now.getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    const [week, replied, decided, top, reasons] = await Promise.all([
      this.inbox.countDocuments({ status: anyStatus(), kind: 'quote', createdAt: { $gte: iso(t - 7 * DAY_MS) } }),
      this.inbox.find({ status: anyStatus(), firstReplyAt: { $ne: null }, createdAt: { $gte: iso(t - 90 * DAY_MS) } }, { createdAt: 1, firstReplyAt: 1 }).lean(),
      this.inbox.aggregate<{ _id: string; n: number }>([{ $match: { status: { $in: ['won', 'lost'] } } }, { $group: { _id: '$status', n: { $sum: 1 } } }]),
      // (Grouped on the line's three fields rather than $first: FerretDB has no $first.)
      this.inbox.aggregate<{ _id: { productId: string; productSku: string; productName: string }; requests: number }>([
        { $match: { status: { $in: INBOX_STATUSES.filter((st) => st !== 'spam') }, kind: 'quote', createdAt: { $gte: iso(t - 30 * DAY_MS) } } },
        { $unwind: '$lines' },
        // A free-text line (no catalogue part) is not a part.
        { $match: { 'lines.productId': { $ne: '' } } },
        { $group: { _id: { productId: '$lines.productId', productSku: '$lines.productSku', productName: '$lines.productName' }, requests: { $sum: 1 } } },
        { $sort: { requests: -1, '_id.productSku': 1 } },
        { $limit: 5 },
      ]),
      this.inbox.aggregate<{ _id: string; n: number }>([
        { $match: { status: 'lost', lostReason: { $ne: null } } },
        { $group: { _id: '$lostReason', n: { $sum: 1 } } },
      ]),
    ]);
    const hours = median(replied.map((r) => (Date.parse(r.firstReplyAt!) - Date.parse(r.createdAt)) / 3_600_000));
    const won = decided.find((x) => x._id === 'won')?.n ?? 0;
    const lost = decided.find((x) => x._id === 'lost')?.n ?? 0;
    return {
      requestsThisWeek: week,
      medianHoursToFirstReply: hours === null ? null : Math.round(hours * 10) / 10,
      shareWon: won + lost ? Math.round((won / (won + lost)) * 1000) / 1000 : null,
      topParts: top.map((p) => ({ ...p._id, requests: p.requests })),
      lostReasons: reasons
        .map((r) => ({ reason: r._id as InboxStats['lostReasons'][number]['reason'], requests: r.n }))
        .sort((a, b) => b.requests - a.requests || a.reason.localeCompare(b.reason)),
    };
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

  async saveCaptcha(key: string, answer: number, expiresAt: Date): Promise<void> {
    await this.challenges.create({ _id: key, answer, expiresAt });
  }

  /**
   * The challenge is read, then used up by a unique insert of its key into captcha_used: atomic on MongoDB and on
   * FerretDB alike (FerretDB's findAndModify and conditional updates are not atomic between clients; see
   * claimDueMails), so of simultaneous checks exactly one gets the answer.
   */
  async takeCaptcha(key: string): Promise<CaptchaTake> {
    const c = await this.challenges.findById(key).lean();
    if (!c) return null;
    try {
      await this.captchas.create({ _id: key, expiresAt: c.expiresAt });
    } catch (err) {
      if (isDuplicateKey(err)) return 'used';
      throw err;
    }
    return { answer: c.answer, expiresAt: new Date(c.expiresAt) };
  }

  async purgeCaptchas(expiredBefore: Date): Promise<number> {
    const [challenges] = await Promise.all([
      this.challenges.deleteMany({ expiresAt: { $lt: expiredBefore } }),
      this.captchas.deleteMany({ expiresAt: { $lt: expiredBefore } }),
    ]);
    return challenges.deletedCount;
  }

  /**
   * A unique insert of the next free slot `<recipient>:<day>:<n>` (n <= limit), counted first so that the usual
   * case is one insert; a simultaneous taker who got the same n makes this one try n + 1. Slots are never deleted
   * within their day, so the count only grows and no two takers share a slot (unique inserts are atomic everywhere).
   */
  async takeMailQuota(recipient: string, day: string, limit: number): Promise<boolean> {
    let n = (await this.quotas.countDocuments({ recipient, day })) + 1;
    for (; n <= limit; n++) {
      try {
        await this.quotas.create({ _id: `${recipient}:${day}:${n}`, recipient, day });
        return true;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
    return false;
  }

  async purgeMailQuotas(beforeDay: string): Promise<void> {
    await this.quotas.deleteMany({ day: { $lt: beforeDay } });
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

  async backlog(): Promise<OutboxBacklog> {
    // Only mails not yet sent (a handful, unless the mail server is out), by the (status, nextAttemptAt) index.
    const waiting = await this.outbox.find({ status: 'pending' }, { _id: 0, attempts: 1, createdAt: 1 }).lean<Pick<OutboxDoc, 'attempts' | 'createdAt'>[]>();
    let oldest: Date | null = null;
    for (const m of waiting) if (!oldest || m.createdAt < oldest) oldest = m.createdAt;
    return { pending: waiting.length, failing: waiting.filter((m) => m.attempts > 0).length, oldestAt: oldest };
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

/**
 * The queries this adapter sends that no index serves by the ESR rule, each with why that is deliberate. The mongo
 * suite fails on any other query no index serves (test/quote-store.test.ts, docs/operating.md#indexes); a shape is
 * written as that check prints it.
 */
export const UNINDEXED_QUERIES: { shape: string; reason: string }[] = [
  { shape: 'quote_requests aggregate {} then $group', reason: 'countQuoteRequests: called by tests only, no route or job' },
  { shape: 'contact_messages aggregate {} then $group', reason: 'countContactMessages: called by tests only, no route or job' },
  { shape: 'outbox find {} sort {"createdAt":1,"_id":1}', reason: 'listMails() without a reference: called by tests only, no route or job' },
];
