import type { Server } from 'node:http';
import { createLocalObjectStore } from '@forgeline/object-store/local-fs';
import type { ObjectStore } from '@forgeline/object-store/ports';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { DevMailbox, type Mailer } from '@forgeline/mailer/mailer';
import { createLogger, type Logger } from '@forgeline/service-kit/logger';
import type { Redis } from '@forgeline/service-kit/redis';
import { freePort, tempDir } from '@forgeline/test-support/net';
import path from 'node:path';
import { HttpProductCatalog } from '../src/adapters/http/http-product-catalog.ts';
import { SqliteQuoteStore } from '../src/adapters/sqlite/sqlite-quote-store.ts';
import { createApp, type RateLimits } from '../src/app.ts';
import { Captchas } from '../src/domain/captcha.ts';
import { Outbox } from '@forgeline/mailer/outbox';
import { watchOutbox } from '@forgeline/service-kit/metrics';
import type { QuoteStore } from '../src/ports.ts';
import type { QuoteViewSettings } from '../src/domain/quote-view.ts';
import { createExpiryReminders } from '../src/domain/expiry-reminders.ts';
import { createWebhookOutbox } from '../src/domain/webhook-outbox.ts';
import { siteConfig } from '@forgeline/site-config/site';

export const PRODUCT = { id: 'p-1', name: 'Hydraulic Filter <HF-1>', sku: 'SKU-HF1', partNumber: '1R-0750' };
export const SELLER = 'seller@example.com';
export const SERVICE_TOKEN = 'test-service-token-0123456789';

export async function listen(app: express.Express): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A small catalog over real HTTP, answering GET /api/products/:id as the catalog service does. `failNext` makes the
 * next lookups fail as a replica being killed does: the connection cut before an answer, or a proxy's 502.
 */
export async function startCatalogStub(products = [PRODUCT]) {
  const app = express();
  const failures: ('cut' | 502)[] = [];
  let lookups = 0;
  app.get('/api/products/:id', (req, res) => {
    lookups++;
    const failure = failures.shift();
    if (failure === 'cut') {
      req.socket.destroy();
      return;
    }
    if (failure === 502) {
      res.status(502).send('<html><body>502 Bad Gateway</body></html>');
      return;
    }
    if (req.params.id === 'catalog-fails') {
      res.status(500).json({ message: 'Internal error' });
      return;
    }
    const p = products.find((x) => x.id === req.params.id);
    if (!p) res.status(404).json({ message: 'Product not found' });
    else res.json({ ...p, category: 'Filters', brandName: 'Caterpillar' });
  });
  return {
    ...(await listen(app)),
    failNext: (...how: ('cut' | 502)[]) => failures.push(...how),
    lookups: () => lookups,
  };
}

/** An address where nothing listens: the catalog is down. */
export async function downUrl() {
  return `http://127.0.0.1:${await freePort()}`;
}

export interface TestService {
  url: string;
  /** The app as served (its routes are read by the path-variant test). */
  app: express.Express;
  dataDir: string;
  store: QuoteStore;
  outbox: Outbox;
  /** The expiry reminders' job, as main.ts runs it on a timer. */
  reminders: ReturnType<typeof createExpiryReminders>;
  mailDir: string;
  /** Where the buyers' PO documents went. */
  documents: ObjectStore;
  /** Stops the service; with keepData the folder stays for a restart. */
  close: (opts?: { keepData?: boolean }) => Promise<void>;
}

/** The staff of the test service (ADMIN_EMAILS). */
export const ADMINS = ['ops@forgeline.test', 'sam@forgeline.test'];

export interface ServiceOptions {
  catalogUrl: string;
  dataDir?: string;
  mailer?: Mailer;
  rateLimits?: Partial<RateLimits>;
  outbox?: { baseDelayMs?: number; maxDelayMs?: number; pollMs?: number; leaseMs?: number };
  /** The captchas' clock (a test moves it to expire a token). */
  captchaClock?: () => number;
  /** Another store than SQLite in dataDir (the Mongo adapter). */
  store?: QuoteStore;
  /** Rate limits counted in Redis (REDIS_URL), shared with other replicas given the same. */
  redis?: Redis;
  /** Another logger than the silent one (a test reading the logs). */
  logger?: Logger;
  /** The quote links' settings (a test shortens the grace period). */
  quoteView?: Partial<QuoteViewSettings>;
  /** The PO documents' store (the folder in dataDir by default) and size limit. */
  documents?: ObjectStore;
  poDocumentMaxBytes?: number;
}

