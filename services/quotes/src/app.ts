import { counter } from '@forgeline/service-kit/metrics';
import { randomUUID } from 'node:crypto';
import express, { type Express, type Request, type RequestHandler } from 'express';
import {
  ContactInputSchema,
  QUOTE_STATUS_PENDING,
  QuoteRequestInputSchema,
  type ContactMessage,
  type ContactResponse,
  type QuoteLine,
  type QuoteRequestParsed,
  type QuoteRequest,
  type QuoteRequestResponse,
} from '@forgeline/contracts/quotes';
import { ADMIN_EMAIL_HEADER } from '@forgeline/contracts/auth';
import {
  INBOX_STATUS_LABELS,
  INBOX_TRANSITIONS,
  InboxPatchSchema,
  InboxQuerySchema,
  InboxReplySchema,
  canMove,
  type InboxDetail,
  type InboxEvent,
  type InboxListResponse,
  type InboxStaffResponse,
  type InboxStatus,
} from '@forgeline/contracts/quote-inbox';
import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError, parseInput } from '@forgeline/service-kit/errors';
import { createServiceApp, finishApp, route } from '@forgeline/service-kit/http';
import type { Logger } from '@forgeline/service-kit/logger';
import { createRateLimiter } from '@forgeline/service-kit/rate-limit';
import type { Redis } from '@forgeline/service-kit/redis';
import type { Captchas } from './domain/captcha.ts';
import { ConfirmationLimit, maskEmail } from './domain/confirmation-limit.ts';
import { DAY_MS, INBOX_CSV_HEADER, inboxCsvRow, safeCell } from './domain/inbox.ts';
import { buyerAnswerMails, buyerConfirmationId, contactMails, orderStatusMail, quoteMails, replyMail, type MailSettings } from './domain/mails.ts';
import { orderTotals } from './domain/orders.ts';
import { webhookEmit } from './domain/webhook-events.ts';
import { checkWebhookUrl, newWebhookSecret, WebhookUrlError } from './domain/webhook-delivery.ts';
import {
  WEBHOOK_LIMITS,
  WebhookEndpointInputSchema,
  type WebhookEndpoint,
  type WebhookListResponse,
} from '@forgeline/contracts/webhooks';
import {
  ORDER_STATUS_LABELS,
  ORDER_TRANSITIONS,
  OrderPatchSchema,
  OrderQuerySchema,
  type Order,
  type OrderListResponse,
} from '@forgeline/contracts/orders';
import { renderQuotePdf, type QuoteSeller } from './domain/quote-pdf.ts';
import { PO_DOCUMENT_MAX_BYTES, poDocumentKey, receiveAcceptWithDocument, type ReceivedAccept } from './po-document-upload.ts';
import type { ObjectStore } from '@forgeline/object-store/ports';
import { addBuyerHistoryRoutes } from './routes/buyer-history.ts';
import { isAnonymised } from './domain/company-history.ts';
import { buyerQuoteView, hashQuoteToken, quotePdfName, linkOpens, newQuoteToken, quoteVersions, quoteViewUrl, type QuoteViewSettings } from './domain/quote-view.ts';
import {
  QUOTE_DECLINE_REASON_LABELS,
  QUOTE_TOKEN_PATTERN,
  QuoteAcceptSchema,
  QuoteChangesSchema,
  QuoteDeclineSchema,
  QuotePdfQuerySchema,
  type QuoteAcceptResponse,
  type QuoteView,
} from '@forgeline/contracts/quote-view';
import {
  CatalogUnavailableError,
  type InboxChange,
  type InboxFilter,
  type InboxRecord,
  type OrderFilter,
  type OrderRecord,
  type ProductCatalog,
  type ProductRef,
  type QuoteStore,
} from './ports.ts';

/** What buyers ask and staff answer (#37): requests stored and replies sent, by kind (quote or contact message). */
const quoteRequests = counter('quote_requests_total', 'Quote requests and contact messages stored, by kind', ['kind']);
const quoteReplies = counter('quote_replies_total', 'Replies sent from the inbox, by the kind of request', ['kind']);

export interface RateLimits {
  windowMs: number;
  quote: number;
  contact: number;
  captcha: number;
  /** The buyer's quote page and its answers (GET and POST /api/quote-view/...), per client address. */
  quoteView: number;
  /** Buyer confirmations to one recipient address per UTC day, whoever sends (counted in the store). */
  confirmationsPerDay: number;
}

export interface QuotesDeps {
  logger: Logger;
  store: QuoteStore;
  catalog: ProductCatalog;
  captcha: Captchas;
  mail: MailSettings;
  /** Told when new mail is in the outbox (the Outbox's kick). */
  outbox: { kick(): void };
  rateLimits: RateLimits;
  /** REDIS_URL's connection: the rate limits count across every quotes replica. Absent: in this process. */
  redis?: Redis;
  /** JSON body limit; bigger bodies get 413. */
  bodyLimit?: string;
  /** ADMIN_EMAILS: who may be assigned a request. */
  adminEmails: string[];
  /** SERVICE_TOKEN: admin routes need the gateway's assertion signed with it. */
  serviceToken: string;
  /** The buyers' quote links: where they point, how long they open. */
  quoteView: QuoteViewSettings;
  /** Who the quote PDFs say they are from (site-config). */
  seller: QuoteSeller;
  /** The webhook outbox: told when deliveries were queued. allowPrivate: the tests' receivers on loopback. */
  webhooks: { kick(): void; allowPrivate?: boolean };
  /** Where buyers' purchase-order documents are kept: a folder (DATA_DIR/quote-documents) or a MinIO/S3 bucket. */
  documents: ObjectStore;
  /** Where an upload is streamed before it is checked and stored (removed after each request). */
  tmpDir: string;
  /** A PO document's size limit (QUOTE_PO_DOCUMENT.maxMb by default; a test lowers it). */
  poDocumentMaxBytes?: number;
}

export const QUOTE_RECEIVED = 'Quote request received. We will reply within 24 hours.';
export const CONTACT_RECEIVED = "Thank you for contacting us. We'll get back to you soon!";
const CATALOG_DOWN = 'We cannot check the product right now. Please try again in a minute, or contact us via WhatsApp.';

const requestId = (req: Request) => (req as { id?: string }).id;

/** Per client address (the gateway passes it in X-Forwarded-For; the service trusts loopback and private proxies). */
function limiter(name: string, limit: number, windowMs: number, what: string, deps: QuotesDeps): RequestHandler {
  const minutes = Math.max(1, Math.round(windowMs / 60_000));
  return createRateLimiter({
    name: `quotes:${name}`,
    windowMs,
    limit,
    logger: deps.logger,
    redis: deps.redis,
    handler: (req, res) => {
      req.log?.warn({ ip: req.ip, what }, 'rate limit reached');
      res.status(429).json({
        message: `Too many ${what} from your address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or contact us via WhatsApp.`,
        requestId: requestId(req),
      });
    },
  });
}

