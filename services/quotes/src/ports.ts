import type { OutboxBacklog } from '@forgeline/mailer/outbox';
import type { ContactMessage, QuoteRequest } from '@forgeline/contracts/quotes';
import type { InboxEvent, InboxItem, InboxLine, InboxStats, InboxStatus } from '@forgeline/contracts/quote-inbox';
import type { MailMessage } from '@forgeline/mailer/mailer';
import type { QuoteDeclineReason } from '@forgeline/contracts/quote-view';
import type { OrderStatus } from '@forgeline/contracts/orders';
import type { WebhookDelivery, WebhookEvent } from '@forgeline/contracts/webhooks';

/** What a quote needs to know about a product. */
export interface ProductRef {
  id: string;
  name: string;
  sku: string;
  partNumber: string;
}

/** Thrown by a ProductCatalog that cannot answer (down, timing out, 5xx): the request is refused with 503. */
export class CatalogUnavailableError extends Error {
  override name = 'CatalogUnavailableError';
}

/** The catalogue, asked whether a product exists. */
export interface ProductCatalog {
  /** The product, or null when the catalogue says it does not exist; throws CatalogUnavailableError otherwise. */
  find(id: string, requestId?: string): Promise<ProductRef | null>;
}

/** A mail waiting in the outbox. Its id is stable (e.g. `quote-<id>-buyer`) and doubles as the Message-ID. */
export interface OutboxMail {
  id: string;
  /** The quote request or contact message it belongs to. */
  refId: string;
  message: MailMessage;
}

export interface OutboxEntry extends OutboxMail {
  status: 'pending' | 'sent';
  /** Attempts started so far (a claimed mail counts its current attempt). */
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  sentAt: Date | null;
}

/** An inbox entry as stored: a quote request or a contact message, with what staff did to it. */
export interface InboxRecord extends InboxItem {
  lines: InboxLine[];
  customerPhone: string;
  message: string;
}

/** The inbox list's filters, normalised by the app: dates as ISO instants, `to` exclusive. */
export interface InboxFilter {
  status?: InboxStatus;
  kind?: InboxRecord['kind'];
  /** An admin's e-mail; null: nobody's. */
  assignee?: string | null;
  q?: string;
  from?: string;
  toExclusive?: string;
}

export interface InboxPage {
  items: InboxItem[];
  total: number;
  /** Per status, under every filter but the status. */
  counts: Record<InboxStatus, number>;
}

/** A line as a reply priced it (the history's reply event). */
export type QuotedLine = NonNullable<InboxEvent['reply']>['lines'][number];

/** One line of an order: as quoted in the version accepted, at the quantity ordered. */
export interface OrderLine extends QuotedLine {
  productId: string;
}

export type { OrderStatus };

/** An order: what a buyer's accept of a quote version made. */
export interface OrderRecord {
  id: string;
  /** Human-friendly and sequential per year of its creation: `2026-00042` (QuoteStore.nextOrderNumber). */
  number: string;
  quoteId: string;
  quoteVersion: number;
  status: OrderStatus;
  poNumber: string;
  /** The buyer's PO document, in the documents store under `key` (the name is the buyer's, for display only). */
  poDocument: { key: string; name: string; size: number } | null;
  delivery: { company: string; address: string; contactName: string; contactPhone: string };
  note: string;
  lines: OrderLine[];
  customerName: string;
  customerEmail: string;
  /** Set when it is shipped. */
  shipment: { carrier: string; trackingNumber: string } | null;
  /** Set when it is cancelled. */
  cancelReason: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** A buyer's request with what its row shows: its history (the priced versions) and its order, read for the page at once. */
export interface BuyerQuoteRecord {
  record: InboxRecord;
  history: InboxEvent[];
  order: OrderRecord | null;
}

/** The orders list's filters, normalised by the app: dates as ISO instants, `to` exclusive. */
export interface OrderFilter {
  status?: OrderStatus;
  q?: string;
  from?: string;
  toExclusive?: string;
}

export interface OrderPage {
  items: OrderRecord[];
  total: number;
  /** Per status, under every filter but the status. */
  counts: Record<OrderStatus, number>;
}

/** What one staff change to an order sets and records (in its request's history), with the mail to the buyer. */
export interface OrderChange {
  status: OrderStatus;
  shipment?: OrderRecord['shipment'];
  cancelReason?: string;
  updatedAt: string;
  events: InboxEvent[];
  mails: OutboxMail[];
  /** Webhook events it causes, queued with it. */
  webhooks?: WebhookEmit[];
}

/** A webhook endpoint as stored: with the secret its deliveries are signed with. */
export interface WebhookEndpointRecord {
  id: string;
  url: string;
  events: WebhookEvent[];
  description: string;
  secret: string;
  createdAt: string;
}

/** An event for the webhooks, written with the change that caused it: one delivery per endpoint that wants it. */
export interface WebhookEmit {
  /** The event's id (the body's `id`); each delivery's id is `<this>:<endpoint id>`. */
  id: string;
  event: WebhookEvent;
  /** The JSON body sent. */
  body: string;
}

/** A delivery claimed for an attempt, with what sending it takes. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  event: WebhookEvent;
  body: string;
  /** Attempts started so far, this one included. */
  attempts: number;
  url: string;
  secret: string;
}

