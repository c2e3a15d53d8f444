import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@forgeline/service-kit/logger';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { createLocalObjectStore } from '@forgeline/object-store/local-fs';
import { createSqliteJobQueue } from '../src/adapters/sqlite/job-queue.ts';
import { createHttpCatalog } from '../src/adapters/catalog-http/catalog.ts';
import { createJobHandlers } from '../src/worker/process-sku.ts';
import { originalKey } from '../src/domain/originals.ts';
import { batchStatus } from '../src/domain/batch.ts';
import { sha256Prefix } from '../src/domain/keys.ts';
import { photo } from './harness.ts';
import { until } from './job-queue.contract.ts';

describe('process-sku worker', () => {
  it('retries while the catalog is unreachable, then shows the job failed with the reason', async () => {
    const tmp = tempDir('media-worker-');
    const logger = createLogger('media', 'silent');
    const store = createLocalObjectStore(path.join(tmp.dir, 'media'));
    const queue = createSqliteJobQueue(path.join(tmp.dir, 'q.sqlite'), { attempts: 3, backoffMs: 10, pollMs: 10 });
    const deadCatalog = createHttpCatalog(`http://127.0.0.1:${await freePort()}`, 'test-service-token-0123456789', 1_000);
    const img = await photo(1, { width: 64, height: 48 });
    const hash = sha256Prefix(img);
    await store.put(originalKey('SKU-1', { at: 1, index: 0, hash, name: 'a.jpg', ext: 'jpg' }), img, { contentType: 'image/jpeg' });
    const worker = await queue.work(createJobHandlers({ store, catalog: deadCatalog, logger }), { concurrency: 1 });
    await queue.add('process-sku', { sku: 'SKU-1', productId: 'p1', batchId: 'b1', forceReprocess: false }, { jobId: 'b1.0' });

    const info = await until(queue, 'b1.0', ['failed', 'completed']);
    expect(info.state).toBe('failed');
    expect(info.attemptsMade).toBe(3);
    expect(info.failedReason).toMatch(/fetch failed|ECONNREFUSED|answered/);
    // The variants were made on the first attempt and are kept; only telling the catalog failed.
    expect(await store.stat(`products/${hash}-480.webp`)).not.toBeNull();

    const status = batchStatus({ id: 'b1', kind: 'sku-process', createdAt: new Date().toISOString(), jobs: [{ jobId: 'b1.0', sku: 'SKU-1', images: 1 }], skipped: [] }, [info]);
    expect(status).toMatchObject({ state: 'failed', progress: 100, skus: { failed: 1 }, failures: [{ sku: 'SKU-1', reason: info.failedReason }] });
    await worker.close();
    await queue.close();
    tmp.remove();
  });

  it("writes a photo's variants while the next one is made, its done marker last; a failed write fails the attempt and the retry finishes the photo", async () => {
    const tmp = tempDir('media-worker-');
    const logger = createLogger('media', 'silent');
    const real = createLocalObjectStore(path.join(tmp.dir, 'media'));
    const photos = await Promise.all([1, 2, 3].map((n) => photo(n, { width: 64, height: 48 })));
    const hashes = photos.map((p) => sha256Prefix(p));
    for (const [i, img] of photos.entries()) {
      await real.put(originalKey('SKU-1', { at: 1, index: i, hash: hashes[i]!, name: `${i}.jpg`, ext: 'jpg' }), img, { contentType: 'image/jpeg' });
    }
    // The real store, with every put recorded (when it began, when it ended) and the second photo's 480 px WebP
    // refused once, as an object store that drops a connection would.
    const events: string[] = [];
    let refused = false;
    const store: typeof real = {
      ...real,
      put: async (key, body, opts) => {
        if (key.startsWith('products/')) events.push(`start ${key}`);
        if (!refused && key === `products/${hashes[1]}-480.webp`) {
          refused = true;
          throw new Error('connection reset by the object store');
        }
        await real.put(key, body, opts);
        if (key.startsWith('products/')) events.push(`end ${key}`);
      },
    };
    const queue = createSqliteJobQueue(path.join(tmp.dir, 'q.sqlite'), { attempts: 2, backoffMs: 10, pollMs: 10 });
    const deadCatalog = createHttpCatalog(`http://127.0.0.1:${await freePort()}`, 'test-service-token-0123456789', 1_000);
    const worker = await queue.work(createJobHandlers({ store, catalog: deadCatalog, logger }), { concurrency: 1 });
    await queue.add('process-sku', { sku: 'SKU-1', productId: 'p1', batchId: 'b1', forceReprocess: false }, { jobId: 'b1.0' });
    const info = await until(queue, 'b1.0', ['failed', 'completed']);
    await worker.close();
    await queue.close();

    // Two attempts: the first ended at the refused write, the second made every photo and then found no catalog.
    expect(info.attemptsMade).toBe(2);
    expect(info.failedReason).toMatch(/fetch failed|ECONNREFUSED|answered/);
    for (const hash of hashes) expect(await real.stat(`products/${hash}-1200.jpg`)).not.toBeNull();
    const retryAt = events.indexOf(`start products/${hashes[1]}-160.webp`, events.indexOf(`start products/${hashes[1]}-480.webp`) + 1);
    expect(retryAt).toBeGreaterThan(0);
    // Before the retry, the refused photo's done marker was never written (nor the third photo's: it waited for the second).
    const firstAttempt = events.slice(0, retryAt);
    expect(firstAttempt).not.toContain(`start products/${hashes[1]}-1200.jpg`);
    expect(firstAttempt).not.toContain(`start products/${hashes[2]}-1200.jpg`);
    // The first photo was not made again on the retry: its marker said it was done.
    expect(events.slice(retryAt).some((e) => e.includes(hashes[0]!))).toBe(false);
    for (const hash of hashes) {
      const mine = events.filter((e) => e.includes(hash));
      const markerStart = mine.lastIndexOf(`start products/${hash}-1200.jpg`);
      // Every other variant of the photo had been stored before its marker was begun.
      for (const e of mine.filter((x) => x.startsWith('end ') && !x.endsWith('-1200.jpg'))) expect(mine.lastIndexOf(e)).toBeLessThan(markerStart);
      expect(mine.filter((e) => e.startsWith('end ')).length).toBeGreaterThanOrEqual(6);
    }
    // The variants of one photo were on their way together: a second put began before the first had ended.
    const second = events.filter((e) => e.includes(hashes[2]!));
    expect(second[1]!.startsWith('start ')).toBe(true);
    tmp.remove();
  });
});
