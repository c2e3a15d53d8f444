import { randomUUID } from 'node:crypto';
import type { Logger } from '@forgeline/service-kit/logger';
import { HttpError } from '@forgeline/service-kit/errors';
import type { Mailer } from '@forgeline/mailer/mailer';
import type { AdminSession, VerifySessionResponse } from '@forgeline/contracts/auth';
import type { AuthStore } from './ports.ts';
import { MAX_OTP_ATTEMPTS, OTP_TTL_MS, generateOtp, hashOtp, otpMatches, otpRefusal, refusalMessage } from './domain/otp.ts';
import { hashSessionToken, newSessionToken, sessionRefusal, sessionRefusalMessage } from './domain/session.ts';

export interface SignInDeps {
  store: AuthStore;
  mailer: Mailer;
  logger: Logger;
  adminEmails: string[];
  otpSecret: string;
  sessionTtlMs: number;
  now: () => number;
}

/** The sign-in flow: code requests, code checks, sessions. Rules live in domain/; this wires them to storage and mail. */
export function createSignIn(deps: SignInDeps) {
  const { store, logger, now } = deps;
  const admins = new Set(deps.adminEmails);
  const pendingMail = new Set<Promise<void>>();

  function mailCode(email: string, otpId: string, code: string) {
    const minutes = OTP_TTL_MS / 60_000;
    const text =
      `Your Forgeline Parts admin sign-in code is ${code}\n\n` +
      `It is valid for ${minutes} minutes and can be used once.\n` +
      `If you did not ask for it, ignore this message.\n`;
    const sent = deps.mailer
      .send({ to: email, subject: 'Your Forgeline Parts admin sign-in code', text, messageId: `<otp-${otpId}@forgeline.parts>` })
      .then(
        () => logger.info({ otpId }, 'sign-in code mailed'),
        (err: unknown) => logger.error({ err, otpId }, 'sign-in code could not be mailed'),
      )
      .finally(() => pendingMail.delete(sent));
    pendingMail.add(sent);
  }

  return {
    /**
     * Starts a code request for any well-formed address and answers the same way for all of them; only an
     * admin address gets a code. The mail is sent in the background so the answer takes as long either way.
     */
    async sendOtp(email: string): Promise<string> {
      const id = randomUUID();
      const t = now();
      const isAdmin = admins.has(email);
      const code = isAdmin ? generateOtp() : null;
      await store.createOtp({
        id,
        email,
        codeHash: code ? hashOtp(deps.otpSecret, id, code) : null,
        expiresAt: t + OTP_TTL_MS,
        attempts: 0,
        consumedAt: null,
        createdAt: t,
      });
      logger.info({ otpId: id, isAdmin }, 'sign-in code requested');
      if (code) mailCode(email, id, code);
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
      await store.createSession({ tokenHash: hashSessionToken(token), email: counted.email, expiresAt, revokedAt: null, createdAt: t });
      logger.info({ otpId, expiresAt: new Date(expiresAt).toISOString() }, 'admin signed in');
      return { token, email: counted.email, expiresAt: new Date(expiresAt).toISOString() };
    },

    /** The gateway's question: is this bearer token a live session? */
    async verifySession(token: string): Promise<VerifySessionResponse> {
      const record = await store.findSession(hashSessionToken(token));
      const refused = sessionRefusal(record, now());
      if (refused) throw new HttpError(401, sessionRefusalMessage[refused]);
      return { email: record!.email, expiresAt: new Date(record!.expiresAt).toISOString() };
    },

    /** Revokes the session at once; idempotent. */
    async logout(token: string): Promise<void> {
      const revoked = await store.revokeSession(hashSessionToken(token), now());
      logger.info({ revoked }, 'admin logout');
    },

    /** Resolves when every mail started so far has been handed over (tests and shutdown). */
    async drainMail(): Promise<void> {
      await Promise.all([...pendingMail]);
    },
  };
}
export type SignIn = ReturnType<typeof createSignIn>;