/** An attempt's outcome: delivered, to be tried again at nextAttemptAt (pending), or given up (failed). */
export interface DeliveryResult {
  status: WebhookDelivery['status'];
  at: Date;
  nextAttemptAt: Date | null;
  responseStatus: number | null;
  response: string;
  error: string | null;
}

/** A quote about to expire: whom to remind, and of which day. */
export interface ExpiringQuote {
  id: string;
  customerName: string;
  customerEmail: string;
  subject: string;
  validUntil: string;
}

/** A buyer's capability link to their quote page: only the SHA-256 of its token is kept. */
export interface QuoteLink {
  tokenHash: string;
  quoteId: string;
  createdAt: string;
  revokedAt: string | null;
}

/** What one staff action (or a buyer's answer on their quote page) changes (only the fields given) and records. */
export interface InboxChange {
  status?: InboxStatus;
  /** The reason a buyer declined with (kept for the stats while the request stays lost); null clears it. */
  lostReason?: QuoteDeclineReason | null;
  /** An accept's order: stored with the change (at most one per request). */
  order?: OrderRecord;
  /** A quote reply's last valid day (YYYY-MM-DD), kept on the request for the expiry reminders. */
  validUntil?: string;
  /** Webhook events it causes, queued with it. */
  webhooks?: WebhookEmit[];
  assignee?: string | null;
  firstReplyAt?: string;
  updatedAt: string;
  events: InboxEvent[];
  /** Mails to send with the change (a reply), stored with it: once the update resolves they are in the outbox. */
  mails: OutboxMail[];
}

/** What a captcha check finds: the challenge (now used up), 'used' when it was taken before, null when unknown. */
export type CaptchaTake = { answer: number; expiresAt: Date } | 'used' | null;

/** The math captchas' answers, kept server-side under a hash of their token (see domain/captcha.ts). */
export interface CaptchaStore {
  /** Keeps a new challenge: the expected sum and the expiry under the token's hash. */
  saveCaptcha(key: string, answer: number, expiresAt: Date): Promise<void>;
  /**
   * Uses the challenge up and gives its answer and expiry, expired or not: only the first call for a key gets them,
   * even among simultaneous calls from several processes; later ones get 'used'. null: no such challenge.
   */
  takeCaptcha(key: string): Promise<CaptchaTake>;
  /** Deletes the challenges (used or not) that expired before `expiredBefore`; answers how many. */
  purgeCaptchas(expiredBefore: Date): Promise<number>;
}

/** The buyer's confirmation of a request, and the count it takes one from. */
export interface ConfirmationQuota {
  mailId: string;
  recipient: string;
  day: string;
  limit: number;
}

/** Per recipient and day, how many buyer confirmations were queued (see domain/confirmation-limit.ts). */
export interface MailQuotaStore {
  /**
   * Takes one of the `limit` confirmations `recipient` (a hashed, normalised address) may get on `day` (YYYY-MM-DD,
   * UTC): true when one was left. Atomic across processes: simultaneous takers never get more than `limit` together.
   */
  takeMailQuota(recipient: string, day: string, limit: number): Promise<boolean>;
  /** Forgets the counts of the days before `day`. */
  purgeMailQuotas(beforeDay: string): Promise<void>;
}

/**
 * The quotes service's storage: quote requests, contact messages, the mail outbox, the captcha challenges and the
 * confirmations counted per recipient. A record and its mails are stored together: once save* resolves, both
 * survive a crash.
 */
export interface QuoteStore extends CaptchaStore, MailQuotaStore {
  /**
   * With `confirmation`, its mail (`mailId`, one of `mails`) is queued only when one of the recipient's confirmations
   * for the day is left, taken as takeMailQuota does; where the store can, in the same transaction as the save (a save
   * that fails uses none). `confirmed` says whether it was queued.
   */
  saveQuoteRequest(quote: QuoteRequest, mails: OutboxMail[], confirmation?: ConfirmationQuota): Promise<{ confirmed: boolean }>;
  saveContactMessage(contact: ContactMessage, mails: OutboxMail[]): Promise<void>;
  getQuoteRequest(id: string): Promise<QuoteRequest | null>;
  getContactMessage(id: string): Promise<ContactMessage | null>;
  countQuoteRequests(): Promise<number>;
  countContactMessages(): Promise<number>;

