import { randomUUID, timingSafeEqual } from 'node:crypto';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { REQUEST_ID_HEADER, SERVICE_TOKEN_HEADER } from '@forgeline/contracts/common';
import { ADMIN_EMAIL_HEADER } from '@forgeline/contracts/auth';
import type { Logger } from './logger.ts';
import { HttpError } from './errors.ts';
import { metricsHandler, redMetrics } from './metrics.ts';
import { requestTraceIds, traceRequests, tracingOn } from './tracing.ts';
import { GATEWAY_ASSERTION_GUARD, requireGatewayAssertion, type AdminGuardOptions } from './gateway-assertion.ts';

export interface ServiceAppOptions {
  name: string;
  logger: Logger;
  /** Answers /readyz: true when every dependency the service needs answers. */
  ready?: () => Promise<boolean> | boolean;
  /** JSON body limit; bigger bodies get 413. `false` leaves bodies unread (the gateway streams them on). */
  jsonLimit?: string | false;
  /**
   * Every service but the gateway: /api/admin/* refused without the gateway's signed assertion, /internal/* without the
   * service token.
   */
  adminGuard?: AdminGuardOptions;
  /**
   * GET /metrics on this app (#37): every service, whose port only the internal network reaches. The gateway, whose
   * port is the public's, says false and serves its metrics on a port of its own. RED is counted either way.
   */
  metricsRoute?: boolean;
}

/** The two guarded prefixes. The guards are mounted on them, so the router's own matching decides what they cover. */
export const ADMIN_PREFIX = '/api/admin';
export const INTERNAL_PREFIX = '/internal';


const REQUEST_ID_PATTERN = /^[\w.-]{1,100}$/;

/** An Express app with request ids, request logs, JSON bodies and the two health routes. */
export function createServiceApp(opts: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // One spelling per route: /API/admin or /api/admin/quotes/ match nothing, instead of a route a guard did not expect.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.set('trust proxy', 'loopback, uniquelocal');
  app.set('query parser', 'simple'); // no nested objects from ?a[b]=c: a query string never becomes an operator
  app.use((req, res, next) => {
    const given = req.header(REQUEST_ID_HEADER);
    const id = given && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    next();
  });
  // A server span per request when OTEL_EXPORTER_OTLP_ENDPOINT is set (before the log, which names its trace id).
  if (tracingOn) app.use(traceRequests(opts.name));
  app.use(requestLog(app, opts.logger));
  // METRICS=off leaves RED out (the observability bench measures what it costs; nothing else turns it off).
  if (process.env.METRICS !== 'off') app.use(redMetrics(opts.name));
  if (opts.metricsRoute !== false) app.get('/metrics', metricsHandler);
  // Before the body is read: a caller that did not come through the gateway learns nothing from validation. Mounted on
  // the prefixes rather than matching path strings: whatever the router takes for a route under /api/admin or
  // /internal (case, slashes, escapes), it has passed the guard first; finishApp checks no route was declared around it.
  if (opts.adminGuard) {
    // Only the guard names the admin (from the assertion): a caller's own header is dropped on every path.
    app.use((req, _res, next) => {
      delete req.headers[ADMIN_EMAIL_HEADER];
      next();
    });
    app.use(ADMIN_PREFIX, requireGatewayAssertion(opts.adminGuard));
    app.use(INTERNAL_PREFIX, requireServiceToken(opts.adminGuard.serviceToken));
  }
  if (opts.jsonLimit !== false) app.use(express.json({ limit: opts.jsonLimit ?? '100kb' }));
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok', service: opts.name }));
  app.get('/readyz', async (_req, res) => {
    let ok = false;
    try {
      ok = opts.ready ? await opts.ready() : true;
    } catch {
      ok = false;
    }
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not ready', service: opts.name });
  });
  return app;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request id (REQUEST_ID_HEADER, or a new one): in the answer's header and every log line about it. */
      id: string;
      /** The service's logger with this request's id and method and URL bound: made on first use. */
      log: Logger;
    }
  }
}

const UNLOGGED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
const logOf = Symbol('requestLogger');

/**
 * A line per answered request ("request completed": `reqId`, `req` {method, url}, `res` {statusCode}, `responseTime`
 * ms; warn for 4xx, error for 5xx) and `req.log` for the handlers. No logger per request is made unless a handler
 * asks for one: pino-http made two per request, at any level, which cost the gateway and the catalog a fifth of their
 * throughput on cheap reads (2,400 against 2,950 random gallery pages a second at 500,000 parts).
 */
function requestLog(app: Express, logger: Logger): RequestHandler {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: express.Request & { [logOf]?: Logger }) {
      return (this[logOf] ??= logger.child({ reqId: this.id, req: { method: this.method, url: this.originalUrl }, ...traceFields(this) }));
    },
    set(this: express.Request & { [logOf]?: Logger }, value: Logger) {
      this[logOf] = value;
    },
  });
  return (req, res, next) => {
    if (UNLOGGED_PATHS.has(req.path)) return next();
    const startedAt = performance.now();
    res.once('close', () => {
      const statusCode = res.statusCode;
      const level = statusCode >= 500 ? 'error' : statusCode >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const fields = { reqId: req.id, req: { method: req.method, url: req.originalUrl }, res: { statusCode }, responseTime: Math.round(performance.now() - startedAt), ...traceFields(req) };
      // 'close' also comes when the client went away first: say so, and that no full answer left.
      if (res.writableFinished) logger[level](fields, 'request completed');
      else logger.info(fields, 'request closed before its answer was sent');
    });
    next();
  };
}

