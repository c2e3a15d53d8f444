/**
 * Traces (#37): one trace per request across gateway → service → storage, search and queue, with W3C `traceparent`
 * carried on every call between the processes. On only when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: spans go there over OTLP/HTTP in batches. Unset, nothing here does any
 * work: `tracingOn` is false, the middleware is not mounted, ports are not wrapped, and the API's tracer (no provider
 * registered) hands out spans that record nothing.
 *
 * No buyer or staff data goes into a span: names are route templates and method names, attributes are ids the system
 * made (request id, job id), counts and outcomes; never a URL's query, an e-mail or a search's text.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type TextMapGetter,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import type { RequestHandler } from 'express';
import { expressRoute } from './metrics.ts';

export { SpanKind };
export type { Span };

/** Read once: whether this process exports traces at all. */
export const tracingOn = Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);

const TRACER = 'forgeline';
let provider: TracerProvider | undefined;
/** The SDK's tracer once started (asked of the API's global provider on every span, it is a lookup by name each time). */
let sdkTracer: Tracer | undefined;
const tracer = (): Tracer => sdkTracer ?? trace.getTracer(TRACER);

/**
 * Registers the SDK for this process, named `service` (the resource's service.name; OTEL_SERVICE_NAME wins, as the
 * SDKs do). Called by runMain before the service's main; does nothing when tracing is off or was started already.
 */
export function startTracing(service: string, opts: { publicEdge?: boolean } = {}): void {
  if (!tracingOn || provider) return;
  for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']) {
    const value = process.env[name];
    // "otel-collector:4318" parses as a URL of scheme otel-collector: only http(s) is an OTLP/HTTP endpoint.
    const protocol = value && URL.canParse(value) ? new URL(value).protocol : undefined;
    if (value && protocol !== 'http:' && protocol !== 'https:') {
      throw new Error(`${name} must be an http(s) URL such as http://otel-collector:4318, got "${value.slice(0, 100)}"`);
    }
  }
  provider = new TracerProvider({
    sampler: samplerFromEnv(opts.publicEdge ?? false),
    resource: resourceFromAttributes({
      'service.name': process.env.OTEL_SERVICE_NAME || service,
      'service.namespace': 'forgeline',
      'service.instance.id': `${process.env.HOSTNAME ?? 'local'}:${process.pid}`,
    }),
    // The exporter reads the endpoint, headers and timeout from the OTEL_EXPORTER_OTLP_* variables itself.
    // The OTEL_BSP_* variables as the spec names them (this SDK version reads none for the processor), with smaller
    // defaults than the spec's 5 s and 512: spans held that long outlive two young-generation collections (one every
    // ~90 ms in a catalog under load) and are promoted, and in a catalog whose heap holds a 500,000-part index the old
    // generation's collections are the costly ones, their pauses what a p95 feels. A batch waits at most 50 ms: when
    // one request in ten is recorded, 64 spans take longer than that to gather. What tracing costs: docs/performance.md.
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        scheduledDelayMillis: Number(process.env.OTEL_BSP_SCHEDULE_DELAY) || 50,
        maxExportBatchSize: Number(process.env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE) || 64,
        maxQueueSize: Number(process.env.OTEL_BSP_MAX_QUEUE_SIZE) || 2_048,
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  sdkTracer = provider.getTracer(TRACER);
}

/**
 * OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG as the specification names them (this SDK version does not read
 * them itself): default parentbased_always_on, every request traced; parentbased_traceidratio with a ratio (0.1, as
 * compose and the k8s manifests ship) traces that share of the requests, and a service follows its caller's choice.
 * At the public edge (the gateway) the caller is anyone: its traceparent's trace id is continued, but whether the
 * request is recorded is the edge's own draw, or a visitor could have every request recorded at the system's cost.
 */
function samplerFromEnv(publicEdge: boolean): Sampler {
  const name = process.env.OTEL_TRACES_SAMPLER || 'parentbased_always_on';
  const arg = process.env.OTEL_TRACES_SAMPLER_ARG;
  const ratio = arg === undefined || arg === '' ? 1 : Number(arg);
  if (!(ratio >= 0 && ratio <= 1)) throw new Error(`OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1, got "${arg}"`);
  const roots: Record<string, () => Sampler> = {
    always_on: () => new AlwaysOnSampler(),
    always_off: () => new AlwaysOffSampler(),
    traceidratio: () => new TraceIdRatioBasedSampler(ratio),
  };
  const root = roots[name.replace(/^parentbased_/, '')];
  if (!root) throw new Error(`OTEL_TRACES_SAMPLER must be one of ${Object.keys(roots).flatMap((r) => [r, `parentbased_${r}`]).join(', ')}; got "${name}"`);
  if (!name.startsWith('parentbased_')) return root();
  return publicEdge ? new ParentBasedSampler({ root: root(), remoteParentSampled: root(), remoteParentNotSampled: root() }) : new ParentBasedSampler({ root: root() });
}

/** Sends what is buffered and stops (at shutdown; spans still open are lost, as with any SDK). */
export async function stopTracing(): Promise<void> {
  const p = provider;
  provider = undefined;
  sdkTracer = undefined;
  await p?.shutdown().catch(() => undefined);
}

/** The active span's ids, for a log line: undefined when tracing is off or nothing is traced here. */
export function activeTraceIds(ctx: Context = context.active()): { traceId: string; spanId: string } | undefined {
  const span = trace.getSpanContext(ctx);
  return span && trace.isSpanContextValid(span) ? { traceId: span.traceId, spanId: span.spanId } : undefined;
}

/** `traceparent` (and `tracestate`) for a call out of this process, from the active span: {} when there is none. */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  if (!tracingOn) return {};
  const headers: Record<string, string> = {};
  propagation.inject(ctx, headers);
  return headers;
}

