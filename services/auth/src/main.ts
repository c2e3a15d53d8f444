import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { loadConfig, serverLimitsOf } from '@forgeline/service-kit/config';
import { createLogger } from '@forgeline/service-kit/logger';
import { runMain, serve } from '@forgeline/service-kit/serve';
import { createMailer } from '@forgeline/mailer/mailer';
import { AuthConfigSchema } from './config.ts';
import { createApp } from './app.ts';
import type { AccountStore, AuthStore } from './ports.ts';
import { traced } from '@forgeline/service-kit/tracing';
import { createSqliteAuthStore } from './adapters/sqlite/sqlite-auth-store.ts';
import { createMongoAuthStore } from './adapters/mongo/mongo-auth-store.ts';
import { createSqliteAccountStore } from './adapters/sqlite/sqlite-account-store.ts';
import { createMongoAccountStore } from './adapters/mongo/mongo-account-store.ts';

runMain('auth', async () => {
  const config = loadConfig(AuthConfigSchema);
  const logger = createLogger('auth', config.LOG_LEVEL);

  let store: AuthStore;
  let accounts: AccountStore;
  if (config.MONGO_URL) {
    store = await createMongoAuthStore(config.MONGO_URL);
    accounts = await createMongoAccountStore(config.MONGO_URL);
    logger.info('storage: MongoDB');
  } else {
    mkdirSync(config.DATA_DIR, { recursive: true });
    const file = path.join(config.DATA_DIR, 'auth.sqlite');
    store = createSqliteAuthStore(file);
    accounts = createSqliteAccountStore(path.join(config.DATA_DIR, 'accounts.sqlite'));
    logger.info({ file }, 'storage: SQLite');
  }

  // Each call a span of the request's trace when tracing is on (#37).
  store = traced(store, 'auth.store');
  accounts = traced(accounts, 'auth.accounts');

  if (!config.OTP_SECRET) {
    // Fine for one process; replicas sharing MongoDB must share the key or a code sent by one fails on another.
    const log = config.MONGO_URL ? logger.warn.bind(logger) : logger.info.bind(logger);
    log('OTP_SECRET not set: codes are keyed per process, so a code sent before a restart stops working');
  }
  const mailer = createMailer({ SMTP_URL: config.SMTP_URL, MAIL_FROM: config.MAIL_FROM, DATA_DIR: config.DATA_DIR }, logger);

  const app = createApp({
    store,
    accounts,
    mailer,
    outbox: {
      baseDelayMs: config.OUTBOX_BASE_DELAY_MS,
      maxDelayMs: config.OUTBOX_MAX_DELAY_MS,
      pollMs: config.OUTBOX_POLL_MS,
      leaseMs: config.OUTBOX_LEASE_MS,
    },
    logger,
    adminEmails: config.ADMIN_EMAILS,
    adminEmailPrefill: config.ADMIN_EMAIL_PREFILL,
    serviceToken: config.SERVICE_TOKEN,
    otpSecret: config.OTP_SECRET ?? randomBytes(32).toString('hex'),
    sessionTtlMs: config.SESSION_TTL_HOURS * 3_600_000,
    sessionIdleMs: config.SESSION_IDLE_MINUTES * 60_000,
    buyerSessionTtlMs: config.BUYER_SESSION_TTL_DAYS * 86_400_000,
    buyerSessionIdleMs: config.BUYER_SESSION_IDLE_DAYS * 86_400_000,
    publicUrl: config.PUBLIC_URL,
    secureCookies: config.PUBLIC_URL.startsWith('https:'),
    auditRetentionMs: config.AUDIT_RETENTION_DAYS * 86_400_000,
    rateLimits: {
      windowMs: config.RATE_LIMIT_WINDOW_MINUTES * 60_000,
      sendPerEmail: config.OTP_SEND_LIMIT_PER_EMAIL * config.RATE_LIMIT_MULTIPLIER,
      sendPerClient: config.OTP_SEND_LIMIT_PER_CLIENT * config.RATE_LIMIT_MULTIPLIER,
      verifyPerClient: config.OTP_VERIFY_LIMIT_PER_CLIENT * config.RATE_LIMIT_MULTIPLIER,
    },
    signInLock: {
      afterFailures: config.SIGN_IN_LOCK_AFTER_FAILURES,
      firstLockMs: config.SIGN_IN_LOCK_MINUTES * 60_000,
      maxLockMs: Math.max(config.SIGN_IN_LOCK_MAX_HOURS * 3_600_000, config.SIGN_IN_LOCK_MINUTES * 60_000),
    },
  });
  logger.info(
    {
      admins: config.ADMIN_EMAILS.length,
      sessionTtlHours: config.SESSION_TTL_HOURS,
      sessionIdleMinutes: config.SESSION_IDLE_MINUTES,
      adminEmailPrefill: config.ADMIN_EMAIL_PREFILL,
      lockAfterFailures: config.SIGN_IN_LOCK_AFTER_FAILURES,
    },
    'admin sign-in ready',
  );

  logger.info({ pendingMails: await store.pendingMails() }, 'outbox resuming');
  app.outbox.start();

  const purge = setInterval(() => {
    store.purgeExpired(Date.now()).then(
      (removed) => removed > 0 && logger.info({ removed }, 'expired codes, sessions, rate windows and sign-in counts purged'),
      (err: unknown) => logger.error({ err }, 'purge failed'),
    );
    app.auditLog.purge().then(
      (removed) => removed > 0 && logger.info({ removed, retentionDays: config.AUDIT_RETENTION_DAYS }, 'old audit entries purged'),
      (err: unknown) => logger.error({ err }, 'audit purge failed'),
    );
  }, 10 * 60_000);
  purge.unref();

  await serve(app, {
    host: config.HOST,
    port: config.PORT,
    logger,
    limits: serverLimitsOf(config),
    onClose: async () => {
      clearInterval(purge);
      await app.outbox.stop();
      await store.close();
      await accounts.close();
    },
  });
});
