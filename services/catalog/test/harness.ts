import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Express } from 'express';
import type { Product, Testimonial } from '@forgeline/contracts/products';
import { SERVICE_TOKEN_HEADER } from '@forgeline/contracts/common';
import { gatewayAssertionHeaders } from '@forgeline/service-kit/gateway-assertion';
import { createLogger } from '@forgeline/service-kit/logger';
import { serve } from '@forgeline/service-kit/serve';
import { tempDir } from '@forgeline/test-support/net';
import { createApp } from '../src/app.ts';
import { openStores } from '../src/stores.ts';
import { PRODUCTS, TESTIMONIALS } from './fixtures.ts';

export const SERVICE_TOKEN = 'test-service-token-0123456789';

export interface CatalogUnderTest {
  url: string;
  /** The app as served (its routes are read by the path-variant test). */
  app: Express;
  /** GET (or another method) on the running service; the body is parsed when it is JSON. */
  call: (
    urlPath: string,
    init?: { method?: string; body?: unknown; token?: string; asGateway?: boolean },
  ) => Promise<{ status: number; headers: Headers; body: any; text: string }>;
  /** The gateway's assertion for a direct call to an admin route. */
  adminHeaders: (admin?: string) => Promise<Record<string, string>>;
  stop: () => Promise<void>;
}

/**
 * The catalog as main.ts builds it, on the embedded adapters in a temp DATA_DIR, listening on a free port.
 * `indexed` narrows which products the search index holds (default: all of them). `mongoUrl`: MongoDB (FerretDB)
 * storage instead of SQLite, as MONGO_URL chooses it. `retired`: ids taken off the storefront before it starts, as an
 * import's missing=deactivate takes them.
 */
export async function startCatalog(
  opts: {
    products?: Product[];
    testimonials?: Testimonial[];
    indexed?: (p: Product) => boolean;
    importBatch?: number;
    mongoUrl?: string;
    retired?: string[];
    /** Events the search analytics buffer holds before it drops (default 20,000). */
    searchEventBuffer?: number;
  } = {},
): Promise<CatalogUnderTest> {
  const tmp = tempDir('catalog-http-');
  const stores = await openStores({ DATA_DIR: path.join(tmp.dir, 'data'), MEILI_INDEX: 'products', MONGO_URL: opts.mongoUrl });
  const products = opts.products ?? PRODUCTS;
  const retired = new Set(opts.retired);
  await stores.repo.upsertMany(products);
  if (retired.size) await stores.repo.deactivate([...retired], []);
  await stores.repo.insertTestimonials(opts.testimonials ?? TESTIMONIALS);
  await stores.search.upsert(products.filter(opts.indexed ?? (() => true)).filter((p) => !retired.has(p.id)));
  const logger = createLogger('catalog', 'silent');
  const app = createApp({
    repo: stores.repo,
    search: stores.search,
    serviceToken: SERVICE_TOKEN,
    logger,
    tmpDir: path.join(tmp.dir, 'tmp'),
    importBatch: opts.importBatch,
    diagrams: stores.diagrams,
    searchInsights: { store: stores.insights, retentionDays: 180, buffer: { maxEvents: opts.searchEventBuffer ?? 20_000, flushEveryMs: 100, flushAt: 2_000 } },
  });
  const served = await serve(app, {
    port: 0,
    logger,
    handleSignals: false,
    onClose: async () => {
      await (app.locals.searchInsights as { stop(): Promise<void> } | undefined)?.stop();
      await stores.close();
    },
  });
  const url = `http://127.0.0.1:${served.port}`;
  return {
    url,
    app,
    async call(urlPath, init = {}) {
      const res = await fetch(url + urlPath, {
        method: init.method ?? 'GET',
        headers: {
          // Admin routes as the gateway sends them: with its signed assertion naming the admin.
          ...(urlPath.startsWith('/api/admin/') && init.asGateway !== false ? await gatewayAssertionHeaders(SERVICE_TOKEN, 'ops@example.com') : {}),
          ...(init.token ? { [SERVICE_TOKEN_HEADER]: init.token } : {}),
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      const json = (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined;
      return { status: res.status, headers: res.headers, body: json, text };
    },
    adminHeaders: (admin = 'ops@example.com') => gatewayAssertionHeaders(SERVICE_TOKEN, admin),
    async stop() {
      await served.close();
      tmp.remove();
    },
  };
}

/**
 * The stores a suite runs on: SQLite, and MongoDB's adapter on FerretDB (a fresh database each time `mongoUrl` is
 * called) or skipped with FerretDB's reason.
 */
export function storeAdapters(ferret: { url: string } | { skip: string }): { name: string; skip?: string; mongoUrl?: () => string }[] {
  return [
    { name: 'SQLite' },
    'skip' in ferret
      ? { name: 'MongoDB adapter on FerretDB', skip: ferret.skip }
      : { name: 'MongoDB adapter on FerretDB', mongoUrl: () => `${ferret.url}/catalog_${randomUUID().replaceAll('-', '')}` },
  ];
}
