/**
 * The OpenAPI document (packages/contracts/src/openapi.ts) held to the routes the services really have. Each service's
 * app is built as its main.ts builds it, with `createApp` on its embedded adapters in a temp DATA_DIR (nothing listens),
 * and its router read: every route under /api/ or /media/ must have its operation in the document, and every operation
 * must be a route of the service the gateway's route table (gateway/src/routes.ts) sends its path to. So a new route
 * cannot stay out of the document, and the outside fuzzer that reads the document (test/schemathesis.test.ts) reaches
 * every route there is.
 */
import path from 'node:path';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@forgeline/contracts/openapi';
import { createMailer, DEFAULT_MAIL_FROM } from '@forgeline/mailer/mailer';
import { createLogger } from '@forgeline/service-kit/logger';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { createGatewayApp } from '../gateway/src/app.ts';
import { matchRoute, type ServiceName } from '../gateway/src/routes.ts';
import { createApp as createCatalogApp } from '../services/catalog/src/app.ts';
import { openStores, type Stores } from '../services/catalog/src/stores.ts';
import { createApp as createQuotesApp } from '../services/quotes/src/app.ts';
import { SqliteQuoteStore } from '../services/quotes/src/adapters/sqlite/sqlite-quote-store.ts';
import { HttpProductCatalog } from '../services/quotes/src/adapters/http/http-product-catalog.ts';
import { Captchas } from '../services/quotes/src/domain/captcha.ts';
import { createApp as createAuthApp } from '../services/auth/src/app.ts';
import { createSqliteAuthStore } from '../services/auth/src/adapters/sqlite/sqlite-auth-store.ts';
import { createApp as createMediaApp } from '../services/media/src/app.ts';
import { createLocalObjectStore } from '../services/media/src/adapters/local-fs/object-store.ts';
import { createSqliteJobQueue } from '../services/media/src/adapters/sqlite/job-queue.ts';
import { createHttpCatalog } from '../services/media/src/adapters/catalog-http/catalog.ts';

const SERVICE_TOKEN = 'openapi-coverage-service-token-0123';
const ADMINS = ['ops@forgeline.test'];
const MB = 1024 * 1024;