export function createApp(deps: QuotesDeps): Express {
  const { store, logger } = deps;
  const app = createServiceApp({
    name: 'quotes',
    logger,
    adminGuard: { serviceToken: deps.serviceToken },
    jsonLimit: false,
    ready: () => store.ping(),
  });
  // Staff's notes and replies (up to 10,000 characters) get room; a buyer's form keeps the small limit.
  app.use('/api/admin', express.json({ limit: '128kb' }));
  // The gateway's anonymising: a company's members' addresses (up to 200).
  app.use('/internal/buyers', express.json({ limit: '128kb' }));
  app.use(express.json({ limit: deps.bodyLimit ?? '16kb' }));
  const rl = deps.rateLimits;
  const confirmations = new ConfirmationLimit(store, rl.confirmationsPerDay);

  app.post(
    '/api/quote-requests',
    limiter('quote', rl.quote, rl.windowMs, 'quote requests', deps),
    route(async (req, res) => {
      const input = parseInput(QuoteRequestInputSchema, req.body, 'body');
      if (input.website) {
        // The honeypot is filled: a bot. It sees what a person sees; nothing is stored or sent.
        req.log.warn({ ip: req.ip }, 'honeypot filled: quote request dropped');
        res.status(201).json({ success: true, id: randomUUID(), status: QUOTE_STATUS_PENDING, message: QUOTE_RECEIVED } satisfies QuoteRequestResponse);
        return;
      }
      if (input.captchaToken) {
        const check = await deps.captcha.check(input.captchaToken, input.captchaAnswer ?? Number.NaN);
        if (!check.ok) {
          req.log.warn({ reason: check.reason }, 'quote request captcha refused');
          throw new HttpError(400, check.message, [{ path: 'captchaAnswer', message: check.reason }]);
        }
      }
      const lines = await resolveLines(deps.catalog, input, req);
      const first = lines[0]!;
      const quote: QuoteRequest = {
        id: randomUUID(),
        productId: first.productId ?? '',
        productName: first.productId ? first.productName : (first.text ?? ''),
        productSku: first.productSku,
        customerName: input.customerName,
        customerEmail: input.customerEmail,
        customerPhone: input.customerPhone,
        customerCountry: input.customerCountry,
        quantity: first.quantity,
        message: input.message,
        status: QUOTE_STATUS_PENDING,
        createdAt: new Date().toISOString(),
        ...(input.lines ? { lines } : {}),
      };
      // Taken with the save: a refused request (400, 503) or a failed save uses none of the recipient's confirmations.
      const quota = await confirmations.quotaFor(quote.customerEmail, buyerConfirmationId(quote.id));
      const { confirmed } = await store.saveQuoteRequest(quote, quoteMails(quote, deps.mail), quota);
      if (!confirmed) {
        req.log.warn(
          { quoteId: quote.id, recipient: quota.recipient.slice(0, 12), to: maskEmail(quote.customerEmail), perDay: confirmations.perDay },
          "buyer confirmation not queued: the recipient's daily limit is reached (request stored, seller notified)",
        );
      }
      deps.outbox.kick();
      req.log.info({ quoteId: quote.id, productId: quote.productId, quantity: quote.quantity, lines: lines.length }, 'quote request stored');
      quoteRequests.inc({ kind: 'quote' });
      res.status(201).json({ success: true, id: quote.id, status: quote.status, message: QUOTE_RECEIVED } satisfies QuoteRequestResponse);
    }),
  );

  app.get(
    '/api/captcha',
    limiter('captcha', rl.captcha, rl.windowMs, 'security checks', deps),
    route(async (_req, res) => {
      const captcha = await deps.captcha.issue();
      res.setHeader('cache-control', 'no-store');
      res.json(captcha);
    }),
  );

  app.post(
    '/api/contact',
    limiter('contact', rl.contact, rl.windowMs, 'messages', deps),
    route(async (req, res) => {
      const input = parseInput(ContactInputSchema, req.body, 'body');
      if (input.website) {
        req.log.warn({ ip: req.ip }, 'honeypot filled: contact message dropped');
        res.json({ success: true, message: CONTACT_RECEIVED } satisfies ContactResponse);
        return;
      }
      const check = await deps.captcha.check(input.captchaToken, input.captchaAnswer);
      if (!check.ok) {
        req.log.warn({ reason: check.reason }, 'contact captcha refused');
        throw new HttpError(400, check.message, [{ path: 'captchaAnswer', message: check.reason }]);
      }
      const contact: ContactMessage = {
        id: randomUUID(),
        name: input.name,
        email: input.email,
        countryCode: input.countryCode,
        phone: input.phone,
        subject: input.subject,
        message: input.message,
        createdAt: new Date().toISOString(),
      };
      await store.saveContactMessage(contact, contactMails(contact, deps.mail));
      deps.outbox.kick();
      req.log.info({ contactId: contact.id }, 'contact message stored');
      quoteRequests.inc({ kind: 'contact' });
      res.json({ success: true, message: CONTACT_RECEIVED } satisfies ContactResponse);
    }),
  );

  addInboxRoutes(app, deps);
  addQuoteViewRoutes(app, deps);
  addOrderRoutes(app, deps);
  addWebhookRoutes(app, deps);
  addBuyerHistoryRoutes(app, deps);
  return finishApp(app, logger);
}

/**
 * The request's lines with each product's name, SKU and part number as the catalogue has them now (a single-product
 * body is one line). An unknown product is a 400 naming its line; a catalogue that cannot answer, a 503.
 */
