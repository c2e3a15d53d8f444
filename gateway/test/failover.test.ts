/**
 * Failover across a service's replicas (issue #19): the real gateway process with CATALOG_URL naming two real catalog
 * processes (seeded alike) and QUOTES_URL two stand-ins that die on a POST. Replicas are killed with SIGKILL mid-traffic
 * and started again on their port. Reads must not fail while one replica is left, the answer with none left is a JSON
 * 503 naming the service, a revived replica gets traffic back, and a POST that was sent is never sent again.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@forgeline/service-kit/config';
import { createLogger } from '@forgeline/service-kit/logger';
import { productPath } from '@forgeline/contracts/slug';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { startNodeProcess, type NodeProcess } from '@forgeline/test-support/node-process';
import { SqliteProductRepository } from '../../services/catalog/src/adapters/sqlite/sqlite-product-repository.ts';
import { catalogPaths } from '../../services/catalog/src/stores.ts';
import { PRODUCTS } from '../../services/catalog/test/fixtures.ts';
import { serve } from '@forgeline/service-kit/serve';
import { createGatewayApp } from '../src/app.ts';
import { gatewayEnv } from '../src/config.ts';
import { createReplicaPool } from '../src/replica-pool.ts';
import { ROOT_END, ROOT_START } from '../src/seo/ssr.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOKEN = 'failover-test-service-token-0123456789';
const RETRY_AFTER_MS = 500;
const logger = createLogger('failover-test', 'silent');

describe('service URL lists (config)', () => {
  it('takes one URL as before, or a comma-separated list of replicas', () => {
    expect(loadConfig(gatewayEnv, {}).CATALOG_URL).toEqual(['http://127.0.0.1:4001']);
    expect(loadConfig(gatewayEnv, { QUOTES_URL: 'http://quotes:4002' }).QUOTES_URL).toEqual(['http://quotes:4002']);
    expect(loadConfig(gatewayEnv, { CATALOG_URL: 'http://catalog-1:4001, http://catalog-2:4001,' }).CATALOG_URL).toEqual([
      'http://catalog-1:4001',
      'http://catalog-2:4001',
    ]);
  });

  it('names the replica that is not a URL', () => {
    const bad = () => loadConfig(gatewayEnv, { CATALOG_URL: 'http://catalog-1:4001,catalog-2:4001' });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/CATALOG_URL: replica 2 of 2 \("catalog-2:4001"\) is not an http\(s\) URL/);
    expect(() => loadConfig(gatewayEnv, { AUTH_URL: 'auth' })).toThrow(/AUTH_URL: "auth" is not an http\(s\) URL/);
    expect(() => loadConfig(gatewayEnv, { MEDIA_URL: ' , ' })).toThrow(/MEDIA_URL: names no URL/);
  });
});

/** A real HTTP server on a port: counts what it was sent; `breakOff` reads a request whole, then drops the connection. */
async function startStandIn(opts: { breakOff?: boolean; port?: number } = {}) {
  const seen: { method: string; url: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, body });
      if (opts.breakOff && req.url !== '/healthz') return void req.socket.destroy();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, port, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * A replica that takes no connection: a process listening with a backlog of one whose event loop is blocked, its queue
 * filled by two connections, so the next connection attempt is never answered (as with a host that vanished).
 */
