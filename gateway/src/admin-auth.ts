import { clientAddress } from '@forgeline/service-kit/client-address';
import type { Request, RequestHandler, Response } from 'express';
import { REQUEST_ID_HEADER, SERVICE_TOKEN_HEADER } from '@forgeline/contracts/common';
import { ADMIN_EMAIL_HEADER, VerifySessionResponseSchema, bearerToken } from '@forgeline/contracts/auth';
import {
  GATEWAY_ASSERTION_HEADER,
  VerifyApiKeyResponseSchema,
  isApiKey,
  readCookie,
  sessionCookieName,
  type AdminActor,
} from '@forgeline/contracts/admin-access';
import { signGatewayAssertion } from '@forgeline/service-kit/gateway-assertion';
import type { Logger } from '@forgeline/service-kit/logger';
import { createRateLimiter } from '@forgeline/service-kit/rate-limit';
import type { Redis } from '@forgeline/service-kit/redis';
import { auditAction, type AuditSink } from './audit-sink.ts';
import { matchRoute } from './routes.ts';
import { isSameSite } from './same-site.ts';
import { toReplicaPool, type ReplicaPool } from './replica-pool.ts';
import type { Response as UpstreamResponse } from 'undici';

export interface AdminAuthOptions {
  /** The auth service's replicas (AUTH_URL: a URL or a list), or the pool the proxy uses. */
  authUrl: string | ReplicaPool;
  /** SERVICE_TOKEN, shared with the auth service's /internal routes; also signs the assertions for the services. */
  serviceToken: string;
  logger: Logger;
  /** How long to wait for the auth service before answering 503. */
  timeoutMs?: number;
  /** PUBLIC_URL: its origin is where the admin panel runs (the cross-site check), https makes the cookie `__Host-`. */
  publicUrl?: string;
  /** Calls per minute one API key may make. */
  keyRateLimitPerMinute?: number;
  /** REDIS_URL's connection: a key's calls count across every gateway replica. Absent: in this process. */
  redis?: Redis;
  /** Where staff actions are recorded; absent: not recorded (tests of other things). */
  audit?: AuditSink;
}

/** Sign-in routes stay open: they are how a session is obtained (auth checks logout's own token). */
const isSignInRoute = (path: string) => path === '/api/admin/auth' || path.startsWith('/api/admin/auth/');
const isSafeMethod = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';

type Refusal = { status: number; message: string };
type AdminRequest = Request & { adminActor?: AdminActor; apiKeyId?: string };
const idOf = (req: Request) => (req.id === undefined ? undefined : String(req.id));

/**
 * The gateway's admin check, run before any /api/admin/* route is proxied.
 *
 * Who: `Authorization: Bearer` with a session token (scripts) or an API key (`flk_…`, the seller's systems), or the
 * session cookie (the admin panel). Every request asks the auth service (no cache), so a logout, a revoked key or an
 * expiry takes effect on the very next request. A missing or bad credential gets 401 and no service sees the request;
 * when auth cannot answer, 503.
 *
 * What: a key may only call routes of its scopes (`catalog:read`, ... by route and method), else 403, and is
 * rate-limited (429). A state-changing call authenticated by the cookie must come from the site itself (`Origin`,
 * or `Sec-Fetch-Site: same-origin`), else 403: SameSite=Strict already keeps the cookie off cross-site requests;
 * this is the second lock.
 *
 * Then: the gateway signs a short-lived assertion naming the actor (`x-gateway-assertion`), the only thing the
 * services believe; a client's own `x-admin-email` or assertion is always dropped. Staff actions (every write,
 * exports, and every call made with a key) go to the audit log with who, what, from where and the answer's status.
 */