async function resolveLines(catalog: ProductCatalog, input: QuoteRequestParsed, req: Request): Promise<QuoteLine[]> {
  const asked = input.lines ?? [{ productId: input.productId, quantity: input.quantity, text: undefined, note: undefined }];
  const ids = [...new Set(asked.map((l) => l.productId).filter((id): id is string => Boolean(id)))];
  const found = new Map<string, ProductRef | null>();
  try {
    // A few at a time: a 200-line list is not 200 requests at once to the catalogue.
    for (let i = 0; i < ids.length; i += 8) {
      const batch = ids.slice(i, i + 8);
      const products = await Promise.all(batch.map((id) => catalog.find(id, requestId(req))));
      batch.forEach((id, j) => found.set(id, products[j] ?? null));
    }
  } catch (err) {
    if (err instanceof CatalogUnavailableError) {
      req.log.error({ err: err.message, products: ids.length }, 'catalog unavailable: quote request refused, nothing stored');
      throw new HttpError(503, CATALOG_DOWN);
    }
    throw err;
  }
  const unknown = asked.map((l, i) => ({ l, i })).filter(({ l }) => l.productId && !found.get(l.productId));
  if (unknown.length) {
    const { l, i } = unknown[0]!;
    const path = input.lines ? `lines.${i}.productId` : 'productId';
    const where = input.lines ? ` (line ${i + 1}${unknown.length > 1 ? ` and ${unknown.length - 1} more` : ''})` : '';
    throw new HttpError(400, `Unknown product: no product has the id "${l.productId}"${where}.`, unknown.map((u) => ({
      path: input.lines ? `lines.${u.i}.productId` : path,
      message: 'no such product',
    })));
  }
  return asked.map((l) => {
    const p = l.productId ? found.get(l.productId)! : null;
    return {
      productId: p?.id ?? null,
      productName: p?.name ?? '',
      productSku: p?.sku ?? '',
      partNumber: p?.partNumber ?? '',
      text: p ? null : (l.text ?? ''),
      quantity: l.quantity,
      note: l.note ?? '',
    };
  });
}

const NOT_FOUND = (id: string) => `No quote request or message has the id "${id}".`;

/** The signed-in admin, as the gateway's admin check names them; a request that did not pass it is refused. */
function adminOf(req: Request): string {
  const email = req.header(ADMIN_EMAIL_HEADER)?.trim().toLowerCase();
  if (!email) throw new HttpError(401, 'Sign-in required: the inbox is for signed-in staff.');
  return email;
}

/** The version a change is based on: If-Match ("v3", W/"v3" or 3) or the body's `version`. */
function expectedVersion(req: Request, bodyVersion: number | undefined): number {
  const header = req.header('if-match');
  if (header) {
    const m = /^(?:W\/)?"?v?(\d+)"?$/.exec(header.trim());
    if (!m) throw new HttpError(400, 'If-Match must be the ETag of the request as read (e.g. "v3").', [{ path: 'If-Match', message: 'not an ETag of this API' }]);
    return Number(m[1]);
  }
  if (bodyVersion !== undefined) return bodyVersion;
  throw new HttpError(428, 'Send the version you read (If-Match: "v<version>", or "version" in the body), so a change made meanwhile is not overwritten.', [
    { path: 'If-Match', message: 'is required' },
  ]);
}

const etag = (version: number) => `"v${version}"`;

/** 409: the request changed since the caller read it. */
const staleVersion = (now: number | string) =>
  new HttpError(409, `Someone else changed this request meanwhile (it is now at version ${now}). Reload it and try again.`, [
    { path: 'If-Match', message: 'stale version' },
  ]);

/** 400: an assignee that is not one of ADMIN_EMAILS. */
const notStaff = (where: 'query' | 'body', admins: string[], alternative: string) =>
  new HttpError(400, `Invalid ${where}: assignee must be one of the staff (${admins.join(', ')}) or ${alternative}`, [
    { path: 'assignee', message: 'not a staff address' },
  ]);

/** ?from=2026-11-01&to=2026-11-30: `to` takes in the whole day. */
function toFilter(q: ReturnType<typeof InboxQuerySchema.parse>, admins: string[]): InboxFilter {
  let assignee: string | null | undefined;
  if (q.assignee === 'none') assignee = null;
  else if (q.assignee !== undefined) {
    if (!admins.includes(q.assignee)) throw notStaff('query', admins, '"none"');
    assignee = q.assignee;
  }
  const from = q.from ? new Date(q.from).toISOString() : undefined;
  const toExclusive = q.to ? new Date(Date.parse(q.to) + (q.to.length === 10 ? DAY_MS : 1)).toISOString() : undefined;
  if (from && toExclusive && from >= toExclusive) throw new HttpError(400, 'Invalid query: from must be before to', [{ path: 'from', message: 'after to' }]);
  return { status: q.status, kind: q.kind, assignee, q: q.q, from, toExclusive };
}

async function detail(store: QuoteStore, r: InboxRecord): Promise<InboxDetail> {
  return { ...r, history: await store.inboxHistory(r.id) };
}

function refuseMove(from: InboxStatus, to: InboxStatus): never {
  const allowed = INBOX_TRANSITIONS[from].map((s) => INBOX_STATUS_LABELS[s]).join(', ');
  throw new HttpError(409, `A request that is ${INBOX_STATUS_LABELS[from]} cannot move to ${INBOX_STATUS_LABELS[to]}; it can move to: ${allowed}.`, [
    { path: 'status', message: `not allowed from ${from}` },
  ]);
}

