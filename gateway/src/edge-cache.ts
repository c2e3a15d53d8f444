import { counter, countRequest } from '@forgeline/service-kit/metrics';
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import CachePolicy from 'http-cache-semantics';
import { LRUCache } from 'lru-cache';
import { REQUEST_ID_HEADER } from '@forgeline/contracts/common';
import type { Logger } from '@forgeline/service-kit/logger';
import { answeredSpan } from '@forgeline/service-kit/tracing';

/**
 * A shared HTTP cache in front of the services' public reads, as a CDN or nginx's proxy_cache would be.
 * A service opts an answer in with `Cache-Control: s-maxage=N` (the catalog does for its public lists,
 * search and products); the gateway keeps it for N seconds and answers the same GET itself, before
 * Express, the proxy and the hop to the service, which are most of what a read costs.
 *
 * Freshness: every successful write through the gateway (POST, PUT, PATCH, DELETE) empties the cache,
 * so an admin's change shows at once; a change made behind the gateway (the media worker's) shows
 * within N seconds. A request carrying an admin's token, or saying `no-store`, is passed through. One saying
 * `Cache-Control: no-cache` (a reload) must not get a stored answer unchecked: when one is kept with an ETag, the
 * gateway asks the service whether it still holds (`If-None-Match`; the catalog answers 304 from its own ready-made
 * answers) and sends the stored body, instead of taking the whole answer across again (`revalidationTag`,
 * `serveRevalidated`).
 */
/** The edge cache's answers (#37): hit or made upstream (miss), the same metric as the services' response caches. */
const edgeRequests = counter('cache_requests_total', 'Reads answered from a cache (hit) or made (miss), by cache', ['cache', 'result']);

export interface EdgeCacheOptions {
  /** Memory budget for cached bodies; 0 turns the cache off. */
  maxBytes: number;
  logger: Logger;
}

export interface EdgeCache {
  /** Answers a GET or HEAD from the cache and returns true, or returns false when it has nothing fresh. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** The stored answer's ETag when a GET asks to be revalidated (`no-cache`) and one is kept, else undefined. */
  revalidationTag(req: IncomingMessage): string | undefined;
  /**
   * The service said the stored answer with `etag` still holds (304; its headers given): sends it, fresh for the
   * 304's s-maxage, and returns true; false when it is no longer kept (emptied meanwhile).
   */
  serveRevalidated(req: IncomingMessage, res: ServerResponse, etag: string, upstream: IncomingHttpHeaders): boolean;
  /** Offered every upstream answer (the proxy's `proxyRes`): keeps the ones a service marked shareable. */
  offer(req: IncomingMessage, upstream: IncomingMessage): void;
  /** Forget everything (after a write). */
  clear(): void;
  readonly stats: { hits: number; revalidated: number; stored: number; entries: number; bytes: number };
}

interface Entry {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  etag?: string;
  storedAt: number;
  expiresAt: number;
}

/** Headers that describe one connection or one request, not the answer. */
const NOT_STORED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'age', REQUEST_ID_HEADER.toLowerCase()]);
/** One answer may take at most this share of the budget (a 340 kB list is fine; a runaway body is not). */
const MAX_ENTRY_SHARE = 1 / 16;
const REQUEST_ID_PATTERN = /^[\w.-]{1,100}$/;