/** The quotes service as main.ts builds it, on real embedded adapters in a temp DATA_DIR, on a free port. */
export async function startService(opts: ServiceOptions): Promise<TestService> {
  const tmp = opts.dataDir ? undefined : tempDir('quotes-test-');
  const dataDir = opts.dataDir ?? tmp!.dir;
  const logger = opts.logger ?? createLogger('quotes-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const store = opts.store ?? SqliteQuoteStore.inDataDir(dataDir);
  const mailDir = path.join(dataDir, 'mail');
  const documents = opts.documents ?? createLocalObjectStore(path.join(dataDir, 'quote-documents'));
  const mailer = opts.mailer ?? new DevMailbox(mailDir, 'Forgeline <no-reply@forgeline.parts>');
  // As main.ts: the outbox in the metrics (#37).
  const mailMetrics = watchOutbox('quotes', () => store.backlog());
  const outbox = new Outbox(store, mailer, logger, {
    onAttempt: mailMetrics.attempt,
    baseDelayMs: 20,
    maxDelayMs: 200,
    pollMs: 20,
    leaseMs: 30_000,
    ...opts.outbox,
  });
  const quoteView = { publicUrl: 'https://shop.example', graceDays: 30, defaultValidityDays: 30, ...opts.quoteView };
  const mail = { siteName: 'Forgeline Parts', sellerEmail: SELLER, messageDomain: 'forgeline.parts' };
  // Deliveries go to the tests' receivers on loopback (allowPrivate), fast retries; started like the mail outbox.
  const webhooks = createWebhookOutbox({ store, logger, baseDelayMs: 20, maxDelayMs: 200, maxAttempts: 5, pollMs: 50, leaseMs: 30_000, timeoutMs: 2_000, allowPrivate: true });
  const app = createApp({
    logger,
    store,
    catalog: new HttpProductCatalog(opts.catalogUrl, 2_000),
    captcha: new Captchas(store, opts.captchaClock),
    mail,
    outbox,
    // Confirmations per recipient as main.ts has them by default: a test that counts buyer mails uses its own addresses.
    rateLimits: { windowMs: 60_000, quote: 1000, contact: 1000, captcha: 1000, quoteView: 1000, confirmationsPerDay: 3, ...opts.rateLimits },
    adminEmails: ADMINS,
    serviceToken: SERVICE_TOKEN,
    redis: opts.redis,
    quoteView,
    seller: siteConfig,
    webhooks: { kick: webhooks.kick, allowPrivate: true },
    documents,
    tmpDir: path.join(dataDir, 'quote-uploads'),
    poDocumentMaxBytes: opts.poDocumentMaxBytes,
  });
  // Started by no timer here: a test runs its passes (reminders.runOnce).
  const reminders = createExpiryReminders({ store, mail, quoteView, daysBefore: 3, pollMs: 60_000, logger, outbox });
  outbox.start();
  webhooks.start();
  const http = await listen(app);
  return {
    url: http.url,
    app,
    dataDir,
    store,
    outbox,
    reminders,
    mailDir,
    documents,
    close: async (o) => {
      await http.close();
      await reminders.stop();
      await webhooks.stop();
      await outbox.stop();
      await store.close();
      if (!o?.keepData) tmp?.remove();
    },
  };
}

/** Any HTTP call with a JSON body (or none): status, parsed body when JSON, text, and the headers. */
export async function send(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, text, headers: res.headers };
}

export const post = (url: string, body: unknown, headers: Record<string, string> = {}) => send('POST', url, body, headers);

export const validQuote = (over: Record<string, unknown> = {}) => ({
  productId: PRODUCT.id,
  customerName: 'Ada Buyer',
  customerEmail: 'ada@example.com',
  customerPhone: '+44 20 7946 0000',
  customerCountry: 'United Kingdom',
  quantity: 3,
  message: 'Need delivery to Leeds.',
  ...over,
});

/** Poll until `check` holds (no time-based assertion: the test's own timeout is the only limit). */
export async function eventually(check: () => Promise<boolean> | boolean, everyMs = 25): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, everyMs));
}