/** The staff inbox (behind the gateway's admin session): list, read, work, reply, export, numbers. */
function addInboxRoutes(app: Express, deps: QuotesDeps) {
  const { store } = deps;

  const apply = async (req: Request, record: InboxRecord, version: number, change: InboxChange) => {
    const out = await store.updateInbox(record.id, version, change);
    if (out === null) throw new HttpError(404, NOT_FOUND(record.id));
    if (out === 'conflict') throw staleVersion((await store.getInbox(record.id))?.version ?? '?');
    req.log.info({ quoteId: record.id, admin: change.events[0]?.actor, events: change.events.map((e) => e.type), status: out.status }, 'inbox request changed');
    return out;
  };

  const load = async (id: string) => {
    const r = await store.getInbox(id);
    if (!r) throw new HttpError(404, NOT_FOUND(id));
    return r;
  };

  app.get(
    '/api/admin/quotes',
    route(async (req, res) => {
      adminOf(req);
      const q = parseInput(InboxQuerySchema, req.query, 'query');
      const page = await store.listInbox(toFilter(q, deps.adminEmails), (q.page - 1) * q.limit, q.limit);
      res.setHeader('cache-control', 'no-store');
      res.json({
        items: page.items,
        pagination: { page: q.page, limit: q.limit, total: page.total, totalPages: Math.max(1, Math.ceil(page.total / q.limit)) },
        counts: page.counts,
      } satisfies InboxListResponse);
    }),
  );

  // The staff a request can be given to (ADMIN_EMAILS), for the inbox's assignee menus.
  app.get('/api/admin/quotes/staff', (req, res) => {
    adminOf(req);
    res.setHeader('cache-control', 'no-store');
    res.json({ staff: deps.adminEmails } satisfies InboxStaffResponse);
  });

  app.get(
    '/api/admin/quotes/stats',
    route(async (req, res) => {
      adminOf(req);
      res.setHeader('cache-control', 'no-store');
      res.json(await store.inboxStats(new Date()));
    }),
  );

  app.get(
    '/api/admin/quotes/export.csv',
    route(async (req, res) => {
      adminOf(req);
      const filter = toFilter(parseInput(InboxQuerySchema, req.query, 'query'), deps.adminEmails);
      res.setHeader('content-type', 'text/csv; charset=utf-8');
      res.setHeader('content-disposition', `attachment; filename="quote-requests-${new Date().toISOString().slice(0, 10)}.csv"`);
      res.setHeader('cache-control', 'no-store');
      let rows = 0;
      async function* csvRows() {
        for await (const r of store.exportInbox(filter)) {
          rows++;
          yield inboxCsvRow(r);
        }
      }
      // pipeline: an error in any stage, or a client that hangs up, ends all three (no unheard 'error', no wait
      // for a 'drain' that never comes).
      await pipeline(Readable.from(csvRows()), stringify({ header: true, columns: INBOX_CSV_HEADER, bom: true }), res);
      req.log.info({ rows }, 'inbox exported');
    }),
  );

  app.get(
    '/api/admin/quotes/:id',
    route(async (req, res) => {
      adminOf(req);
      const r = await load(String(req.params.id));
      res.setHeader('etag', etag(r.version));
      res.setHeader('cache-control', 'no-store');
      res.json(await detail(store, r));
    }),
  );

  app.patch(
    '/api/admin/quotes/:id',
    route(async (req, res) => {
      const actor = adminOf(req);
      const input = parseInput(InboxPatchSchema, req.body, 'body');
      const version = expectedVersion(req, input.version);
      const r = await load(String(req.params.id));
      const at = new Date().toISOString();
      const events: InboxEvent[] = [];
      const change: InboxChange = { updatedAt: at, events, mails: [] };
      if (input.status !== undefined && input.status !== r.status) {
        if (!canMove(r.status, input.status)) refuseMove(r.status, input.status);
        change.status = input.status;
        events.push({ at, actor, type: 'status', from: r.status, to: input.status, text: null, reply: null });
      }
      if (input.assignee !== undefined && input.assignee !== r.assignee) {
        if (input.assignee !== null && !deps.adminEmails.includes(input.assignee)) throw notStaff('body', deps.adminEmails, 'null');
        change.assignee = input.assignee;
        events.push({ at, actor, type: 'assignee', from: r.assignee, to: input.assignee, text: null, reply: null });
      }
      if (input.note !== undefined) events.push({ at, actor, type: 'note', from: null, to: null, text: input.note, reply: null });
      const out = events.length ? await apply(req, r, version, change) : r;
      if (!events.length && r.version !== version) throw staleVersion(r.version);
      res.setHeader('etag', etag(out.version));
      res.json(await detail(store, out));
    }),
  );

  app.post(
    '/api/admin/quotes/:id/reply',
    route(async (req, res) => {
      const actor = adminOf(req);
      const input = parseInput(InboxReplySchema, req.body, 'body');
      const version = expectedVersion(req, input.version);
      const r = await load(String(req.params.id));
      if (isAnonymised(r.customerEmail)) throw new HttpError(409, 'This buyer deleted their account: there is nobody to send a reply to. The request stays as a record.');
      if (input.lines.length > r.lines.length) {
        throw new HttpError(400, `Invalid body: lines has ${input.lines.length} entries but the request asks for ${r.lines.length} part(s)`, [{ path: 'lines', message: 'more lines than the request has' }]);
      }
      // A reply to a quote makes it quoted; to a contact message, closes it.
      const target: InboxStatus = r.kind === 'quote' ? 'quoted' : 'closed';
      if (r.status !== target && !canMove(r.status, target)) refuseMove(r.status, target);
      const at = new Date().toISOString();
      const lines = r.lines.map((l, i) => ({
        productSku: l.productSku,
        productName: l.productName,
        quantity: input.lines[i]?.quantity ?? l.quantity,
        unitPrice: input.lines[i]?.unitPrice ?? null,
        currency: input.lines[i]?.currency ?? null,
        leadTime: input.lines[i]?.leadTime || null,
      }));
      const validUntil = input.validUntil ?? null;
      // The version's last valid day, for the expiry reminders (a reply without a date holds QUOTE_VALIDITY_DAYS).
      const lastDay = (validUntil ?? new Date(Date.parse(at) + deps.quoteView.defaultValidityDays * DAY_MS).toISOString()).slice(0, 10);
      const events: InboxEvent[] = [{ at, actor, type: 'reply', from: null, to: r.customerEmail, text: input.message, reply: { lines, validUntil } }];
      if (r.status !== target) events.push({ at, actor, type: 'status', from: r.status, to: target, text: null, reply: null });
      // A quote's reply carries a new link to the buyer's page (only its hash is kept); earlier links stay valid.
      let link: string | undefined;
      let pdf: { filename: string; content: Buffer } | undefined;
      const webhooks = [];
      if (r.kind === 'quote') {
        const token = newQuoteToken();
        await store.saveQuoteLink({ tokenHash: hashQuoteToken(token), quoteId: r.id, createdAt: at, revokedAt: null });
        link = quoteViewUrl(deps.quoteView, token);
        // The quote as the buyer's page will show it, this reply its latest version, as a PDF in the mail.
        const view = buyerQuoteView(r, [...(await store.inboxHistory(r.id)), events[0]!], null, Date.now(), deps.quoteView);
        pdf = { filename: quotePdfName(view, view.latestVersion), content: await renderQuotePdf(view, view.latestVersion, deps.seller) };
        const v = view.versions.at(-1)!;
        webhooks.push(
          webhookEmit('quote.replied', {
            quoteId: r.id,
            reference: view.reference,
            version: v.version,
            customer: { name: r.customerName, email: r.customerEmail, country: r.country },
            message: v.message,
            lines: v.lines,
            totals: v.totals,
            validUntil: v.validUntil,
          }, at),
        );
      }
      const mail = replyMail(r, { message: input.message, lines, validUntil }, version + 1, deps.mail, link, pdf);
      const out = await apply(req, r, version, { status: target, firstReplyAt: at, updatedAt: at, events, mails: [mail], webhooks, ...(r.kind === 'quote' ? { validUntil: lastDay } : {}) });
      deps.outbox.kick();
      if (webhooks.length) deps.webhooks.kick();
      res.setHeader('etag', etag(out.version));
      quoteReplies.inc({ kind: r.kind });
      res.json(await detail(store, out));
    }),
  );

  // Staff take back every link sent so far (a mail forwarded to the wrong person); the next reply sends a new one.
  app.post(
    '/api/admin/quotes/:id/revoke-links',
    route(async (req, res) => {
      const actor = adminOf(req);
      const r = await load(String(req.params.id));
      const revoked = await store.revokeQuoteLinks(r.id, new Date().toISOString());
      req.log.info({ quoteId: r.id, admin: actor, revoked }, 'quote links revoked');
      res.setHeader('cache-control', 'no-store');
      res.json({ revoked });
    }),
  );
}

