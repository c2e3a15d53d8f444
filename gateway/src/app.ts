import fs from 'node:fs';
import path from 'node:path';
import http, { type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import compression from 'compression';
import express, { type Express, type NextFunction, type Request, type RequestHandler } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { REQUEST_ID_HEADER, SERVICE_TOKEN_HEADER } from '@forgeline/contracts/common';
import { GATEWAY_ASSERTION_HEADER } from '@forgeline/contracts/admin-access';
import { clientAddress } from '@forgeline/service-kit/client-address';
import { createServiceApp, finishApp } from '@forgeline/service-kit/http';
import { requestTraceContext, traceHeaders, tracingOn } from '@forgeline/service-kit/tracing';
import { HttpError } from '@forgeline/service-kit/errors';
import type { Logger } from '@forgeline/service-kit/logger';
import type { ClearChannel } from '@forgeline/service-kit/clear-channel';
import type { EdgeCache } from './edge-cache.ts';
import { mountApiDocs } from './api-docs.ts';
import { matchRoute, type ServiceName } from './routes.ts';
import { BUYER_ASSERTION_HEADER } from '@forgeline/contracts/account';
import { createSecurityHeaders, type SecurityHeaders } from './security-headers.ts';
import { failureKind, isIdempotent, toReplicaPool, type ReplicaPool } from './replica-pool.ts';

export interface GatewayDeps {
  logger: Logger;
  /**
   * Each service's replicas: a base URL, a comma-separated list or array of them, or a pool shared with the gateway's
   * own calls (main.ts), so a replica the proxy found dead is skipped by page reads too.
   */
  services: Record<ServiceName, string | readonly string[] | ReplicaPool>;
  /** For pools made here from URLs: how long a failed replica is left alone, and the connect timeout (replica-pool.ts). */
  replicaRetryAfterMs?: number;
  upstreamConnectTimeoutMs?: number;
  upstreamTimeoutMs: number;
  uploadTimeoutMs: number;
  /** Folder of the built web app, or '' to serve no pages (compose: nginx serves them). */
  webDistDir: string;
  /** Checks the admin bearer token; runs before any admin route is proxied. */
  adminAuth?: RequestHandler;
  /** The buyer account's checks (cross-site, the buyer assertion, deletions); runs before any /api/account route. */
  buyerAuth?: RequestHandler;
  /** Renders HTML pages (SEO head, preloaded data); falls back to index.html when absent. */
  pageHandler?: RequestHandler;
  /** Extra routes answered by the gateway itself (sitemaps, robots.txt). */
  extraRoutes?: (app: Express) => void;
  /** POST /api/search/events, answered by the gateway and handed to the catalog in batches (search-events.ts). */
  searchEvents?: { mount(app: Express): void };
  /** For /readyz: true when every service answers its own /readyz. */
  checkServices?: boolean;
  /** Keeps the public reads services mark shareable (s-maxage); serve with `withEdgeCache`. */
  edgeCache?: EdgeCache;
  /** Gateway replicas (REDIS_URL): an admin's change through this one empties every replica's edge cache. */
  edgeCacheClears?: ClearChannel;
  /** Strict-Transport-Security on every response: the site is served over https (main.ts: PUBLIC_URL). */
  hsts?: boolean;
}

const serviceLabel: Record<ServiceName, string> = {
  catalog: 'catalog',
  quotes: 'quote',
  auth: 'sign-in',
  media: 'media',
};

/** A proxied request's way through a service's replicas: where it is now, where it has been. */
interface UpstreamState {
  replica: string;
  tried: Set<string>;
  /** The replica began its answer: from here nothing is retried. */
  responded?: boolean;
  /** No byte of the body has left the gateway yet (it waits in the client's stream until the connection is up). */
  bodyHeld?: boolean;
  /** Express's next, for the retry (the proxy is called again from its error handler). */
  next: NextFunction;
}
type TimedRequest = Request & { gatewayTimedOut?: boolean; clientGone?: boolean; upstream?: UpstreamState };

/** How long the edge cache's revalidation waits for a service's 304 before sending the request on as it is. */
const REVALIDATE_TIMEOUT_MS = 2_000;
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE', 'TRACE']);
const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

function answerJson(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) {
  // Its own reason phrase: a service that began an answer and broke off may have left its own ("Bad Request").
  res.writeHead(status, http.STATUS_CODES[status], { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** Every replica of the service failed or is marked down: 503, and when to ask again. */
function answerUnavailable(res: ServerResponse, service: ServiceName, pool: ReplicaPool, requestId: unknown) {
  const message = `The ${serviceLabel[service]} service is unavailable: none of its ${pool.urls.length} replicas answered. Please try again shortly.`;
  answerJson(res, 503, { message, requestId }, { 'retry-after': String(Math.ceil(pool.retryAfterMs / 1000)) });
}

/**
 * One service's proxy over its replicas. A request goes to the next live replica (round-robin). When that one refuses
 * the connection or takes none in time, the request (whatever its method: none of it has left) goes to the next one
 * and the replica is marked down (replica-pool.ts); when the connection breaks before any byte of an answer, only a
 * GET or HEAD goes on. A request that was sent with a body, or whose answer had begun, is never sent again: 502, as
 * with a single URL. A slow answer is a 504. None left: 503.
 */
function createServiceProxy(
  service: ServiceName,
  pool: ReplicaPool,
  timeoutMs: number,
  logger: Logger,
  edgeCache?: EdgeCache,
  upload = false,
): RequestHandler {
  const proxy: RequestHandler = createProxyMiddleware<Request>({
    target: pool.urls[0],
    router: (req: TimedRequest) => req.upstream?.replica ?? pool.urls[0],
    xfwd: true,
    // Reuse connections to the services: a new TCP connection per request costs more than the request.
    agent: new http.Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000 }),
    on: {
      proxyReq: (proxyReq: ClientRequest, req: TimedRequest, res: ServerResponse) => {
        if (req.id) proxyReq.setHeader(REQUEST_ID_HEADER, String(req.id));
        // The service's span is a child of this request's (a caller's own traceparent is replaced by ours).
        if (tracingOn) for (const [k, v] of Object.entries(traceHeaders(requestTraceContext(req)))) proxyReq.setHeader(k, v);
        proxyReq.removeHeader(SERVICE_TOKEN_HEADER); // a browser can never speak as a service
        // Connection is hop-by-hop: a client's `close` is about its connection to us. Passed on, it made the service
        // close its connection after answering, and a service that answered before the whole body arrived (a 413 or
        // 415 from the declared length or encoding) closed it under the body still being written: EPIPE, a 502.
        proxyReq.setHeader('connection', 'keep-alive');
        // A client gone before its answer (it hung up, or its request broke off mid-body and Node answered 400 and
        // closed the connection, perhaps while the admin check was still out): the service's half is dropped too,
        // instead of waiting out the timeout below for a body that never ends, and it is no error of ours.
        const dropWhenClientGone = () => {
          if (res.writableFinished || proxyReq.destroyed) return;
          req.clientGone = true;
          logger.info({ requestId: req.id, service, target: req.upstream?.replica ?? pool.urls[0], url: req.url }, 'client gone before its answer; upstream request dropped');
          proxyReq.destroy();
        };
        if (res.destroyed || req.socket.destroyed) dropWhenClientGone();
        else res.once('close', dropWhenClientGone);
        // Our own timer, so a slow service becomes a 504 with a message instead of a hung request.
        proxyReq.setTimeout(timeoutMs, () => {
          req.gatewayTimedOut = true;
          proxyReq.destroy(new Error(`no answer within ${timeoutMs} ms`));
        });
        // A replica that takes no connection within the connect timeout is one that failed: the next one is tried.
        const socket = proxyReq.socket;
        const up = req.upstream;
        if (pool.failsOver && up && socket?.connecting) {
          const timer = setTimeout(() => {
            proxyReq.destroy(Object.assign(new Error(`no connection within ${pool.connectTimeoutMs} ms`), { code: 'ECONNECTTIMEOUT' }));
          }, pool.connectTimeoutMs);
          // A body (an upload too) stays in the client's stream until the connection is up, not buffered here: if the
          // replica refuses, nothing of it is gone and the next replica gets it whole. Once it flows it is sent.
          up.bodyHeld = hasBody(req) && proxyReq.writableLength === 0;
          if (up.bodyHeld) req.unpipe(proxyReq);
          socket.once('connect', () => {
            clearTimeout(timer);
            if (!up.bodyHeld) return;
            up.bodyHeld = false;
            req.pipe(proxyReq);
          });
          proxyReq.once('close', () => clearTimeout(timer));
        }
        // Node holds a request's head until its first body bytes; an upload's goes at once, so the service can refuse
        // a declared size over its limit (413) or a bad session before a byte of a 2 GB body crosses.
        if (upload) proxyReq.flushHeaders();
      },
      proxyRes: (proxyRes: IncomingMessage, req: TimedRequest) => {
        if (req.upstream) req.upstream.responded = true;
        // Hop-by-hop the other way too: the client's connection is kept or closed as the client asked (http-proxy then
        // takes the client's own Connection header), not as our connection to the service is.
        delete proxyRes.headers.connection;
        delete proxyRes.headers['keep-alive'];
        edgeCache?.offer(req, proxyRes);
      },
      error: (err: NodeJS.ErrnoException, req: TimedRequest, res: ServerResponse | Socket) => {
        const up = req.upstream;
        const replica = up?.replica ?? pool.urls[0]!;
        if (req.clientGone) {
          if (!res.destroyed) res.destroy(); // logged where it was dropped
          return;
        }
        const timedOut = req.gatewayTimedOut === true;
        const kind = timedOut ? 'other' : failureKind(err);
        if (kind === 'not-sent') pool.markDown(replica, err.code ?? err.message);
        if (!('writeHead' in res)) {
          res.destroy();
          return;
        }
        if (res.headersSent || res.writableEnded) {
          res.end();
          return;
        }
        const again =
          pool.failsOver && up && !up.responded && (kind === 'not-sent' ? !hasBody(req) || up.bodyHeld === true : kind === 'reset' && isIdempotent(req.method));
        if (again) {
          const nextReplica = pool.pick(up.tried);
          if (nextReplica) {
            logger.warn({ requestId: req.id, service, replica, next: nextReplica, url: req.url, code: err.code, err: err.message }, 'upstream replica failed; request sent to the next one');
            up.tried.add(nextReplica);
            up.replica = nextReplica;
            proxy(req, res as ServerResponse as never, up.next);
            return;
          }
          logger.error({ requestId: req.id, service, tried: [...up.tried], url: req.url, code: err.code, err: err.message }, 'upstream failed: no replica left');
          answerUnavailable(res, service, pool, req.id);
          return;
        }
        if (timedOut && !req.complete) {
          // The client declared a body and had not sent all of it (a chunked body never ended): the service was
          // waiting for the client, not the other way round. The client's fault, so a 408, and not an error of ours.
          logger.warn({ requestId: req.id, service, target: replica, url: req.url }, 'request body not received in time');
          answerJson(res, 408, { message: `The request body did not arrive within ${timeoutMs / 1000} s.`, requestId: req.id }, { connection: 'close' });
          return;
        }
        const status = timedOut ? 504 : 502;
        const message = timedOut
          ? `The ${serviceLabel[service]} service did not answer in time. Please try again.`
          : `The ${serviceLabel[service]} service is unavailable right now. Please try again shortly.`;
        logger.error({ requestId: req.id, service, target: replica, url: req.url, code: err.code, err: err.message }, 'upstream failed');
        answerJson(res, status, { message, requestId: req.id });
      },
    },
  });
  return (req, res, next) => {
    const r = req as TimedRequest;
    const replica = pool.pick();
    if (!replica) {
      logger.error({ requestId: req.id, service, url: req.url }, 'upstream failed: every replica is marked down');
      answerUnavailable(res, service, pool, req.id);
      return;
    }
    r.upstream = { replica, tried: new Set([replica]), next };
    // An expectation is between the client and us, settled by Node (100 Continue, or 417 for an unknown one over
    // HTTP/1.1). Passed on (Node's client sends the head at once when it sees one), the service answered an HTTP/1.0
    // client's `Expect: bogus` with 417 and closed its connection under the body still being written: a 502.
    delete req.headers.expect;
    proxy(req, res, next);
  };
}

export function createGatewayApp(deps: GatewayDeps): Express {
  const { logger } = deps;
  const services = (Object.entries(deps.services) as [ServiceName, GatewayDeps['services'][ServiceName]][]).map(
    ([name, value]) =>
      [name, toReplicaPool(value, name, logger, { retryAfterMs: deps.replicaRetryAfterMs, connectTimeoutMs: deps.upstreamConnectTimeoutMs })] as const,
  );
  const isReady = (url: string) =>
    fetch(new URL('/readyz', url), { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
  const app = createServiceApp({
    name: 'gateway',
    logger,
    // Ready when every service has a replica that says it is ready.
    ready: deps.checkServices
      ? async () => {
          const results = await Promise.all(services.map(async ([, pool]) => (await Promise.all(pool.urls.map(isReady))).some(Boolean)));
          return results.every(Boolean);
        }
      : undefined,
    jsonLimit: false, // bodies stream through to the services untouched
    metricsRoute: false, // this port is the public's: the metrics are on METRICS_PORT (main.ts)
  });
  // CSP, frame, referrer and other security headers on every response (security-headers.ts); withEdgeCache too.
  const securityHeaders = createSecurityHeaders({ hsts: deps.hsts ?? false });
  app.locals.securityHeaders = securityHeaders;
  app.use(securityHeaders);
  // A body on a method that takes none is refused: no route reads one, and passed on, Node would send it to the service
  // without its chunked framing (a reset or hung request, a 502). Closed after, so no unread byte is taken for a request.
  app.use((req, res, next) => {
    if (!hasBody(req) || !BODYLESS_METHODS.has(req.method)) return next();
    res.setHeader('connection', 'close');
    next(new HttpError(400, `${req.method} requests take no body`));
  });
  // gzip for pages, scripts and JSON (the entry bundle drops from ~400 kB to ~125 kB on the wire).
  app.use(compression());

  const pools = new Map<ServiceName, ReplicaPool>(services);
  const proxies = new Map<string, RequestHandler>();
  for (const [service, pool] of services) {
    proxies.set(service, createServiceProxy(service, pool, deps.upstreamTimeoutMs, logger, deps.edgeCache));
    proxies.set(`${service}:upload`, createServiceProxy(service, pool, deps.uploadTimeoutMs, logger, deps.edgeCache, true));
  }

  // An admin's change to the catalogue or its images (an upload, a product edit) may change any cached read. Other
  // writes do not: a buyer's quote request, a parts-list match (a read sent as POST, open to anyone), the inbox.
  const edgeCache = deps.edgeCache;
  if (edgeCache) {
    const clears = deps.edgeCacheClears;
    clears?.onClear(() => edgeCache.clear());
    app.use((req, res, next) => {
      const rule = matchRoute(req.path);
      const changesReads = rule?.admin === true && (rule.service === 'catalog' || rule.service === 'media');
      if (changesReads && req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS') {
        res.once('finish', () => {
          if (res.statusCode >= 400) return;
          edgeCache.clear();
          clears?.announce();
        });
      }
      next();
    });
  }

  app.use((req, _res, next) => {
    if (req.path === '/internal' || req.path.startsWith('/internal/')) next(new HttpError(404, `No route for ${req.method} ${req.path}`));
    else next();
  });

  // The API's description for the seller's systems (generated from the contracts) and its reference page.
  mountApiDocs(app);

  deps.extraRoutes?.(app);
  deps.searchEvents?.mount(app);

  app.use((req, res, next) => {
    const rule = matchRoute(req.path);
    if (!rule) return next();
    res.locals.routeTemplate = rule.prefix; // RED per service route, not per URL
    const proxy = proxies.get(rule.upload ? `${rule.service}:upload` : rule.service)!;
    delete req.headers[GATEWAY_ASSERTION_HEADER]; // only the admin check below may speak for an admin
    delete req.headers[BUYER_ASSERTION_HEADER]; // nor anyone but the buyer check for a buyer
    // The sign-in routes are open, but a logout by cookie still gets the cross-site check there.
    if ((rule.admin || rule.prefix === '/api/admin/auth') && deps.adminAuth) {
      deps.adminAuth(req, res, (err?: unknown) => (err ? next(err) : proxy(req, res, next)));
      return;
    }
    if (rule.prefix.startsWith('/api/account') && deps.buyerAuth) {
      deps.buyerAuth(req, res, (err?: unknown) => (err ? next(err) : proxy(req, res, next)));
      return;
    }
    proxy(req, res, next);
  });

  /**
   * For withEdgeCache: asks the service behind a kept read whether its stored answer (ETag `etag`) still holds.
   * Resolves to the service's 304 headers, or null when it answered anything else (the request then goes the usual
   * way, through Express and the proxy, which also has the error answers).
   */
  const revalidate: Revalidate = async (req, etag) => {
    const url = req.url ?? '';
    if (!url.startsWith('/') || url.startsWith('//')) return null; // an absolute-form or odd target: the usual way
    const q = url.indexOf('?');
    const rule = matchRoute(q < 0 ? url : url.slice(0, q));
    const pool = rule && !rule.admin ? pools.get(rule.service) : undefined;
    if (!pool) return null;
    const headers: Record<string, string> = { 'if-none-match': etag };
    const encoding = req.headers['accept-encoding'];
    if (encoding) headers['accept-encoding'] = String(encoding);
    const id = req.headers[REQUEST_ID_HEADER.toLowerCase()];
    if (typeof id === 'string') headers[REQUEST_ID_HEADER] = id;
    const from = clientAddress(req as Request);
    if (from) headers['x-forwarded-for'] = from;
    // A 304 takes the service a moment; one that cannot give it soon gets the request itself, with the full timeout.
    const answer = await pool.getHeadersOnly(url, headers, Math.min(deps.upstreamTimeoutMs, REVALIDATE_TIMEOUT_MS));
    return answer.status === 304 ? answer.headers : null;
  };
  app.locals.revalidate = revalidate;

  mountWebApp(app, deps);
  return finishApp(app, logger);
}

type Revalidate = (req: IncomingMessage, etag: string) => Promise<IncomingHttpHeaders | null>;

/**
 * The gateway's request listener: cached public reads are answered before Express sees them, as a CDN would; so is a
 * reload (`Cache-Control: no-cache`) of one, once the service has said (304) that the stored answer still holds.
 */
export function withEdgeCache(app: Express, edgeCache: EdgeCache): RequestListener {
  const securityHeaders = app.locals.securityHeaders as SecurityHeaders;
  const revalidate = app.locals.revalidate as Revalidate;
  const none = () => {};
  return (req, res) => {
    securityHeaders(req, res, none); // set once: Express's copy of the middleware skips a response that has them
    if (edgeCache.serve(req, res)) return;
    const etag = edgeCache.revalidationTag(req);
    if (!etag) return void app(req, res);
    revalidate(req, etag).then(
      (headers) => {
        if (res.destroyed) return;
        if (!headers || !edgeCache.serveRevalidated(req, res, etag, headers)) app(req, res);
      },
      () => {
        if (!res.destroyed) app(req, res);
      },
    );
  };
}

/** The built SPA: hashed assets cached for a year, every other page path answered with index.html. */
function mountWebApp(app: Express, deps: GatewayDeps) {
  if (!deps.webDistDir) return;
  const indexFile = path.join(deps.webDistDir, 'index.html');
  app.use(
    '/assets',
    express.static(path.join(deps.webDistDir, 'assets'), { immutable: true, maxAge: '1y', index: false, fallthrough: true }),
  );
  app.use(express.static(deps.webDistDir, { index: false, maxAge: '1h' }));
  app.use((req, res, next) => {
    const isPage =
      (req.method === 'GET' || req.method === 'HEAD') &&
      !req.path.startsWith('/api/') &&
      !req.path.startsWith('/media/') &&
      !req.path.startsWith('/assets/');
    if (!isPage) return next();
    res.locals.routeTemplate = 'page';
    if (!fs.existsSync(indexFile)) {
      res.status(503).type('text/plain').send('The web app is not built yet: run `npm run build:web` (npm start does it for you).');
      return;
    }
    if (deps.pageHandler) return deps.pageHandler(req, res, next);
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(indexFile);
  });
}
