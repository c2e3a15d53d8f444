/**
 * The replicas of one service (CATALOG_URL=http://catalog-1:4001,http://catalog-2:4001) and which of them are live.
 *
 * Requests are spread round-robin over the live replicas. A replica that fails at connection level (refused, or no
 * connection within the connect timeout) is marked down: it gets no traffic for `retryAfterMs`, then it is probed
 * (GET /healthz) every `retryAfterMs` until it answers, and gets traffic again. Going down and coming back are logged
 * once each. With one URL there is nothing to fail over to: it is always tried, and failures are answered as before.
 *
 * The proxy (app.ts) picks with `pick` and retries through its error handler; the gateway's own calls (page data,
 * sitemaps, the admin check, the audit log, the no-JavaScript quote form) go through `fetch` here.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, fetch as undiciFetch, Headers, request as undiciRequest, type FormData, type RequestInit, type Response } from 'undici';
import { inSpan, SpanKind, traceHeaders, tracingOn } from '@forgeline/service-kit/tracing';
import type { Logger } from '@forgeline/service-kit/logger';

export interface ReplicaPoolOptions {
  /** Names the service in logs and errors: `catalog`. */
  service: string;
  /** Base URLs, at least one. */
  urls: readonly string[];
  logger: Logger;
  /** How long a replica that failed is left alone before it is probed again. */
  retryAfterMs?: number;
  /** A replica that accepts no connection within this counts as failed (and the request goes to the next). */
  connectTimeoutMs?: number;
}

/** How a call to a replica failed, for deciding whether another may take it. */
export type FailureKind =
  /** The request never reached the replica (refused, no route, connect timeout): any method may go to another. */
  | 'not-sent'
  /** The connection broke before any byte of an answer: only an idempotent request may go again. */
  | 'reset'
  /** Anything else (a timeout waiting for the answer, a broken answer): not retried. */
  | 'other';

const NOT_SENT = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'ECONNECTTIMEOUT']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** An error's system code, also from undici's `fetch failed` (which keeps it in `cause`). */
function codeOf(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return undefined;
}

export function failureKind(err: unknown): FailureKind {
  const code = codeOf(err);
  if (code && NOT_SENT.has(code)) return 'not-sent';
  if ((code && RESET.has(code)) || (err as Error | null)?.message === 'socket hang up') return 'reset';
  return 'other';
}

export const isIdempotent = (method: string | undefined) => method === 'GET' || method === 'HEAD';

/** Every replica of a service failed, or is marked down: the caller answers 503. */
export class ReplicasUnavailableError extends Error {
  override name = 'ReplicasUnavailableError';
  constructor(
    readonly service: string,
    readonly replicas: number,
    readonly lastError?: unknown,
  ) {
    super(`${service}: no replica answered (${replicas} configured${lastError ? `; last: ${codeOf(lastError) ?? (lastError as Error).message}` : ''})`);
  }
}

/** A comma-separated list of base URLs, as CATALOG_URL and the others may be given. */
export function splitReplicaList(value: string): string[] {
  return value
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
}

interface Replica {
  url: string;
  /** Marked down until a probe answers; the timer of the next probe. */
  down: boolean;
  probe?: NodeJS.Timeout;
}

export interface FetchInit extends Omit<RequestInit, 'dispatcher' | 'body'> {
  /**
   * Held in memory (or a form of file-backed blobs, read again as often as needed), so a request that never reached a
   * replica can go to the next one whatever its method.
   */
  body?: string | FormData;
  /**
   * Safe to send twice (reads; the admin check, which only reads a session): one whose connection broke before an
   * answer goes to the next replica. Default: true for GET and HEAD.
   */
  idempotent?: boolean;
}

export interface ReplicaPool {
  readonly service: string;
  readonly urls: readonly string[];
  readonly retryAfterMs: number;
  readonly connectTimeoutMs: number;
  /** More than one replica: failures go to the next one, and "none left" is a 503. */
  readonly failsOver: boolean;
  /** The next live replica (round-robin) not in `tried`; undefined when none is left. */
  pick(tried?: ReadonlySet<string>): string | undefined;
  /** A connection-level failure seen on `url`: no traffic until a probe finds it answering. */
  markDown(url: string, reason: string): void;
  isDown(url: string): boolean;
  /** The gateway's own call to the service: `path` on a live replica, on the next one when the first cannot take it. */
  fetch(path: string, init?: FetchInit): Promise<Response>;
  /**
   * A GET whose answer's status and headers are all that matter (the edge cache's revalidation), on one live replica,
   * without `fetch`'s WHATWG objects (a third of the cost of such a call); the body, if any, is thrown away. No
   * failover: the caller falls back to the proxy, which has it.
   */
  getHeadersOnly(path: string, headers: Record<string, string>, timeoutMs: number): Promise<{ status: number; headers: IncomingHttpHeaders }>;
  /** Stops the probes and closes idle connections. */
  close(): Promise<void>;
}

