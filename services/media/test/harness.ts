import path from 'node:path';
import type { Express } from 'express';
import sharp from 'sharp';
import yazl from 'yazl';
import { zipBuffer } from '@forgeline/test-support/zip';
import type { Product } from '@forgeline/contracts/products';
import { createLogger } from '@forgeline/service-kit/logger';
import { serve } from '@forgeline/service-kit/serve';
import { tempDir } from '@forgeline/test-support/net';
// The real catalog (its SQLite store and embedded search), started the way its own tests start it.
import { SERVICE_TOKEN, startCatalog, type CatalogUnderTest } from '../../catalog/test/harness.ts';
import { makeProduct } from '../../catalog/test/fixtures.ts';
import { createApp, type MediaLimits } from '../src/app.ts';
import { createLocalObjectStore } from '@forgeline/object-store/local-fs';
import { createSqliteJobQueue } from '../src/adapters/sqlite/job-queue.ts';
import { createHttpCatalog } from '../src/adapters/catalog-http/catalog.ts';
import { createJobHandlers } from '../src/worker/process-sku.ts';
import { configureSharp } from '../src/images/variants.ts';
import { gatewayAssertionHeaders } from '@forgeline/service-kit/gateway-assertion';
import type { JobQueue, ObjectStore } from '../src/ports.ts';

export const MB = 1024 * 1024;

/** Small limits so the limit tests stay small. */
export const TEST_LIMITS: MediaLimits = {
  maxFileBytes: 2 * MB,
  maxRequestBytes: 5 * MB,
  maxZipBytes: 10 * MB,
  zip: { maxEntries: 500, maxTotalUncompressed: 50 * MB, maxEntryUncompressed: 2 * MB, maxRatio: 100 },
};

export const productId = (n: number) => `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function testProducts(count: number): Product[] {
  return Array.from({ length: count }, (_, i) =>
    makeProduct({
      id: productId(i + 1),
      name: `Test Part ${i + 1}`,
      sku: `TP-${String(i + 1).padStart(3, '0')}`,
      category: 'Hydraulic Filters',
      brandName: 'Caterpillar',
      images: [`/media/generated/hydraulic-filters/caterpillar/test-part-${i + 1}.svg`],
    }),
  );
}

export interface MediaUnderTest {
  url: string;
  /** The app as served (its routes are read by the path-variant test). */
  app: Express;
  dataDir: string;
  catalog: CatalogUnderTest;
  store: ObjectStore;
  queue: JobQueue;
  stop(): Promise<void>;
}

/** Catalog and media (API and worker in one process, as MEDIA_ROLE=all runs), each on a free port. */
export async function startMedia(
  opts: { products?: Product[]; queue?: () => JobQueue; store?: () => ObjectStore } = {},
): Promise<MediaUnderTest> {
  const catalog = await startCatalog({ products: opts.products ?? testProducts(60), testimonials: [] });
  const tmp = tempDir('media-http-');
  const logger = createLogger('media', 'silent');
  const store = opts.store?.() ?? createLocalObjectStore(path.join(tmp.dir, 'media'));
  const queue = opts.queue?.() ?? createSqliteJobQueue(path.join(tmp.dir, 'media-queue.sqlite'), { attempts: 2, backoffMs: 20, pollMs: 20, logger });
  const catalogClient = createHttpCatalog(catalog.url, SERVICE_TOKEN);
  configureSharp(1);
  const worker = await queue.work(createJobHandlers({ store, catalog: catalogClient, logger }), { concurrency: 2 });
  const app = createApp({
    store,
    queue,
    catalog: catalogClient,
    logger,
    tmpDir: path.join(tmp.dir, 'tmp'),
    limits: TEST_LIMITS,
    uploadWaitMs: 30_000,
    serviceToken: SERVICE_TOKEN,
  });
  const served = await serve(app, { port: 0, logger, handleSignals: false });
  return {
    url: `http://127.0.0.1:${served.port}`,
    app,
    dataDir: tmp.dir,
    catalog,
    store,
    queue,
    async stop() {
      await served.close();
      await worker.close();
      await queue.close();
      await catalog.stop();
      tmp.remove();
    },
  };
}

/** A photo: a solid colour (the seed picks it, so each seed has its own content hash) with a stripe. */
export async function photo(seed: number, opts: { width?: number; height?: number; orientation?: number; format?: 'jpeg' | 'png' } = {}) {
  const width = opts.width ?? 800;
  const height = opts.height ?? 600;
  const colour = { r: (seed * 67) % 256, g: (seed * 131) % 256, b: (seed * 29) % 256 };
  const stripe = await sharp({ create: { width: Math.max(1, Math.floor(width / 4)), height, channels: 3, background: { r: 255 - colour.r, g: 0, b: 0 } } })
    .png()
    .toBuffer();
  let img = sharp({ create: { width, height, channels: 3, background: colour } }).composite([{ input: stripe, left: 0, top: 0 }]);
  if (opts.orientation) img = img.withMetadata({ orientation: opts.orientation });
  return opts.format === 'png' ? img.png().toBuffer() : img.jpeg({ quality: 85 }).toBuffer();
}

/** Build a ZIP in memory from [name, content] pairs (yazl; `store` skips compression). */
export function zipOf(entries: [string, Buffer][], opts: { compress?: boolean } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of entries) {
    if (name.endsWith('/')) zip.addEmptyDirectory(name);
    else zip.addBuffer(data, name, { compress: opts.compress ?? true });
  }
  return zipBuffer(zip);
}

/**
 * A ZIP with an entry named `evilName` (e.g. `../evil.jpg`), which yazl refuses to write: the entry is
 * written under a same-length stand-in name and the name bytes are swapped afterwards (the CRC covers
 * only the data, so the archive stays valid).
 */
export async function zipWithRawName(entries: [string, Buffer][], evilName: string, data: Buffer): Promise<Buffer> {
  const standIn = 'x'.repeat(evilName.length - 4) + '.jpg';
  const zip = await zipOf([...entries, [standIn, data]]);
  const from = Buffer.from(standIn);
  const to = Buffer.from(evilName);
  let at = zip.indexOf(from);
  while (at !== -1) {
    to.copy(zip, at);
    at = zip.indexOf(from, at + to.length);
  }
  return zip;
}

/** What the gateway adds to an admin call it let through: its signed assertion naming the admin. */
export const asGateway = () => gatewayAssertionHeaders(SERVICE_TOKEN, 'ops@example.com');

export async function post(url: string, form: FormData): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: 'POST', body: form, headers: new URL(url).pathname.startsWith('/api/admin/') ? await asGateway() : {} });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

export const fileOf = (data: Buffer, name: string, type = 'application/octet-stream') => new File([new Uint8Array(data)], name, { type });

/** Poll the status call until the job is finished (the test timeout is the only clock). */
export async function waitForJob(media: MediaUnderTest, id: string): Promise<any> {
  for (;;) {
    const res = await fetch(`${media.url}/api/admin/media-jobs/${id}`, { headers: await asGateway() });
    const body = (await res.json()) as any;
    if (res.status !== 200) throw new Error(`status call answered ${res.status}: ${JSON.stringify(body)}`);
    if (['completed', 'completed_with_errors', 'failed'].includes(body.state)) return body;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function productOf(media: MediaUnderTest, n: number): Promise<Product> {
  const res = await media.catalog.call(`/api/products/${productId(n)}`);
  return res.body as Product;
}
