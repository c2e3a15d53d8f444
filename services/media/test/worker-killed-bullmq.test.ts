import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_IMAGE_FORMATS, PRODUCT_IMAGE_WIDTHS } from '@forgeline/contracts/media-paths';
import { startRedis, type RunningRedis } from '@forgeline/test-support/redis';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { SERVICE_TOKEN, startCatalog, type CatalogUnderTest } from '../../catalog/test/harness.ts';
import { createBullJobQueue } from '../src/adapters/bullmq/job-queue.ts';
import { createLocalObjectStore } from '@forgeline/object-store/local-fs';
import { originalKey } from '../src/domain/originals.ts';
import { doneMarker, sha256Prefix, storedImageUrl, variantKey } from '../src/domain/keys.ts';
import type { JobInfo, JobQueue, ObjectStore } from '../src/ports.ts';
import type { ProcessSkuResult } from '../src/jobs.ts';
import { productId, testProducts } from './harness.ts';

/*
 * At-least-once on the production queue, with real processes: two media workers (the real entry,
 * MEDIA_ROLE=worker) on a real redis-server; the one holding a job is SIGKILLed mid-job and the other
 * must finish it, once as far as the catalogue can tell.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PHOTOS = 4;

/**
 * A large real photo: 8000x6000 (48 MP) PNG. PNG has no shrink-on-load, so every pixel is inflated
 * and each photo takes a worker a second or two: long enough to kill the worker between two photos.
 */
async function largePng(): Promise<Buffer> {
  const width = 8000;
  const height = 6000;
  const stripe = await sharp({ create: { width: 400, height, channels: 3, background: { r: 220, g: 20, b: 20 } } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .composite([{ input: stripe, left: 200, top: 0 }, { input: stripe, left: width - 800, top: 0 }])
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** The same picture with a tEXt chunk before IEND, so each copy has its own bytes and content hash. */
function withText(png: Buffer, text: string): Buffer {
  const body = Buffer.concat([Buffer.from('tEXt'), Buffer.from(`Comment\0${text}`, 'latin1')]);
  const chunk = Buffer.alloc(body.length + 8);
  chunk.writeUInt32BE(body.length - 4, 0);
  body.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(body), body.length + 4);
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)]);
}

interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  log: () => string;
  exited: Promise<number | null>;
}

