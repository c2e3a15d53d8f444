import { watchOutbox } from '@forgeline/service-kit/metrics';
import path from 'node:path';
import { createMailer } from '@forgeline/mailer/mailer';
import { objectStoreOf } from '@forgeline/object-store/config';
import { loadConfig, serverLimitsOf } from '@forgeline/service-kit/config';
import { createLogger } from '@forgeline/service-kit/logger';
import { connectRedis } from '@forgeline/service-kit/redis';
import { runMain, serve } from '@forgeline/service-kit/serve';
import { HttpProductCatalog } from './adapters/http/http-product-catalog.ts';
import { MongoQuoteStore } from './adapters/mongo/mongo-quote-store.ts';
import { SqliteQuoteStore } from './adapters/sqlite/sqlite-quote-store.ts';
import { createApp } from './app.ts';
import { createExpiryReminders } from './domain/expiry-reminders.ts';
import { createWebhookOutbox } from './domain/webhook-outbox.ts';
import { warmQuotePdf } from './domain/quote-pdf.ts';
import { siteConfig } from '@forgeline/site-config/site';
import { QuotesConfigSchema } from './config.ts';
import { Captchas } from './domain/captcha.ts';
import { Outbox } from '@forgeline/mailer/outbox';
import type { QuoteStore } from './ports.ts';
import { traced } from '@forgeline/service-kit/tracing';

runMain('quotes', async () => {
  const config = loadConfig(QuotesConfigSchema);
  const logger = createLogger('quotes', config.LOG_LEVEL);
  // Each call a span of the request's trace when tracing is on (#37).
  const store: QuoteStore = traced(config.MONGO_URL ? await MongoQuoteStore.connect(config.MONGO_URL) : SqliteQuoteStore.inDataDir(config.DATA_DIR), 'quotes.store');
  logger.info({ storage: config.MONGO_URL ? 'mongodb' : 'sqlite' }, 'storage ready');
  const mailer = createMailer(config, logger);
  const documents = objectStoreOf(config, path.join(config.DATA_DIR, 'quote-documents'));
  logger.info({ documents: config.S3_ENDPOINT ? 'minio' : 'folder' }, 'PO documents store ready');
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, logger, 'rate limits') : undefined;
  logger.info({ rateLimits: redis ? 'redis' : 'memory' }, 'rate limits ready');
  // The outbox in the metrics (#37): its backlog read from the store at each scrape, each attempt counted.
  const mailMetrics = watchOutbox('quotes', () => store.backlog());
  const outbox = new Outbox(store, mailer, logger, {
    onAttempt: mailMetrics.attempt,
    baseDelayMs: config.OUTBOX_BASE_DELAY_MS,
    maxDelayMs: config.OUTBOX_MAX_DELAY_MS,
    pollMs: config.OUTBOX_POLL_MS,
    leaseMs: config.OUTBOX_LEASE_MS,
  });
  const webhooks = createWebhookOutbox({
    store,
    logger,
    baseDelayMs: config.WEBHOOK_BASE_DELAY_MS,
    maxDelayMs: config.WEBHOOK_MAX_DELAY_MS,
    maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
    pollMs: config.WEBHOOK_POLL_MS,
    leaseMs: 2 * config.WEBHOOK_TIMEOUT_MS + 10_000,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  });
  const app = createApp({
    logger,
    store,
    catalog: new HttpProductCatalog(config.CATALOG_URL),
    captcha: new Captchas(store),
    mail: { siteName: 'Forgeline Parts', sellerEmail: config.SELLER_EMAIL, messageDomain: messageDomain(config.MAIL_FROM) },
    adminEmails: config.ADMIN_EMAILS,
    serviceToken: config.SERVICE_TOKEN,
    outbox,
    rateLimits: {
      windowMs: config.RATE_LIMIT_WINDOW_MS,
      quote: config.QUOTE_RATE_LIMIT * config.RATE_LIMIT_MULTIPLIER,
      contact: config.CONTACT_RATE_LIMIT * config.RATE_LIMIT_MULTIPLIER,
      captcha: config.CAPTCHA_RATE_LIMIT * config.RATE_LIMIT_MULTIPLIER,
      quoteView: config.QUOTE_VIEW_RATE_LIMIT * config.RATE_LIMIT_MULTIPLIER,
      confirmationsPerDay: config.CONFIRMATIONS_PER_RECIPIENT_PER_DAY * config.RATE_LIMIT_MULTIPLIER,
    },
    redis,
    quoteView: { publicUrl: config.PUBLIC_URL, graceDays: config.QUOTE_LINK_GRACE_DAYS, defaultValidityDays: config.QUOTE_VALIDITY_DAYS },
    seller: siteConfig,
    webhooks,
    documents,
    tmpDir: path.join(config.DATA_DIR, 'quote-uploads'),
  });
  // The first PDF of a process costs 360-480 ms (pdfkit's font metrics, code not yet optimised), later ones ~100 ms for
  // 200 lines: one is drawn now, so the first buyer after a restart does not wait for it.
  void warmQuotePdf().catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'quote PDF warm-up failed'));
  const reminders = createExpiryReminders({
    store,
    mail: { siteName: 'Forgeline Parts', sellerEmail: config.SELLER_EMAIL, messageDomain: messageDomain(config.MAIL_FROM) },
    quoteView: { publicUrl: config.PUBLIC_URL, graceDays: config.QUOTE_LINK_GRACE_DAYS, defaultValidityDays: config.QUOTE_VALIDITY_DAYS },
    daysBefore: config.QUOTE_REMINDER_DAYS,
    pollMs: config.QUOTE_REMINDER_POLL_MS,
    logger,
    outbox,
  });
  const counts = await store.outboxCounts();
  logger.info({ pendingMails: counts.pending }, 'outbox resuming');
  outbox.start();
  reminders.start();
  webhooks.start();
  await serve(app, {
    host: config.HOST,
    port: config.PORT,
    logger,
    limits: serverLimitsOf(config),
    onClose: async () => {
      await reminders.stop();
      await webhooks.stop();
      await outbox.stop();
      await store.close();
      await documents.close();
      redis?.disconnect();
    },
  });
});

/** "Shop <no-reply@forgeline.parts>" -> "forgeline.parts": Message-IDs carry the sender's domain. */
function messageDomain(from: string): string {
  return /@([\w.-]+)>?\s*$/.exec(from)?.[1] ?? 'forgeline.parts';
}
