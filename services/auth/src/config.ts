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
  /**
   * Key of the HMAC that codes are stored under. Unset: a random key per process start, so a restart
   * voids codes not yet used (sessions are unaffected). Set it when running more than one auth replica.
   */
  OTP_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  MONGO_URL: z.string().min(1).optional(),
  /** Mail: SMTP when SMTP_URL is set, else the dev mailbox under DATA_DIR/mail (packages/mailer). */
  SMTP_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default(DEFAULT_MAIL_FROM),
  /** Rate limits: code requests per address and per client, and verify attempts per client, per window. */
  RATE_LIMIT_WINDOW_MINUTES: positiveInt(15),
  OTP_SEND_LIMIT_PER_EMAIL: positiveInt(5),
  OTP_SEND_LIMIT_PER_CLIENT: positiveInt(20),
  OTP_VERIFY_LIMIT_PER_CLIENT: positiveInt(50),
  /** Multiplies every limit above (the browser tests send everything from one address). */
  RATE_LIMIT_MULTIPLIER: positiveInt(1),
});
export type AuthConfig = z.infer<typeof AuthConfigSchema>;