/** The context a carrier of W3C headers (a request's, a job's) names as its parent. */
export function contextFrom(carrier: Record<string, unknown>): Context {
  return propagation.extract(ROOT_CONTEXT, carrier, headerGetter);
}

/** Made once: an object literal of functions made per call is a closure each (and tsx names each: keepNames). */
const headerGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (c) => Object.keys(c),
  get: (c, key) => {
    const v = c[key];
    return typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
  },
};

export interface SpanOptions {
  kind?: SpanKind;
  /** Spans of other traces this one follows from (a job's run from the upload that queued it). */
  links?: Link[];
  /** A trace of its own rather than a child of the active span. */
  root?: boolean;
}

/** A link to the span a `traceparent` names (none when it names none). */
export function linkTo(traceparent: string | undefined): Link[] {
  const span = traceparent ? trace.getSpanContext(contextFrom({ traceparent })) : undefined;
  return span && trace.isSpanContextValid(span) ? [{ context: span }] : [];
}

/**
 * Runs `fn` in a span named `name` (a child of the active one), ended when `fn` settles; a throw marks it an error.
 * With tracing off it is `fn()` and nothing else.
 */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span?: Span) => T, opts: SpanOptions = {}): T {
  if (!tracingOn) return fn();
  const parent = opts.root ? ROOT_CONTEXT : context.active();
  const span = tracer().startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, attributes, links: opts.links }, parent);
  let result: T;
  try {
    result = context.with(trace.setSpan(parent, span), fn, undefined, span);
  } catch (err) {
    endFailed(span, err);
    throw err;
  }
  return endWhenSettled(span, result);
}

/** Ends `span` when `result` settles (at once when it is no promise); a rejection or throw marks it an error. */
function endWhenSettled<T>(span: Span, result: T): T {
  if (result && typeof (result as { then?: unknown }).then === 'function') {
    return (result as unknown as Promise<unknown>).then(
      (value) => {
        span.end();
        return value;
      },
      (err: unknown) => {
        endFailed(span, err);
        throw err;
      },
    ) as T;
  }
  span.end();
  return result;
}

/** Module-level, not a closure per call: every call's closure cost a definition (and tsx a __name) in a hot path. */
function endFailed(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : undefined });
  span.end();
}

/**
 * A port (a store, a search index, a client) whose every method call is a span `${prefix}.${method}`: how a request's
 * trace reaches its storage without each adapter knowing. The same object, untouched, when tracing is off. Methods run
 * on the object itself (not the proxy), so private fields keep working.
 */
