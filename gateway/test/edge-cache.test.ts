import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, finishApp } from '@forgeline/service-kit/http';
import { createLogger } from '@forgeline/service-kit/logger';
import { createResponseCache } from '@forgeline/service-kit/response-cache';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { freePort } from '@forgeline/test-support/net';
import { createGatewayApp, withEdgeCache } from '../src/app.ts';
import { createEdgeCache, type EdgeCache } from '../src/edge-cache.ts';

const logger = createLogger('edge-cache-test', 'silent');

/**
 * A gateway with `cache` as its edge cache, in front of the catalog at `catalogUrl` (the other services at `others`,
 * an address nothing needs to answer), proxying with `timeoutMs`.
 */
function gatewayInFront(cache: EdgeCache, catalogUrl: string, others: string, timeoutMs = 2000): Promise<Served> {
  const app = createGatewayApp({
    logger,
    edgeCache: cache,
    services: { catalog: catalogUrl, quotes: others, auth: others, media: others },
    upstreamTimeoutMs: timeoutMs,
    uploadTimeoutMs: timeoutMs,
    webDistDir: '',
  });
  return serve(withEdgeCache(app, cache), { port: 0, logger, handleSignals: false });
}

describe('the gateway edge cache, in front of a real service', () => {
  const served: Served[] = [];
  let gatewayUrl = '';
  /** How many requests reached the service. */
  let upstreamHits = 0;
  /** The brands list's content (changed "behind the gateway" by a test), and what its requests asked and got. */
  let brandsVersion = 1;
  const brandsSeen: { ifNoneMatch?: string; status: number }[] = [];
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
    // As the catalog's lists: ready-made answers with an ETag, 304 to a matching If-None-Match.
    const brands = createResponseCache({ maxBytes: 1024 * 1024, ttlMs: 60_000, sharedMaxAgeSeconds: 60 });
    app.get(
      '/api/brands',
      (req, res, next) => {
        res.once('finish', () => brandsSeen.push({ ifNoneMatch: req.headers['if-none-match'], status: res.statusCode }));
        next();
      },
      brands.json(async () => ({ version: brandsVersion, padding: 'brand '.repeat(400) })),
    );
    app.post('/internal/brands/change', (_req, res) => {
      brandsVersion++;
      brands.clear();
      res.json({ version: brandsVersion });
    });
    app.get('/api/brands/private', (_req, res) => void res.json({ hit: upstreamHits })); // no Cache-Control: never kept
    app.get('/api/testimonials', (_req, res) => void res.set({ 'Cache-Control': 'public, s-maxage=60', Vary: 'Cookie' }).json({ hit: upstreamHits }));
    app.get('/api/subcategories', (_req, res) => void res.status(404).set('Cache-Control', 'public, s-maxage=60').json({ message: 'none' }));
    app.post('/api/admin/products/:id/touch', (_req, res) => void res.json({ ok: true }));
    app.post('/api/admin/products/:id/refuse', (_req, res) => void res.status(400).json({ message: 'no' }));
    app.post('/api/parts/match', (_req, res) => void res.json({ lines: [] }));
    const catalog = await serve(finishApp(app, logger), { port: 0, logger, handleSignals: false });
    served.push(catalog);
    const down = `http://127.0.0.1:${await freePort()}`;
    const gw = await gatewayInFront(edge, `http://127.0.0.1:${catalog.port}`, down);
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
    // The client asks for a fresh answer (and this service's answer changed since: see the revalidation test); a
    // signed-in admin always gets one.
    expect((await get('/api/products?search=hose', { 'cache-control': 'no-cache' })).headers.get('x-edge-cache')).toBeNull();
    expect((await get('/api/products?search=hose', { authorization: 'Bearer x' })).headers.get('x-edge-cache')).toBeNull();
    for (const path of ['/api/brands/private', '/api/testimonials', '/api/subcategories']) {
      await (await get(path)).arrayBuffer();
      const again = await get(path);
      expect(again.headers.get('x-edge-cache'), path).toBeNull();
    }
    expect(edge.stats.entries).toBe(1);
  });

  it('revalidates a reload (no-cache) with the service: its 304 sends the kept answer, a changed answer comes whole', async () => {
    edge.clear();
    brandsSeen.length = 0;
    const gzip = { 'accept-encoding': 'gzip' };
    const first = await get('/api/brands', gzip);
    const firstBody = await first.text();
    const etag = first.headers.get('etag')!;
    expect(JSON.parse(firstBody).version).toBe(brandsVersion);

    // A reload: the service is asked whether the kept answer holds, says 304, and the kept gzip body goes out.
    const reload = await get('/api/brands', { ...gzip, 'cache-control': 'no-cache', 'x-request-id': 'reload-1' });
    expect(reload.status).toBe(200);
    expect(reload.headers.get('x-edge-cache')).toBe('REVALIDATED');
    expect(reload.headers.get('x-request-id')).toBe('reload-1');
    expect(reload.headers.get('content-encoding')).toBe('gzip');
    expect(reload.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await reload.text()).toBe(firstBody);
    expect(brandsSeen.at(-1)).toEqual({ ifNoneMatch: etag, status: 304 });
    expect(edge.stats.revalidated).toBeGreaterThan(0);

    // The browser's own ETag on a reload: 304 to it as well. (Not fetch: it adds no-cache to conditional requests.)
    const conditional = await new Promise<{ status?: number; cache?: string | string[] }>((resolve, reject) =>
      request(`${gatewayUrl}/api/brands`, { headers: { ...gzip, 'cache-control': 'no-cache', 'if-none-match': etag } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode, cache: res.headers['x-edge-cache'] });
      })
        .on('error', reject)
        .end(),
    );
    expect(conditional).toEqual({ status: 304, cache: 'REVALIDATED' });

    // no-store: nothing kept is used; a signed-in admin's request goes through whole.
    for (const headers of [{ 'cache-control': 'no-store' }, { 'cache-control': 'no-cache', authorization: 'Bearer x' }] as Record<string, string>[]) {
      const before = brandsSeen.length;
      const res = await get('/api/brands', { ...gzip, ...headers });
      expect(res.headers.get('x-edge-cache')).toBeNull();
      expect(await res.text()).toBe(firstBody);
      expect(brandsSeen.slice(before)).toEqual([{ status: 200 }]);
    }

    // Changed behind the gateway (no write went through it, so nothing emptied the cache): a plain read still gets
    // the kept answer for its s-maxage, but a reload gets the new one, which is kept from then on.
    expect((await fetch(`http://127.0.0.1:${served[0]!.port}/internal/brands/change`, { method: 'POST' })).status).toBe(200);
    expect(JSON.parse(await (await get('/api/brands', gzip)).text()).version).toBe(brandsVersion - 1);
    const changed = await get('/api/brands', { ...gzip, 'cache-control': 'no-cache' });
    expect(changed.headers.get('x-edge-cache')).toBeNull();
    expect(JSON.parse(await changed.text()).version).toBe(brandsVersion);
    expect(brandsSeen.slice(-2)).toEqual([
      { ifNoneMatch: etag, status: 200 },
      { status: 200 },
    ]);
    const kept = await get('/api/brands', gzip);
    expect(kept.headers.get('x-edge-cache')).toBe('HIT');
    expect(JSON.parse(await kept.text()).version).toBe(brandsVersion);
  });

  it('a reload while the service is down gets the proxy\'s error answer, not the kept one unchecked', async () => {
    const cache = createEdgeCache({ maxBytes: 1024 * 1024, logger });
    const responses = createResponseCache({ maxBytes: 1024 * 1024, ttlMs: 60_000, sharedMaxAgeSeconds: 60 });
    const service = createServiceApp({ name: 'catalog', logger });
    service.get('/api/brands', responses.json(async () => ({ padding: 'brand '.repeat(400) })));
    const catalog = await serve(finishApp(service, logger), { port: 0, logger, handleSignals: false });
    const gw = await gatewayInFront(cache, `http://127.0.0.1:${catalog.port}`, gatewayUrl);
    try {
      const url = `http://127.0.0.1:${gw.port}/api/brands`;
      expect((await fetch(url)).status).toBe(200);
      expect(cache.stats.entries).toBe(1);
      await catalog.close();
      const reload = await fetch(url, { headers: { 'cache-control': 'no-cache' } });
      expect(reload.status).toBe(502);
      expect(reload.headers.get('x-edge-cache')).toBeNull();
      expect(((await reload.json()) as { message: string }).message).toMatch(/catalog/i);
      // A plain read within s-maxage is still answered from what is kept.
      expect((await fetch(url)).headers.get('x-edge-cache')).toBe('HIT');
    } finally {
      await gw.close();
      await catalog.close();
    }
  });

  it('a service slow to revalidate gets the request itself instead, without the whole upstream timeout', async () => {
    const cache = createEdgeCache({ maxBytes: 1024 * 1024, logger });
    const responses = createResponseCache({ maxBytes: 1024 * 1024, ttlMs: 60_000, sharedMaxAgeSeconds: 60 });
    const service = createServiceApp({ name: 'catalog', logger });
    // Stuck on conditional requests only (as a service busy on something the 304 waits for), until released.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let held = 0;
    service.get('/api/brands', (req, _res, next) => {
      if (!req.headers['if-none-match']) return next();
      held++;
      void released.then(() => next());
    }, responses.json(async () => ({ padding: 'brand '.repeat(400) })));
    const catalog = await serve(finishApp(service, logger), { port: 0, logger, handleSignals: false });
    // A proxy timeout as long as the test's own: a reload that waited for it would fail the test.
    const gw = await gatewayInFront(cache, `http://127.0.0.1:${catalog.port}`, gatewayUrl, 60_000);
    try {
      const url = `http://127.0.0.1:${gw.port}/api/brands`;
      expect((await fetch(url)).status).toBe(200);
      const reload = await fetch(url, { headers: { 'cache-control': 'no-cache' } });
      expect(reload.status).toBe(200);
      expect(reload.headers.get('x-edge-cache')).toBeNull(); // the proxy's answer, not the kept one
      expect(held).toBe(1); // the conditional request is still held: the reload did not wait for it
    } finally {
      release();
      await gw.close();
      await catalog.close();
    }
  });

  it('turned off (0 MB), it keeps nothing', async () => {
    const off = createEdgeCache({ maxBytes: 0, logger });
    const gw = await gatewayInFront(off, `http://127.0.0.1:${served[0]!.port}`, gatewayUrl);
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
