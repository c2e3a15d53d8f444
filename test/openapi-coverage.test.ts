/**
 * The OpenAPI document (packages/contracts/src/openapi.ts) held to the routes the services really have. Each service
 * runs as its own tests run it (its harness: embedded adapters in a temp DATA_DIR), and its router is read: every
 * route under /api/ or /media/ must have its operation in the document, and every operation must be a route of the
 * service the gateway's route table (gateway/src/routes.ts) sends its path to. So a new route cannot stay out of the
 * document, and the outside fuzzer that reads the document (test/schemathesis.test.ts) reaches every route there is.
 */
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@forgeline/contracts/openapi';
import { createLogger } from '@forgeline/service-kit/logger';
import { appRoutes } from '@forgeline/test-support/app-routes';
import { freePort } from '@forgeline/test-support/net';
import { createGatewayApp } from '../gateway/src/app.ts';
import { createSearchEventRelay } from '../gateway/src/search-events.ts';
import { matchRoute, type ServiceName } from '../gateway/src/routes.ts';
import { startAuth } from '../services/auth/test/harness.ts';
import { startMedia, testProducts } from '../services/media/test/harness.ts';
import { startCatalogStub, startService } from '../services/quotes/test/harness.ts';

type Owner = ServiceName | 'gateway';
interface Route {
  owner: Owner;
  method: string;
  /** In the document's form: `{param}` for Express's `:param`. */
  path: string;
}
const key = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${r.path}`;

/**
 * Routes under /api/ or /media/ the document leaves out on purpose, each with why. (The health routes and /internal
 * are outside those prefixes, and the gateway never forwards /internal.)
 */
const UNDOCUMENTED: { route: string; reason: string }[] = [
  { route: 'GET /api/docs/redoc.standalone.js', reason: "the script of the /api/docs page (Redoc's bundle), not a call of the API" },
];

/**
 * Operations whose route exists in its service while the gateway's route table sends the path elsewhere, each with why.
 * The test fails once the table is right, so that the entry goes.
 */
const GATEWAY_GAPS: { route: string; reason: string }[] = [];

/** Every route of an app under /api/ or /media/, in the document's path form. */
function routesOf(owner: Owner, app: Express): Route[] {
  return appRoutes(app).flatMap((r) => {
    if (!/^\/(api|media)\//.test(r.path)) return [];
    const documented = r.path.replace(/:(\w+)/g, '{$1}');
    // Express 5's wildcards (*name) and optional groups ({…}) have no OpenAPI form: such a route needs a decision.
    if (/[*()]|\{[^}]*[^\w}][^}]*\}/.test(documented)) throw new Error(`${owner}: route ${r.path} has no OpenAPI path form`);
    return [{ owner, method: r.method, path: documented }];
  });
}

/** A path of the document with each `{param}` filled in, as a client would send it. */
const concrete = (p: string) => p.replace(/\{(\w+)\}/g, (_m, name: string) => `${name}-1`);

describe('the OpenAPI document against every route behind the gateway', () => {
  const closers: (() => Promise<void> | void)[] = [];
  const routes: Route[] = [];
  const doc = buildOpenApiDocument();
  const paths = doc.paths as Record<string, Record<string, unknown>>;
  const operations = Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path: p })));

  beforeAll(async () => {
    // Each service as its tests run it (its harness: main.ts's adapters, embedded, in a temp DATA_DIR). The media
    // harness runs a catalog of its own, whose routes are the catalog's.
    const media = await startMedia({ products: testProducts(1) });
    closers.push(() => media.stop());
    routes.push(...routesOf('media', media.app), ...routesOf('catalog', media.catalog.app));
    const catalogStub = await startCatalogStub();
    const quotes = await startService({ catalogUrl: catalogStub.url });
    closers.push(() => quotes.close(), () => catalogStub.close());
    routes.push(...routesOf('quotes', quotes.app));
    const auth = await startAuth();
    closers.push(() => auth.stop());
    routes.push(...routesOf('auth', auth.app));

    const nowhere = `http://127.0.0.1:${await freePort()}`;
    // The search events' route is the gateway's own (gateway/src/search-events.ts), as main.ts mounts it.
    const searchEvents = createSearchEventRelay({ catalogUrl: nowhere, serviceToken: 'unused', logger: createLogger('openapi-coverage', 'silent') });
    closers.push(() => searchEvents.close().catch(() => undefined));
    const gateway = createGatewayApp({
      searchEvents,
      logger: createLogger('openapi-coverage', 'silent'),
      services: { catalog: nowhere, quotes: nowhere, auth: nowhere, media: nowhere },
      upstreamTimeoutMs: 1_000,
      uploadTimeoutMs: 1_000,
      webDistDir: '',
    });
    routes.push(...routesOf('gateway', gateway));
  }, 60_000);

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('reads routes from every service and the gateway', () => {
    const owners = new Set(routes.map((r) => r.owner));
    expect([...owners].sort()).toEqual(['auth', 'catalog', 'gateway', 'media', 'quotes']);
  });

  it('has an operation for every /api and /media route of every service and of the gateway', () => {
    const documented = new Set(operations.map(key));
    const exempt = new Set(UNDOCUMENTED.map((u) => u.route));
    const missing = routes.filter((r) => !documented.has(key(r)) && !exempt.has(key(r))).map((r) => `${key(r)} (${r.owner})`);
    expect(missing, 'routes the document does not describe: add them to packages/contracts/src/openapi/').toEqual([]);
    const stale = UNDOCUMENTED.filter((u) => !routes.some((r) => key(r) === u.route) || documented.has(u.route));
    expect(stale, 'UNDOCUMENTED entries that are no route any more, or are documented now').toEqual([]);
  });

  it('describes only routes that exist, in the service the gateway sends their path to', () => {
    const gaps = new Set(GATEWAY_GAPS.map((g) => g.route));
    const wrong: string[] = [];
    const stillGaps: string[] = [];
    for (const op of operations) {
      const k = key(op);
      const gatewayOwn = routes.some((r) => r.owner === 'gateway' && key(r) === k);
      const rule = gatewayOwn ? undefined : matchRoute(concrete(op.path));
      const owner: Owner | undefined = gatewayOwn ? 'gateway' : rule?.service;
      const served = routes.some((r) => r.owner === owner && key(r) === k);
      if (gaps.has(k)) {
        expect(routes.some((r) => key(r) === k), `${k} is a route of some service`).toBe(true);
        if (!served) stillGaps.push(k);
      } else if (!served) {
        const where = routes.filter((r) => key(r) === k).map((r) => r.owner);
        wrong.push(`${k}: the gateway sends it to ${owner ?? 'no service'}${where.length ? `, the route is in ${where.join(', ')}` : ', and no service has this route'}`);
      }
    }
    expect(wrong, 'operations no route answers through the gateway').toEqual([]);
    expect(stillGaps.sort(), 'GATEWAY_GAPS entries the gateway routes correctly now: remove them').toEqual([...gaps].sort());
  });
});
