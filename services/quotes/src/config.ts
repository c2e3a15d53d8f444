import { baseEnv, port, productionSecrets } from '@forgeline/service-kit/config';
import { checkS3Env, s3Env } from '@forgeline/object-store/config';
import { AdminEmailsEnvSchema } from '@forgeline/contracts/auth';
import { DEFAULT_MAIL_FROM } from '@forgeline/mailer/mailer';
import { z } from 'zod';

const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);
const optionalUrl = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

export const QuotesConfigSchema = z.object({
  ...baseEnv,
  PORT: port(4002),
  CATALOG_URL: z.url().default('http://127.0.0.1:4001'),
  MONGO_URL: optionalUrl,
  /** Redis for the rate limits, so that every quotes replica counts together; unset: each process counts alone. */
  REDIS_URL: optionalUrl.pipe(z.url().optional()),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().min(3).default(DEFAULT_MAIL_FROM),
  /** The staff (same variable as auth's): the inbox assigns requests to them. The first one signs reply mails. */
  ADMIN_EMAILS: AdminEmailsEnvSchema,
  /** Where the seller's notifications go. */
  SELLER_EMAIL: z.email().default('sales@forgelineparts.com'),
  // (CAPTCHA_SECRET signed the captcha tokens before their answers moved into the store: no longer read, ignored if set.)
  /** Per client address, per RATE_LIMIT_WINDOW_MS. The benchmark raises them. */
  RATE_LIMIT_WINDOW_MS: positiveInt(15 * 60_000),
  QUOTE_RATE_LIMIT: positiveInt(10),
  CONTACT_RATE_LIMIT: positiveInt(5),
  CAPTCHA_RATE_LIMIT: positiveInt(120),
  /** The buyer's quote page and its answers, per client address per window. */
  QUOTE_VIEW_RATE_LIMIT: positiveInt(120),
  /** The site's address (the gateway's PUBLIC_URL): the links to buyers' quote pages in reply mails point there. */
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  /** A quote link still opens this many days after the quote's validity ends (the page then says it expired). */
  QUOTE_LINK_GRACE_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  /** How long a reply's prices hold when staff give no date. */
  QUOTE_VALIDITY_DAYS: positiveInt(30),
  /** The buyer is reminded this many days before a quote expires (once per version); 0: no reminders. */
  QUOTE_REMINDER_DAYS: z.coerce.number().int().min(0).max(365).default(3),
  /** How often each replica looks for quotes to remind of. */
  QUOTE_REMINDER_POLL_MS: positiveInt(15 * 60_000),
  /** Webhook deliveries: first retry after this long, doubling up to the max; given up after the attempts. */
  WEBHOOK_BASE_DELAY_MS: positiveInt(10_000),
  WEBHOOK_MAX_DELAY_MS: positiveInt(60 * 60_000),
  WEBHOOK_MAX_ATTEMPTS: positiveInt(12),
  WEBHOOK_TIMEOUT_MS: positiveInt(10_000),
  WEBHOOK_POLL_MS: positiveInt(5_000),
  /** Buyer confirmations to one recipient address per UTC day, across every sender and replica (in the store). */
  CONFIRMATIONS_PER_RECIPIENT_PER_DAY: positiveInt(3),
  /** Multiplies every limit above (the browser tests and benchmark set it; shared with the auth service). */
  RATE_LIMIT_MULTIPLIER: positiveInt(1),
  /** First retry delay of an unsent mail; doubles per attempt up to OUTBOX_MAX_DELAY_MS. */
  OUTBOX_BASE_DELAY_MS: positiveInt(2_000),
  OUTBOX_MAX_DELAY_MS: positiveInt(10 * 60_000),
  OUTBOX_POLL_MS: positiveInt(1_000),
  /** A mail claimed by a process that then died is retried after this long. */
  OUTBOX_LEASE_MS: positiveInt(60_000),
  /**
   * Buyers' purchase-order documents: a MinIO/S3 bucket when S3_ENDPOINT is set (all four or none, as for media, with
   * a bucket of their own), else a folder under DATA_DIR/quote-documents.
   */
  ...s3Env,
})
  .superRefine(checkS3Env)
  .superRefine(productionSecrets(['SERVICE_TOKEN', { name: 'S3_SECRET_KEY', when: (env) => Boolean(env.S3_ENDPOINT) }]));
export type QuotesConfig = z.infer<typeof QuotesConfigSchema>;
