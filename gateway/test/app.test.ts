import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, finishApp } from '@forgeline/service-kit/http';
import { createLogger } from '@forgeline/service-kit/logger';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { httpRequest, rawRequest } from '@forgeline/test-support/raw-http';
import { createGatewayApp } from '../src/app.ts';
import { matchRoute } from '../src/routes.ts';

const logger = createLogger('gateway-test', 'silent');

/** A real upstream service that echoes what reached it. */
function echoService(name: string) {
  const app = createServiceApp({ name, logger });
  app.all('/{*rest}', (req, res) => {
    res.json({
      service: name,
      method: req.method,
      path: req.originalUrl,
      requestId: req.header('x-request-id'),
      serviceToken: req.header('x-service-token') ?? null,
      connection: req.header('connection') ?? null,
    });
  });
  return finishApp(app, logger);
}

describe('gateway', () => {
  const served: Served[] = [];
  let hanging: http.Server;
  let gatewayUrl = '';
  const dist = tempDir();

  beforeAll(async () => {
    fs.writeFileSync(path.join(dist.dir, 'index.html'), `<!doctype html><title>app</title><div id="root"></div><!-- ${'padding '.repeat(400)} -->`);
    fs.mkdirSync(path.join(dist.dir, 'assets'));
    fs.writeFileSync(path.join(dist.dir, 'assets', 'app-abc123.js'), 'console.log(1)');
    const catalog = await serve(echoService('catalog'), { port: 0, logger, handleSignals: false });
    const quotes = await serve(echoService('quotes'), { port: 0, logger, handleSignals: false });
    served.push(catalog, quotes);
    // Accepts connections and never answers: the gateway must give up with a 504.
    hanging = http.createServer(() => {});
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const closedPort = await freePort(); // nothing listens there: a service that is down
    const app = createGatewayApp({
      logger,
      services: {
        catalog: `http://127.0.0.1:${catalog.port}`,
        quotes: `http://127.0.0.1:${quotes.port}`,
        auth: `http://127.0.0.1:${closedPort}`,
        media: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`,
      },
      upstreamTimeoutMs: 500,
      uploadTimeoutMs: 500,
      webDistDir: dist.dir,
      // As the real check: the sign-in routes pass, the rest need a token.
      adminAuth: (req, res, next) =>
        req.path.startsWith('/api/admin/auth/') || req.header('authorization') === 'Bearer good'
          ? next()
          : void res.status(401).json({ message: 'Missing or invalid admin token' }),
    });
    const gw = await serve(app, { port: 0, logger, handleSignals: false });
    served.push(gw);
    gatewayUrl = `http://127.0.0.1:${gw.port}`;
  });

  afterAll(async () => {
    await Promise.all(served.map((s) => s.close()));
    hanging.closeAllConnections();
    hanging.close();
    dist.remove();
  });

  it('routes each prefix to its service, keeping the full path and query', async () => {
    const res = await fetch(`${gatewayUrl}/api/products?category=hydraulic-filters&limit=75`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ service: 'catalog', path: '/api/products?category=hydraulic-filters&limit=75' });
    const quote = await fetch(`${gatewayUrl}/api/captcha`);
    expect(await quote.json()).toMatchObject({ service: 'quotes', path: '/api/captcha' });
  });

  it('passes the request id on and returns it', async () => {
    const res = await fetch(`${gatewayUrl}/api/subcategories`, { headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    expect(await res.json()).toMatchObject({ requestId: 'trace-123' });
    const fresh = await fetch(`${gatewayUrl}/api/subcategories`);
    const body = (await fresh.json()) as { requestId: string };
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(fresh.headers.get('x-request-id')).toBe(body.requestId);
  });

  it("keeps its connection to a service whatever the client's Connection header says (hop-by-hop)", async () => {
    const gw = Number(new URL(gatewayUrl).port);
    const answer = await rawRequest(gw, httpRequest('GET', '/api/products?x=1', [['Host', 'x'], ['Connection', 'close']]), { timeoutMs: 5_000 });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"connection":"keep-alive"');
    // ...and the client's own connection is closed as it asked (rawRequest reads until the server closes it).
    expect(answer.hung).toBe(false);
    expect(answer.text).toMatch(/^connection: close/im);
  });

  it('never lets a browser speak as a service', async () => {
    const res = await fetch(`${gatewayUrl}/api/testimonials`, { headers: { 'x-service-token': 'stolen' } });
    expect(await res.json()).toMatchObject({ serviceToken: null });
  });

  it('never exposes internal routes', async () => {
    const res = await fetch(`${gatewayUrl}/internal/products/by-sku/ABC`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ message: expect.stringContaining('No route') });
  });

  it('answers 502 JSON with a message when a service is down', async () => {
    const res = await fetch(`${gatewayUrl}/api/admin/auth/send-otp`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ message: expect.stringContaining('sign-in service is unavailable') });
  });

  it('answers 504 JSON when a service does not answer in time', async () => {
    const res = await fetch(`${gatewayUrl}/media/products/abc-480.webp`);
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ message: expect.stringContaining('did not answer in time') });
  });

  it('answers 408, not 504, when the client never sent all of the body the service was waiting for', async () => {
    // Chunked, and no chunk ever comes: the service cannot answer, and it is the client's doing, not the service's.
    const gw = Number(new URL(gatewayUrl).port);
    const head = httpRequest('POST', '/api/quote-requests', [['Host', 'x'], ['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']]);
    const answer = await rawRequest(gw, head, { timeoutMs: 10_000 });
    expect(answer.status, answer.text).toBe(408);
    expect(answer.text).toContain('The request body did not arrive within 0.5 s');
    // A whole request to the same service is answered as ever.
    expect((await fetch(`${gatewayUrl}/api/quote-requests`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(200);
  });

  it('checks the admin token before an admin route reaches its service', async () => {
    const denied = await fetch(`${gatewayUrl}/api/admin/products?search=filter`);
    expect(denied.status).toBe(401);
    const allowed = await fetch(`${gatewayUrl}/api/admin/products?search=filter`, { headers: { authorization: 'Bearer good' } });
    expect(await allowed.json()).toMatchObject({ service: 'catalog' });
  });

  it('serves the web app with a single-page fallback and long-cached hashed assets', async () => {
    const page = await fetch(`${gatewayUrl}/category/hydraulic-filters?page=2`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const gz = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${gatewayUrl}/catalog`, { headers: { 'accept-encoding': 'gzip' } }, resolve),
    );
    gz.resume();
    expect(gz.headers['content-encoding']).toBe('gzip');
    const asset = await fetch(`${gatewayUrl}/assets/app-abc123.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const missingApi = await fetch(`${gatewayUrl}/api/nothing-here`);
    expect(missingApi.status).toBe(404);
    expect(missingApi.headers.get('content-type')).toContain('application/json');
  });
});

describe('route table', () => {
  it('sends upload-image to media and the admin product list to catalog', () => {
    expect(matchRoute('/api/admin/products/7b0c/upload-image')).toMatchObject({ service: 'media', admin: true });
    expect(matchRoute('/api/admin/products')).toMatchObject({ service: 'catalog', admin: true });
    expect(matchRoute('/api/admin/quotes/abc/reply')).toMatchObject({ service: 'quotes', admin: true });
    expect(matchRoute('/api/admin/quotes')).toMatchObject({ service: 'quotes', admin: true });
    expect(matchRoute('/api/admin/auth/verify-otp')).toMatchObject({ service: 'auth' });
    expect(matchRoute('/api/admin/auth/verify-otp')?.admin).toBeUndefined();
    expect(matchRoute('/api/admin/upload-bulk-zip')).toMatchObject({ service: 'media', admin: true });
    expect(matchRoute('/media/generated/a/b/c.svg')).toMatchObject({ service: 'catalog' });
    expect(matchRoute('/api/productsX')).toBeUndefined();
  });
});
