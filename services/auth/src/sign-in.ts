import { randomUUID } from 'node:crypto';
import type { Logger } from '@forgeline/service-kit/logger';
import { HttpError } from '@forgeline/service-kit/errors';
import type { MailMessage } from '@forgeline/mailer/mailer';
import type { Outbox } from '@forgeline/mailer/outbox';
import type { AdminSession, VerifySessionResponse } from '@forgeline/contracts/auth';
import type { AuthStore } from './ports.ts';
import { MAX_OTP_ATTEMPTS, OTP_TTL_MS, generateOtp, hashOtp, otpMatches, otpRefusal, refusalMessage } from './domain/otp.ts';
import { hashSessionToken, newSessionToken, sessionRefusal, sessionRefusalMessage } from './domain/session.ts';

export interface SignInDeps {
  store: AuthStore;
  /** Sends what the store's outbox holds; told when a code's mail is waiting. */
  outbox: Pick<Outbox, 'kick' | 'flush'>;
  logger: Logger;
  adminEmails: string[];
  otpSecret: string;
  sessionTtlMs: number;
  /** A session unused this long ends (its absolute lifetime is sessionTtlMs). */
  sessionIdleMs: number;
  now: () => number;
}

/** The sign-in flow: code requests, code checks, sessions. Rules live in domain/; this wires them to storage and mail. */
export function createSignIn(deps: SignInDeps) {
  const { store, logger, now } = deps;
  const admins = new Set(deps.adminEmails);

  function codeMail(email: string, otpId: string, code: string): MailMessage {
    const minutes = OTP_TTL_MS / 60_000;
    const text =
      `Your Forgeline Parts admin sign-in code is ${code}\n\n` +
      `It is valid for ${minutes} minutes and can be used once.\n` +
      `If you did not ask for it, ignore this message.\n`;
    return { to: email, subject: 'Your Forgeline Parts admin sign-in code', text, messageId: `<otp-${otpId}@forgeline.parts>` };
  }

  return {
    /**
     * Starts a code request for any well-formed address and answers the same way for all of them; only an
     * admin address gets a code. Its mail goes into the outbox with the request and is sent in the background,
     * so the answer takes as long either way and does not wait for (or depend on) the mail server: while it is
     * out, the mail waits and is retried until it goes or the code expires.
     */
    async sendOtp(email: string): Promise<string> {
      const id = randomUUID();
      const t = now();
      const isAdmin = admins.has(email);
      const code = isAdmin ? generateOtp() : null;
      const expiresAt = t + OTP_TTL_MS;
      await store.createOtp(
        { id, email, codeHash: code ? hashOtp(deps.otpSecret, id, code) : null, expiresAt, attempts: 0, consumedAt: null, createdAt: t },
        code ? { id, refId: id, message: codeMail(email, id, code), expiresAt, createdAt: t } : undefined,
      );
      logger.info({ otpId: id, isAdmin }, 'sign-in code requested');
      if (code) deps.outbox.kick();
      return id;
    },

    /** Checks a code; on success the code is spent and a session starts. Every refusal is a 401 with its reason. */
    async verifyOtp(otpId: string, code: string): Promise<AdminSession> {
      const t = now();
      const before = await store.getOtp(otpId);
      const refused = otpRefusal(before, t);
      if (refused) {
        logger.warn({ otpId, reason: refused }, 'sign-in code refused');
        throw new HttpError(401, refusalMessage[refused]);
      }
      const counted = await store.countOtpAttempt(otpId, MAX_OTP_ATTEMPTS);
      if (!counted) {
        logger.warn({ otpId, reason: 'locked or used meanwhile' }, 'sign-in code refused');
        throw new HttpError(401, refusalMessage.locked);
      }
      if (!otpMatches(deps.otpSecret, counted, code)) {
        logger.warn({ otpId, attempts: counted.attempts }, 'wrong sign-in code');
        throw new HttpError(401, counted.attempts >= MAX_OTP_ATTEMPTS ? refusalMessage.locked : refusalMessage.wrong);
      }
      if (!(await store.consumeOtp(otpId, t))) {
        logger.warn({ otpId, reason: 'used' }, 'sign-in code refused');
        throw new HttpError(401, refusalMessage.used);
      }
      const token = newSessionToken();
      const expiresAt = t + deps.sessionTtlMs;
      await store.createSession({ tokenHash: hashSessionToken(token), email: counted.email, expiresAt, revokedAt: null, createdAt: t, lastSeenAt: t });
      logger.info({ otpId, expiresAt: new Date(expiresAt).toISOString() }, 'admin signed in');
      return { token, email: counted.email, expiresAt: new Date(expiresAt).toISOString() };
    },

    /** The gateway's question: is this bearer token a live session? */
    async verifySession(token: string): Promise<VerifySessionResponse> {
      const t = now();
      const tokenHash = hashSessionToken(token);
      const record = await store.findSession(tokenHash);
      const refused = sessionRefusal(record, t, deps.sessionIdleMs);
      if (refused) throw new HttpError(401, sessionRefusalMessage[refused]);
      // Each call moves the idle timeout on; one write a minute is precise enough for a timeout counted in minutes.
      if (t - record!.lastSeenAt >= Math.min(60_000, deps.sessionIdleMs / 10)) await store.touchSession(tokenHash, t);
      return { email: record!.email, expiresAt: new Date(record!.expiresAt).toISOString() };
    },

    /** Revokes the session at once; idempotent. */
    async logout(token: string): Promise<string | null> {
      const tokenHash = hashSessionToken(token);
      const revoked = await store.revokeSession(tokenHash, now());
      logger.info({ revoked }, 'admin logout');
      return revoked ? ((await store.findSession(tokenHash))?.email ?? null) : null;
    },

    /** Resolves when every code mail due now has been tried (tests). */
    async drainMail(): Promise<void> {
      await deps.outbox.flush();
    },
  };
}
export type SignIn = ReturnType<typeof createSignIn>;
