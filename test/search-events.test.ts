/**
 * POST /api/search/events (#36), answered by the gateway (gateway/src/search-events.ts) in front of a real catalog on
 * its embedded adapters: a good batch is taken (202) and reaches the catalog's counts; a bad one is a 400 naming the
 * field and takes nothing; a body over 16 kB is a 413 saying the limit; a full buffer answers 202 with what it dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@forgeline/service-kit/logger';
import { serve } from '@forgeline/service-kit/serve';
import { createGatewayApp } from '../gateway/src/app.ts';
import { createSearchEventRelay } from '../gateway/src/search-events.ts';
import { SERVICE_TOKEN, startCatalog, type CatalogUnderTest } from '../services/catalog/test/harness.ts';

const logger = createLogger('search-events-test', 'silent');

describe('search events through the gateway', () => {
  let catalog: CatalogUnderTest;
  let relay: ReturnType<typeof createSearchEventRelay>;
  let full: ReturnType<typeof createSearchEventRelay>;
  let url = '';
  let fullUrl = '';
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    catalog = await startCatalog();
    const gatewayWith = async (r: ReturnType<typeof createSearchEventRelay>) => {
      const app = createGatewayApp({ logger, searchEvents: r, services: { catalog: catalog.url, quotes: catalog.url, auth: catalog.url, media: catalog.url }, upstreamTimeoutMs: 2_000, uploadTimeoutMs: 2_000, webDistDir: '' });
      const served = await serve(app, { port: 0, logger, handleSignals: false });
      closers.push(() => served.close());
      return `http://127.0.0.1:${served.port}`;
    };
    relay = createSearchEventRelay({ catalogUrl: catalog.url, serviceToken: SERVICE_TOKEN, logger, flushMs: 60_000 });
    full = createSearchEventRelay({ catalogUrl: catalog.url, serviceToken: SERVICE_TOKEN, logger, flushMs: 60_000, maxPending: 2 });
    url = await gatewayWith(relay);
    fullUrl = await gatewayWith(full);
  }, 60_000);
  afterAll(async () => {
    for (const close of closers) await close();
    await relay?.close();
    await full?.close();
    await catalog?.stop();
  });

  const post = (base: string, body: unknown) => fetch(`${base}/api/search/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const visitor = 'gateway-test-visitor-0001';

  it('takes a page\'s batch and hands it to the catalog, which counts it', async () => {
    const res = await post(url, { visitor, events: [{ type: 'search', query: 'Relay-Test 77', hits: 0, page: 'search' }] });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: 1, dropped: 0 });
    await relay.flush();
    await (catalog.app.locals.searchInsights as { buffer: { flush(): Promise<void> } }).buffer.flush();
    const report = (await catalog.call('/api/admin/search/insights?days=1')).body as { zeroResults: { query: string; searches: number }[] };
    expect(report.zeroResults.find((q) => q.query === 'relay test 77')?.searches).toBe(1);
  });

  it('refuses a bad batch with a 400 naming the field, and a body over 16 kB with a 413 saying the limit', async () => {
    for (const [body, field] of [
      [{ visitor: 'x', events: [{ type: 'quote_request' }] }, 'visitor'],
      [{ visitor, events: [{ type: 'search', query: 'q', hits: 1, page: 'nowhere' }] }, 'events.0.page'],
      [{ visitor, events: [] }, 'events'],
      ['{"visitor":', 'body'],
    ] as const) {
      const res = await post(url, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.text()).toContain(field);
    }
    const big = await post(url, { visitor, events: [{ type: 'search', query: 'q'.repeat(17_000), hits: 1, page: 'search' }] });
    expect(big.status).toBe(413);
    expect(await big.text()).toMatch(/at most 16 kB/);
  });

  it('a full buffer drops what comes and says so, without an error', async () => {
    const events = [{ type: 'quote_request' }, { type: 'quote_request' }];
    expect(await (await post(fullUrl, { visitor, events })).json()).toEqual({ accepted: 2, dropped: 0 });
    const over = await post(fullUrl, { visitor, events });
    expect(over.status).toBe(202);
    expect(await over.json()).toEqual({ accepted: 0, dropped: 2 });
    expect(full.dropped).toBe(2);
  });
});