export function traced<T extends object>(port: T, prefix: string, kind: SpanKind = SpanKind.CLIENT): T {
  if (!tracingOn) return port;
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(port, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function' || typeof key === 'symbol' || key === 'constructor') return value;
      let fn = wrapped.get(key);
      if (!fn) {
        const method = value as (...args: unknown[]) => unknown;
        const name = `${prefix}.${key}`;
        fn = (...args: unknown[]) => {
          const parent = context.active();
          // Only inside a request or job being recorded: a port's calls from timers and start-up make no root spans of
          // their own, and under a span not sampled a child would be dropped anyway (the sampler follows the parent).
          if (!trace.getSpan(parent)?.isRecording()) return method.apply(target, args);
          return leafSpan(name, kind, parent, method, target, args);
        };
        wrapped.set(key, fn);
      }
      return fn;
    },
  });
}

/**
 * A port's call as a span of `parent`, without making it the active context: a port's method makes no spans of its
 * own (it is where a trace ends), so entering a context for it would cost every call and tell nothing more.
 */
function leafSpan(name: string, kind: SpanKind, parent: Context, method: (...args: unknown[]) => unknown, target: object, args: unknown[]): unknown {
  const span = tracer().startSpan(name, { kind }, parent);
  let result: unknown;
  try {
    result = method.apply(target, args);
  } catch (err) {
    endFailed(span, err);
    throw err;
  }
  return endWhenSettled(span, result);
}

type RoutedRequest = IncomingMessage & { id?: string; route?: { path?: unknown }; baseUrl?: string };

const traceOf = Symbol('traceIds');
const contextOf = Symbol('traceContext');

/** The trace and span ids of the request's server span, for its log lines (the request log, req.log). */
export function requestTraceIds(req: object): { traceId: string; spanId: string } | undefined {
  return (req as { [traceOf]?: { traceId: string; spanId: string } })[traceOf];
}

/** The context of the request's server span (the active one may be another's by the time an event fires). */
export function requestTraceContext(req: object): Context {
  return (req as { [contextOf]?: Context })[contextOf] ?? context.active();
}

/**
 * A server span per request, a child of the caller's `traceparent` (the gateway's span, or a browser's), named by
 * the route template once the router has matched (`GET /api/products/:id`), with the request id as an attribute.
 * Mounted by createServiceApp only when tracing is on.
 */
export function traceRequests(service: string): RequestHandler {
  return (req, res, next) => {
    if (req.path === '/metrics' || req.path === '/healthz' || req.path === '/readyz') return next();
    const r = req as unknown as RoutedRequest;
    const parent = contextFrom(req.headers);
    const span = tracer().startSpan(`${req.method} request`, { kind: SpanKind.SERVER }, parent);
    const ids = span.spanContext();
    (req as { [traceOf]?: unknown })[traceOf] = { traceId: ids.traceId, spanId: ids.spanId };
    // A request not drawn for recording (nine in ten as shipped) still carries its trace id on, but pays for nothing
    // more: no attributes to check, no listener to name and end a span that records nothing.
    if (span.isRecording()) traceResponse(span, service, r, res);
    const ctx = trace.setSpan(parent, span);
    (req as { [contextOf]?: Context })[contextOf] = ctx;
    context.with(ctx, next);
  };
}

/** The recorded server span's attributes, and its name and end when the answer is finished. */
function traceResponse(span: Span, service: string, r: RoutedRequest, res: ServerResponse): void {
  span.setAttributes({ 'http.request.method': r.method ?? 'GET', 'forgeline.service': service, 'forgeline.request_id': r.id ?? '' });
  res.once('close', () => {
    const route = expressRoute(r, res);
    span.updateName(`${r.method} ${route}`);
    span.setAttribute('http.route', route);
    span.setAttribute('http.response.status_code', res.statusCode);
    if (!res.writableFinished) span.setAttribute('forgeline.aborted', true);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}

/**
 * A request answered outside Express (the gateway's edge cache): a server span of its own, started and ended at once,
 * a child of the caller's traceparent. Its ids for the log line; undefined when tracing is off.
 */
export function answeredSpan(
  req: IncomingMessage,
  route: string,
  attributes: Attributes,
): { trace_id: string; span_id: string } | undefined {
  if (!tracingOn) return undefined;
  const span = tracer().startSpan(`${req.method} ${route}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? 'GET', 'http.route': route, ...attributes } }, contextFrom(req.headers));
  span.end();
  const ids = span.spanContext();
  return { trace_id: ids.traceId, span_id: ids.spanId };
}
