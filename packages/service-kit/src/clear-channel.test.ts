import { afterAll, describe, expect, it } from 'vitest';
import { startRedis, type RunningRedis } from '@forgeline/test-support/redis';
import { openClearChannel, type ClearChannel } from './clear-channel.ts';
import { createLogger } from './logger.ts';
import { connectRedis, type Redis } from './redis.ts';

const logger = createLogger('clear-channel-test', 'silent');

/** Resolves once `check` holds, polling; fails the test after `ms`. */
async function eventually(check: () => boolean, ms = 2_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** One replica: its connection, its channel, and how many times it was told to clear. */
function replica(url: string, channel: string) {
  const redis: Redis = connectRedis(url, logger);
  const clears: ClearChannel = openClearChannel({ redis, channel, logger });
  const state = { cleared: 0, redis, clears };
  clears.onClear(() => state.cleared++);
  return state;
}

const started = await startRedis();
if ('skip' in started) {
  describe.skip(`openClearChannel (skipped: ${started.skip})`, () => it('needs redis-server', () => {}));
} else {
  describe('openClearChannel', () => {
    let redis: RunningRedis = started;
    const url = redis.url;
    const a = replica(url, 'test:cache');
    const b = replica(url, 'test:cache');
    const other = replica(url, 'test:other-cache');
    afterAll(async () => {
      for (const r of [a, b, other]) {
        await r.clears.close();
        r.redis.disconnect();
      }
      await redis.stop();
    });

    it('tells the other replicas of the same channel, not itself and not another channel', async () => {
      // Each clears once when its subscription is made (it may have missed clears before).
      await eventually(() => a.cleared === 1 && b.cleared === 1 && other.cleared === 1);
      a.clears.announce();
      await eventually(() => b.cleared === 2);
      await new Promise((r) => setTimeout(r, 50));
      expect([a.cleared, b.cleared, other.cleared]).toEqual([1, 2, 1]);
    });

    it('outlives a Redis restart: announcing meanwhile throws nothing, and after it every replica clears and hears again', async () => {
      const port = Number(new URL(url).port);
      await redis.stop();
      a.clears.announce(); // lost, and said so in the log
      const before = b.cleared;
      const again = await startRedis({ port });
      if ('skip' in again) throw new Error(again.skip);
      redis = again;
      // Back: b subscribes again and clears, since it cannot know what it missed.
      await eventually(() => b.cleared === before + 1, 5_000);
      await eventually(() => a.redis.status === 'ready', 5_000);
      a.clears.announce();
      await eventually(() => b.cleared === before + 2);
    });
  });
}
