import { z } from 'zod';
import { baseEnv, port } from '@forgeline/service-kit/config';
import { AdminEmailsEnvSchema } from '@forgeline/contracts/auth';
import { DEFAULT_MAIL_FROM } from '@forgeline/mailer/mailer';

const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

/** Auth's environment. */
export const AuthConfigSchema = z.object({
  ...baseEnv,
  PORT: port(4003),
  /** Comma-separated admin addresses; only these receive a code. The first is the login screen's prefill. */
  ADMIN_EMAILS: AdminEmailsEnvSchema,
  /** How long a session lives after sign-in. */
  SESSION_TTL_HOURS: z.coerce.number().positive().max(24 * 30).default(12),
  /** A session unused this long ends (the admin signs in again). */
  SESSION_IDLE_MINUTES: z.coerce.number().positive().max(24 * 60 * 30).default(60),
  /** The site's address, as the gateway has it: over https the session cookie is Secure and `__Host-` prefixed. */
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  /** How long the audit log keeps an entry. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /**
   * Key of the HMAC that codes are stored under. Unset: a random key per process start, so a restart
   * voids codes not yet used (sessions are unaffected). Set it when running more than one auth replica.
   */
  OTP_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  MONGO_URL: z.string().min(1).optional(),
  /** Mail: SMTP when SMTP_URL is set, else the dev mailbox under DATA_DIR/mail (packages/mailer). */
  SMTP_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default(DEFAULT_MAIL_FROM),
  /**
   * Code mails go through an outbox in auth's storage: one the mail server did not take is retried after
   * OUTBOX_BASE_DELAY_MS, doubling up to OUTBOX_MAX_DELAY_MS, until it goes or its code expires.
   */
  OUTBOX_BASE_DELAY_MS: positiveInt(2_000),
  OUTBOX_MAX_DELAY_MS: positiveInt(60_000),
  OUTBOX_POLL_MS: positiveInt(1_000),
  /** A mail claimed by a process that then died is retried after this long. */
  OUTBOX_LEASE_MS: positiveInt(60_000),
  /** Rate limits: code requests per address and per client, and verify attempts per client, per window. */
  RATE_LIMIT_WINDOW_MINUTES: positiveInt(15),
  OTP_SEND_LIMIT_PER_EMAIL: positiveInt(5),
  OTP_SEND_LIMIT_PER_CLIENT: positiveInt(20),
  OTP_VERIFY_LIMIT_PER_CLIENT: positiveInt(50),
  /** Multiplies every limit above (the browser tests send everything from one address). */
  RATE_LIMIT_MULTIPLIER: positiveInt(1),
});
export type AuthConfig = z.infer<typeof AuthConfigSchema>;
