import type { Express, Request } from 'express';
import { createServiceApp, finishApp, requireServiceToken, route } from '@forgeline/service-kit/http';
import { HttpError, parseInput } from '@forgeline/service-kit/errors';
import type { Logger } from '@forgeline/service-kit/logger';
import type { Mailer } from '@forgeline/mailer/mailer';
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
import type { AuthStore } from './ports.ts';
import { createSignIn } from './sign-in.ts';
import { clientKey, limiter } from './rate-limit.ts';

export interface RateLimits {
  windowMs: number;
  sendPerEmail: number;
  sendPerClient: number;
  verifyPerClient: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { windowMs: 15 * 60_000, sendPerEmail: 5, sendPerClient: 20, verifyPerClient: 50 };

export interface AuthDeps {
  store: AuthStore;
  mailer: Mailer;
  logger: Logger;
  /** Lower-cased; the first is the login screen's prefill. */
  adminEmails: string[];
  serviceToken: string;
  /** HMAC key for stored codes. */
  otpSecret: string;
  sessionTtlMs: number;
  rateLimits?: RateLimits;
  /** The clock (epoch ms); tests move it to expire codes and sessions. */
  now?: () => number;
}

export function createApp(deps: AuthDeps): Express & { signIn: ReturnType<typeof createSignIn> } {
  const { store, logger } = deps;
  const now = deps.now ?? Date.now;
  const limits = deps.rateLimits ?? DEFAULT_RATE_LIMITS;
  const signIn = createSignIn({ ...deps, now });
  const app = createServiceApp({ name: 'auth', logger, ready: () => store.ping() });

  const common = { store, now, logger, windowMs: limits.windowMs };
  const sendPerClient = limiter({
    ...common,
    name: 'send-client',
    limit: limits.sendPerClient,
    key: clientKey,
    message: 'Too many code requests from this network; try again later',
  });
  const sendPerEmail = limiter({
    ...common,
    name: 'send-email',
    limit: limits.sendPerEmail,
    key: (req) => {
      const parsed = SendOtpRequestSchema.safeParse(req.body);
      return parsed.success ? parsed.data.email : undefined;
    },
    message: 'Too many code requests for this address; try again later',
  });
  const verifyPerClient = limiter({
    ...common,
    name: 'verify-client',
    limit: limits.verifyPerClient,
    key: clientKey,
    message: 'Too many sign-in attempts from this network; try again later',
  });

  const requireBearer = (req: Request) => {
    const token = bearerToken(req.header('authorization'));
    if (!token) throw new HttpError(401, 'Missing bearer token');
    return token;
  };

  app.get('/api/admin/auth/config', (_req, res) => {
    res.json({ defaultEmail: deps.adminEmails[0] ?? '' } satisfies AuthConfigResponse);
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
      const session = await signIn.verifyOtp(sessionId, otp);
      res.json({ success: true, ...session } satisfies VerifyOtpResponse);
    }),
  );

  app.post(
    '/api/admin/auth/logout',
    route(async (req, res) => {
      await signIn.logout(requireBearer(req));
      res.json({ success: true } satisfies LogoutResponse);
    }),
  );

  app.post(
    '/internal/sessions/verify',
    requireServiceToken(deps.serviceToken),
    route(async (req, res) => {
      const { token } = parseInput(VerifySessionRequestSchema, req.body, 'body');
      res.json(await signIn.verifySession(token));
    }),
  );

  finishApp(app, logger);
  return Object.assign(app, { signIn });
}
