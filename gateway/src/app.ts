import fs from 'node:fs';
import path from 'node:path';
import http, { type ClientRequest, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import compression from 'compression';
import express, { type Express, type Request, type RequestHandler } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { REQUEST_ID_HEADER, SERVICE_TOKEN_HEADER } from '@forgeline/contracts/common';
import { createServiceApp, finishApp } from '@forgeline/service-kit/http';
import { HttpError } from '@forgeline/service-kit/errors';
import type { Logger } from '@forgeline/service-kit/logger';
import type { EdgeCache } from './edge-cache.ts';
import { buildOpenApiDocument, renderApiDocsHtml } from '@forgeline/contracts/openapi';
import { matchRoute, type ServiceName } from './routes.ts';

export interface GatewayDeps {
  logger: Logger;
  services: Record<ServiceName, string>;
  upstreamTimeoutMs: number;
  uploadTimeoutMs: number;
  /** Folder of the built web app, or '' to serve no pages (compose: nginx serves them). */
  webDistDir: string;
  /** Checks the admin bearer token; runs before any admin route is proxied. */
  adminAuth?: RequestHandler;
  /** Renders HTML pages (SEO head, preloaded data); falls back to index.html when absent. */
  pageHandler?: RequestHandler;
  /** Extra routes answered by the gateway itself (sitemaps, robots.txt). */
  extraRoutes?: (app: Express) => void;
  /** For /readyz: true when every service answers its own /readyz. */
  checkServices?: boolean;
  /** Keeps the public reads services mark shareable (s-maxage); serve with `withEdgeCache`. */
  edgeCache?: EdgeCache;
}

const serviceLabel: Record<ServiceName, string> = {
  catalog: 'catalog',
  quotes: 'quote',
  auth: 'sign-in',
  media: 'media',
};

type TimedRequest = Request & { gatewayTimedOut?: boolean };

function createServiceProxy(service: ServiceName, target: string, timeoutMs: number, logger: Logger, edgeCache?: EdgeCache): RequestHandler {
  return createProxyMiddleware<Request>({
    target,
    xfwd: true,
    // Reuse connections to the services: a new TCP connection per request costs more than the request.
    agent: new http.Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000 }),
    on: {
      proxyReq: (proxyReq: ClientRequest, req: TimedRequest) => {
        if (req.id) proxyReq.setHeader(REQUEST_ID_HEADER, String(req.id));
        proxyReq.removeHeader(SERVICE_TOKEN_HEADER); // a browser can never speak as a service
        // Our own timer, so a slow service becomes a 504 with a message instead of a hung request.
        proxyReq.setTimeout(timeoutMs, () => {
          req.gatewayTimedOut = true;
          proxyReq.destroy(new Error(`no answer within ${timeoutMs} ms`));
        });
      },
      proxyRes: (proxyRes: IncomingMessage, req: TimedRequest) => edgeCache?.offer(req, proxyRes),
      error: (err: NodeJS.ErrnoException, req: TimedRequest, res: ServerResponse | Socket) => {
        const timedOut = req.gatewayTimedOut === true;
        const status = timedOut ? 504 : 502;
        const message = timedOut
          ? `The ${serviceLabel[service]} service did not answer in time. Please try again.`
          : `The ${serviceLabel[service]} service is unavailable right now. Please try again shortly.`;
        logger.error({ requestId: req.id, service, target, url: req.url, code: err.code, err: err.message }, 'upstream failed');
        if (!('writeHead' in res)) {
          res.destroy();
          return;
        }
        if (res.headersSent) {
          res.end();
          return;
        }
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ message, requestId: req.id }));
      },
    },
  });
}

export function createGatewayApp(deps: GatewayDeps): Express {
  const { logger } = deps;
  const services = Object.entries(deps.services) as [ServiceName, string][];
  const app = createServiceApp({
    name: 'gateway',
    logger,
    ready: deps.checkServices
      ? async () => {
          const results = await Promise.all(
            services.map(([, url]) =>
              fetch(new URL('/readyz', url), { signal: AbortSignal.timeout(2_000) }).then(
                (r) => r.ok,
                () => false,
              ),
            ),
          );
          return results.every(Boolean);
        }
      : undefined,
    jsonLimit: false, // bodies stream through to the services untouched
  });
  // gzip for pages, scripts and JSON (the entry bundle drops from ~400 kB to ~125 kB on the wire).
  app.use(compression());

  const proxies = new Map<string, RequestHandler>();
  for (const [service, url] of services) {
    proxies.set(service, createServiceProxy(service, url, deps.upstreamTimeoutMs, logger, deps.edgeCache));
    proxies.set(`${service}:upload`, createServiceProxy(service, url, deps.uploadTimeoutMs, logger, deps.edgeCache));
  }

  // An admin's change to the catalogue or its images (an upload, a product edit) may change any cached read. Other
  // writes do not: a buyer's quote request, a parts-list match (a read sent as POST, open to anyone), the inbox.
  const edgeCache = deps.edgeCache;
  if (edgeCache) {
    app.use((req, res, next) => {
      const rule = matchRoute(req.path);
      const changesReads = rule?.admin === true && (rule.service === 'catalog' || rule.service === 'media');
      if (changesReads && req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS') {
        res.once('finish', () => {
          if (res.statusCode < 400) edgeCache.clear();
        });
      }
      next();
    });
  }

  app.use((req, _res, next) => {
    if (req.path === '/internal' || req.path.startsWith('/internal/')) next(new HttpError(404, `No route for ${req.method} ${req.path}`));
    else next();
  });

  // The API's description for the seller's systems, generated from the contracts once per process.
  let openApi: { json: string; html: string } | null = null;
  const apiDocs = () => {
    if (!openApi) {
      const doc = buildOpenApiDocument();
      openApi = { json: JSON.stringify(doc, null, 2), html: renderApiDocsHtml(doc) };
    }
    return openApi;
  };
  app.get('/api/openapi.json', (_req, res) => {
    res.type('application/json').setHeader('cache-control', 'public, max-age=300');
    res.send(apiDocs().json);
  });
  app.get('/api/docs', (_req, res) => {
    res.type('html').setHeader('cache-control', 'public, max-age=300');
    res.send(apiDocs().html);
  });

  deps.extraRoutes?.(app);

  app.use((req, res, next) => {
    const rule = matchRoute(req.path);
    if (!rule) return next();
    const proxy = proxies.get(rule.upload ? `${rule.service}:upload` : rule.service)!;
    if (rule.admin && deps.adminAuth) {
      deps.adminAuth(req, res, (err?: unknown) => (err ? next(err) : proxy(req, res, next)));
      return;
    }
    proxy(req, res, next);
  });

  mountWebApp(app, deps);
  return finishApp(app, logger);
}

/** The gateway's request listener: cached public reads are answered before Express sees them. */
export function withEdgeCache(app: Express, edgeCache: EdgeCache): RequestListener {
  return (req, res) => {
    if (!edgeCache.serve(req, res)) app(req, res);
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
    if (!fs.existsSync(indexFile)) {
      res.status(503).type('text/plain').send('The web app is not built yet: run `npm run build:web` (npm start does it for you).');
      return;
    }
    if (deps.pageHandler) return deps.pageHandler(req, res, next);
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(indexFile);
  });
}
