import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, finishApp } from '@forgeline/service-kit/http';
import { createLogger } from '@forgeline/service-kit/logger';
import { createResponseCache } from '@forgeline/service-kit/response-cache';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { freePort } from '@forgeline/test-support/net';
import { createGatewayApp, withEdgeCache } from './app.ts';
import { createEdgeCache } from './edge-cache.ts';

const logger = createLogger('edge-cache-test', 'silent');

describe('the gateway edge cache, in front of a real service', () => {
  const served: Served[] = [];
  let gatewayUrl = '';
  /** How many requests reached the service. */
  let upstreamHits = 0;
  const edge = createEdgeCache({ maxBytes: 4 * 1024 * 1024, logger });

  beforeAll(async () => {
    // The service's shareable answers live 1 s in a shared cache (the catalog uses a few seconds).
    const responses = createResponseCache({ maxBytes: 0, ttlMs: 1, sharedMaxAgeSeconds: 1 });
    const app = createServiceApp({ name: 'catalog', logger });
    app.use((_req, _res, next) => {
      upstreamHits++;
      next();
    });
    app.get('/api/products', responses.json(async (req) => ({ hit: upstreamHits, search: req.query.search ?? null, padding: 'part '.repeat(400) })));
    app.get('/api/brands/private', (_req, res) => void res.json({ hit: upstreamHits })); // no Cache-Control: never kept
    app.get('/api/testimonials', (_req, res) => void res.set({ 'Cache-Control': 'public, s-maxage=60', Vary: 'Cookie' }).json({ hit: upstreamHits }));
    app.get('/api/subcategories', (_req, res) => void res.status(404).set('Cache-Control', 'public, s-maxage=60').json({ message: 'none' }));
    app.post('/api/admin/products/:id/touch', (_req, res) => void res.json({ ok: true }));
    app.post('/api/admin/products/:id/refuse', (_req, res) => void res.status(400).json({ message: 'no' }));
    app.post('/api/parts/match', (_req, res) => void res.json({ lines: [] }));
    const catalog = await serve(finishApp(app, logger), { port: 0, logger, handleSignals: false });
    served.push(catalog);
    const down = `http://127.0.0.1:${await freePort()}`;
    const gatewayApp = createGatewayApp({
      logger,
      edgeCache: edge,
      services: { catalog: `http://127.0.0.1:${catalog.port}`, quotes: down, auth: down, media: down },
      upstreamTimeoutMs: 2000,
      uploadTimeoutMs: 2000,
      webDistDir: '',
    });
    const gw = await serve(withEdgeCache(gatewayApp, edge), { port: 0, logger, handleSignals: false });
    served.push(gw);
    gatewayUrl = `http://127.0.0.1:${gw.port}`;
  });
  afterAll(() => Promise.all(served.map((s) => s.close())));

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${gatewayUrl}${path}`, { headers });

  it('answers a repeated public read itself, for the time the service allows', async () => {
    edge.clear();
    const first = await get('/api/products?search=pump');
    const firstBody = (await first.json()) as { hit: number };
    const before = upstreamHits;
    const second = await get('/api/products?search=pump', { 'x-request-id': 'trace-7' });
    expect(second.headers.get('x-edge-cache')).toBe('HIT');
    expect(second.headers.get('x-request-id')).toBe('trace-7');
    expect(second.headers.get('content-encoding')).toBe('gzip'); // the service's gzip copy, kept as it was
    expect(((await second.json()) as { hit: number }).hit).toBe(firstBody.hit);
    expect(upstreamHits).toBe(before);

    // A different query, or a different encoding, is a different answer.
    const other = await get('/api/products?search=valve');
    expect(other.headers.get('x-edge-cache')).toBeNull();
    expect(((await other.json()) as { search: string }).search).toBe('valve');

    // A browser revalidating with the kept ETag: 304 from the cache. (Not fetch: it adds no-cache to conditional requests.)
    const etag = second.headers.get('etag')!;
    const revalidated = await new Promise<{ status?: number; cache?: string | string[] }>((resolve, reject) =>
      request(`${gatewayUrl}/api/products?search=pump`, { headers: { 'if-none-match': etag, 'accept-encoding': 'gzip, deflate' } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode, cache: res.headers['x-edge-cache'] });
      })
        .on('error', reject)
        .end(),
    );
    expect(revalidated).toEqual({ status: 304, cache: 'HIT' });

    // After s-maxage (1 s) the service is asked again.
    await new Promise((r) => setTimeout(r, 1100));
    const later = await get('/api/products?search=pump');
    expect(later.headers.get('x-edge-cache')).toBeNull();
    expect(((await later.json()) as { hit: number }).hit).toBeGreaterThan(firstBody.hit);
  });

  it('empties itself after an admin\'s successful change to the catalogue, not after a refused one or a public POST', async () => {
    edge.clear();
    await (await get('/api/products?search=seal')).arrayBuffer();
    expect((await get('/api/products?search=seal')).headers.get('x-edge-cache')).toBe('HIT');
    expect((await fetch(`${gatewayUrl}/api/admin/products/p1/refuse`, { method: 'POST' })).status).toBe(400);
    expect((await get('/api/products?search=seal')).headers.get('x-edge-cache')).toBe('HIT');
    // Anyone may match a parts list: it reads, and must not let a visitor empty the cache.
    expect((await fetch(`${gatewayUrl}/api/parts/match`, { method: 'POST' })).status).toBe(200);
    expect((await get('/api/products?search=seal')).headers.get('x-edge-cache')).toBe('HIT');
    expect((await fetch(`${gatewayUrl}/api/admin/products/p1/touch`, { method: 'POST' })).status).toBe(200);
    expect((await get('/api/products?search=seal')).headers.get('x-edge-cache')).toBeNull();
  });

  it('passes through what must be fresh or was not marked shareable', async () => {
    edge.clear();
    await (await get('/api/products?search=hose')).arrayBuffer();
    // The client asks for a fresh answer; a signed-in admin always gets one.
    expect((await get('/api/products?search=hose', { 'cache-control': 'no-cache' })).headers.get('x-edge-cache')).toBeNull();
    expect((await get('/api/products?search=hose', { authorization: 'Bearer x' })).headers.get('x-edge-cache')).toBeNull();
    for (const path of ['/api/brands/private', '/api/testimonials', '/api/subcategories']) {
      await (await get(path)).arrayBuffer();
      const again = await get(path);
      expect(again.headers.get('x-edge-cache'), path).toBeNull();
    }
    expect(edge.stats.entries).toBe(1);
  });

  it('turned off (0 MB), it keeps nothing', async () => {
    const off = createEdgeCache({ maxBytes: 0, logger });
    const app = createGatewayApp({
      logger,
      edgeCache: off,
      services: { catalog: `http://127.0.0.1:${served[0]!.port}`, quotes: gatewayUrl, auth: gatewayUrl, media: gatewayUrl },
      upstreamTimeoutMs: 2000,
      uploadTimeoutMs: 2000,
      webDistDir: '',
    });
    const gw = await serve(withEdgeCache(app, off), { port: 0, logger, handleSignals: false });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`http://127.0.0.1:${gw.port}/api/products?search=gear`);
        expect(res.headers.get('x-edge-cache')).toBeNull();
        await res.arrayBuffer();
      }
      expect(off.stats.entries).toBe(0);
    } finally {
      await gw.close();
    }
  });
});
