import http from 'node:http';
const srv = http.createServer((q, r) => { q.resume(); q.on('end', () => r.end('{}')); });
await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
const mode = process.argv[2];
if (mode !== 'off') process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(srv.address() as any).port}`;
const t = await import('../packages/service-kit/src/tracing.ts');
t.startTracing('micro');
const { context, trace, SpanKind } = await import('@opentelemetry/api');
// A request's async shape: ~30 awaits, two port calls.
async function work() { let x = 0; for (let i = 0; i < 300; i++) { x += await Promise.resolve(i); } return x; }
const port = t.traced({ async getSummaries() { return work(); }, search() { let s = 0; for (let i = 0; i < 200; i++) s += i; return s; } }, 'catalog.store');
async function request() {
  if (!t.tracingOn) { port.search(); return port.getSummaries(); }
  const span = trace.getTracer('x').startSpan('GET /api/products', { kind: SpanKind.SERVER, attributes: { a: 'b' } });
  await context.with(trace.setSpan(context.active(), span), async () => { port.search(); await port.getSummaries(); });
  span.end();
}
const N = 30_000;
for (let round = 0; round < 3; round++) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await request();
  await new Promise((r) => setTimeout(r, 1200)); // let the batch go out
  const c = process.cpuUsage(c0);
  console.log(mode, ((c.user + c.system) / N).toFixed(2), 'µs CPU per request');
}
await t.stopTracing();
srv.close();
