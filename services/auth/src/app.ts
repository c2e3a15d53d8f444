import { watchOutbox } from '@forgeline/service-kit/metrics';
import express, { type Express, type Request, type Response } from 'express';
import { createServiceApp, finishApp, route } from '@forgeline/service-kit/http';
import { HttpError, parseInput } from '@forgeline/service-kit/errors';
import type { Logger } from '@forgeline/service-kit/logger';
import type { Mailer } from '@forgeline/mailer/mailer';
import { Outbox, type OutboxOptions } from '@forgeline/mailer/outbox';
import {
  SendOtpRequestSchema,
  VerifyOtpRequestSchema,
  VerifySessionRequestSchema,
  bearerToken,
  type AuthConfigResponse,
  type LogoutResponse,
  type SendOtpResponse,
  type VerifyOtpResponse,
} from '@forgeline/contracts/auth';
import {
  AuditQuerySchema,
  CreateApiKeyRequestSchema,
  RecordAuditRequestSchema,
  SignInLockParamsSchema,
  VerifyApiKeyRequestSchema,
  readCookie,
  sessionCookieName,
  type ApiKeyListResponse,
  type CurrentSessionResponse,
  type LiftSignInLockResponse,
  type SignInLockListResponse,
} from '@forgeline/contracts/admin-access';
import { actorOf } from '@forgeline/service-kit/gateway-assertion';
import type { AccountStore, AuditRecord, AuthStore } from './ports.ts';
import { createAccounts, type Accounts } from './accounts.ts';
import { addBuyerAccountRoutes } from './routes/buyer-account.ts';
import { SignInLocked, createSignIn, type SignIn } from './sign-in.ts';
import {
  BuyerCodeRequestSchema,
  BuyerVerifyRequestSchema,
  buyerCookieName,
  type BuyerCodeResponse,
  type BuyerSignOutResponse,
  type BuyerVerifyResponse,
} from '@forgeline/contracts/account';
import { createSignInLocks } from './sign-in-locks.ts';
import { sealedOutbox } from './sealed-outbox.ts';
import { mailSealKey } from './domain/mail-seal.ts';
import { DEFAULT_SIGN_IN_LOCK, type SignInLockPolicy } from './domain/sign-in-lock.ts';
import { createApiKeys } from './api-keys.ts';
import { createAuditLog } from './audit-log.ts';
import { clientKey, limiter } from './rate-limit.ts';

