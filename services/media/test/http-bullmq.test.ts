import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RunningRedis } from '@forgeline/test-support/redis';
import { createBullJobQueue } from '../src/adapters/bullmq/job-queue.ts';
import { sha256Prefix } from '../src/domain/keys.ts';
import { fileOf, photo, post, productOf, startMedia, waitForJob, zipOf, type MediaUnderTest } from './harness.ts';

// The production queue under the HTTP calls: BullMQ on a real redis-server.
const redis = await startRedis();
if ('skip' in redis) {
  console.warn(`[media] uploads over BullMQ skipped: ${redis.skip}`);
  describe.skip(`uploads over BullMQ (skipped: ${redis.skip})`, () => it('needs redis-server', () => {}));
} else {
  describe('uploads over BullMQ', () => {
    let media: MediaUnderTest;
    const running = redis as RunningRedis;
    beforeAll(async () => {
      media = await startMedia({
        queue: () => createBullJobQueue({ redisUrl: running.url, name: `media-http-${process.pid}`, attempts: 2, backoffMs: 20 }),
      });
    });
    afterAll(async () => {
      await media?.stop();
      await running.stop();
    });

    it('processes a bulk ZIP and a single photo, and reports the job', async () => {
      const a = await photo(501);
      const b = await photo(502);
      const form = new FormData();
      form.append('zip', fileOf(await zipOf([['TP-001/1.jpg', a], ['TP-002/1.jpg', b], ['NOPE/1.jpg', a]]), 'bulk.zip'));
      const res = await post(`${media.url}/api/admin/upload-bulk-zip`, form);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ skusProcessed: 2, filesExtracted: 2, skipped: [{ entry: 'NOPE/1.jpg', reason: 'unknown SKU "NOPE"' }] });
      const status = await waitForJob(media, res.body.jobId);
      expect(status).toMatchObject({ state: 'completed', images: { processed: 2 } });
      expect((await productOf(media, 2)).images).toEqual([`/media/products/${sha256Prefix(b)}-480.webp`]);

      const single = new FormData();
      const c = await photo(503);
      single.append('image', fileOf(c, 'c.jpg'));
      const one = await post(`${media.url}/api/admin/products/${(await productOf(media, 2)).id}/upload-image`, single);
      expect(one.status).toBe(200);
      expect(one.body.processed).toBe(true);
      expect((await productOf(media, 2)).images).toEqual([`/media/products/${sha256Prefix(b)}-480.webp`, `/media/products/${sha256Prefix(c)}-480.webp`]);
    });
  });
}
