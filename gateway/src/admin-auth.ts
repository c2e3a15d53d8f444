import type { RequestHandler, Response } from 'express';
import { REQUEST_ID_HEADER, SERVICE_TOKEN_HEADER } from '@forgeline/contracts/common';
import { ADMIN_EMAIL_HEADER, VerifySessionResponseSchema, bearerToken } from '@forgeline/contracts/auth';
import type { Logger } from '@forgeline/service-kit/logger';

export interface AdminAuthOptions {
  /** The auth service's base URL (AUTH_URL). */
  authUrl: string;
  /** SERVICE_TOKEN, shared with the auth service's /internal routes. */
  serviceToken: string;
  logger: Logger;
  /** How long to wait for the auth service before answering 503. */
  timeoutMs?: number;
}

/** Sign-in routes stay open: they are how a token is obtained (and logout revokes its own). */
const isSignInRoute = (path: string) => path === '/api/admin/auth' || path.startsWith('/api/admin/auth/');

/**
 * The gateway's admin check, run before any /api/admin/* route is proxied. Every request asks the auth
 * service (no cache), so a logout or an expiry takes effect on the very next request. A missing, malformed,
 * forged, expired or revoked token gets 401 `{ message }` and no service sees the request; when auth cannot
 * answer, 503. On success the admin's address goes on to the service in `x-admin-email` (a client's own
 * value of that header is always dropped).
 */
export function createAdminAuth(opts: AdminAuthOptions): RequestHandler {
  const verifyUrl = new URL('/internal/sessions/verify', opts.authUrl);
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const { logger } = opts;

  return async (req, res, next) => {
    delete req.headers[ADMIN_EMAIL_HEADER];
    const path = req.originalUrl.split('?')[0] ?? '';
    if (isSignInRoute(path)) return next();

    const requestId = (req as { id?: string }).id;
    const refuse = (status: number, message: string): Response => res.status(status).json({ message, requestId });

    const token = bearerToken(req.header('authorization'));
    if (!token) return void refuse(401, 'Sign-in required: send Authorization: Bearer <token>');

    let answer: globalThis.Response;
    try {
      answer = await fetch(verifyUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SERVICE_TOKEN_HEADER]: opts.serviceToken,
          ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}),
        },
        body: JSON.stringify({ token }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      logger.error({ requestId, authUrl: opts.authUrl, err: (err as Error).message }, 'admin check: auth service unreachable');
      return void refuse(503, 'The sign-in service is unavailable right now. Please try again shortly.');
    }

    const body = (await answer.json().catch(() => ({}))) as { message?: string };
    if (answer.ok) {
      const session = VerifySessionResponseSchema.safeParse(body);
      if (!session.success) {
        logger.error({ requestId }, 'admin check: auth answered an unexpected shape');
        return void refuse(503, 'The sign-in service gave an unexpected answer. Please try again shortly.');
      }
      req.headers[ADMIN_EMAIL_HEADER] = session.data.email;
      return next();
    }
    if (answer.status === 401 && /service token/i.test(body.message ?? '')) {
      // Not the admin's fault: gateway and auth disagree on SERVICE_TOKEN. Say so in the logs, not to the browser.
      logger.error({ requestId }, 'admin check: auth refused the gateway\'s SERVICE_TOKEN; they must share one');
      return void refuse(503, 'The sign-in service is misconfigured. Please try again later.');
    }
    if (answer.status === 401 || answer.status === 400) {
      logger.info({ requestId, path, reason: body.message }, 'admin request refused');
      return void refuse(401, body.message ?? 'Invalid session token');
    }
    logger.error({ requestId, status: answer.status, reason: body.message }, 'admin check: auth service failed');
    return void refuse(503, 'The sign-in service is unavailable right now. Please try again shortly.');
  };
}