  /**
   * Claims up to `limit` pending mails due at `now` for `leaseMs`: each claimed mail's attempts grow by one and no
   * other claimer gets it until the lease ends or it is marked. The claim is atomic across processes.
   */
  claimDueMails(now: Date, limit: number, leaseMs: number): Promise<OutboxEntry[]>;
  markSent(id: string, at: Date): Promise<void>;
  markFailed(id: string, nextAttemptAt: Date, error: string): Promise<void>;
  /** What waits in the outbox (#37 metrics): mails not yet sent, those that failed at least once, the oldest's creation. */
  backlog(): Promise<OutboxBacklog>;
  /** Every outbox entry (of one record when refId is given), oldest first. */
  listMails(refId?: string): Promise<OutboxEntry[]>;
  outboxCounts(): Promise<{ pending: number; sent: number }>;

  /** The inbox, newest first. */
  listInbox(filter: InboxFilter, offset: number, limit: number): Promise<InboxPage>;
  /** Every entry under the filter, newest first, read in batches (the CSV export). */
  exportInbox(filter: InboxFilter, batchSize?: number): AsyncIterable<InboxRecord>;
  getInbox(id: string): Promise<InboxRecord | null>;
  /** The entry's history, oldest first. */
  inboxHistory(id: string): Promise<InboxEvent[]>;
  /**
   * Applies `change` when the entry is still at `expectedVersion` (its version then grows by one): the fields, the
   * events and the mails together. 'conflict' when someone changed it meanwhile, null when there is no such entry.
   */
  updateInbox(id: string, expectedVersion: number, change: InboxChange): Promise<InboxRecord | 'conflict' | null>;
  inboxStats(now: Date): Promise<InboxStats>;

  /** Keeps a new quote link (its token's hash). */
  saveQuoteLink(link: QuoteLink): Promise<void>;
  /** The link with this token hash, revoked or not; null when there is none. */
  findQuoteLink(tokenHash: string): Promise<QuoteLink | null>;
  /** Revokes every live link of a request; answers how many. */
  revokeQuoteLinks(quoteId: string, at: string): Promise<number>;
  /** The order a request's accept made, if any. */
  getOrderByQuote(quoteId: string): Promise<OrderRecord | null>;
  /**
   * The next order number of `year` (`2026-00042`), taken atomically across processes. Taken before the accept is
   * written, so its mails can name it: an accept that then loses a race leaves a gap, never a duplicate.
   */
  nextOrderNumber(year: string): Promise<string>;
  /** Quoted requests (status quoted) whose latest version's last valid day is from `fromDay` to `toDay`, at most `limit`. */
  listExpiringQuotes(fromDay: string, toDay: string, limit: number): Promise<ExpiringQuote[]>;
  /** Puts mails in the outbox; one whose id is there already is left as it is. Answers how many went in. */
  enqueueMails(mails: OutboxMail[]): Promise<number>;

  saveWebhookEndpoint(e: WebhookEndpointRecord): Promise<void>;
  /** The endpoints not removed, oldest first. */
  listWebhookEndpoints(): Promise<WebhookEndpointRecord[]>;
  /** Removes an endpoint; its deliveries not yet made are given up. false: no such endpoint. */
  deleteWebhookEndpoint(id: string, at: Date): Promise<boolean>;
  /** The latest deliveries, newest first (of one endpoint when given). */
  listWebhookDeliveries(limit: number, endpointId?: string): Promise<WebhookDelivery[]>;
  /** As claimDueMails, for webhook deliveries: atomic across processes, each claimed one's attempts grown by one. */
  claimDueDeliveries(now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  markDelivery(id: string, result: DeliveryResult): Promise<void>;
  /** The orders, newest first. */
  listOrders(filter: OrderFilter, offset: number, limit: number): Promise<OrderPage>;
  getOrder(id: string): Promise<OrderRecord | null>;
  /**
   * Applies `change` when the order is still at `expectedVersion` (its version then grows by one), with its events
   * (in the order's request's history) and mails. 'conflict' when someone changed it meanwhile; null: no such order.
   */
  updateOrder(id: string, expectedVersion: number, change: OrderChange): Promise<OrderRecord | 'conflict' | null>;

  /**
   * A buyer company's own (issue 35): the quote requests whose address is one of `emails` (lower-case; addresses are
   * compared whatever their case), spam left out, newest first; and its orders.
   */
  listBuyerQuotes(emails: string[], status: InboxStatus | undefined, offset: number, limit: number): Promise<{ items: BuyerQuoteRecord[]; total: number }>;
  listBuyerOrders(emails: string[], offset: number, limit: number): Promise<{ items: OrderRecord[]; total: number }>;
  /**
   * Takes the person of `email` (lower-case; any case matches) out of their requests and orders, which stay (the
   * seller's records), as domain/company-history.ts says: each request's history without them and a note that it
   * happened (its version grows by one), its quote-page links revoked, its sent mails' copies emptied. Idempotent: a
   * run cut short is finished by the next (a request's address is replaced last).
   */
  anonymiseBuyer(email: string, who: { name: string; email: string }, at: string): Promise<{ requests: number; orders: number }>;

  ping(): Promise<boolean>;
  close(): Promise<void>;
}
