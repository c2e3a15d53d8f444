/**
 * Issue 37, the metrics: every process of `npm start` (gateway, catalog, quotes, auth, media API with its workers)
 * serves /metrics in Prometheus's text format on a port only the inside of the network reaches, with Node's process
 * metrics and RED per route template; the public gateway does not route /metrics; a search shows up in the catalog's
 * search histogram, and cache answers in the cache counters. Real processes on their embedded adapters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@forgeline/test-support/net';
import { parsePrometheusText } from '@forgeline/test-support/prometheus-text';
import { startStack, type Stack } from '../scripts/lib/stack.ts';

const samples = parsePrometheusText;
const sum = (xs: { value: number }[]) => xs.reduce((n, x) => n + x.value, 0);

describe('metrics on every process (#37)', () => {
  const tmp = tempDir('forgeline-metrics-');
  let stack: Stack;
  const scrape = async (base: string) => {
    const res = await fetch(`${base}/metrics`);
    expect(res.status, base).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return samples(await res.text());
  };

  beforeAll(async () => {
    stack = await startStack({ dataDir: tmp.dir, port: 0, quiet: true, seedProducts: 300, env: { LOG_LEVEL: 'warn' } });
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    tmp.remove();
  });

  it('every process serves Node\'s metrics and RED by route template, in Prometheus text', async () => {
    // A request each, so every process has RED to show.
    await fetch(`${stack.url}/api/subcategories`);
    for (const [name, base] of [...Object.entries(stack.serviceUrls), ['gateway', stack.metricsUrl]] as const) {
      if (name !== 'gateway') await fetch(`${base}/healthz`);
      const s = await scrape(base);
      expect(s.some((x) => x.name === 'process_cpu_user_seconds_total'), name).toBe(true);
      expect(s.some((x) => x.name === 'nodejs_eventloop_lag_p99_seconds'), name).toBe(true);
      // Route templates, never raw URLs or query strings.
      for (const x of s.filter((x) => x.name === 'http_requests_total')) {
        expect(x.labels.route, name).not.toMatch(/\?|[0-9a-f]{8}-[0-9a-f]{4}/);
        expect(x.labels.status_class, name).toMatch(/^[1-5]xx$|^aborted$/);
      }
    }
    const gateway = await scrape(stack.metricsUrl);
    expect(gateway.find((x) => x.name === 'http_requests_total' && x.labels.service === 'gateway' && x.labels.route === '/api/subcategories')?.value).toBeGreaterThanOrEqual(1);
    const catalog = await scrape(stack.serviceUrls.catalog!);
    expect(catalog.find((x) => x.name === 'http_requests_total' && x.labels.route === '/api/subcategories')?.value).toBeGreaterThanOrEqual(1);
  });

  it('the public gateway does not serve /metrics', async () => {
    const res = await fetch(`${stack.url}/metrics`);
    const text = await res.text();
    expect(text).not.toContain('process_cpu_user_seconds_total');
    expect(text).not.toContain('# TYPE');
  });

  it('a search shows up in the search histogram and the zero-result count; a repeated read in the cache counters', async () => {
    const before = await scrape(stack.serviceUrls.catalog!);
    const count = (s: typeof before) => sum(s.filter((x) => x.name === 'catalog_search_duration_seconds_count'));
    const zero = (s: typeof before) => sum(s.filter((x) => x.name === 'catalog_searches_total' && x.labels.results === 'zero'));
    const q = `nothing-like-this-${Date.now()}`;
    expect((await fetch(`${stack.url}/api/products?search=${q}&limit=10`)).status).toBe(200);
    expect((await fetch(`${stack.url}/api/products?search=filter&limit=10&r=${Date.now()}`)).status).toBe(200);
    const after = await scrape(stack.serviceUrls.catalog!);
    expect(count(after) - count(before)).toBe(2);
    expect(zero(after) - zero(before)).toBe(1);
    // The same read twice: the second from the gateway's edge cache.
    const path = `/api/products?search=filter&limit=10&again=${Date.now()}`;
    await fetch(`${stack.url}${path}`);
    await fetch(`${stack.url}${path}`);
    const gateway = await scrape(stack.metricsUrl);
    expect(gateway.find((x) => x.name === 'cache_requests_total' && x.labels.cache === 'edge' && x.labels.result === 'hit')?.value).toBeGreaterThanOrEqual(1);
  });

  it("each service's own: the media queue's depth by state, sign-in codes asked for, the outbox's backlog", async () => {
    const media = await scrape(stack.serviceUrls.media!);
    for (const state of ['waiting', 'active', 'delayed', 'failed']) expect(media.some((x) => x.name === 'media_queue_jobs' && x.labels.state === state), state).toBe(true);
    const sent = await fetch(`${stack.url}/api/admin/auth/send-otp`, { method: 'POST', headers: { 'content-type': 'application/json', origin: stack.url }, body: JSON.stringify({ email: 'nobody@example.com' }) });
    expect(sent.status).toBeLessThan(500);
    const auth = await scrape(stack.serviceUrls.auth!);
    expect(sum(auth.filter((x) => x.name === 'auth_otp_requests_total'))).toBeGreaterThanOrEqual(1);
    expect(auth.some((x) => x.name === 'mail_outbox_pending' && x.labels.service === 'auth')).toBe(true);
    const quotes = await scrape(stack.serviceUrls.quotes!);
    expect(quotes.some((x) => x.name === 'mail_outbox_oldest_age_seconds' && x.labels.service === 'quotes')).toBe(true);
  });

  it('no label carries a query, an address or an e-mail', async () => {
    await fetch(`${stack.url}/api/products?search=${encodeURIComponent('secret buyer@example.com')}&limit=10`);
    for (const base of [...Object.values(stack.serviceUrls), stack.metricsUrl]) {
      const text = await (await fetch(`${base}/metrics`)).text();
      expect(text).not.toContain('example.com');
      expect(text).not.toContain('secret');
      expect(text).not.toMatch(/127\.0\.0\.1|::1/);
    }
  });
});
