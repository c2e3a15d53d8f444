import { counter } from '@forgeline/service-kit/metrics';
import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from '@forgeline/service-kit/logger';
import { HttpError } from '@forgeline/service-kit/errors';
import type { MailMessage } from '@forgeline/mailer/mailer';
import type { Outbox } from '@forgeline/mailer/outbox';
import type { AdminSession, VerifySessionResponse } from '@forgeline/contracts/auth';
import type { Audience, AuthStore } from './ports.ts';
import { MAX_OTP_ATTEMPTS, OTP_TTL_MS, generateOtp, hashOtp, otpMatches, otpRefusal, refusalMessage } from './domain/otp.ts';
import { giveBack, isLocked, takeAttempt, type SignInLockPolicy, type SignInLockRecord } from './domain/sign-in-lock.ts';
import { mailSealKey, sealMail } from './domain/mail-seal.ts';
import { hashSessionToken, newSessionToken, sessionRefusal, sessionRefusalMessage } from './domain/session.ts';

/** Sign-in codes asked for and checked (#37): by audience and outcome, never by address. */
const otpSends = counter('auth_otp_requests_total', 'Sign-in codes asked for, by audience and outcome (mailed, locked, not_entitled)', ['audience', 'outcome']);
const otpChecks = counter('auth_otp_checks_total', 'Sign-in codes checked, by audience and outcome (signed_in, wrong, expired, used, unknown, address_locked...)', ['audience', 'outcome']);

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
  /** A buyer's session: longer, as a shop's is (BUYER_SESSION_TTL_DAYS, BUYER_SESSION_IDLE_DAYS). */
  buyerSessionTtlMs?: number;
  buyerSessionIdleMs?: number;
  /** The site's address, for the one-click link in a buyer's code mail. */
  publicUrl?: string;
  /** The account-level backoff (domain/sign-in-lock.ts). */
  signInLock: SignInLockPolicy;
  now: () => number;
}

/**
 * 429: the address is locked. The same answer whatever code came with the attempt (it was not checked), and for
 * any address, admin or not, so it tells a guesser neither whether a code was right nor who is an admin.
 */
export class SignInLocked extends HttpError {
  constructor(
    readonly lock: SignInLockRecord & { lockedUntil: number },
    /** This attempt started the lock (its own code was wrong). */
    readonly started: boolean,
    now: number,
  ) {
    const minutes = Math.max(1, Math.ceil((lock.lockedUntil - now) / 60_000));
    super(429, `Too many wrong codes for this address: sign-in is locked for ${minutes} minute${minutes === 1 ? '' : 's'}. Another admin can lift the lock sooner.`);
    this.retryAfterSeconds = Math.max(1, Math.ceil((lock.lockedUntil - now) / 1000));
  }
  /** For the Retry-After header. */
  readonly retryAfterSeconds: number;
}

