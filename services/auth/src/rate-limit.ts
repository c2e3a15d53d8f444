import type { Request } from 'express';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import { clientAddress } from '@forgeline/service-kit/client-address';
import type { Logger } from '@forgeline/service-kit/logger';
import { HttpError } from '@forgeline/service-kit/errors';
import type { AuthStore } from './ports.ts';

/** express-rate-limit's store over AuthStore's fixed windows, so every auth replica counts together. */
class AuthStoreCounter implements Store {
  readonly localKeys = false;
  constructor(
    private readonly store: AuthStore,
    private readonly windowMs: number,
    private readonly now: () => number,
    readonly prefix: string,
  ) {}
  async increment(key: string) {
    const hit = await this.store.hit(this.prefix + key, this.windowMs, this.now());
    return { totalHits: hit.count, resetTime: new Date(hit.resetAt) };
  }
  async decrement(key: string) {
    await this.store.unhit(this.prefix + key, this.windowMs, this.now());
  }
  async resetKey(key: string) {
    await this.store.resetHits(this.prefix + key);
  }
}

export interface LimitOptions {
  /** Counter name, also the key prefix. */
  name: string;
  limit: number;
  windowMs: number;
  /** What is counted; return undefined to let the request through uncounted (e.g. a body that will get a 400). */
  key: (req: Request) => string | undefined;
  message: string;
  store: AuthStore;
  now: () => number;
  logger: Logger;
}

/** A limiter answering 429 `{ message }` (through the JSON error handler) with RateLimit and Retry-After headers. */
export function limiter(o: LimitOptions) {
  return rateLimit({
    windowMs: o.windowMs,
    limit: o.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    store: new AuthStoreCounter(o.store, o.windowMs, o.now, `${o.name}:`),
    skip: (req) => o.key(req) === undefined,
    keyGenerator: (req) => o.key(req)!,
    handler: (req, _res, next) => {
      o.logger.warn({ limiter: o.name, requestId: (req as { id?: string }).id }, 'rate limit reached');
      next(new HttpError(429, o.message));
    },
  });
}

/** The client's address as the gateway reports it (X-Forwarded-For from a trusted loopback proxy), /56 for IPv6. */
export const clientKey = (req: Request) => ipKeyGenerator(clientAddress(req) ?? 'unknown');
