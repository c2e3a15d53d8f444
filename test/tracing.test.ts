/**
 * Issue 37, the traces: `npm start`'s processes with OTEL_EXPORTER_OTLP_ENDPOINT set export their spans over OTLP/HTTP
 * to a receiver in this test. One trace per request across gateway → service → storage and search, W3C traceparent
 * taken from the caller and passed on, the request id as an attribute, the trace id in the log lines; a media job's
 * trace linked to the upload that queued it; no query text or e-mail in any span. Real processes, embedded adapters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { eventually } from '@forgeline/test-support/eventually';
import { tempDir } from '@forgeline/test-support/net';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@forgeline/test-support/otlp-receiver';
import { startStack, type Stack } from '../scripts/lib/stack.ts';
import { signIn } from './harness.ts';

const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;

/**
 * A stack of `npm start`'s processes exporting to a receiver of this test's, its log lines kept; `env` adds to the
 * tracing variables (a sampler). Stopped, with its receiver and folder, after the block.
 */
function tracedStack(prefix: string, seedProducts: number, env: Record<string, string> = {}) {
  const tmp = tempDir(prefix);
  const logs: string[] = [];
  const made = {} as { receiver: OtlpReceiver; stack: Stack; logs: string[]; dir: string };
  beforeAll(async () => {
    made.receiver = await startOtlpReceiver();
    made.stack = await startStack({
      dataDir: tmp.dir,
      port: 0,
      seedProducts,
      log: (line) => logs.push(line),
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: made.receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '100', LOG_LEVEL: 'info', ...env },
    });
  }, 180_000);
  afterAll(async () => {
    await made.stack?.stop();
    await made.receiver?.close();
    tmp.remove();
  });
  return Object.assign(made, { logs, dir: tmp.dir });
}

