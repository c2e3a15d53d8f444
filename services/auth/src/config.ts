import { z } from 'zod';
import { baseEnv, port, productionSecrets } from '@forgeline/service-kit/config';
import { AdminEmailsEnvSchema } from '@forgeline/contracts/auth';
import { DEFAULT_MAIL_FROM } from '@forgeline/mailer/mailer';

const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);
/** `true` or `false`, exactly: "0", "no" or "False" stop the service at start rather than being read one way or the other. */
const strictBoolean = (fallback: boolean) =>
  z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true');

/** Auth's environment. */
export const AuthConfigSchema = z.object({
  ...baseEnv,
  PORT: port(4003),
  /** Comma-separated admin addresses; only these receive a code. The first is the login screen's prefill. */
  ADMIN_EMAILS: AdminEmailsEnvSchema,
  /**
   * The login screen's prefill (GET /api/admin/auth/config answers the first admin address to anyone). On by default,
   * as the spec asks; `false` answers `''` and the screen shows an empty field.
   */
  ADMIN_EMAIL_PREFILL: strictBoolean(true),
  /** How long a session lives after sign-in. */
  SESSION_TTL_HOURS: z.coerce.number().positive().max(24 * 30).default(12),
  /** A session unused this long ends (the admin signs in again). */
  SESSION_IDLE_MINUTES: z.coerce.number().positive().max(24 * 60 * 30).default(60),
  /** A buyer's session (their account): its lifetime, and how long unused before they sign in again. */
  BUYER_SESSION_TTL_DAYS: z.coerce.number().positive().max(365).default(30),
  BUYER_SESSION_IDLE_DAYS: z.coerce.number().positive().max(365).default(14),
  /** The site's address, as the gateway has it: over https the session cookie is Secure and `__Host-` prefixed. */
  PUBLIC_URL: z.url().default('http://localhost:8080'),
  /** How long the audit log keeps an entry. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /**
   * Key of the HMAC that codes are stored under (and of the sealed outbox). Unset, in development only: a random key
   * per process start, so a restart voids codes not yet used (sessions are unaffected). Outside development it must
   * be set (productionSecrets below), the same on every replica.
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
  /**
   * The account-level backoff: after this many wrong codes for one address within a day (from any client, over any
   * number of code requests), the address is locked for SIGN_IN_LOCK_MINUTES, then twice as long at each further
   * wrong code, up to SIGN_IN_LOCK_MAX_HOURS. Another admin can lift a lock (DELETE /api/admin/sign-in-locks/{email}).
   */
  SIGN_IN_LOCK_AFTER_FAILURES: positiveInt(10),
  SIGN_IN_LOCK_MINUTES: positiveInt(15),
  SIGN_IN_LOCK_MAX_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(24),
}).superRefine(productionSecrets(['SERVICE_TOKEN', 'OTP_SECRET']));
export type AuthConfig = z.infer<typeof AuthConfigSchema>;