export function createReplicaPool(o: ReplicaPoolOptions): ReplicaPool {
  if (o.urls.length === 0) throw new Error(`${o.service}: no replica URL given`);
  const retryAfterMs = o.retryAfterMs ?? 5_000;
  const connectTimeoutMs = o.connectTimeoutMs ?? 2_000;
  const replicas: Replica[] = o.urls.map((url) => ({ url, down: false }));
  const failsOver = replicas.length > 1;
  const agent = new Agent({ connect: { timeout: connectTimeoutMs }, keepAliveTimeout: 4_000, connections: 256 });
  let cursor = 0;
  let closed = false;

  const byUrl = (url: string) => replicas.find((r) => r.url === url);

  function scheduleProbe(r: Replica) {
    if (closed) return;
    r.probe = setTimeout(() => void probe(r), retryAfterMs);
    r.probe.unref();
  }

  async function probe(r: Replica) {
    r.probe = undefined;
    let answered = false;
    try {
      const res = await undiciFetch(new URL('/healthz', r.url), { dispatcher: agent, signal: AbortSignal.timeout(connectTimeoutMs + 1_000) });
      await res.body?.cancel();
      answered = res.ok;
    } catch {
      answered = false;
    }
    if (closed) return;
    if (!answered) return scheduleProbe(r);
    r.down = false;
    o.logger.info({ service: o.service, replica: r.url }, 'upstream replica back: it gets traffic again');
  }

  /** `path` on a live replica, on the next one when the first cannot take it. */
  async function fetchOnReplicas(path: string, init: FetchInit): Promise<Response> {
    const { idempotent = isIdempotent(init.method ?? 'GET'), ...rest } = init;
    const tried = new Set<string>();
    let last: unknown;
    for (;;) {
      const base = pool.pick(tried);
      if (!base) throw new ReplicasUnavailableError(o.service, replicas.length, last);
      tried.add(base);
      try {
        return await undiciFetch(new URL(path, base), { ...rest, dispatcher: agent });
      } catch (err) {
        if (init.signal?.aborted) throw err; // the caller's own timeout: no time left for another replica
        const kind = failureKind(err);
        if (kind === 'not-sent') pool.markDown(base, codeOf(err) ?? 'unreachable');
        const again = failsOver && (kind === 'not-sent' || (kind === 'reset' && idempotent));
        if (!again) throw err;
        last = err;
      }
    }
  }

  const pool: ReplicaPool = {
    service: o.service,
    urls: replicas.map((r) => r.url),
    retryAfterMs,
    connectTimeoutMs,
    failsOver,

    pick(tried) {
      for (let i = 0; i < replicas.length; i++) {
        const r = replicas[(cursor + i) % replicas.length]!;
        if (tried?.has(r.url) || (failsOver && r.down)) continue;
        cursor = (cursor + i + 1) % replicas.length;
        return r.url;
      }
      return undefined;
    },

    markDown(url, reason) {
      const r = byUrl(url);
      if (!failsOver || !r || r.down) return;
      r.down = true;
      const live = replicas.filter((x) => !x.down).length;
      o.logger.warn({ service: o.service, replica: url, reason, retryAfterMs, live }, 'upstream replica down: no traffic until it answers again');
      scheduleProbe(r);
    },

    isDown: (url) => byUrl(url)?.down ?? false,

    fetch(path, init = {}) {
      if (!tracingOn) return fetchOnReplicas(path, init);
      // A span per call, and its traceparent to the service: the service's own span is this one's child.
      const method = init.method ?? 'GET';
      return inSpan(`${method} ${o.service}`, { 'http.request.method': method, 'server.address': o.service }, () => {
        const headers = new Headers(init.headers);
        for (const [k, v] of Object.entries(traceHeaders())) headers.set(k, v);
        return fetchOnReplicas(path, { ...init, headers });
      }, { kind: SpanKind.CLIENT });
    },

    async getHeadersOnly(path, headers, timeoutMs) {
      const base = pool.pick();
      if (!base) throw new ReplicasUnavailableError(o.service, replicas.length, undefined);
      // A path only ('/x', never '//host/x', which a URL would read as another host).
      if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`not a path: ${path.slice(0, 100)}`);
      const answer = await undiciRequest(new URL(path, base), { dispatcher: agent, headers, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      await answer.body.dump();
      return { status: answer.statusCode, headers: answer.headers };
    },

    async close() {
      closed = true;
      for (const r of replicas) if (r.probe) clearTimeout(r.probe);
      await agent.close();
    },
  };
  return pool;
}

/** A pool from a URL list or a pool given whole (main.ts shares one per service between the proxy and the gateway's own calls). */
export function toReplicaPool(
  value: string | readonly string[] | ReplicaPool,
  service: string,
  logger: Logger,
  opts: { retryAfterMs?: number; connectTimeoutMs?: number } = {},
): ReplicaPool {
  if (typeof value === 'object' && 'pick' in value) return value;
  const urls = typeof value === 'string' ? splitReplicaList(value) : [...value];
  return createReplicaPool({ service, urls, logger, ...opts });
}
