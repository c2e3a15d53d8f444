import { ipKeyGenerator, rateLimit, type Options, type RateLimitRequestHandler, type Store } from 'express-rate-limit';
import { clientAddress } from './client-address.ts';
import { counter } from './metrics.ts';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Logger } from './logger.ts';
import type { Redis } from './redis.ts';

export interface RateLimiterOptions {
  /** Names the counter; in Redis its keys are `rl:<name>:<client>`, so it must be unique in the product (`quotes:contact`). */
  name: string;
  windowMs: number;
  limit: number;
  logger: Logger;
  /**
   * REDIS_URL's connection (connectRedis): every replica counts in Redis, so together they allow `limit`.
   * Absent: this process's memory, as with a single process.
   */
  redis?: Redis;
  /** What is counted; by default the client's address (clientAddress, an IPv6 one by its /56). */
  keyGenerator?: Options['keyGenerator'];
  skip?: Options['skip'];
  /** Answers a request over the limit. */
  handler: Options['handler'];
}

/** Requests a limiter refused (#37), by its name ("catalog:parts-match"), never by who sent them. */
const rateLimitRefusals = counter('rate_limit_refusals_total', 'Requests refused by a rate limit, by limiter', ['limiter']);

/** While Redis fails, one warning per limiter per this long, with how many requests went through uncounted. */
const STORE_WARNING_EVERY_MS = 30_000;

/**
 * A limiter (express-rate-limit, draft-8 RateLimit headers) counting in memory or, given Redis, in Redis.
 * A Redis that is down or slow never turns a request into a 500: the request goes through uncounted
 * (`passOnStoreError`) and a warning is logged, since refusing every buyer is worse than a few extra requests.
 */
export function createRateLimiter(o: RateLimiterOptions): RateLimitRequestHandler {
  let passed = 0;
  let warnedAt = 0;
  const storeFailed = (err: unknown) => {
    passed++;
    const now = Date.now();
    if (now - warnedAt < STORE_WARNING_EVERY_MS) return;
    o.logger.warn({ limiter: o.name, passedUncounted: passed, err: err instanceof Error ? err.message : String(err) }, 'rate limit store unavailable: requests pass uncounted');
    warnedAt = now;
    passed = 0;
  };
  return rateLimit({
    windowMs: o.windowMs,
    limit: o.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: o.keyGenerator ?? ((req) => ipKeyGenerator(clientAddress(req as never) ?? 'unknown')),
    ...(o.skip ? { skip: o.skip } : {}),
    handler: (req, res, next, options) => {
      rateLimitRefusals.inc({ limiter: o.name });
      return o.handler(req, res, next, options);
    },
    ...(o.redis ? { store: new RecoveringRedisStore(o.redis, `rl:${o.name}:`), passOnStoreError: true } : {}),
    logger: {
      warn: (err, message) => o.logger.warn({ limiter: o.name, err }, message ?? 'rate limiter warning'),
      // The library reports a failing store through here (and, once at start, a misconfiguration).
      error: (err, message) => (message?.includes('store') ? storeFailed(err) : o.logger.error({ limiter: o.name, err }, message ?? 'rate limiter error')),
    },
  });
}

/**
 * rate-limit-redis's store, made again after a failure. The store loads its Lua scripts once, at start,
 * and keeps the promise: a load that failed (Redis not up yet, or down then) would fail every later count
 * even after Redis is back. Redis's own loss of the scripts (a restart) the store handles itself (NOSCRIPT).
 */
class RecoveringRedisStore implements Store {
  readonly localKeys = false;
  private inner: RedisStore;
  private options?: Options;
  private failed = false;

  constructor(
    private readonly redis: Redis,
    readonly prefix: string,
  ) {
    this.inner = this.make();
  }

  private make() {
    return new RedisStore({
      prefix: this.prefix,
      sendCommand: (command: string, ...args: string[]) => this.redis.call(command, ...args) as Promise<RedisReply>,
    });
  }

  /** The store to use now: a fresh one after a failure, its scripts loading (or failing fast) before it counts. */
  private current(): RedisStore {
    if (this.failed && this.options) {
      this.failed = false;
      this.inner = this.make();
      this.inner.init(this.options).catch(() => {
        this.failed = true;
      });
    }
    return this.inner;
  }

  private async guard<T>(run: (store: RedisStore) => Promise<T>): Promise<T> {
    try {
      return await run(this.current());
    } catch (err) {
      this.failed = true;
      throw err;
    }
  }

  init(options: Options) {
    this.options = options;
    this.inner.init(options).catch(() => {
      this.failed = true;
    });
  }

  get(key: string) {
    return this.guard((s) => s.get(key));
  }

  increment(key: string) {
    return this.guard((s) => s.increment(key));
  }

  decrement(key: string) {
    return this.guard((s) => s.decrement(key));
  }

  resetKey(key: string) {
    return this.guard((s) => s.resetKey(key));
  }
}