type Owner = ServiceName | 'gateway';
interface Route {
  owner: Owner;
  method: string;
  /** In the document's form: `{param}` for Express's `:param`. */
  path: string;
}
const key = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${r.path}`;

/**
 * Routes under /api/ or /media/ the document leaves out on purpose, each with why. (None today: the health routes
 * and /internal are outside those prefixes, and the gateway never forwards /internal.)
 */
const UNDOCUMENTED: { route: string; reason: string }[] = [];

/**
 * Operations whose route exists in its service while the gateway's route table sends the path elsewhere, each with why.
 * The test fails once the table is right, so that the entry goes.
 */
const GATEWAY_GAPS: { route: string; reason: string }[] = [];

/** Every route of an app under /api/ or /media/, read from its router (as guardedRoutesOf in test-support does). */
function routesOf(owner: Owner, app: Express): Route[] {
  const stack = (app as unknown as { router: { stack: { route?: { path: unknown; methods: Record<string, boolean> } }[] } }).router.stack;
  const routes: Route[] = [];
  for (const layer of stack) {
    if (!layer.route) continue;
    for (const p of [layer.route.path].flat()) {
      if (typeof p !== 'string') throw new Error(`${owner}: a route with a non-string path (${String(p)}) cannot be matched to the document`);
      if (!/^\/(api|media)\//.test(p)) continue;
      const documented = p.replace(/:(\w+)/g, '{$1}');
      // Express 5's wildcards (*name) and optional groups ({…}) have no OpenAPI form: such a route needs a decision.
      if (/[*()]|\{[^}]*[^\w}][^}]*\}/.test(documented)) throw new Error(`${owner}: route ${p} has no OpenAPI path form`);
      for (const method of Object.keys(layer.route.methods)) if (method !== '_all') routes.push({ owner, method: method.toUpperCase(), path: documented });
    }
  }
  return routes;
}

/** A path of the document with each `{param}` filled in, as a client would send it. */
const concrete = (p: string) => p.replace(/\{(\w+)\}/g, (_m, name: string) => `${name}-1`);

describe('the OpenAPI document against every route behind the gateway', () => {
  const tmp = tempDir('openapi-coverage-');
  const logger = createLogger('openapi-coverage', 'silent');
  const closers: (() => Promise<void> | void)[] = [];
  const routes: Route[] = [];
  const doc = buildOpenApiDocument();
  const paths = doc.paths as Record<string, Record<string, unknown>>;
  const operations = Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path: p })));

  beforeAll(async () => {
    // Where the services' peers would be: nothing listens there, and nothing here calls them.
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const dir = (name: string) => path.join(tmp.dir, name);

    let stores: Stores | undefined;
    stores = await openStores({ DATA_DIR: dir('catalog'), MEILI_INDEX: 'products' });
    closers.push(() => stores?.close());
    routes.push(...routesOf('catalog', createCatalogApp({ repo: stores.repo, search: stores.search, serviceToken: SERVICE_TOKEN, logger, tmpDir: dir('catalog-tmp') })));

    const quoteStore = SqliteQuoteStore.inDataDir(dir('quotes'));
    closers.push(() => quoteStore.close());
    const quotes = createQuotesApp({
      logger,
      store: quoteStore,
      catalog: new HttpProductCatalog(nowhere, 1_000),
      captcha: new Captchas(quoteStore),
      mail: { siteName: 'Forgeline Parts', sellerEmail: 'seller@forgeline.test', messageDomain: 'forgeline.test' },
      outbox: { kick() {} },
      rateLimits: { windowMs: 60_000, quote: 10, contact: 10, captcha: 10, confirmationsPerDay: 3 },
      adminEmails: ADMINS,
      serviceToken: SERVICE_TOKEN,
    });
    routes.push(...routesOf('quotes', quotes));

    const authStore = createSqliteAuthStore(dir('auth.sqlite'));
    closers.push(() => authStore.close());
    const auth = createAuthApp({
      logger,
      store: authStore,
      mailer: createMailer({ MAIL_FROM: DEFAULT_MAIL_FROM, DATA_DIR: dir('auth-mail') }, logger),
      adminEmails: ADMINS,
      serviceToken: SERVICE_TOKEN,
      otpSecret: 'openapi-coverage-otp-secret-0123456789',
      sessionTtlMs: 3_600_000,
      sessionIdleMs: 3_600_000,
      secureCookies: false,
      auditRetentionMs: 86_400_000,
    });
    routes.push(...routesOf('auth', auth));

    const queue = createSqliteJobQueue(dir('media-queue.sqlite'), { attempts: 1, backoffMs: 10, pollMs: 50, logger });
    closers.push(() => queue.close());
    const media = createMediaApp({
      store: createLocalObjectStore(dir('media')),
      queue,
      catalog: createHttpCatalog(nowhere, SERVICE_TOKEN),
      logger,
      tmpDir: dir('media-tmp'),
      limits: { maxFileBytes: MB, maxRequestBytes: 2 * MB, maxZipBytes: 4 * MB, zip: { maxEntries: 10, maxTotalUncompressed: 4 * MB, maxEntryUncompressed: MB, maxRatio: 100 } },
      serviceToken: SERVICE_TOKEN,
      uploadWaitMs: 0,
    });
    routes.push(...routesOf('media', media));

    const gateway = createGatewayApp({
      logger,
      services: { catalog: nowhere, quotes: nowhere, auth: nowhere, media: nowhere },
      upstreamTimeoutMs: 1_000,
      uploadTimeoutMs: 1_000,
      webDistDir: '',
    });
    routes.push(...routesOf('gateway', gateway));
  });

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    tmp.remove();
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