describe('traces over OTLP (#37)', () => {
  const traced = tracedStack('forgeline-tracing-', 300);
  const { logs } = traced;
  const inTrace = (traceId: string) => traced.receiver.spans.filter((s) => s.traceId === traceId);
  /** The span of `service` that answered the request with this id (its server span), once it is exported. */
  const serverSpan = (service: string, requestId: string) =>
    eventually(`${service}'s span of request ${requestId}`, () =>
      traced.receiver.spans.find((s) => s.service === service && s.kind === SERVER && s.attributes['forgeline.request_id'] === requestId),
    );


  it('one search is one trace: the gateway, then the catalog under it, then its search engine; the trace id in both logs', async () => {
    const requestId = 'trace-search-1';
    const word = 'hydraulic';
    const res = await fetch(`${traced.stack.url}/api/products?search=${word}&limit=5`, { headers: { 'x-request-id': requestId, 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);

    const gateway = await serverSpan('gateway', requestId);
    const catalog = await serverSpan('catalog', requestId);
    expect(catalog.traceId).toBe(gateway.traceId);
    expect(catalog.parentSpanId).toBe(gateway.spanId); // the gateway's traceparent, passed on by its proxy
    expect(catalog).toMatchObject({ name: 'GET /api/products', attributes: { 'http.route': '/api/products', 'http.response.status_code': 200 } });
    expect(gateway.attributes['http.response.status_code']).toBe(200);
    // The catalog's search reached its engine inside the catalog's span (a child span per call of the engine's port).
    const engine = await eventually('the search engine span', () => inTrace(gateway.traceId).find((s) => s.service === 'catalog' && s.name.startsWith('search.embedded.')));
    const ancestors = (span: ReceivedSpan): string[] => {
      const parent = inTrace(span.traceId).find((s) => s.spanId === span.parentSpanId);
      return parent ? [parent.spanId, ...ancestors(parent)] : [];
    };
    expect(ancestors(engine)).toContain(catalog.spanId);
    // The query's text is nowhere in a span (labels and attributes carry templates and ids only).
    expect(JSON.stringify(inTrace(gateway.traceId))).not.toContain(word);

    // Every line logged about the request names its trace: the request logs of both processes.
    await eventually('both request logs with the trace id', () =>
      ['[gateway', '[catalog'].every((p) => logs.some((l) => l.startsWith(p) && l.includes('/api/products?search=') && l.includes(`trace_id=${gateway.traceId}`))) || undefined,
    );
  });

  it("continues the caller's trace from its traceparent", async () => {
    const traceId = 'a'.repeat(30) + '42';
    const parent = 'b'.repeat(14) + '07';
    const res = await fetch(`${traced.stack.url}/api/subcategories`, { headers: { traceparent: `00-${traceId}-${parent}-01`, 'x-request-id': 'trace-caller-1' } });
    expect(res.status).toBe(200);
    const gateway = await serverSpan('gateway', 'trace-caller-1');
    expect(gateway).toMatchObject({ traceId, parentSpanId: parent });
    // A malformed traceparent starts a trace of its own rather than failing the request.
    const bad = await fetch(`${traced.stack.url}/api/subcategories`, { headers: { traceparent: '00-zz-not-a-trace-01', 'x-request-id': 'trace-caller-2' } });
    expect(bad.status).toBe(200);
    const fresh = await serverSpan('gateway', 'trace-caller-2');
    expect(fresh.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh.parentSpanId).toBe('');
    // That second answer came from the gateway's edge cache, which answers before the app: a span all the same.
    expect(bad.headers.get('x-edge-cache')).toBe('HIT');
    expect(fresh.name).toBe('GET edge-cache');
  });

  it('links a media job to the upload that queued it, and the job reaches the catalog in its own trace', async () => {
    const token = await signIn(traced.stack.url, traced.dir);
    const list = (await (await fetch(`${traced.stack.url}/api/catalog/products?limit=1&offset=7`)).json()) as { products: { id: string }[] };
    const product = list.products[0]!;
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 20, g: 90, b: 200 } } }).png().toBuffer();
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'part.png');
    const up = await fetch(`${traced.stack.url}/api/admin/products/${product.id}/upload-image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'trace-upload-1' },
      body: form,
    });
    expect([200, 202]).toContain(up.status);

    const upload = await serverSpan('gateway', 'trace-upload-1');
    const queued = await eventually('the producer span of the upload', () => inTrace(upload.traceId).find((s) => s.kind === PRODUCER));
    expect(queued).toMatchObject({ service: 'media-all', name: 'media.queue add process-sku' });
    const job = await eventually('the job span linked to the upload', () =>
      traced.receiver.spans.find((s) => s.kind === CONSUMER && s.links.some((l) => l.spanId === queued.spanId && l.traceId === upload.traceId)),
    );
    expect(job.name).toBe('media.job process-sku');
    expect(job.traceId).not.toBe(upload.traceId);
    expect(job.attributes['forgeline.job.attempt']).toBe(1);
    // The job's call to the catalog (its images) is in the job's trace, on both sides.
    await eventually("the catalog's span of the job's call", () =>
      inTrace(job.traceId).find((s) => s.service === 'catalog' && s.kind === SERVER && String(s.attributes['http.route']).includes('/images')),
    );
    expect(traced.receiver.refused).toEqual([]);
  });
});

/**
 * Sampling as compose and k8s ship it (one request in ten; here none, so each draw is known): the gateway draws for
 * the public and does not obey a visitor's "sampled" flag, the services behind it follow their caller's choice, and a
 * request not drawn records nothing in any process (its ports' calls neither), while its trace id is still passed on.
 */
describe('traces sampled at the edge (#37)', () => {
  const traced = tracedStack('forgeline-sampling-', 50, { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });
  const { logs } = traced;

  it("records what the edge draws, not what a visitor's traceparent asks; a service follows the gateway's choice", async () => {
    const visitorTrace = 'c'.repeat(30) + '01';
    const viaGateway = await fetch(`${traced.stack.url}/api/products?search=filter&limit=3&r=sampling-1`, {
      headers: { traceparent: `00-${visitorTrace}-${'d'.repeat(16)}-01`, 'x-request-id': 'sampling-visitor' },
    });
    expect(viaGateway.status).toBe(200);
    // Not recorded, but the trace goes on: the catalog's request log names the visitor's trace id.
    await eventually("the catalog's log line of the visitor's search", () =>
      logs.some((l) => l.startsWith('[catalog') && l.includes('r=sampling-1') && l.includes(`trace_id=${visitorTrace}`)) || undefined,
    );

    // A caller inside (as the gateway is to the catalog) that records its request: the catalog records its part too.
    const insideTrace = 'e'.repeat(30) + '02';
    const direct = await fetch(`${traced.stack.serviceUrls.catalog}/api/products?search=filter&limit=3&r=sampling-2`, {
      headers: { traceparent: `00-${insideTrace}-${'f'.repeat(16)}-01`, 'x-request-id': 'sampling-inside' },
    });
    expect(direct.status).toBe(200);
    const recorded = await eventually("the catalog's span of the sampled call", () =>
      traced.receiver.spans.find((s) => s.service === 'catalog' && s.kind === SERVER && s.traceId === insideTrace),
    );
    await eventually('its search engine span', () => traced.receiver.spans.find((s) => s.traceId === insideTrace && s.name.startsWith('search.embedded.')));
    expect(recorded.parentSpanId).toBe('f'.repeat(16));
    // The catalog exports its spans in the order they end: the visitor's search ended first, so had any of its spans
    // (the gateway's draw passed on as "not sampled") been recorded, it would be here by now.
    expect(traced.receiver.spans.filter((s) => s.traceId === visitorTrace)).toEqual([]);
    expect(traced.receiver.spans.filter((s) => s.service === 'gateway')).toEqual([]);
  });
});