const LINK_GONE = 'This quote link is not valid: it may have expired or been withdrawn. Ask us for a new quote.';

/**
 * The buyer's quote page (issue 34): the link in a reply mail is the key, so every answer is the same 404 for a token
 * that is malformed, unknown, revoked or past its quote's validity plus the grace period. Answers are taken against
 * the version the buyer read and the request's version (as staff changes are), so two tabs accepting at once make one
 * order, and a quote revised meanwhile is not accepted unseen.
 */
function addQuoteViewRoutes(app: Express, deps: QuotesDeps) {
  const { store } = deps;
  const s = deps.quoteView;
  const rl = deps.rateLimits;
  const limit = limiter('quote-view', rl.quoteView, rl.windowMs, 'quote page requests', deps);
  const privatePage = (res: import('express').Response) => {
    res.setHeader('cache-control', 'no-store');
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('x-robots-tag', 'noindex, nofollow');
  };

  const open = async (req: Request) => {
    const token = String(req.params.token);
    if (!QUOTE_TOKEN_PATTERN.test(token)) throw new HttpError(404, LINK_GONE);
    const link = await store.findQuoteLink(hashQuoteToken(token));
    const r = link ? await store.getInbox(link.quoteId) : null;
    if (!link || !r || r.kind !== 'quote') throw new HttpError(404, LINK_GONE);
    const history = await store.inboxHistory(r.id);
    const now = Date.now();
    if (!linkOpens(link, quoteVersions(history, s, r.lines), now, s)) {
      req.log.info({ quoteId: r.id, revoked: Boolean(link.revokedAt) }, 'quote link refused: revoked or past its validity');
      throw new HttpError(404, LINK_GONE);
    }
    const order = await store.getOrderByQuote(r.id);
    return { token, r, history, order, view: buyerQuoteView(r, history, order, now, s) };
  };

  /** 409 unless the buyer may still `act` on the quote, against its latest version. */
  const mayAnswer = (view: QuoteView, version: number, act: 'accept' | 'changes' | 'decline') => {
    const latest = view.versions.at(-1)!;
    if (view.status === 'accepted') {
      throw new HttpError(409, `This quote was already accepted${view.order ? `: order ${view.order.number}` : ''}.`, [{ path: 'version', message: 'already accepted' }]);
    }
    if (view.status === 'declined') throw new HttpError(409, 'This quote was declined. Ask us for a new quote if you need the parts after all.', [{ path: 'version', message: 'declined' }]);
    if (view.status === 'closed') throw new HttpError(409, 'This quote is closed. Ask us for a new quote.', [{ path: 'version', message: 'closed' }]);
    if (view.status === 'expired') throw new HttpError(409, `This quote expired on ${latest.validUntil}. Ask us for a new quote.`, [{ path: 'version', message: 'expired' }]);
    if (view.status === 'changes_requested' && act !== 'decline') {
      throw new HttpError(409, 'You asked for changes to this quote: we will send you a revised quote.', [{ path: 'version', message: 'changes asked' }]);
    }
    if (version > latest.version) throw new HttpError(400, `Invalid body: version ${version} does not exist; the latest is ${latest.version}.`, [{ path: 'version', message: 'no such version' }]);
    if (version < latest.version) {
      throw new HttpError(409, `Version ${version} of this quote has been replaced by version ${latest.version}. Review the latest version and answer that one.`, [
        { path: 'version', message: 'superseded' },
      ]);
    }
    return latest;
  };

  /** Writes a buyer's answer; when the request changed meanwhile, reads it again and says why it cannot be taken. */
  const answer = async (req: Request, ctx: Awaited<ReturnType<typeof open>>, version: number, act: 'accept' | 'changes' | 'decline' | 'reopen', change: InboxChange) => {
    const out = await store.updateInbox(ctx.r.id, ctx.r.version, change);
    if (out !== 'conflict' && out !== null) {
      req.log.info({ quoteId: ctx.r.id, answer: act, version, status: out.status, order: change.order?.number }, 'buyer answered their quote');
      deps.outbox.kick();
      if (change.webhooks?.length) deps.webhooks.kick();
      return out;
    }
    const again = await open(req);
    if (act !== 'reopen') mayAnswer(again.view, version, act);
    throw new HttpError(409, 'The quote changed while you were answering. Reload the page and try again.', [{ path: 'version', message: 'changed meanwhile' }]);
  };

  /**
   * Changes asked, declined, asked again: both sides mailed, the answer and the status change in the history, the
   * request moved to `to`; the page's data back.
   */
  const recordAnswer = async (
    req: Request,
    ctx: Awaited<ReturnType<typeof open>>,
    version: number,
    a: {
      act: 'changes' | 'decline' | 'reopen';
      to: InboxStatus;
      what: string;
      details: [string, string][];
      text: string | null;
      buyer: NonNullable<InboxEvent['buyer']>;
      more?: (at: string) => Partial<InboxChange>;
    },
  ) => {
    const at = new Date().toISOString();
    const mails = buyerAnswerMails(ctx.r, { what: a.what, details: a.details }, ctx.r.version + 1, deps.mail, quoteViewUrl(s, ctx.token));
    const out = await answer(req, ctx, version, a.act, {
      status: a.to,
      updatedAt: at,
      mails,
      ...a.more?.(at),
      events: [
        { at, actor: 'buyer', type: 'buyer', from: null, to: null, text: a.text, reply: null, buyer: a.buyer },
        { at, actor: 'buyer', type: 'status', from: ctx.r.status, to: a.to, text: null, reply: null },
      ],
    });
    return buyerQuoteView(out, await store.inboxHistory(out.id), null, Date.now(), s);
  };

  app.get(
    '/api/quote-view/:token',
    limit,
    route(async (req, res) => {
      privatePage(res);
      res.json((await open(req)).view);
    }),
  );

  // The quote as a PDF, a version of it (?version=N; the latest by default), from the same data as the page.
  app.get(
    '/api/quote-view/:token/pdf',
    limit,
    route(async (req, res) => {
      privatePage(res);
      const { view } = await open(req);
      const asked = parseInput(QuotePdfQuerySchema, req.query, 'query').version ?? view.latestVersion;
      if (asked > view.latestVersion) {
        throw new HttpError(404, `This quote has no version ${asked}; the latest is ${view.latestVersion}.`);
      }
      const pdf = await renderQuotePdf(view, asked, deps.seller);
      res.setHeader('content-type', 'application/pdf');
      res.setHeader('content-disposition', `inline; filename="${quotePdfName(view, asked)}"`);
      res.send(pdf);
    }),
  );

  /**
   * An accept is JSON, or multipart/form-data when it carries the buyer's PO document (the JSON in the part `body`).
   * The link is checked before a byte of a document is read.
   */
  const acceptBody = async (req: Request): Promise<ReceivedAccept> => {
    if (!req.is('multipart/form-data')) return { body: req.body, file: null, cleanup: async () => {} };
    return receiveAcceptWithDocument(req, { tmpRoot: deps.tmpDir, maxBytes: deps.poDocumentMaxBytes ?? PO_DOCUMENT_MAX_BYTES });
  };

  app.post(
    '/api/quote-view/:token/accept',
    limit,
    route(async (req, res) => {
      privatePage(res);
      // A document is read only for a link that opens (the JSON accept checks it once, below).
      if (req.is('multipart/form-data')) await open(req);
      const received = await acceptBody(req);
      try {
        await accept(req, res, received);
      } finally {
        await received.cleanup();
      }
    }),
  );

  const accept = async (req: Request, res: import('express').Response, received: ReceivedAccept) => {
    const input = parseInput(QuoteAcceptSchema, received.body, 'body');
    const ctx = await open(req);
    const v = mayAnswer(ctx.view, input.version, 'accept');
    const quantities = input.quantities ?? v.lines.map((l) => (l.unitPrice === null ? 0 : l.quantity));
    if (quantities.length !== v.lines.length) {
      throw new HttpError(400, `Invalid body: quantities has ${quantities.length} entries but version ${v.version} has ${v.lines.length} line(s).`, [
        { path: 'quantities', message: 'one per quoted line' },
      ]);
    }
    quantities.forEach((q, i) => {
      const l = v.lines[i]!;
      if (q > l.quantity) {
        throw new HttpError(400, `Invalid body: line ${i + 1} (${l.productSku || l.productName}) was quoted for ${l.quantity}; to order more, ask for changes.`, [
          { path: `quantities.${i}`, message: `must be at most ${l.quantity}` },
        ]);
      }
      if (q > 0 && l.unitPrice === null) {
        throw new HttpError(400, `Invalid body: line ${i + 1} (${l.productSku || l.productName}) has no price yet; order 0 of it, or ask for changes.`, [
          { path: `quantities.${i}`, message: 'not priced' },
        ]);
      }
    });
    if (quantities.every((q) => q === 0)) {
      throw new HttpError(400, 'Invalid body: order at least one line (every quantity is 0).', [{ path: 'quantities', message: 'nothing ordered' }]);
    }
    const at = new Date().toISOString();
    const orderId = randomUUID();
    // The document is stored before the order is written (an order never points at nothing); if the accept is then
    // refused, it is removed again.
    const doc = received.file ? { key: poDocumentKey(ctx.r.id, orderId), name: received.file.name, size: received.file.size } : null;
    if (doc) await deps.documents.putFile(doc.key, received.file!.path, { contentType: 'application/pdf' });
    const order: OrderRecord = {
      id: orderId,
      number: await store.nextOrderNumber(at.slice(0, 4)),
      quoteId: ctx.r.id,
      quoteVersion: v.version,
      status: 'confirmed',
      poNumber: input.poNumber,
      poDocument: doc,
      delivery: input.delivery,
      note: input.note,
      lines: v.lines.flatMap((l, i) =>
        quantities[i] ? [{ productId: l.productId, productSku: l.productSku, productName: l.productName, quantity: quantities[i]!, unitPrice: l.unitPrice, currency: l.currency, leadTime: l.leadTime }] : [],
      ),
      customerName: ctx.r.customerName,
      customerEmail: ctx.r.customerEmail,
      shipment: null,
      cancelReason: null,
      createdAt: at,
      updatedAt: at,
      version: 0,
    };
    const link = quoteViewUrl(s, ctx.token);
    const mails = buyerAnswerMails(
      ctx.r,
      {
        what: `Quote accepted: order ${order.number}`,
        details: [
          ['Version', String(v.version)],
          ['Order', order.number],
          ['PO number', order.poNumber],
          ['PO document', doc ? `${doc.name} (${Math.max(1, Math.round(doc.size / 1024))} kB)` : ''],
          ['Deliver to', [order.delivery.company, order.delivery.address].filter(Boolean).join('\n')],
          ['Contact', [order.delivery.contactName, order.delivery.contactPhone].filter(Boolean).join(', ')],
          ['Lines', order.lines.map((l) => `${l.quantity} x ${l.productSku || l.productName}`).join('\n')],
          ['Note', order.note],
        ],
        order: { number: order.number, poNumber: order.poNumber, lines: order.lines },
      },
      ctx.r.version + 1,
      deps.mail,
      link,
    );
    try {
      await answer(req, ctx, v.version, 'accept', {
        status: 'won',
        updatedAt: at,
        order,
        webhooks: [webhookEmit('quote.accepted', { quoteId: ctx.r.id, reference: ctx.view.reference, version: v.version, order: orderOut(order) }, at)],
        mails,
        events: [
          {
            at,
            actor: 'buyer',
            type: 'buyer',
            from: null,
            to: null,
            text: input.note || null,
            reply: null,
            buyer: { action: 'accept', version: v.version, lines: quantities.map((q) => ({ quantity: q, targetPrice: null })), orderNumber: order.number, poNumber: order.poNumber },
          },
          { at, actor: 'buyer', type: 'status', from: ctx.r.status, to: 'won', text: null, reply: null },
        ],
      });
    } catch (err) {
      if (doc) {
        await deps.documents.delete(doc.key).catch((e: unknown) => req.log.warn({ err: (e as Error).message, key: doc.key }, 'PO document of a refused accept not removed'));
      }
      throw err;
    }
    res.status(201).json({
      order: { number: order.number, quoteVersion: order.quoteVersion, poNumber: order.poNumber, poDocument: doc && { name: doc.name, size: doc.size }, status: order.status, createdAt: order.createdAt },
      message: `Thank you: order ${order.number} is confirmed. We have e-mailed you a confirmation.`,
    } satisfies QuoteAcceptResponse);
  };

  app.post(
    '/api/quote-view/:token/changes',
    limit,
    route(async (req, res) => {
      privatePage(res);
      const input = parseInput(QuoteChangesSchema, req.body, 'body');
      const ctx = await open(req);
      const v = mayAnswer(ctx.view, input.version, 'changes');
      if (input.lines.length > v.lines.length) {
        throw new HttpError(400, `Invalid body: lines has ${input.lines.length} entries but version ${v.version} has ${v.lines.length} line(s).`, [
          { path: 'lines', message: 'more lines than the quote has' },
        ]);
      }
      const asked = v.lines.map((_, i) => ({ quantity: input.lines[i]?.quantity ?? null, targetPrice: input.lines[i]?.targetPrice ?? null }));
      const wanted = asked.flatMap((a, i) => {
        const l = v.lines[i]!;
        const parts = [a.quantity !== null ? `quantity ${a.quantity}` : '', a.targetPrice !== null ? `target price ${a.targetPrice}${l.currency ? ` ${l.currency}` : ''}` : ''].filter(Boolean);
        return parts.length ? [`${l.productSku || l.productName}: ${parts.join(', ')}`] : [];
      });
      res.json(
        await recordAnswer(req, ctx, v.version, {
          act: 'changes',
          to: 'changes_requested',
          what: `Changes asked to quote version ${v.version}`,
          details: [['Message', input.message], ['Lines', wanted.join('\n')]],
          text: input.message,
          buyer: { action: 'changes', version: v.version, lines: asked },
        }),
      );
    }),
  );

  // An expired quote: the buyer asks for a new one, and the request goes back to staff (in progress).
  app.post(
    '/api/quote-view/:token/reopen',
    limit,
    route(async (req, res) => {
      privatePage(res);
      const ctx = await open(req);
      if (ctx.view.status !== 'expired') {
        throw new HttpError(409, ctx.view.status === 'requoting' ? 'You have asked for a new quote already: we will send it soon.' : 'Only an expired quote can be asked again; this one can still be answered.', [
          { path: 'version', message: ctx.view.status },
        ]);
      }
      const v = ctx.view.versions.at(-1)!;
      res.json(
        await recordAnswer(req, ctx, v.version, {
          act: 'reopen',
          to: 'in_progress',
          what: 'New quote asked (the last one expired)',
          details: [['Expired version', String(v.version)], ['Valid until', v.validUntil]],
          text: null,
          buyer: { action: 'reopen', version: v.version },
        }),
      );
    }),
  );

  app.post(
    '/api/quote-view/:token/decline',
    limit,
    route(async (req, res) => {
      privatePage(res);
      const input = parseInput(QuoteDeclineSchema, req.body, 'body');
      const ctx = await open(req);
      const v = mayAnswer(ctx.view, ctx.view.latestVersion, 'decline');
      const label = QUOTE_DECLINE_REASON_LABELS[input.reason];
      res.json(
        await recordAnswer(req, ctx, v.version, {
          act: 'decline',
          to: 'lost',
          what: `Quote declined: ${label}`,
          details: [['Version', String(v.version)], ['Reason', label], ['Text', input.text]],
          text: input.text || null,
          buyer: { action: 'decline', version: v.version, reason: input.reason },
          more: (at) => ({
            lostReason: input.reason,
            webhooks: [webhookEmit('quote.declined', { quoteId: ctx.r.id, reference: ctx.view.reference, version: v.version, reason: input.reason, text: input.text }, at)],
          }),
        }),
      );
    }),
  );
}