/** The request's trace and span ids under the names log pipelines join traces on (none when tracing is off). */
function traceFields(req: express.Request): { trace_id?: string; span_id?: string } {
  const ids = tracingOn ? requestTraceIds(req) : undefined;
  return ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}

/** Wrap an async handler so a rejected promise reaches the error handler. (Express 5 does this too; kept explicit.) */
export const route =
  (fn: (req: express.Request, res: express.Response) => Promise<unknown> | unknown): RequestHandler =>
  async (req, res, next) => {
    try {
      await fn(req, res);
    } catch (err) {
      next(err);
    }
  };

const SERVICE_TOKEN_GUARD = 'serviceTokenGuard';

/** Guards /internal routes with the shared service token (constant-time compare). */
export function requireServiceToken(token: string): RequestHandler {
  const expected = Buffer.from(token);
  const guard: RequestHandler = (req, _res, next) => {
    const given = Buffer.from(req.header(SERVICE_TOKEN_HEADER) ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      next(new HttpError(401, 'Missing or wrong service token'));
      return;
    }
    next();
  };
  Object.defineProperty(guard, 'name', { value: SERVICE_TOKEN_GUARD });
  return guard;
}

/**
 * Refuses to build a guarded app with a route that looks like an admin or internal one but is not behind its guard:
 * declared before the guard was mounted, or in another letter case. Run once at start. (Apps without guards are the
 * gateway and tests' stand-ins; each service's path-variant test proves its guards are there.)
 */
function assertGuardedRoutes(app: Express): void {
  const stack = (app as unknown as { router?: { stack: RouterLayer[] } }).router?.stack ?? [];
  const guardAt = (name: string) => stack.findIndex((l) => l.handle?.name === name);
  const guards = [
    { prefix: ADMIN_PREFIX, pattern: /^\/api\/admin(?:\/|$)/i, at: guardAt(GATEWAY_ASSERTION_GUARD) },
    { prefix: INTERNAL_PREFIX, pattern: /^\/internal(?:\/|$)/i, at: guardAt(SERVICE_TOKEN_GUARD) },
  ];
  if (guards.every((g) => g.at < 0)) return;
  stack.forEach((layer, i) => {
    const paths = [layer.route?.path].flat().filter((p): p is string => typeof p === 'string');
    for (const p of paths) {
      for (const g of guards) {
        if (g.pattern.test(p) && (g.at < 0 || i < g.at || !p.startsWith(g.prefix))) {
          throw new Error(`Route ${p} is not behind the ${g.prefix} guard: declare it as ${g.prefix}/…, after createServiceApp({ adminGuard })`);
        }
      }
    }
  });
}

interface RouterLayer {
  handle?: { name?: string };
  route?: { path?: unknown };
}

/** The last two middlewares of every service: JSON 404 for unknown routes, JSON errors for everything thrown. */
export function finishApp(app: Express, logger: Logger): Express {
  assertGuardedRoutes(app);
  app.use((req, _res, next) => next(new HttpError(404, `No route for ${req.method} ${req.path}`)));
  const onError: ErrorRequestHandler = (err, req, res, _next) => {
    const requestId = (req as { id?: string }).id;
    // A download the client hung up on (a stream pipeline's premature close): the request log says so; not an error.
    if ((err as NodeJS.ErrnoException)?.code === 'ERR_STREAM_PREMATURE_CLOSE' && res.destroyed) return;
    const status = statusOf(err);
    if (status >= 500) (req.log ?? logger).error({ err, requestId }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    const message =
      err instanceof HttpError
        ? err.message
        : status === 413
          ? tooLargeMessage(err)
          : status === 400
            ? 'Request body is not valid JSON'
            : status < 500 && err instanceof Error
              ? err.message
              : 'Internal error; the request id in this response identifies it in the logs';
    res.status(status).json({
      message,
      requestId,
      ...(err instanceof HttpError && err.issues ? { issues: err.issues } : {}),
      ...(err instanceof HttpError && err.extra ? err.extra : {}),
    });
  };
  app.use(onError);
  return app;
}

/** body-parser's 413 carries the route's limit in bytes: say it, so a client knows what to send. */
function tooLargeMessage(err: unknown): string {
  const limit = (err as { limit?: unknown }).limit;
  return typeof limit === 'number' ? `Request body is too large (at most ${Math.round(limit / 1024)} kB here)` : 'Request body is too large';
}

function statusOf(err: unknown): number {
  if (err instanceof HttpError) return err.status;
  const s = (err as { status?: unknown; statusCode?: unknown })?.status ?? (err as { statusCode?: unknown })?.statusCode;
  return typeof s === 'number' && s >= 400 && s < 600 ? s : 500;
}
