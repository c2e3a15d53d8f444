/**
 * HTTP load for the bench scripts: autocannon with a path per request, every latency kept (for exact
 * percentiles), and the non-200 answers counted. Not a benchmark itself (run.ts runs *.bench.ts only).
 */
// @ts-expect-error -- autocannon ships no type declarations (and @types/autocannon is not installed)
import autocannonUntyped from 'autocannon';
// @ts-expect-error -- as above
import PipelinedRequestsQueue from 'autocannon/lib/pipelinedRequestsQueue.js';
import { percentile } from './stats.ts';

interface AutocannonRequest {
  path?: string;
  [key: string]: unknown;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  timeout?: number;
  overallRate?: number;
  headers?: Record<string, string>;
  requests: Array<{ setupRequest: (req: AutocannonRequest) => AutocannonRequest; onResponse: (status: number) => void }>;
}) => Promise<{ requests: { total: number; average: number }; errors: number; timeouts: number }> & {
  on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  on(event: 'reqError', fn: (err: Error) => void): void;
  stop(): void;
};
const autocannon = autocannonUntyped as Autocannon;

/*
 * autocannon 9 keeps every response body as a UTF-8 string (`body += chunk`; mcollina/autocannon#362, open). Decoding
 * a binary body that way is slow: a 35 kB gzip answer cost the load generator 0.4 ms, so every gzip read measured the
 * generator, not the service (a bare Node server answering 35 kB: 23,500 req/s with a text body, 2,480 with random
 * bytes; the generator at 100 % CPU while the catalog idled at 30 %). These benchmarks never read a body (status and
 * latency only; the byte count is kept apart): drop them.
 */
(PipelinedRequestsQueue as { prototype: { addBody: (data: Buffer) => void } }).prototype.addBody = () => undefined;

export interface LoadResult {
  /** Requests answered. */
  requests: number;
  /** autocannon's average requests per second. */
  rps: number;
  /** Every response's latency in ms, ascending. */
  latencies: number[];
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** "404: 3, errors/timeouts: 1", or 'none' when every answer was a 200. */
  bad: string;
}

/** `connections` clients for `seconds`, each request asking for `nextPath()` on `url`. */
export async function runLoad(opts: {
  url: string;
  connections: number;
  seconds: number;
  nextPath: () => string;
  /** Sent with every request (an admin's Authorization). */
  headers?: Record<string, string>;
  /** Each answer as it comes: its status (null for a socket error or timeout) and latency (a timeline for failover). */
  onResult?: (status: number | null, ms: number | null) => void;
  /** Ends the load early (before `seconds`) when aborted. */
  signal?: AbortSignal;
  /** A request unanswered after this many seconds counts as a timeout (autocannon's default: 10). */
  timeoutSeconds?: number;
  /** At most this many requests per second over all connections (default: as fast as answered). */
  overallRate?: number;
  /** Another method than GET, with a body made per request (its content type in `headers`). */
  method?: string;
  nextBody?: () => string;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const instance = autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.seconds,
    ...(opts.timeoutSeconds ? { timeout: opts.timeoutSeconds } : {}),
    ...(opts.overallRate ? { overallRate: opts.overallRate } : {}),
    headers: opts.headers,
    requests: [
      {
        setupRequest: (req) => ({ ...req, path: opts.nextPath(), ...(opts.method ? { method: opts.method } : {}), ...(opts.nextBody ? { body: opts.nextBody() } : {}) }),
        onResponse: (status) => void statuses.set(status, (statuses.get(status) ?? 0) + 1),
      },
    ],
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    latencies.push(ms);
    opts.onResult?.(status, ms);
  });
  if (opts.onResult) instance.on('reqError', () => opts.onResult!(null, null));
  opts.signal?.addEventListener('abort', () => instance.stop(), { once: true });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  const bad = [...statuses.entries()].filter(([s]) => s !== 200).map(([s, n]) => `${s}: ${n}`);
  if (result.errors + result.timeouts) bad.push(`errors/timeouts: ${result.errors + result.timeouts}`);
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    latencies,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? NaN,
    bad: bad.join(', ') || 'none',
  };
}