const ORDER_NOT_FOUND = (id: string) => `No order has the id "${id}".`;

/** An order as the API shows it: totals added, the document's storage key kept inside. */
const orderOut = (o: OrderRecord): Order => ({ ...o, poDocument: o.poDocument && { name: o.poDocument.name, size: o.poDocument.size }, totals: orderTotals(o.lines) });

const ORDER_CSV_HEADER = [
  'number', 'created_at', 'status', 'po_number', 'customer_name', 'customer_email', 'company', 'address', 'contact', 'phone',
  'lines', 'totals', 'carrier', 'tracking_number', 'cancel_reason', 'note', 'quote_id', 'quote_version',
];

function orderCsvRow(o: OrderRecord): string[] {
  return [
    o.number, o.createdAt, o.status, o.poNumber, o.customerName, o.customerEmail, o.delivery.company, o.delivery.address, o.delivery.contactName,
    o.delivery.contactPhone,
    o.lines.map((l) => `${l.productSku || l.productName} x ${l.quantity}${l.unitPrice === null ? '' : ` @ ${l.unitPrice}${l.currency ? ` ${l.currency}` : ''}`}`).join(' | '),
    orderTotals(o.lines).map((t) => `${t.total}${t.currency ? ` ${t.currency}` : ''}`).join(' | '),
    o.shipment?.carrier ?? '', o.shipment?.trackingNumber ?? '', o.cancelReason ?? '', o.note, o.quoteId, String(o.quoteVersion),
  ].map(safeCell);
}