/** The sign-in flow: code requests, code checks, sessions. Rules live in domain/; this wires them to storage and mail. */
export function createSignIn(deps: SignInDeps) {
  const { store, logger, now } = deps;
  const admins = new Set(deps.adminEmails);
  const sealKey = mailSealKey(deps.otpSecret);
  const ttlMs = (a: Audience) => (a === 'buyer' ? (deps.buyerSessionTtlMs ?? 30 * 86_400_000) : deps.sessionTtlMs);
  const idleMs = (a: Audience) => (a === 'buyer' ? (deps.buyerSessionIdleMs ?? 14 * 86_400_000) : deps.sessionIdleMs);
  /** A buyer's wrong codes count apart from the same address's staff ones: a buyer's guesses never lock staff out. */
  const lockKey = (email: string, a: Audience) => (a === 'buyer' ? `buyer:${email}` : email);

  /** A buyer's code: the code, and a link that fills it in (in the fragment, which no server or log sees). */
  function buyerCodeMail(email: string, otpId: string, code: string): MailMessage {
    const minutes = OTP_TTL_MS / 60_000;
    const link = `${(deps.publicUrl ?? 'http://localhost:8080').replace(/\/$/, '')}/account/sign-in#code=${encodeURIComponent(otpId)}.${code}`;
    const text =
      `Your Forgeline Parts sign-in code is ${code}\n\n` +
      `Or sign in with this link: ${link}\n\n` +
      `The code and the link work once, for ${minutes} minutes.\n` +
      `If you did not ask for it, ignore this message: no account is made without the code.\n`;
    return { to: email, subject: 'Your Forgeline Parts sign-in code', text, messageId: `<otp-${otpId}@forgeline.parts>` };
  }

  function codeMail(email: string, otpId: string, code: string): MailMessage {
    const minutes = OTP_TTL_MS / 60_000;
    const text =
      `Your Forgeline Parts admin sign-in code is ${code}\n\n` +
      `It is valid for ${minutes} minutes and can be used once.\n` +
      `If you did not ask for it, ignore this message.\n`;
    return { to: email, subject: 'Your Forgeline Parts admin sign-in code', text, messageId: `<otp-${otpId}@forgeline.parts>` };
  }

  /** Sent instead of a code while the address is locked: once per lock, however many codes are asked for. */
  function lockNotice(lock: SignInLockRecord & { lockedUntil: number }, id: string): MailMessage {
    const until = new Date(lock.lockedUntil).toISOString().replace(/\.\d+Z$/, 'Z');
    const text =
      `Sign-in to the Forgeline Parts admin with ${lock.email} is locked until ${until} (UTC): ` +
      `${lock.failures} wrong codes were entered for this address since ${new Date(lock.windowStart).toISOString().replace(/\.\d+Z$/, 'Z')}.\n\n` +
      `No code was sent. If these were not your attempts, someone may be guessing codes for your address.\n` +
      `Another admin can lift the lock sooner in the admin panel (Audit log tab, Sign-in locks); otherwise it ends by itself.\n`;
    return { to: lock.email, subject: 'Forgeline Parts admin sign-in locked', text, messageId: `<${id}@forgeline.parts>` };
  }

  return {
    /**
     * Starts a code request for any well-formed address and answers the same way for all of them; only an
     * admin address gets a code. Its mail goes into the outbox with the request and is sent in the background,
     * so the answer takes as long either way and does not wait for (or depend on) the mail server: while it is
     * out, the mail waits and is retried until it goes or the code expires.
     */
    async sendOtp(email: string, audience: Audience = 'staff'): Promise<string> {
      const id = randomUUID();
      const t = now();
      const isAdmin = admins.has(email);
      // Every address may sign in as a buyer (that is how an account starts); only ADMIN_EMAILS as staff.
      const entitled = audience === 'buyer' || isAdmin;
      // Asked for every address, so an admin's request does the same work as anyone's.
      const lock = await store.getSignInLock(lockKey(email, audience));
      const locked = isLocked(lock, t);
      // A locked address gets no code (it could not be used while the lock lasts), but its admin one notice.
      const code = entitled && !locked ? generateOtp() : null;
      const expiresAt = t + OTP_TTL_MS;
      const mail = code && (audience === 'buyer' ? buyerCodeMail(email, id, code) : codeMail(email, id, code));
      await store.createOtp(
        { id, email, audience, codeHash: code ? hashOtp(deps.otpSecret, id, code) : null, expiresAt, attempts: 0, consumedAt: null, createdAt: t },
        mail ? { id, refId: id, sealed: sealMail(sealKey, id, mail), expiresAt, createdAt: t } : undefined,
      );
      let notice = false;
      if (isAdmin && locked && audience === 'staff') {
        const noticeId = `lock-${createHash('sha256').update(email).digest('hex').slice(0, 24)}-${lock.lockedAt ?? t}`;
        const mail = { id: noticeId, refId: id, sealed: sealMail(sealKey, noticeId, lockNotice(lock, noticeId)), expiresAt: lock.lockedUntil, createdAt: t };
        notice = await store.enqueueMail(mail);
      }
      logger.info({ otpId: id, audience, isAdmin, locked }, 'sign-in code requested');
      otpSends.inc({ audience, outcome: code ? 'mailed' : locked && entitled ? 'locked' : 'not_entitled' });
      if (code || notice) deps.outbox.kick();
      return id;
    },

    /**
     * Checks a code; on success the code is spent and a session starts. Every refusal is a 401 with its reason, but
     * a locked address's: 429 (SignInLocked), its code not checked. Each attempt takes its place in the address's
     * count before its code is checked and gives it back when the code was right (domain/sign-in-lock.ts).
     */
    async verifyOtp(otpId: string, code: string, audience: Audience = 'staff'): Promise<AdminSession> {
      const t = now();
      const found = await store.getOtp(otpId);
      // A code asked for the other side is no code here: the same answer as an unknown one.
      const before = found && (found.audience ?? 'staff') === audience ? found : null;
      const refused = otpRefusal(before, t);
      if (refused) {
        otpChecks.inc({ audience, outcome: refused });
        logger.warn({ otpId, reason: refused }, 'sign-in code refused');
        throw new HttpError(401, refusalMessage[refused]);
      }
      const email = before!.email;
      const lockEmail = lockKey(email, audience);
      const attemptId = randomUUID();
      const attempt = await store.changeSignInLock(lockEmail, (stored) => takeAttempt(stored, lockEmail, attemptId, t, deps.signInLock));
      if (!attempt.allowed) {
        otpChecks.inc({ audience, outcome: 'address_locked' });
        logger.warn({ otpId, lockedUntil: new Date(attempt.lock.lockedUntil).toISOString() }, 'sign-in refused: address locked');
        throw new SignInLocked(attempt.lock, false, t);
      }
      // The place goes back unless the code was checked and found wrong (also when something failed on the way).
      let verdict: 'wrong' | 'right' | 'unchecked' = 'unchecked';
      let counted;
      try {
        counted = await store.countOtpAttempt(otpId, MAX_OTP_ATTEMPTS);
        if (!counted) {
          logger.warn({ otpId, reason: 'locked or used meanwhile' }, 'sign-in code refused');
          throw new HttpError(401, refusalMessage.locked);
        }
        if (!otpMatches(deps.otpSecret, counted, code)) {
          verdict = 'wrong';
          otpChecks.inc({ audience, outcome: 'wrong' });
          logger.warn({ otpId, attempts: counted.attempts, addressFailures: attempt.record.failures }, 'wrong sign-in code');
          if (attempt.lockStarted) {
            const lock = attempt.record as SignInLockRecord & { lockedUntil: number };
            logger.warn({ otpId, isAdmin: admins.has(email), locks: lock.locks, lockedUntil: new Date(lock.lockedUntil).toISOString() }, 'sign-in locked for an address');
            throw new SignInLocked(lock, true, t);
          }
          throw new HttpError(401, counted.attempts >= MAX_OTP_ATTEMPTS ? refusalMessage.locked : refusalMessage.wrong);
        }
        verdict = 'right';
      } finally {
        if (verdict !== 'wrong') {
          await store.changeSignInLock(lockEmail, (stored) => giveBack(stored, attemptId, t)).catch((err: unknown) => {
            logger.error({ err, otpId }, 'sign-in attempt could not be given back: it stays counted as a failure');
          });
        }
      }
      if (!(await store.consumeOtp(otpId, t))) {
        logger.warn({ otpId, reason: 'used' }, 'sign-in code refused');
        throw new HttpError(401, refusalMessage.used);
      }
      const token = newSessionToken();
      const expiresAt = t + ttlMs(audience);
      await store.createSession({ tokenHash: hashSessionToken(token), email: counted.email, audience, expiresAt, revokedAt: null, createdAt: t, lastSeenAt: t });
      logger.info({ otpId, audience, expiresAt: new Date(expiresAt).toISOString() }, audience === 'buyer' ? 'buyer signed in' : 'admin signed in');
      otpChecks.inc({ audience, outcome: 'signed_in' });
      return { token, email: counted.email, expiresAt: new Date(expiresAt).toISOString() };
    },

    /** Whether the address is one of ADMIN_EMAILS. */
    isAdmin: (email: string) => admins.has(email),

    /** The gateway's question: is this bearer token a live session? */
    async verifySession(token: string, audience: Audience = 'staff'): Promise<VerifySessionResponse> {
      const t = now();
      const tokenHash = hashSessionToken(token);
      const found = await store.findSession(tokenHash);
      // A buyer's session opens nothing of staff's, and the reverse: the same answer as an unknown token.
      const record = found && (found.audience ?? 'staff') === audience ? found : null;
      const refused = sessionRefusal(record, t, idleMs(audience));
      if (refused) throw new HttpError(401, sessionRefusalMessage[refused]);
      // Each call moves the idle timeout on; one write a minute is precise enough for a timeout counted in minutes.
      if (t - record!.lastSeenAt >= Math.min(60_000, idleMs(audience) / 10)) await store.touchSession(tokenHash, t);
      return { email: record!.email, expiresAt: new Date(record!.expiresAt).toISOString() };
    },

    /** Revokes the session at once; idempotent. */
    async logout(token: string, audience: Audience = 'staff'): Promise<string | null> {
      const tokenHash = hashSessionToken(token);
      const found = await store.findSession(tokenHash);
      if (!found || (found.audience ?? 'staff') !== audience) return null;
      const revoked = await store.revokeSession(tokenHash, now());
      logger.info({ revoked, audience }, audience === 'buyer' ? 'buyer signed out' : 'admin logout');
      return revoked ? found.email : null;
    },

    /** Resolves when every code mail due now has been tried (tests). */
    async drainMail(): Promise<void> {
      await deps.outbox.flush();
    },
  };
}
export type SignIn = ReturnType<typeof createSignIn>;
