import { counter } from './metrics.ts';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';

/**
 * Ready-made JSON answers for public reads, keyed by the request URL. A hit skips the work and the
 * serialisation, and gzip is done once per entry instead of once per request (the gateway's
 * compression leaves an already encoded body alone), which is most of a busy read's CPU.
 *
 * Freshness: the owner calls `clear()` after every write it makes, and entries expire after `ttlMs`
 * so a write made elsewhere (another replica, a CLI on the same store) shows within that time.
 */
export interface ResponseCacheOptions {
  /** Memory budget for the cached bodies (plain + gzip); 0 turns the cache off. */
  maxBytes: number;
  ttlMs: number;
  /** False while answers are not final (e.g. a search index being rebuilt): nothing is stored or served. */
  enabled?: () => boolean;
  /**
   * How long a shared cache in front (the gateway's edge cache, a CDN) may keep an answer: sent as
   * `Cache-Control: public, max-age=0, s-maxage=N` (browsers revalidate with the ETag). 0 sends `no-cache`.
   */
  sharedMaxAgeSeconds?: number;
}

interface Entry {
  body: Buffer;
  etag: string;
  gzip?: Buffer;
}

export interface ResponseCache {
  /** A GET handler whose 200 answer (the value `produce` returns) is cached; a thrown error is not. */
  json(produce: (req: Request) => Promise<unknown>): RequestHandler;
  /** Forget every answer: call after any write that can change one. */
  clear(): void;
  readonly stats: { hits: number; misses: number; entries: number; bytes: number };
}

/**
 * An answer already serialised (a store that composes JSON itself): `produce` may return one instead of a value, and
 * its text is the body as it is.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Bodies below this are sent plain: gzip saves little there and costs a header. */
const GZIP_FROM_BYTES = 1024;

/** Ready-made answers served from memory or made (#37): the hit ratio is hit / (hit + miss). */
const cacheRequests = counter('cache_requests_total', 'Reads answered from a cache (hit) or made (miss), by cache', ['cache', 'result']);

export function createResponseCache(opts: ResponseCacheOptions): ResponseCache {
  const cache =
    opts.maxBytes > 0
      ? new LRUCache<string, Entry>({
          maxSize: opts.maxBytes,
          // The gzip copy is made on first use; a JSON list compresses to well under a quarter.
          sizeCalculation: (e) => Math.ceil(e.body.length * 1.25) + 200,
          ttl: opts.ttlMs,
        })
      : null;
  let hits = 0;
  let misses = 0;
  // A write bumps the generation, so an answer computed before the write but finished after it is not stored.
  let generation = 0;
  const enabled = opts.enabled ?? (() => true);
  const shared = opts.sharedMaxAgeSeconds ?? 0;

  /** HIT or MISS in this cache; OFF when it has no memory; NOT-FINAL while `enabled()` is false. */
  function send(req: Request, res: Response, entry: Entry, cacheState: 'HIT' | 'MISS' | 'OFF' | 'NOT-FINAL') {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('ETag', entry.etag);
    res.setHeader('Vary', 'Accept-Encoding');
    // Only final answers may be shared: not while the cache is off for a rebuild.
    res.setHeader('Cache-Control', shared > 0 && cacheState !== 'NOT-FINAL' ? `public, max-age=0, s-maxage=${shared}` : 'no-cache');
    res.setHeader('X-Response-Cache', cacheState);
    if (req.headers['if-none-match'] === entry.etag) {
      res.status(304).end();
      return;
    }
    if (entry.body.length >= GZIP_FROM_BYTES && req.acceptsEncodings('gzip') === 'gzip') {
      entry.gzip ??= gzipSync(entry.body);
      res.setHeader('Content-Encoding', 'gzip');
      res.setHeader('Content-Length', entry.gzip.length);
      res.status(200).end(entry.gzip);
      return;
    }
    res.setHeader('Content-Length', entry.body.length);
    res.status(200).end(entry.body);
  }

  const makeEntry = (value: unknown): Entry => {
    const body = Buffer.from(value instanceof RawJson ? value.text : JSON.stringify(value));
    return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
  };

  return {
    json: (produce) => async (req, res, next) => {
      try {
        const final = enabled();
        const useCache = cache !== null && final;
        const key = req.originalUrl;
        const cached = useCache ? cache.get(key) : undefined;
        if (cached) {
          hits++;
          cacheRequests.inc({ cache: 'response', result: 'hit' });
          send(req, res, cached, 'HIT');
          return;
        }
        const startedAt = generation;
        const entry = makeEntry(await produce(req));
        if (useCache) {
          misses++;
          cacheRequests.inc({ cache: 'response', result: 'miss' });
          if (startedAt === generation && enabled()) cache.set(key, entry);
        }
        send(req, res, entry, !final ? 'NOT-FINAL' : useCache ? 'MISS' : 'OFF');
      } catch (err) {
        next(err);
      }
    },
    clear: () => {
      generation++;
      cache?.clear();
    },
    get stats() {
      return { hits, misses, entries: cache?.size ?? 0, bytes: cache?.calculatedSize ?? 0 };
    },
  };
}