/** Staff's orders (behind the gateway's admin session or a quotes:read/write key): list, export, read, move along. */
function addOrderRoutes(app: Express, deps: QuotesDeps) {
  const { store } = deps;
  const filterOf = (q: ReturnType<typeof OrderQuerySchema.parse>): OrderFilter => {
    const from = q.from ? new Date(q.from).toISOString() : undefined;
    const toExclusive = q.to ? new Date(Date.parse(q.to) + DAY_MS).toISOString() : undefined;
    if (from && toExclusive && from >= toExclusive) throw new HttpError(400, 'Invalid query: from must be before to', [{ path: 'from', message: 'after to' }]);
    return { status: q.status, q: q.q, from, toExclusive };
  };
  const load = async (id: string) => {
    const o = await store.getOrder(id);
    if (!o) throw new HttpError(404, ORDER_NOT_FOUND(id));
    return o;
  };

  app.get(
    '/api/admin/orders',
    route(async (req, res) => {
      adminOf(req);
      const q = parseInput(OrderQuerySchema, req.query, 'query');
      const page = await store.listOrders(filterOf(q), (q.page - 1) * q.limit, q.limit);
      res.setHeader('cache-control', 'no-store');
      res.json({
        items: page.items.map(orderOut),
        pagination: { page: q.page, limit: q.limit, total: page.total, totalPages: Math.max(1, Math.ceil(page.total / q.limit)) },
        counts: page.counts,
      } satisfies OrderListResponse);
    }),
  );

  app.get(
    '/api/admin/orders/export.csv',
    route(async (req, res) => {
      adminOf(req);
      const filter = filterOf(parseInput(OrderQuerySchema, req.query, 'query'));
      res.setHeader('content-type', 'text/csv; charset=utf-8');
      res.setHeader('content-disposition', `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`);
      res.setHeader('cache-control', 'no-store');
      let rows = 0;
      async function* csvRows() {
        // Page by page: a year's orders are thousands, never all in memory at once.
        for (let offset = 0; ; offset += 500) {
          const page = await store.listOrders(filter, offset, 500);
          for (const o of page.items) {
            rows++;
            yield orderCsvRow(o);
          }
          if (page.items.length < 500) return;
        }
      }
      await pipeline(Readable.from(csvRows()), stringify({ header: true, columns: ORDER_CSV_HEADER, bom: true }), res);
      req.log.info({ rows }, 'orders exported');
    }),
  );

  app.get(
    '/api/admin/orders/:id',
    route(async (req, res) => {
      adminOf(req);
      const o = await load(String(req.params.id));
      res.setHeader('etag', etag(o.version));
      res.setHeader('cache-control', 'no-store');
      res.json(orderOut(o));
    }),
  );

  // The buyer's PO document, as they attached it (checked to be a PDF when it came), for staff to download.
  app.get(
    '/api/admin/orders/:id/po-document',
    route(async (req, res) => {
      adminOf(req);
      const o = await load(String(req.params.id));
      if (!o.poDocument) throw new HttpError(404, `Order ${o.number} has no PO document: the buyer attached none.`);
      const stored = await deps.documents.getStream(o.poDocument.key);
      if (!stored) {
        req.log.error({ orderId: o.id, key: o.poDocument.key }, 'PO document missing from the documents store');
        throw new HttpError(404, `The PO document of order ${o.number} is missing from the documents store.`);
      }
      res.setHeader('content-type', 'application/pdf');
      res.setHeader('content-length', String(stored.size));
      // The buyer's name for it, ASCII-safe in filename and whole in filename* (RFC 6266).
      const ascii = `PO-${o.number}-${o.poDocument.name}`.replace(/[^\x20-\x7e]|["\\]/g, '_');
      res.setHeader('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(`PO-${o.number}-${o.poDocument.name}`)}`);
      res.setHeader('cache-control', 'no-store');
      await pipeline(stored.body, res);
    }),
  );

  app.patch(
    '/api/admin/orders/:id',
    route(async (req, res) => {
      const actor = adminOf(req);
      const input = parseInput(OrderPatchSchema, req.body, 'body');
      const version = expectedVersion(req, input.version);
      const o = await load(String(req.params.id));
      if (!ORDER_TRANSITIONS[o.status].includes(input.status)) {
        const allowed = ORDER_TRANSITIONS[o.status].map((st) => ORDER_STATUS_LABELS[st]).join(', ') || 'nothing (it is final)';
        throw new HttpError(409, `An order that is ${ORDER_STATUS_LABELS[o.status]} cannot move to ${ORDER_STATUS_LABELS[input.status]}; it can move to: ${allowed}.`, [
          { path: 'status', message: `not allowed from ${o.status}` },
        ]);
      }
      const at = new Date().toISOString();
      const shipment = input.status === 'shipped' ? { carrier: input.carrier!, trackingNumber: input.trackingNumber! } : undefined;
      const reason = input.status === 'cancelled' ? input.reason! : undefined;
      const out = await store.updateOrder(o.id, version, {
        status: input.status,
        shipment,
        cancelReason: reason,
        updatedAt: at,
        events: [
          {
            at,
            actor,
            type: 'order',
            from: o.status,
            to: input.status,
            text: shipment ? `${shipment.carrier} ${shipment.trackingNumber}` : (reason ?? null),
            reply: null,
          },
        ],
        // A deleted buyer's order still moves; there is nobody to tell.
        mails: isAnonymised(o.customerEmail) ? [] : [orderStatusMail(o, { status: input.status, shipment, reason }, version + 1, deps.mail)],
        webhooks: [
          webhookEmit('order.status_changed', {
            from: o.status,
            to: input.status,
            order: orderOut({ ...o, status: input.status, shipment: shipment ?? o.shipment, cancelReason: reason ?? o.cancelReason, updatedAt: at, version: version + 1 }),
          }, at),
        ],
      });
      deps.webhooks.kick();
      if (out === null) throw new HttpError(404, ORDER_NOT_FOUND(o.id));
      if (out === 'conflict') throw new HttpError(409, `Someone else changed this order meanwhile (it is now at version ${(await store.getOrder(o.id))?.version ?? '?'}). Reload it and try again.`, [{ path: 'If-Match', message: 'stale version' }]);
      deps.outbox.kick();
      req.log.info({ orderId: o.id, number: o.number, admin: actor, from: o.status, to: out.status }, 'order moved');
      res.setHeader('etag', etag(out.version));
      res.json(orderOut(out));
    }),
  );
}

/** The seller's webhook endpoints (staff only): list with their deliveries' last answers, add, remove. */
function addWebhookRoutes(app: Express, deps: QuotesDeps) {
  const { store } = deps;
  const endpointOut = async (e: { id: string; url: string; events: WebhookEndpoint['events']; description: string; createdAt: string }): Promise<WebhookEndpoint> => ({
    id: e.id,
    url: e.url,
    events: e.events,
    description: e.description,
    createdAt: e.createdAt,
    lastDelivery: (await store.listWebhookDeliveries(1, e.id))[0] ?? null,
  });

  app.get(
    '/api/admin/webhooks',
    route(async (req, res) => {
      adminOf(req);
      const endpoints = await store.listWebhookEndpoints();
      res.setHeader('cache-control', 'no-store');
      res.json({ endpoints: await Promise.all(endpoints.map(endpointOut)), deliveries: await store.listWebhookDeliveries(50) } satisfies WebhookListResponse);
    }),
  );

  app.post(
    '/api/admin/webhooks',
    route(async (req, res) => {
      const actor = adminOf(req);
      const input = parseInput(WebhookEndpointInputSchema, req.body, 'body');
      try {
        await checkWebhookUrl(input.url, { allowPrivate: deps.webhooks.allowPrivate });
      } catch (err) {
        if (err instanceof WebhookUrlError) throw new HttpError(400, `Invalid body: url ${err.message}`, [{ path: 'url', message: err.message }]);
        throw err;
      }
      if ((await store.listWebhookEndpoints()).length >= WEBHOOK_LIMITS.endpoints) {
        throw new HttpError(409, `There are ${WEBHOOK_LIMITS.endpoints} endpoints already: remove one first.`, [{ path: 'url', message: 'too many endpoints' }]);
      }
      const endpoint = { id: randomUUID(), url: input.url, events: input.events, description: input.description, secret: newWebhookSecret(), createdAt: new Date().toISOString() };
      await store.saveWebhookEndpoint(endpoint);
      req.log.info({ endpointId: endpoint.id, host: new URL(endpoint.url).host, events: endpoint.events, admin: actor }, 'webhook endpoint added');
      res.status(201).json({ ...(await endpointOut(endpoint)), secret: endpoint.secret });
    }),
  );

  app.delete(
    '/api/admin/webhooks/:id',
    route(async (req, res) => {
      const actor = adminOf(req);
      const id = String(req.params.id);
      if (!(await store.deleteWebhookEndpoint(id, new Date()))) throw new HttpError(404, `No webhook endpoint has the id "${id}".`);
      req.log.info({ endpointId: id, admin: actor }, 'webhook endpoint removed');
      res.status(204).end();
    }),
  );
}
