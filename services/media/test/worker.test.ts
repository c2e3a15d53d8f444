import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@forgeline/service-kit/logger';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { createLocalObjectStore } from '../src/adapters/local-fs/object-store.ts';
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
});