export function createAdminAuth(opts: AdminAuthOptions): RequestHandler {
  const { logger } = opts;
  const auth = toReplicaPool(opts.authUrl, 'auth', logger);
  const verifySessionUrl = '/internal/sessions/verify';
  const verifyKeyUrl = '/internal/api-keys/verify';
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const publicOrigin = opts.publicUrl ? new URL(opts.publicUrl).origin : null;
  const cookieName = sessionCookieName(publicOrigin?.startsWith('https:') ?? false);

  const keyLimiter = createRateLimiter({
    name: 'gateway:api-key',
    windowMs: 60_000,
    limit: opts.keyRateLimitPerMinute ?? 600,
    logger,
    redis: opts.redis,
    keyGenerator: (req) => `key:${(req as AdminRequest).apiKeyId ?? ''}`,
    handler: (req, res) => {
      (req as AdminRequest).log?.warn({ keyId: (req as AdminRequest).apiKeyId }, 'API key rate limit reached');
      res.status(429).json({ message: 'Too many calls with this API key; slow down and try again in a minute', requestId: idOf(req) });
    },
  });

  const sameSite = (req: Request) => isSameSite(req, publicOrigin);

  async function askAuth(path: string, body: unknown, requestId?: string): Promise<{ status: number; body: Record<string, unknown> } | Refusal> {
    let answer: UpstreamResponse;
    try {
      answer = await auth.fetch(path, {
        method: 'POST',
        idempotent: true, // a check that only reads: a replica that died before answering is asked of the next one
        headers: {
          'content-type': 'application/json',
          [SERVICE_TOKEN_HEADER]: opts.serviceToken,
          ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      logger.error({ requestId, authUrl: auth.urls.join(','), err: (err as Error).message }, 'admin check: auth service unreachable');
      return { status: 503, message: 'The sign-in service is unavailable right now. Please try again shortly.' };
    }
    const parsed = (await answer.json().catch(() => ({}))) as Record<string, unknown>;
    const message = typeof parsed.message === 'string' ? parsed.message : undefined;
    if (answer.ok) return { status: 200, body: parsed };
    if (answer.status === 401 && /service token/i.test(message ?? '')) {
      // Not the admin's fault: gateway and auth disagree on SERVICE_TOKEN. Say so in the logs, not to the browser.
      logger.error({ requestId }, "admin check: auth refused the gateway's SERVICE_TOKEN; they must share one");
      return { status: 503, message: 'The sign-in service is misconfigured. Please try again later.' };
    }
    if (answer.status === 401 || answer.status === 400) return { status: 401, message: message ?? 'Invalid session token' };
    logger.error({ requestId, status: answer.status, reason: message }, 'admin check: auth service failed');
    return { status: 503, message: 'The sign-in service is unavailable right now. Please try again shortly.' };
  }

  /** Who the credential names, or why not. */
  async function identify(req: AdminRequest, token: string): Promise<AdminActor | Refusal> {
    if (isApiKey(token)) {
      const answer = await askAuth(verifyKeyUrl, { key: token }, idOf(req));
      if ('message' in answer) return answer;
      const key = VerifyApiKeyResponseSchema.safeParse(answer.body);
      if (!key.success) return { status: 503, message: 'The sign-in service gave an unexpected answer. Please try again shortly.' };
      return { kind: 'api_key', name: `key:${key.data.name}`, keyId: key.data.id, scopes: key.data.scopes };
    }
    const answer = await askAuth(verifySessionUrl, { token }, idOf(req));
    if ('message' in answer) return answer;
    const session = VerifySessionResponseSchema.safeParse(answer.body);
    if (!session.success) {
      logger.error({ requestId: idOf(req) }, 'admin check: auth answered an unexpected shape');
      return { status: 503, message: 'The sign-in service gave an unexpected answer. Please try again shortly.' };
    }
    return { kind: 'admin', name: session.data.email };
  }

  /** A key's reach: the route's scope, read for GET/HEAD, write for the rest. */
  function keyRefusal(req: Request, path: string, actor: AdminActor): Refusal | null {
    const rule = matchRoute(path);
    if (!rule?.keyScope) return { status: 403, message: 'API keys cannot call this route; sign in as staff' };
    const needed = `${rule.keyScope}:${isSafeMethod(req.method) ? 'read' : 'write'}`;
    if (!actor.scopes?.includes(needed as never)) return { status: 403, message: `This API key lacks the scope ${needed}` };
    return null;
  }

  function audited(req: AdminRequest, res: Response, path: string, actor: AdminActor) {
    const sink = opts.audit;
    if (!sink) return;
    const action = auditAction(req.method, path);
    // Writes, and reads that take buyers' data away whole: exports, a buyer's PO document.
    const worthRecording = actor.kind === 'api_key' || !isSafeMethod(req.method) || /(\.csv|\/po-document)$/.test(path);
    if (!worthRecording) return;
    res.once('finish', () =>
      sink.record({
        at: new Date().toISOString(),
        actor: actor.name,
        actorKind: actor.kind,
        action,
        target: `${req.method} ${path}`.slice(0, 500),
        ip: clientAddress(req) ?? null, // an IP address, whatever text a client put in X-Forwarded-For
        status: res.statusCode,
        requestId: idOf(req) ?? null,
      }),
    );
  }

  return async (request, res, next) => {
    const req = request as AdminRequest;
    delete req.headers[ADMIN_EMAIL_HEADER];
    delete req.headers[GATEWAY_ASSERTION_HEADER];
    const path = req.originalUrl.split('?')[0] ?? '';
    const refuse = (r: Refusal): void => void res.status(r.status).json({ message: r.message, requestId: idOf(req) });

    const bearer = bearerToken(req.header('authorization'));
    const cookie = bearer ? null : readCookie(req.header('cookie'), cookieName);
    if (cookie && !isSafeMethod(req.method) && !sameSite(req)) {
      logger.warn({ requestId: idOf(req), path, origin: req.header('origin'), fetchSite: req.header('sec-fetch-site') }, 'cross-site admin request refused');
      return refuse({ status: 403, message: 'Cross-site request refused: admin changes must come from the admin panel' });
    }
    if (isSignInRoute(path)) return next();

    const token = bearer ?? cookie;
    if (!token) return refuse({ status: 401, message: 'Sign-in required: send Authorization: Bearer <token>' });

    const actor = await identify(req, token);
    if ('message' in actor) {
      if (actor.status === 401) logger.info({ requestId: idOf(req), path, reason: actor.message }, 'admin request refused');
      return refuse(actor);
    }
    req.adminActor = actor;
    audited(req, res, path, actor);

    const proceed = async () => {
      req.headers[GATEWAY_ASSERTION_HEADER] = await signGatewayAssertion(opts.serviceToken, actor, idOf(req));
      next();
    };
    if (actor.kind === 'api_key') {
      const refused = keyRefusal(req, path, actor);
      if (refused) return refuse(refused);
      req.apiKeyId = actor.keyId;
      return keyLimiter(req, res, (err?: unknown) => (err ? next(err) : void proceed().catch(next)));
    }
    await proceed().catch(next);
  };
}