export function createEdgeCache(opts: EdgeCacheOptions): EdgeCache {
  const enabled = opts.maxBytes > 0;
  const maxEntryBytes = Math.floor(opts.maxBytes * MAX_ENTRY_SHARE);
  const cache = new LRUCache<string, Entry>({ maxSize: Math.max(1, opts.maxBytes), sizeCalculation: (e) => e.body.length + 512 });
  const logInfo = opts.logger.isLevelEnabled('info');
  let generation = 0;
  let hits = 0;
  let stored = 0;

  // The same URL is answered differently by encoding (gzip or not), so that is part of the key.
  const keyOf = (req: IncomingMessage) => `${req.url}\n${req.headers['accept-encoding'] ?? ''}`;
  const cacheDirectives = (req: IncomingMessage) => String(req.headers['cache-control'] ?? req.headers.pragma ?? '');
  const wantsFresh = (req: IncomingMessage) => /no-cache|no-store/.test(cacheDirectives(req));
  let revalidated = 0;

  function send(req: IncomingMessage, res: ServerResponse, entry: Entry, state: 'HIT' | 'REVALIDATED', now: number) {
    const given = req.headers[REQUEST_ID_HEADER.toLowerCase()];
    const id = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    const notModified = entry.etag !== undefined && req.headers['if-none-match'] === entry.etag;
    res.writeHead(notModified ? 304 : entry.status, {
      ...entry.headers,
      [REQUEST_ID_HEADER]: id,
      age: String(Math.floor((now - entry.storedAt) / 1000)),
      'x-edge-cache': state,
    });
    res.end(notModified || req.method === 'HEAD' ? undefined : entry.body);
    edgeRequests.inc({ cache: 'edge', result: 'hit' });
    countRequest('gateway', req.method ?? 'GET', 'edge-cache', res.statusCode, 0);
    const traced = answeredSpan(req, 'edge-cache', { 'forgeline.service': 'gateway', 'forgeline.request_id': id, 'http.response.status_code': res.statusCode, 'forgeline.cache': state });
    if (logInfo) {
      opts.logger.info(
        { reqId: id, req: { method: req.method, url: req.url }, res: { statusCode: res.statusCode }, responseTime: 0, cache: state, ...traced },
        'request completed',
      );
    }
  }

  return {
    serve(req, res) {
      // Signed-in staff always get fresh answers.
      if (!enabled || (req.method !== 'GET' && req.method !== 'HEAD') || wantsFresh(req) || req.headers.authorization) return false;
      const key = keyOf(req);
      const entry = cache.get(key);
      if (!entry) {
        edgeRequests.inc({ cache: 'edge', result: 'miss' });
        return false;
      }
      const now = Date.now();
      if (entry.expiresAt <= now) {
        cache.delete(key);
        edgeRequests.inc({ cache: 'edge', result: 'miss' });
        return false;
      }
      hits++;
      send(req, res, entry, 'HIT', now);
      return true;
    },

    revalidationTag(req) {
      if (!enabled || req.method !== 'GET' || req.headers.authorization) return undefined;
      const directives = cacheDirectives(req);
      if (!directives.includes('no-cache') || directives.includes('no-store')) return undefined;
      return cache.get(keyOf(req))?.etag;
    },

    serveRevalidated(req, res, etag, upstream) {
      const entry = cache.get(keyOf(req));
      if (!entry || entry.etag !== etag) return false;
      const now = Date.now();
      const sharedMaxAge = /(?:^|[\s,])s-maxage=(\d+)/.exec(upstream['cache-control'] ?? '');
      if (sharedMaxAge) {
        entry.storedAt = now;
        entry.expiresAt = now + Number(sharedMaxAge[1]) * 1000;
      }
      revalidated++;
      send(req, res, entry, 'REVALIDATED', now);
      return true;
    },

    offer(req, upstream) {
      if (!enabled || req.method !== 'GET' || upstream.statusCode !== 200 || req.headers.authorization) return;
      const cacheControl = upstream.headers['cache-control'];
      if (!cacheControl?.includes('s-maxage') || upstream.headers['set-cookie']) return;
      const vary = upstream.headers.vary;
      if (vary && vary.split(',').some((v) => v.trim().toLowerCase() !== 'accept-encoding')) return;
      const policy = new CachePolicy(
        { url: req.url ?? '/', method: req.method, headers: req.headers },
        { status: upstream.statusCode, headers: upstream.headers },
        { shared: true },
      );
      const ttlMs = policy.timeToLive();
      if (!policy.storable() || ttlMs <= 0) return;
      const key = keyOf(req);
      const startedAt = generation;
      const chunks: Buffer[] = [];
      let size = 0;
      upstream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxEntryBytes) chunks.push(chunk);
      });
      upstream.on('end', () => {
        // A write that finished while this answer was on its way may have changed it: do not keep it.
        if (startedAt !== generation || size > maxEntryBytes || !upstream.complete) return;
        const headers: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(upstream.headers)) if (value !== undefined && !NOT_STORED.has(name)) headers[name] = value;
        const body = Buffer.concat(chunks, size);
        headers['content-length'] = String(body.length);
        const now = Date.now();
        const etag = upstream.headers.etag;
        cache.set(key, { status: 200, headers, body, ...(etag ? { etag } : {}), storedAt: now, expiresAt: now + ttlMs });
        stored++;
      });
    },

    clear() {
      generation++;
      cache.clear();
    },

    get stats() {
      return { hits, revalidated, stored, entries: cache.size, bytes: cache.calculatedSize };
    },
  };
}
