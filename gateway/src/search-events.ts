import express, { type Express } from 'express';
import { REQUEST_ID_HEADER, SERVICE_TOKEN_HEADER } from '@forgeline/contracts/common';
import { SearchEventsInputSchema, type SearchEventsInput } from '@forgeline/contracts/search-insights';
import { parseInput } from '@forgeline/service-kit/errors';
import type { Logger } from '@forgeline/service-kit/logger';
import { createRateLimiter } from '@forgeline/service-kit/rate-limit';
import type { Redis } from '@forgeline/service-kit/redis';
import { toReplicaPool, type ReplicaPool } from './replica-pool.ts';

/** A page's batch of events is small: a search and what was done with it, 50 at most. */
const EVENTS_BODY_LIMIT = '16kb';
export const SEARCH_EVENTS_PER_MINUTE = 120;

/**
 * POST /api/search/events, answered here (#36): buyers' pages send one for about every search they make, so each must
 * cost search next to nothing. Proxied, every batch cost a second request in the catalog as well as here; now the
 * gateway checks it (the contract's schema), keeps it, and hands the catalog what it gathered every `flushMs` in one
 * internal call. A full buffer drops what comes and counts it, as the catalog's does; a catalog that cannot take a
 * batch gets it again with the next, within `maxPending`.
 */
export function createSearchEventRelay(opts: {
  catalogUrl: string | ReplicaPool;
  serviceToken: string;
  logger: Logger;
  redis?: Redis;
  perMinute?: number;
  flushMs?: number;
  maxPending?: number;
}) {
  const catalog = toReplicaPool(opts.catalogUrl, 'catalog', opts.logger);
  const flushMs = opts.flushMs ?? 2_000;
  const maxPending = opts.maxPending ?? 20_000;
  let pending: SearchEventsInput[] = [];
  let events = 0;
  let dropped = 0;
  let lastDropLog = 0;
  let sending: Promise<void> | null = null;

  async function flush(): Promise<void> {
    if (sending) return sending;
    sending = (async () => {
      while (pending.length) {
        const batch = pending.slice(0, 1_000);
        try {
          const res = await catalog.fetch('/internal/search/events', {
            method: 'POST',
            headers: { 'content-type': 'application/json', [SERVICE_TOKEN_HEADER]: opts.serviceToken, [REQUEST_ID_HEADER]: 'search-events' },
            body: JSON.stringify({ batches: batch }),
            signal: AbortSignal.timeout(5_000),
          });
          if (!res.ok && res.status !== 400) throw new Error(`the catalog answered ${res.status}`);
          if (res.status === 400) opts.logger.error({ body: (await res.text()).slice(0, 300) }, 'search events refused by the catalog');
        } catch (err) {
          opts.logger.warn({ err: (err as Error).message, batches: batch.length }, 'search events not handed to the catalog; will retry');
          return;
        }
        pending = pending.slice(batch.length);
        events -= batch.reduce((n, b) => n + b.events.length, 0);
      }
    })().finally(() => {
      sending = null;
    });
    return sending;
  }

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    mount(app: Express): void {
      app.post(
        '/api/search/events',
        createRateLimiter({
          name: 'gateway:search-events',
          windowMs: 60_000,
          limit: opts.perMinute ?? SEARCH_EVENTS_PER_MINUTE,
          logger: opts.logger,
          redis: opts.redis,
          handler: (_req, res) => {
            res.status(429).json({ message: 'Too many search events from this address; try again in a minute' });
          },
        }),
        express.json({ limit: EVENTS_BODY_LIMIT }),
        (req, res, next) => {
          try {
            const input = parseInput(SearchEventsInputSchema, req.body, 'body');
            if (events + input.events.length > maxPending) {
              dropped += input.events.length;
              if (Date.now() - lastDropLog > 60_000) {
                lastDropLog = Date.now();
                opts.logger.warn({ dropped, pending: events }, 'search events: buffer full, events dropped (is the catalog slow?)');
              }
              res.status(202).json({ accepted: 0, dropped: input.events.length });
              return;
            }
            pending.push(input);
            events += input.events.length;
            res.status(202).json({ accepted: input.events.length, dropped: 0 });
          } catch (err) {
            next(err);
          }
        },
      );
    },
    /** Hands over what waits (tests, and the gateway's stop). */
    flush,
    get dropped() {
      return dropped;
    },
    async close(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}
