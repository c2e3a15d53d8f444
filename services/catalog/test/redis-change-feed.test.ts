import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '@forgeline/service-kit/logger';
import { connectRedis } from '@forgeline/service-kit/redis';
import { startRedis, type RunningRedis } from '@forgeline/test-support/redis';
import { CHANGE_FEED_MAX_ENTRIES, openRedisChangeFeed } from '../src/adapters/redis/redis-change-feed.ts';

const logger = createLogger('change-feed-test', 'silent');
const part = (i: number) => ({ id: `id-${i}`, sku: `SKU-${i}` });

async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const started = await startRedis();
if ('skip' in started) {
  describe.skip(`Redis change feed (skipped: ${started.skip})`, () => it('needs redis-server', () => {}));
} else {
  describe('Redis change feed', () => {
    let redis: RunningRedis = started;
    const client = connectRedis(redis.url, logger);
    const feed = openRedisChangeFeed({ redis: client, stream: 'test:changes', logger });
    afterAll(async () => {
      await feed.close();
      client.disconnect();
      await redis.stop();
    });

    it('numbers entries 1, 2, 3… in order, splits a large change, and reads them after a position', async () => {
      await eventually(async () => client.status === 'ready');
      expect(await feed.head()).toEqual({ id: '0-0', n: 0 });
      feed.announce({ upserted: [part(1)], removed: [] }, 'replica-a');
      feed.announce({ upserted: Array.from({ length: 1500 }, (_, i) => part(i)), removed: ['gone-1'] }, 'replica-b');
      await eventually(async () => (await feed.head()).n === 4);
      const { entries, n } = await feed.readAfter({ id: '0-0', n: 0 }, 10);
      expect(n).toBe(4);
      expect(entries.map((e) => [e.n, e.by, e.change.upserted.length, e.change.removed])).toEqual([
        [1, 'replica-a', 1, []],
        [2, 'replica-b', 1000, []],
        [3, 'replica-b', 500, []],
        [4, 'replica-b', 0, ['gone-1']],
      ]);
      expect(await feed.readAfter(entries[1]!, 10)).toMatchObject({ entries: [{ n: 3 }, { n: 4 }], n: 4 });
      // A blocked read wakes for the next entry.
      const waiting = feed.waitAfter(entries[3]!, 10, 2_000);
      feed.announce({ upserted: [], removed: ['gone-2'] }, 'replica-a');
      expect((await waiting).map((e) => e.n)).toEqual([5]);
    });

    it('keeps the stream near its cap however many changes are announced', async () => {
      for (let i = 0; i < CHANGE_FEED_MAX_ENTRIES * 3; i++) feed.announce({ upserted: [part(i)], removed: [] }, 'replica-a');
      await eventually(async () => feed.pending() === 0 && (await feed.head()).n === 5 + CHANGE_FEED_MAX_ENTRIES * 3, 20_000);
      const length = await client.xlen('{test:changes}');
      // MAXLEN ~ trims whole nodes (100 entries each by default), so a little over the cap, never the whole history.
      expect(length).toBeGreaterThanOrEqual(CHANGE_FEED_MAX_ENTRIES);
      expect(length).toBeLessThan(CHANGE_FEED_MAX_ENTRIES + 200);
    });

    it('keeps what it could not send while Redis is down, and sends it in order when Redis is back', async () => {
      const port = Number(new URL(redis.url).port);
      await redis.stop();
      await eventually(async () => client.status !== 'ready');
      feed.announce({ upserted: [part(9001)], removed: [] }, 'replica-a');
      feed.announce({ upserted: [], removed: ['gone-9002'] }, 'replica-a');
      expect(feed.pending()).toBe(2);
      await expect(feed.head()).rejects.toThrow();

      const again = await startRedis({ port });
      if ('skip' in again) throw new Error(again.skip);
      redis = again;
      // Back empty: its count starts again at 1, which tells readers that what came before is gone.
      await eventually(async () => feed.pending() === 0);
      const { entries, n } = await feed.readAfter({ id: '0-0', n: 0 }, 10);
      expect(n).toBe(2);
      expect(entries.map((e) => [e.n, e.change])).toEqual([
        [1, { upserted: [part(9001)], removed: [] }],
        [2, { upserted: [], removed: ['gone-9002'] }],
      ]);
    });
  });
}