async function startStalledReplica() {
  const port = await freePort();
  const script = `require('node:net').createServer().listen({ port: ${port}, host: '127.0.0.1', backlog: 1 }, () => {
    console.log('listening');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  })`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  const fillers = await Promise.all(
    [0, 1].map(() => new Promise<net.Socket>((resolve) => { const s = net.connect(port, '127.0.0.1', () => resolve(s)); })),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const s of fillers) s.destroy();
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

describe("the gateway's own calls over replicas (replica-pool fetch)", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('sends a POST that never reached a replica (connection refused) to the next one, and marks the refusing one down', async () => {
    const live = await startStandIn();
    const dead = `http://127.0.0.1:${await freePort()}`;
    const pool = createReplicaPool({ service: 'auth', urls: [dead, live.url], logger, retryAfterMs: 60_000 });
    closers.push(live.close, pool.close);
    const res = await pool.fetch('/internal/audit', { method: 'POST', body: '{"entries":[]}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(live.seen).toEqual([{ method: 'POST', url: '/internal/audit', body: '{"entries":[]}' }]);
    expect(pool.isDown(dead)).toBe(true);
    expect(pool.pick()).toBe(live.url);
    expect(pool.pick()).toBe(live.url);
  });

  it('never sends a POST again once a replica read it and broke off; a GET goes to the next replica', async () => {
    const breaks = await startStandIn({ breakOff: true });
    const live = await startStandIn();
    const pool = createReplicaPool({ service: 'quotes', urls: [breaks.url, live.url], logger });
    closers.push(breaks.close, live.close, pool.close);
    await expect(pool.fetch('/api/quote-requests', { method: 'POST', body: '{"q":1}' })).rejects.toThrow();
    expect(breaks.seen.map((s) => s.method)).toEqual(['POST']);
    expect(live.seen).toEqual([]); // not replayed on the other replica
    pool.pick(); // the cursor back on the breaking replica: the next call starts there
    const read = await pool.fetch('/api/captcha');
    expect(read.status).toBe(200);
    expect(breaks.seen.map((s) => s.method)).toEqual(['POST', 'GET']);
    expect(live.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /api/captcha']);
    expect(pool.isDown(breaks.url)).toBe(false); // a broken-off connection alone does not take a replica out
  });

  it('counts a replica that takes no connection within the connect timeout as failed: the call goes to the next one', async () => {
    const stalled = await startStalledReplica();
    const live = await startStandIn();
    const pool = createReplicaPool({ service: 'catalog', urls: [stalled.url, live.url], logger, connectTimeoutMs: 300, retryAfterMs: 60_000 });
    closers.push(stalled.close, live.close, pool.close);
    const res = await pool.fetch('/internal/audit', { method: 'POST', body: '{"entries":[]}', signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
    expect(live.seen.map((s) => s.body)).toEqual(['{"entries":[]}']);
    expect(pool.isDown(stalled.url)).toBe(true);
  });

  it('with one URL fails as before: no second try, nothing marked down', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const pool = createReplicaPool({ service: 'catalog', urls: [dead], logger });
    closers.push(pool.close);
    await expect(pool.fetch('/api/products')).rejects.toThrow(/fetch failed/);
    expect(pool.isDown(dead)).toBe(false);
    expect(pool.pick()).toBe(dead);
  });

  it('probes a replica marked down after the retry-after period and gives it traffic again once it answers', async () => {
    const live = await startStandIn();
    const port = await freePort();
    const pool = createReplicaPool({ service: 'catalog', urls: [`http://127.0.0.1:${port}`, live.url], logger, retryAfterMs: 200 });
    closers.push(live.close, pool.close);
    await pool.fetch('/api/products'); // refused on the first: down
    expect(pool.isDown(`http://127.0.0.1:${port}`)).toBe(true);
    const revived = await startStandIn({ port });
    closers.push(revived.close);
    const until = Date.now() + 10_000;
    while (pool.isDown(revived.url) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(pool.isDown(revived.url)).toBe(false);
    expect(revived.seen.map((s) => s.url)).toContain('/healthz');
    await pool.fetch('/api/products?after=revival');
    await pool.fetch('/api/products?after=revival');
    expect(revived.seen.filter((s) => s.url === '/api/products?after=revival')).toHaveLength(1);
  });
});

describe("the proxy's retries of requests with a body (in-process gateway, real HTTP)", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  async function gatewayOver(services: { quotes: string[]; media: string[] }) {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const app = createGatewayApp({
      logger,
      services: { catalog: closed, auth: closed, ...services },
      replicaRetryAfterMs: 60_000,
      upstreamTimeoutMs: 5_000,
      uploadTimeoutMs: 5_000,
      webDistDir: '', // and no adminAuth: the admin check has its own tests, here every upload is let through
    });
    const s = await serve(app, { port: 0, logger, handleSignals: false });
    closers.push(s.close);
    return `http://127.0.0.1:${s.port}`;
  }

  it('sends a POST refused by one replica, body and all, to the next one', async () => {
    const live = await startStandIn();
    closers.push(live.close);
    const base = await gatewayOver({ quotes: [`http://127.0.0.1:${await freePort()}`, live.url], media: [live.url] });
    const body = JSON.stringify({ customerName: 'Ana Souza', message: 'x'.repeat(50_000) });
    const res = await fetch(`${base}/api/quote-requests`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(live.seen).toEqual([{ method: 'POST', url: '/api/quote-requests', body }]);
  });

  it('sends a read to the next replica when one takes no connection within the connect timeout', async () => {
    const stalled = await startStalledReplica();
    const live = await startStandIn();
    closers.push(stalled.close, live.close);
    const closed = `http://127.0.0.1:${await freePort()}`;
    const app = createGatewayApp({
      logger,
      services: { catalog: [stalled.url, live.url], quotes: closed, auth: closed, media: closed },
      upstreamConnectTimeoutMs: 300,
      upstreamTimeoutMs: 10_000, // far longer: the connect timeout, not the answer timeout, moves it on
      uploadTimeoutMs: 10_000,
      webDistDir: '',
    });
    const s = await serve(app, { port: 0, logger, handleSignals: false });
    closers.push(s.close);
    const res = await fetch(`http://127.0.0.1:${s.port}/api/products?stalled=1`);
    expect(res.status).toBe(200);
    expect(live.seen.map((x) => x.url)).toEqual(['/api/products?stalled=1']);
  });

  it('streams an upload to one replica: refused, it goes whole to the next; read and broken off, never again (502)', async () => {
    const live = await startStandIn();
    const breaks = await startStandIn({ breakOff: true });
    closers.push(live.close, breaks.close);
    const upload = (base: string, body: string) =>
      fetch(`${base}/api/admin/upload-images`, { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' } });
    const refusedFirst = await gatewayOver({ quotes: [live.url], media: [`http://127.0.0.1:${await freePort()}`, live.url] });
    const file = 'z'.repeat(3 * 1024 * 1024);
    expect((await upload(refusedFirst, file)).status).toBe(200);
    expect(live.seen.map((s) => [s.url, s.body.length])).toEqual([['/api/admin/upload-images', file.length]]);

    const brokenFirst = await gatewayOver({ quotes: [live.url], media: [breaks.url, live.url] });
    const res = await upload(brokenFirst, 'second file');
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ message: expect.stringContaining('media service is unavailable right now') });
    expect(breaks.seen.map((s) => s.body)).toEqual(['second file']);
    expect(live.seen).toHaveLength(1); // only the first upload
  });
});

/** The fake server-rendering bundle: the product's name in an <h1>, so the page shows whether the catalog was read. */
const FAKE_ENTRY = `export async function renderPage(url, data) {
  return { html: '<h1 data-kind="' + data.kind + '">' + (data.kind === 'product' ? data.product.name : '') + '</h1>', queries: [] };
}`;
const INDEX_HTML = `<!doctype html><html lang="en"><head><title>Forgeline Parts</title></head><body><div id="root">${ROOT_START}shell${ROOT_END}</div></body></html>`;

/** A quotes stand-in as its own process: it records a POST it has read whole, then dies at once (SIGKILL). */
const DIES_ON_POST = `
const http = require('node:http');
const fs = require('node:fs');
http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    if (req.method === 'POST') {
      fs.appendFileSync(process.env.RECORD, process.env.NAME + ' ' + req.url + ' ' + body + '\\n');
      process.kill(process.pid, 'SIGKILL');
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ replica: process.env.NAME }));
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

describe('gateway failover over real replicas (catalog ×2, quotes ×2, SIGKILL)', () => {
  const tmp = tempDir('gateway-failover-');
  const record = path.join(tmp.dir, 'quote-posts.txt');
  const processes: NodeProcess[] = [];
  const catalog: { a?: NodeProcess; b?: NodeProcess } = {};
  const ports = { a: 0, b: 0 };
  let gateway: NodeProcess;

  const startCatalog = async (which: 'a' | 'b') => {
    const p = await startNodeProcess({
      name: `catalog ${which}`,
      args: ['--import', 'tsx', 'services/catalog/src/main.ts'],
      cwd: repoRoot,
      port: ports[which],
      env: { DATA_DIR: path.join(tmp.dir, `catalog-${which}`), SERVICE_TOKEN: TOKEN, LOG_LEVEL: 'info', MONGO_URL: '', MEILI_URL: '', REDIS_URL: '' },
    });
    processes.push(p);
    catalog[which] = p;
    return p;
  };
  const catalogUrl = (which: 'a' | 'b') => `http://127.0.0.1:${ports[which]}`;
  const gatewayLogs = (msg: string, replica?: string) =>
    gateway.logs().filter((l) => String(l.msg).startsWith(msg) && (replica === undefined || l.replica === replica));
  const waitFor = async (what: string, check: () => boolean, ms = 30_000) => {
    const until = Date.now() + ms;
    while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(check(), what).toBe(true);
  };

  beforeAll(async () => {
    // Two catalog data folders seeded alike, as two replicas over one shared database would read the same.
    for (const which of ['a', 'b'] as const) {
      const dir = path.join(tmp.dir, `catalog-${which}`);
      fs.mkdirSync(dir);
      const repo = SqliteProductRepository.open(catalogPaths(dir).sqlite);
      await repo.upsertMany(PRODUCTS);
      await repo.close();
    }
    const dist = path.join(tmp.dir, 'dist');
    fs.mkdirSync(path.join(dist, '.ssr'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
    fs.writeFileSync(path.join(dist, '.ssr', 'entry-server.js'), FAKE_ENTRY);
    fs.writeFileSync(path.join(dist, '.ssr', 'package.json'), '{"type":"module"}');

    [ports.a, ports.b] = [await freePort(), await freePort()];
    await Promise.all([startCatalog('a'), startCatalog('b')]);
    const quotes = await Promise.all(
      ['x', 'y'].map(async (name) =>
        startNodeProcess({ name: `quotes ${name}`, args: ['-e', DIES_ON_POST], port: await freePort(), readyPath: '/healthz', env: { NAME: name, RECORD: record } }),
      ),
    );
    processes.push(...quotes);
    const closed = `http://127.0.0.1:${await freePort()}`;
    gateway = await startNodeProcess({
      name: 'gateway',
      args: ['--import', 'tsx', 'gateway/src/main.ts'],
      cwd: repoRoot,
      port: await freePort(),
      readyPath: '/healthz',
      env: {
        CATALOG_URL: `${catalogUrl('a')},${catalogUrl('b')}`,
        QUOTES_URL: quotes.map((q) => q.url).join(','),
        AUTH_URL: closed,
        MEDIA_URL: closed,
        UPSTREAM_RETRY_AFTER_MS: String(RETRY_AFTER_MS),
        WEB_DIST_DIR: dist,
        PUBLIC_URL: 'http://parts.example.com',
        SERVICE_TOKEN: TOKEN,
        EDGE_CACHE_MB: '0', // every read goes to a replica
        REDIS_URL: '',
        LOG_LEVEL: 'info',
      },
    });
    processes.push(gateway);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    tmp.remove();
  });

  /** The i-th of a stream of distinct reads: a product, or a page of the gallery; checked against the fixtures. */
  const read = async (i: number): Promise<string | null> => {
    const product = PRODUCTS[i % PRODUCTS.length]!;
    const url = i % 2 ? `/api/products/${product.id}?read=${i}` : `/api/catalog/products?limit=${1 + (i % 9)}&offset=${i % 7}&read=${i}`;
    try {
      const res = await fetch(`${gateway.url}${url}`);
      const body = (await res.json()) as { id?: string; products?: unknown[]; pagination?: { totalProducts: number } };
      if (res.status !== 200) return `${url}: ${res.status} ${JSON.stringify(body)}`;
      if (i % 2 ? body.id !== product.id : body.pagination?.totalProducts !== PRODUCTS.length) return `${url}: wrong body`;
      return null;
    } catch (err) {
      return `${url}: ${(err as Error).message}`;
    }
  };

  it('spreads reads over both replicas in turn', async () => {
    for (let i = 0; i < 10; i++) expect((await fetch(`${gateway.url}/api/products/${PRODUCTS[0]!.id}?turn=${i}`)).status).toBe(200);
    const count = (p: NodeProcess) => p.logs().filter((l) => String((l.req as { url?: string } | undefined)?.url ?? '').includes('turn=')).length;
    await waitFor('both replicas logged their reads', () => count(catalog.a!) + count(catalog.b!) === 10);
    expect([count(catalog.a!), count(catalog.b!)]).toEqual([5, 5]);
  });

  it('serves a server-rendered product page with its data when a replica has just died', async () => {
    await catalog.a!.kill('SIGKILL');
    const product = PRODUCTS[6]!;
    for (let i = 0; i < 2; i++) {
      // Two in a row: round-robin sends one of them to the dead replica first.
      const res = await fetch(`${gateway.url}${productPath(product)}`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(`<h1 data-kind="product">${product.name}</h1>`);
    }
    expect(gatewayLogs('upstream replica down', catalogUrl('a'))).toHaveLength(1);
    // Started again on its port: probed after the retry-after period, back in the turn.
    await startCatalog('a');
    await waitFor('the gateway saw replica a back', () => gatewayLogs('upstream replica back', catalogUrl('a')).length === 1);
  }, 90_000);

  it('loses no read of a steady stream when a replica is killed midway (SIGKILL)', async () => {
    const total = 200;
    const failures: string[] = [];
    let next = 0;
    let done = 0;
    let killed: Promise<void> | undefined;
    const worker = async () => {
      while (next < total) {
        const failure = await read(next++);
        if (failure) failures.push(failure);
        if (++done === total / 2) killed = catalog.b!.kill('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    await killed;
    expect(done).toBe(total);
    expect(failures).toEqual([]);
    expect(catalog.b!.exited()).toBe(true);
    // The death was seen, and requests it met went on to the other replica; "down" is logged once.
    expect(gatewayLogs('upstream replica down', catalogUrl('b'))).toHaveLength(1);
    expect(gatewayLogs('upstream replica failed; request sent to the next one', catalogUrl('b')).length).toBeGreaterThan(0);
    // The surviving replica answered the second half of the stream.
    expect(catalog.a!.logs().filter((l) => String((l.req as { url?: string } | undefined)?.url ?? '').includes('read=')).length).toBeGreaterThanOrEqual(total / 2);
  }, 60_000);

  it('answers a JSON 503 naming the catalog when no replica is left, and reads again once one is back', async () => {
    await catalog.a!.kill('SIGKILL');
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${gateway.url}/api/products/${PRODUCTS[1]!.id}?none=${i}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toMatchObject({ message: expect.stringMatching(/^The catalog service is unavailable: none of its 2 replicas answered/), requestId: expect.any(String) });
    }
    expect(gatewayLogs('upstream replica down', catalogUrl('a'))).toHaveLength(2); // once per death
    // A server-rendered page still answers (generic head, rendered in the browser), as with the catalog down before.
    expect((await fetch(`${gateway.url}${productPath(PRODUCTS[1]!)}`, { headers: { accept: 'text/html' } })).status).toBe(200);

    await startCatalog('a');
    let status = 0;
    const until = Date.now() + 30_000;
    while (status !== 200 && Date.now() < until) {
      status = (await fetch(`${gateway.url}/api/products/${PRODUCTS[1]!.id}?revived=1`)).status;
      if (status !== 200) {
        expect(status).toBe(503); // until the probe finds it: the same clean answer, never a hang or a 502
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(status).toBe(200);
    expect(gatewayLogs('upstream replica back', catalogUrl('a'))).toHaveLength(2);
    const failures = (await Promise.all(Array.from({ length: 20 }, (_, i) => read(1_000 + i)))).filter(Boolean);
    expect(failures).toEqual([]);
  }, 90_000);

  it('never sends a POST again once a replica has read it and died: 502, and the other replica never sees it', async () => {
    const body = JSON.stringify({ productId: PRODUCTS[0]!.id, customerName: 'Ana Souza', quantity: 2 });
    const res = await fetch(`${gateway.url}/api/quote-requests`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ message: expect.stringContaining('quote service is unavailable right now') });
    const lines = fs.readFileSync(record, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^[xy] /api/quote-requests ${body.replace(/[{}[\]()*+?.\\^$|]/g, '\\$&')}$`));
    // The other replica is alive and takes the next read; the dead one is found refusing and skipped.
    for (let i = 0; i < 2; i++) expect((await fetch(`${gateway.url}/api/captcha?after=${i}`)).status).toBe(200);
  });
});
