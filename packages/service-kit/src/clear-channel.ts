import { randomUUID } from 'node:crypto';
import type { Logger } from './logger.ts';
import { watchConnection, type Redis } from './redis.ts';

/**
 * "Empty your cache": said by the replica that changed something, heard by every other replica of the same
 * kind (Redis pub/sub). A cache kept in each process's memory (the gateway's edge cache, the catalog's ready-made
 * answers) is then as fresh on every replica as on the one the write went through.
 */
export interface ClearChannel {
  /** Tells the other replicas (not this one: it has cleared already). Never throws; a failure is logged. */
  announce(): void;
  /** Runs on each other replica's announcement, and whenever the subscription is (re)made: clears may have been missed meanwhile. */
  onClear(listener: () => void): void;
  close(): Promise<void>;
}

/** While publishing fails, one warning per this long. */
const PUBLISH_WARNING_EVERY_MS = 30_000;

/**
 * A clear channel on `redis` (connectRedis; its subscriber is a second connection made from it). Losing Redis
 * never stops the process: the subscriber reconnects and subscribes again on its own, and announcements made
 * meanwhile are lost, so a replica clears its cache on every (re)subscription; until then the cache's own
 * expiry bounds how stale it can be.
 */
export function openClearChannel(opts: { redis: Redis; channel: string; logger: Logger }): ClearChannel {
  const { redis, channel } = opts;
  const log = opts.logger.child({ channel });
  const self = randomUUID(); // our own announcements come back to us too: skip those
  const listeners: (() => void)[] = [];
  const clear = () => {
    for (const listener of listeners) listener();
  };

  // Subscribed by hand on every `ready`, instead of ioredis's autoResubscribe, so that a (re)subscription is known.
  const subscriber = redis.duplicate({ autoResubscribe: false });
  watchConnection(subscriber, opts.logger, `subscriber ${channel}`);
  let subscriptions = 0;
  subscriber.on('ready', () => {
    subscriber.subscribe(channel).then(
      () => {
        if (subscriptions++ > 0) log.info('subscribed again: cache cleared, as clears may have been missed');
        clear();
      },
      (err: unknown) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'subscribe failed; will retry on the next connection'),
    );
  });
  subscriber.on('message', (from: string, message: string) => {
    if (from === channel && message !== self) clear();
  });

  let warnedAt = 0;
  return {
    announce() {
      redis.publish(channel, self).catch((err: unknown) => {
        const now = Date.now();
        if (now - warnedAt < PUBLISH_WARNING_EVERY_MS) return;
        warnedAt = now;
        log.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not tell the other replicas to clear their cache');
      });
    },
    onClear(listener) {
      listeners.push(listener);
    },
    async close() {
      listeners.length = 0;
      subscriber.disconnect();
    },
  };
}