async function startWorker(env: Record<string, string>): Promise<WorkerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/media/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port), MEDIA_ROLE: 'worker', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`media worker exited early: ${log}`);
    if (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false)) break;
    if (i > 600) throw new Error(`media worker not ready: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, pid: child.pid!, log: () => log, exited };
}

async function poll<T>(read: () => Promise<T>, done: (v: T) => boolean, everyMs = 25): Promise<T> {
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const redis = await startRedis();
if ('skip' in redis) {
  console.warn(`[media] killed-worker test skipped: ${redis.skip}`);
  describe.skip(`a media worker killed mid-job (skipped: ${redis.skip})`, () => it('needs redis-server', () => {}));
} else {
  describe('a media worker killed mid-job (BullMQ, real processes)', () => {
    const running = redis as RunningRedis;
    const tmp = tempDir('media-kill-');
    const workers: WorkerProcess[] = [];
    let catalog: CatalogUnderTest;
    let store: ObjectStore;
    let queue: JobQueue;
    let raw: Queue;
    let rawConnection: Redis;

    beforeAll(async () => {
      catalog = await startCatalog({ products: testProducts(3), testimonials: [] });
      store = createLocalObjectStore(path.join(tmp.dir, 'media'));
      // attempts: 1: the job completes only if losing its worker used up no attempt.
      queue = createBullJobQueue({ redisUrl: running.url, attempts: 1, backoffMs: 20 });
      rawConnection = new Redis(running.url, { maxRetriesPerRequest: null });
      raw = new Queue('media', { connection: rawConnection });
      const env = {
        REDIS_URL: running.url,
        DATA_DIR: tmp.dir,
        CATALOG_URL: catalog.url,
        SERVICE_TOKEN,
        // Short lock and stalled check so the test need not wait BullMQ's 30 s defaults.
        MEDIA_JOB_LOCK_MS: '2000',
        MEDIA_JOB_STALLED_CHECK_MS: '1000',
        MEDIA_JOB_ATTEMPTS: '1',
      };
      workers.push(...(await Promise.all([startWorker(env), startWorker(env)])));
    }, 120_000);

    afterAll(async () => {
      for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
      await Promise.all(workers.map((w) => w.exited));
      await raw?.close();
      rawConnection?.disconnect();
      await queue?.close();
      await catalog?.stop();
      await running.stop();
      tmp.remove();
    });

    it('gives the job to the other worker, which finishes it: one set of variants, each photo listed once', async () => {
      const sku = 'TP-001';
      const base = await largePng();
      const photos = Array.from({ length: PHOTOS }, (_, i) => withText(base, `photo ${i}`));
      const hashes = photos.map((p) => sha256Prefix(p));
      expect(new Set(hashes).size).toBe(PHOTOS);
      for (const [i, p] of photos.entries()) {
        await store.put(originalKey(sku, { at: 1_700_000_000_000, index: i, hash: hashes[i]!, name: `big-${i}.png`, ext: 'png' }), p, {
          contentType: 'image/png',
        });
      }

      const jobId = 'kill-1.0';
      await queue.add('process-sku', { sku, productId: productId(1), batchId: 'kill-1', forceReprocess: false }, { jobId });

      // Wait until a worker has finished at least one photo (its done marker, written after its other variants, is in
      // the store) but not the last one, then kill that worker. Progress is no sign of that: the worker reports a photo
      // once its variants are made, while they are still being written, and a kill in that moment left nothing done.
      const finished = async () => Promise.all(hashes.map(async (h) => (await store.stat(doneMarker(h))) !== null));
      const midway = await poll(
        async () => ({ job: await queue.get(jobId), done: await finished() }),
        ({ job, done }) => job?.state !== 'waiting' && job?.state !== 'delayed' && done.some(Boolean),
      );
      expect(midway.job).toMatchObject({ state: 'active' });
      expect(midway.done.at(-1), 'the last photo was not finished yet').toBe(false);
      const holderName = (await raw.getJob(jobId))!.processedBy!;
      const holder = workers.find((w) => holderName.endsWith(`:${w.pid}`))!;
      const survivor = workers.find((w) => w !== holder)!;
      expect(holder, `job held by ${holderName}`).toBeDefined();
      holder.child.kill('SIGKILL');
      expect(await holder.exited).toBeNull(); // killed by the signal, no exit code

      const done = await poll(
        () => queue.get(jobId),
        (j) => !!j && (j.state === 'completed' || j.state === 'failed'),
        100,
      );
      expect(done, survivor.log()).toMatchObject({ state: 'completed', progress: 100 });
      const job = (await raw.getJob(jobId))!;
      expect(job.processedBy).toBe(`${holderName.slice(0, holderName.lastIndexOf(':'))}:${survivor.pid}`);
      expect(job.stalledCounter).toBe(1);
      expect(job.attemptsStarted).toBe(2);
      expect(job.attemptsMade).toBe(1); // BullMQ counts finished attempts: only the one that completed
      // The photos the killed worker finished were not made again; the rest were, by the survivor.
      const result = done!.result! as ProcessSkuResult;
      expect(result.unchanged).toBeGreaterThanOrEqual(1);
      expect(result.processed).toBeGreaterThanOrEqual(1);
      expect(result.processed + result.unchanged).toBe(PHOTOS);
      expect(result.failed).toEqual([]);
      expect(survivor.log()).toMatch(/job's worker stopped without finishing it/);

      // Exactly one set of variants: the same keys whoever wrote them, and every one a whole image.
      const expectedKeys = hashes.flatMap((h) => PRODUCT_IMAGE_WIDTHS.flatMap((w) => PRODUCT_IMAGE_FORMATS.map((f) => variantKey(h, w, f))));
      expect(await store.list('products/')).toEqual([...expectedKeys].sort());
      for (const key of expectedKeys) {
        const meta = await sharp((await store.getBuffer(key))!).metadata();
        expect(meta.width, key).toBe(Number(/-(\d+)\.\w+$/.exec(key)![1]));
      }

      // The catalogue lists each photo once, in upload order.
      const product = (await catalog.call(`/api/products/${productId(1)}`)).body;
      expect(product.images).toEqual(hashes.map(storedImageUrl));

      // Reprocessing the same photos (a repeated upload) overwrites the same keys and lists nothing twice.
      await queue.add('process-sku', { sku, productId: productId(1), batchId: 'kill-2', forceReprocess: true }, { jobId: 'kill-2.0' });
      const again = await poll(() => queue.get('kill-2.0'), (j) => !!j && (j.state === 'completed' || j.state === 'failed'), 100);
      expect(again).toMatchObject({ state: 'completed', result: { processed: PHOTOS, unchanged: 0 } });
      expect(await store.list('products/')).toEqual([...expectedKeys].sort());
      expect((await catalog.call(`/api/products/${productId(1)}`)).body.images).toEqual(hashes.map(storedImageUrl));
    }, 180_000);
  });
}
