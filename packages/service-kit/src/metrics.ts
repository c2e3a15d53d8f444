/**
 * Prometheus metrics (#37), one registry per process (prom-client's): Node's default process metrics, RED per route
 * template (requests by status class, a duration histogram), and whatever the service's domain adds with the helpers
 * below. Labels never carry a raw URL, a query or an address: a route template, a method, a status class, a service.
 * Services serve it at GET /metrics on their own port (never routed by the gateway); the gateway on METRICS_PORT.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import client from 'prom-client';

export const registry = client.register;
let defaultsOn = false;

/** Node's own metrics (CPU, memory, event loop lag, GC, handles), once per process. */
export function collectProcessMetrics(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  client.collectDefaultMetrics({ register: registry });
}

/** A metric made once per process, however many apps (tests run several) ask for it. */
function once<T extends client.Metric>(name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

export const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
  once(name, () => new client.Counter<L>({ name, help, labelNames: [...labelNames], registers: [registry] }));
export const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = [], collect?: (this: client.Gauge<L>) => void | Promise<void>) =>
  once(name, () => new client.Gauge<L>({ name, help, labelNames: [...labelNames], registers: [registry], ...(collect ? { collect } : {}) }));
export const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[] = [], buckets?: number[]) =>
  once(name, () => new client.Histogram<L>({ name, help, labelNames: [...labelNames], registers: [registry], ...(buckets ? { buckets } : {}) }));

/** Request durations: 1 ms to 10 s (a cached read, a search, a page, an upload). */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const requests = () => counter('http_requests_total', 'HTTP requests answered, by route template and status class', ['service', 'method', 'route', 'status_class']);
const durations = () => histogram('http_request_duration_seconds', 'Time to answer an HTTP request, by route template', ['service', 'method', 'route'], DURATION_BUCKETS);

/** Counts one answer made outside Express (the gateway's edge cache answers before it): its route template given. */
export function countRequest(service: string, method: string, route: string, status: number, seconds: number): void {
  requests().inc({ service, method, route, status_class: `${Math.floor(status / 100)}xx` });
  durations().observe({ service, method, route }, seconds);
}

/** What a request is counted under: its route template ("/api/products/:id"), never its URL. */
export type RouteOf = (req: IncomingMessage & { route?: { path?: unknown }; baseUrl?: string }, res: ServerResponse & { locals?: Record<string, unknown> }) => string;

export const expressRoute: RouteOf = (req, res) => {
  const given = res.locals?.routeTemplate;
  if (typeof given === 'string') return given;
  const path = req.route?.path;
  if (typeof path === 'string') return `${req.baseUrl ?? ''}${path}`;
  return 'unmatched';
};

/** RED per route template for an Express app: counted when the answer is finished (or the client went away). */
export function redMetrics(service: string, routeOf: RouteOf = expressRoute): RequestHandler {
  collectProcessMetrics();
  const count = requests();
  const time = durations();
  return (req, res, next) => {
    if (req.path === '/metrics') return next();
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const route = routeOf(req, res);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const status = res.writableFinished ? `${Math.floor(res.statusCode / 100)}xx` : 'aborted';
      count.inc({ service, method: req.method, route, status_class: status });
      time.observe({ service, method: req.method, route }, seconds);
    });
    next();
  };
}

/** GET /metrics: the registry in Prometheus's text format. */
export const metricsHandler: RequestHandler = (_req, res, next) => {
  registry.metrics().then(
    (text) => void res.set('Content-Type', registry.contentType).set('Cache-Control', 'no-store').send(text),
    next,
  );
};

/** A mail outbox's backlog as its store counts it (the mailer's OutboxBacklog). */
export interface BacklogReading {
  pending: number;
  failing: number;
  oldestAt: Date | null;
}
const backlogs = new Map<string, () => Promise<BacklogReading>>();
let reading: Promise<Map<string, BacklogReading>> | null = null;
/** One read of every outbox per scrape, however many of the three gauges ask (they ask while it is under way). */
function readBacklogs(): Promise<Map<string, BacklogReading>> {
  reading ??= Promise.all([...backlogs].map(async ([service, read]) => [service, await read()] as const))
    .then((xs) => new Map(xs))
    .finally(() => {
      reading = null;
    });
  return reading;
}

/**
 * The mail outbox of `service` in the metrics (#37): mails waiting, those that failed at least once, the oldest
 * one's age, read from its store when Prometheus scrapes; `attempt` counts each sending attempt by outcome.
 */
export function watchOutbox(service: string, read: () => Promise<BacklogReading>): { attempt: (outcome: 'sent' | 'refused' | 'unreachable') => void } {
  backlogs.set(service, read);
  const each = (name: string, help: string, value: (b: BacklogReading) => number) =>
    gauge(name, help, ['service'], async function collect() {
      const readings = await readBacklogs().catch(() => new Map<string, BacklogReading>());
      for (const [s, b] of readings) this.set({ service: s }, value(b));
    });
  each('mail_outbox_pending', 'Mails in the outbox not yet sent', (b) => b.pending);
  each('mail_outbox_failing', 'Mails in the outbox that failed at least once and wait for their retry', (b) => b.failing);
  each('mail_outbox_oldest_age_seconds', 'Age of the oldest mail not yet sent (0: none waits)', (b) => (b.oldestAt ? Math.max(0, (Date.now() - b.oldestAt.getTime()) / 1000) : 0));
  const attempts = counter('mail_send_attempts_total', 'Attempts to send an outbox mail, by outcome', ['service', 'outcome']);
  return { attempt: (outcome) => attempts.inc({ service, outcome }) };
}