export interface RateLimits {
  windowMs: number;
  sendPerEmail: number;
  sendPerClient: number;
  verifyPerClient: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { windowMs: 15 * 60_000, sendPerEmail: 5, sendPerClient: 20, verifyPerClient: 50 };

/** Retry timing of code mails: codes live 10 minutes, so retries stay a minute apart at most. */
export const DEFAULT_OUTBOX: Omit<OutboxOptions, 'now'> = { baseDelayMs: 2_000, maxDelayMs: 60_000, pollMs: 1_000, leaseMs: 60_000 };

export interface AuthDeps {
  store: AuthStore;
  /** Buyers' companies, fleets and saved lists (issue 35). */
  accounts: AccountStore;
  /** Where code mails go; the app's outbox (`app.outbox`, started by the caller) retries them through it. */
  mailer: Mailer;
  outbox?: Partial<Omit<OutboxOptions, 'now'>>;
  logger: Logger;
  /** Lower-cased; the first is the login screen's prefill (unless adminEmailPrefill is false). */
  adminEmails: string[];
  /** GET /api/admin/auth/config names the first admin address (the spec's prefill); false: `''`. Default true. */
  adminEmailPrefill?: boolean;
  serviceToken: string;
  /** HMAC key for stored codes; the outbox's sealing key is derived from it too. */
  otpSecret: string;
  /** The account-level backoff: failed codes per address before a lock, and the locks' lengths. */
  signInLock?: SignInLockPolicy;
  /** Absolute lifetime of a session. */
  sessionTtlMs: number;
  /** A session unused this long ends. */
  sessionIdleMs: number;
  /** The site is served over HTTPS: the session cookie is `Secure` and takes the `__Host-` prefix. */
  secureCookies: boolean;
  /** Buyers' sessions (their accounts): lifetime and idle timeout; 30 and 14 days by default. */
  buyerSessionTtlMs?: number;
  buyerSessionIdleMs?: number;
  /** The site's address: the link in a buyer's code mail. */
  publicUrl?: string;
  /** How long audit entries are kept. */
  auditRetentionMs: number;
  rateLimits?: RateLimits;
  /** The clock (epoch ms); tests move it to expire codes and sessions. */
  now?: () => number;
}

export function createApp(
  deps: AuthDeps,
): Express & {
  signIn: ReturnType<typeof createSignIn>;
  signInLocks: ReturnType<typeof createSignInLocks>;
  auditLog: ReturnType<typeof createAuditLog>;
  outbox: Outbox;
} {
  const { store, logger } = deps;
  const now = deps.now ?? Date.now;
  const limits = deps.rateLimits ?? DEFAULT_RATE_LIMITS;
  // Mails are due and expire by the service's clock (codes expire by it).
  const outboxStore = sealedOutbox(store, mailSealKey(deps.otpSecret), logger);
  // The outbox in the metrics (#37): its backlog read from the store at each scrape, each attempt counted.
  const mailMetrics = watchOutbox('auth', () => store.mailBacklog());
  const outbox = new Outbox(outboxStore, deps.mailer, logger, { ...DEFAULT_OUTBOX, ...deps.outbox, now: () => new Date(now()), onAttempt: mailMetrics.attempt });
  const signIn = createSignIn({ ...deps, signInLock: deps.signInLock ?? DEFAULT_SIGN_IN_LOCK, outbox, now });
  const signInLocks = createSignInLocks({ store, logger, adminEmails: deps.adminEmails, now });
  const apiKeys = createApiKeys({ store, logger, now });
  const auditLog = createAuditLog({ store, now, retentionMs: deps.auditRetentionMs });
  const isSignInRoute = (path: string) => path === '/api/admin/auth' || path.startsWith('/api/admin/auth/');
  const app = createServiceApp({
    name: 'auth',
    logger,
    jsonLimit: false,
    ready: () => store.ping(),
    // The sign-in routes are how a session is obtained; every other admin route needs the gateway's word.
    adminGuard: { serviceToken: deps.serviceToken, open: isSignInRoute },
  });
  // A saved parts list of 200 lines, each with what its card showed, gets room; every other body the usual 100 kB.
  app.use('/api/account/lists', express.json({ limit: '1mb' }));
  app.use(express.json({ limit: '100kb' }));
  const cookieName = sessionCookieName(deps.secureCookies);
  const cookieOptions = { httpOnly: true, secure: deps.secureCookies, sameSite: 'strict', path: '/' } as const;

  /** Auth's own audit entries (sign-in, sign-out, keys); a failure to write one is logged, never the caller's problem. */
  const audit = (req: Request, entry: Omit<AuditRecord, 'id' | 'at' | 'ip' | 'requestId'>) =>
    auditLog.record([{ ...entry, ip: req.ip ?? null, requestId: (req as { id?: string }).id ?? null }]).catch((err: unknown) => {
      logger.error({ err, action: entry.action }, 'audit entry could not be written');
    });

  const common = { store, now, logger, windowMs: limits.windowMs };
  const { sendPerClient, sendPerEmail, verifyPerClient } = signInLimiters(common, limits, '');

  /** The session token: `Authorization: Bearer` (scripts, API clients) or the session cookie (the admin panel). */
  const sessionToken = (req: Request) => bearerToken(req.header('authorization')) ?? readCookie(req.header('cookie'), cookieName);
  const requireSessionToken = (req: Request) => {
    const token = sessionToken(req);
    if (!token) throw new HttpError(401, 'Missing bearer token or session cookie');
    return token;
  };
  /** Only a signed-in member of staff manages keys: a key cannot make or revoke keys. */
  const staffOnly = (res: Response) => {
    const actor = actorOf(res);
    if (actor?.kind !== 'admin') throw new HttpError(403, 'Only a signed-in member of staff can do this (not an API key)');
    return actor.name;
  };

  app.get('/api/admin/auth/config', (_req, res) => {
    const prefill = deps.adminEmailPrefill ?? true;
    res.json({ defaultEmail: prefill ? (deps.adminEmails[0] ?? '') : '' } satisfies AuthConfigResponse);
  });

  app.post(
    '/api/admin/auth/send-otp',
    sendPerClient,
    sendPerEmail,
    route(async (req, res) => {
      const { email } = parseInput(SendOtpRequestSchema, req.body, 'body');
      const sessionId = await signIn.sendOtp(email);
      res.json({ success: true, sessionId } satisfies SendOtpResponse);
    }),
  );

  app.post(
    '/api/admin/auth/verify-otp',
    verifyPerClient,
    route(async (req, res) => {
      const { sessionId, otp } = parseInput(VerifyOtpRequestSchema, req.body, 'body');
      let session;
      try {
        session = await signIn.verifyOtp(sessionId, otp);
      } catch (err) {
        if (err instanceof SignInLocked) {
          res.setHeader('retry-after', String(err.retryAfterSeconds));
          // Staff see locks of admin addresses (the others are counted only so that every address answers alike).
          if (err.started && signIn.isAdmin(err.lock.email)) {
            const until = new Date(err.lock.lockedUntil).toISOString();
            void audit(req, { actor: 'anonymous', actorKind: 'anonymous', action: 'sign-in.locked', target: `${err.lock.email} until ${until} (lock ${err.lock.locks})`, status: 429 });
          }
        }
        if (err instanceof HttpError) void audit(req, { actor: 'anonymous', actorKind: 'anonymous', action: 'sign-in.refused', target: err.message, status: err.status });
        throw err;
      }
      void audit(req, { actor: session.email, actorKind: 'admin', action: 'sign-in', target: null, status: 200 });
      // The panel relies on the cookie alone; scripts and API clients use the token in the body (the spec's contract).
      res.cookie(cookieName, session.token, { ...cookieOptions, maxAge: Math.max(0, Date.parse(session.expiresAt) - now()) });
      res.json({ success: true, ...session } satisfies VerifyOtpResponse);
    }),
  );

  app.post(
    '/api/admin/auth/logout',
    route(async (req, res) => {
      const email = await signIn.logout(requireSessionToken(req));
      if (email) void audit(req, { actor: email, actorKind: 'admin', action: 'sign-out', target: null, status: 200 });
      res.clearCookie(cookieName, cookieOptions);
      res.json({ success: true } satisfies LogoutResponse);
    }),
  );

  app.get(
    '/api/admin/auth/session',
    route(async (req, res) => {
      res.setHeader('cache-control', 'no-store');
      const session = await signIn.verifySession(requireSessionToken(req));
      res.json(session satisfies CurrentSessionResponse);
    }),
  );

  const accounts = createAccounts({ accounts: deps.accounts, store, outbox, sealKey: mailSealKey(deps.otpSecret), logger, publicUrl: deps.publicUrl, now });
  addBuyerRoutes(app, { signIn, accounts, limits, common, secureCookies: deps.secureCookies, now });
  addBuyerAccountRoutes(app, { signIn, accounts, secureCookies: deps.secureCookies });

  app.get(
    '/api/admin/api-keys',
    route(async (_req, res) => {
      staffOnly(res);
      res.setHeader('cache-control', 'no-store');
      res.json({ keys: await apiKeys.list() } satisfies ApiKeyListResponse);
    }),
  );
  app.post(
    '/api/admin/api-keys',
    route(async (req, res) => {
      const by = staffOnly(res);
      const input = parseInput(CreateApiKeyRequestSchema, req.body, 'body');
      const created = await apiKeys.create(input, by);
      res.setHeader('cache-control', 'no-store');
      res.status(201).json(created);
    }),
  );
  app.delete(
    '/api/admin/api-keys/:id',
    route(async (req, res) => {
      const by = staffOnly(res);
      await apiKeys.revoke(String(req.params.id).slice(0, 100), by);
      res.json({ success: true });
    }),
  );

  app.get(
    '/api/admin/sign-in-locks',
    route(async (_req, res) => {
      staffOnly(res);
      res.setHeader('cache-control', 'no-store');
      res.json({ locks: await signInLocks.list() } satisfies SignInLockListResponse);
    }),
  );
  app.delete(
    '/api/admin/sign-in-locks/:email',
    route(async (req, res) => {
      const by = staffOnly(res);
      const { email } = parseInput(SignInLockParamsSchema, req.params, 'params');
      const lifted = await signInLocks.lift(email, by.toLowerCase());
      void audit(req, { actor: by, actorKind: 'admin', action: 'sign-in.unlocked', target: email, status: 200 });
      res.json({ success: true, lifted } satisfies LiftSignInLockResponse);
    }),
  );

  app.get(
    '/api/admin/audit',
    route(async (req, res) => {
      staffOnly(res);
      res.setHeader('cache-control', 'no-store');
      res.json(await auditLog.list(parseInput(AuditQuerySchema, req.query, 'query')));
    }),
  );

  // The gateway's questions: the service token is checked where /internal is mounted (createServiceApp).
  app.post(
    '/internal/api-keys/verify',
    route(async (req, res) => {
      const { key } = parseInput(VerifyApiKeyRequestSchema, req.body, 'body');
      res.json(await apiKeys.verify(key));
    }),
  );

  app.post(
    '/internal/audit',
    route(async (req, res) => {
      const { entries } = parseInput(RecordAuditRequestSchema, req.body, 'body');
      await auditLog.record(entries);
      res.status(204).end();
    }),
  );

  app.post(
    '/internal/sessions/verify',
    route(async (req, res) => {
      const { token } = parseInput(VerifySessionRequestSchema, req.body, 'body');
      res.json(await signIn.verifySession(token));
    }),
  );

  finishApp(app, logger);
  return Object.assign(app, { signIn, signInLocks, auditLog, outbox });
}

/**
 * A buyer's sign-in (issue 35): the staff sign-in's rules (single-use codes, expiry, attempt and send limits, the
 * address's backoff, the same answer for every address) with limits of their own, into a session of the buyer
 * audience in its own cookie. Nothing of staff's accepts it (sign-in.ts checks the audience), nor it staff's.
 */
function addBuyerRoutes(
  app: Express,
  o: { signIn: SignIn; accounts: Accounts; limits: RateLimits; common: Omit<Parameters<typeof limiter>[0], 'name' | 'limit' | 'key' | 'message'>; secureCookies: boolean; now: () => number },
) {
  const { signIn, limits, common } = o;
  const cookieName = buyerCookieName(o.secureCookies);
  // Lax: the link in the code mail, and links from other sites, arrive signed in (no buyer route changes anything on a GET).
  const cookieOptions = { httpOnly: true, secure: o.secureCookies, sameSite: 'lax', path: '/' } as const;
  const { sendPerClient, sendPerEmail, verifyPerClient } = signInLimiters(common, limits, 'buyer-');
  const token = (req: Request) => readCookie(req.header('cookie'), cookieName);
  const privateAnswer = (res: Response) => res.setHeader('cache-control', 'no-store');

  app.post(
    '/api/account/sign-in/code',
    sendPerClient,
    sendPerEmail,
    route(async (req, res) => {
      const { email } = parseInput(BuyerCodeRequestSchema, req.body, 'body');
      privateAnswer(res);
      res.json({ success: true, sessionId: await signIn.sendOtp(email, 'buyer') } satisfies BuyerCodeResponse);
    }),
  );

  app.post(
    '/api/account/sign-in/verify',
    verifyPerClient,
    route(async (req, res) => {
      const { sessionId, otp } = parseInput(BuyerVerifyRequestSchema, req.body, 'body');
      privateAnswer(res);
      try {
        const session = await signIn.verifyOtp(sessionId, otp, 'buyer');
        // The account is made (or an invitation taken) at sign-in, so colleagues see the newcomer at once.
        await o.accounts.membership(session.email);
        res.cookie(cookieName, session.token, { ...cookieOptions, maxAge: Math.max(0, Date.parse(session.expiresAt) - o.now()) });
        res.json({ success: true, email: session.email, expiresAt: session.expiresAt } satisfies BuyerVerifyResponse);
      } catch (err) {
        if (err instanceof SignInLocked) res.setHeader('retry-after', String(err.retryAfterSeconds));
        throw err;
      }
    }),
  );

  app.post(
    '/api/account/sign-out',
    route(async (req, res) => {
      res.setHeader('cache-control', 'no-store');
      const t = token(req);
      if (t) await signIn.logout(t, 'buyer');
      res.clearCookie(cookieName, cookieOptions);
      res.json({ success: true } satisfies BuyerSignOutResponse);
    }),
  );
}

/**
 * A sign-in's three limits: code requests per network and per address, code checks per network. Staff's counters
 * are named as they always were (`prefix` ''); a buyer's count apart ('buyer-').
 */
function signInLimiters(common: Omit<Parameters<typeof limiter>[0], 'name' | 'limit' | 'key' | 'message'>, limits: RateLimits, prefix: '' | 'buyer-') {
  return {
    sendPerClient: limiter({ ...common, name: `${prefix}send-client`, limit: limits.sendPerClient, key: clientKey, message: 'Too many code requests from this network; try again later' }),
    sendPerEmail: limiter({
      ...common,
      name: `${prefix}send-email`,
      limit: limits.sendPerEmail,
      // The same address field for both (BuyerCodeRequestSchema is SendOtpRequestSchema's shape).
      key: (req) => {
        const parsed = SendOtpRequestSchema.safeParse(req.body);
        return parsed.success ? parsed.data.email : undefined;
      },
      message: 'Too many code requests for this address; try again later',
    }),
    verifyPerClient: limiter({ ...common, name: `${prefix}verify-client`, limit: limits.verifyPerClient, key: clientKey, message: 'Too many sign-in attempts from this network; try again later' }),
  };
}
