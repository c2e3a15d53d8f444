import { gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../src/errors.ts';
import { createServiceApp, finishApp } from '../src/http.ts';
import { createLogger } from '../src/logger.ts';
import { createResponseCache, RawJson } from '../src/response-cache.ts';
import { serve, type Served } from '../src/serve.ts';

const logger = createLogger('response-cache-test', 'silent');

/** A raw GET (fetch would decode gzip and hide the encoding this test checks). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('createResponseCache', () => {
  let served: Served;
  let base = '';
  let produced = 0;
  let final = true;
  const cache = createResponseCache({ maxBytes: 1024 * 1024, ttlMs: 60_000, enabled: () => final, sharedMaxAgeSeconds: 5 });
  const off = createResponseCache({ maxBytes: 0, ttlMs: 60_000, sharedMaxAgeSeconds: 5 });

  beforeAll(async () => {
    const app = createServiceApp({ name: 'cached', logger });
    app.get(
      '/items',
      cache.json(async (req) => {
        produced++;
        if (req.query.fail === 'yes') throw new HttpError(404, 'No such items');
        return { n: produced, q: req.query.q ?? null, padding: 'x'.repeat(Number(req.query.size ?? 10)) };
      }),
    );
    app.get(
      '/raw',
      cache.json(async () => new RawJson('{"products":[{"id":"a"}],"note":"as composed"}')),
    );
    app.get(
      '/uncached',
      off.json(async () => ({ n: ++produced })),
    );
    served = await serve(finishApp(app, logger), { port: 0, logger, handleSignals: false });
    base = `http://127.0.0.1:${served.port}`;
  });
  afterAll(() => served.close());

  it('sends an answer given already serialised (RawJson) as its text, cached and tagged like any other', async () => {
    const first = await get(`${base}/raw`);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.body.toString()).toBe('{"products":[{"id":"a"}],"note":"as composed"}');
    const again = await get(`${base}/raw`, { 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
  });

  it('answers the same URL from memory until cleared, with ETag, shared max-age and 304', async () => {
    cache.clear();
    const first = await get(`${base}/items?q=a`);
    const second = await get(`${base}/items?q=a`);
    expect(first.headers['x-response-cache']).toBe('MISS');
    expect(second.headers['x-response-cache']).toBe('HIT');
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers['cache-control']).toBe('public, max-age=0, s-maxage=5');
    expect(second.headers.etag).toBe(first.headers.etag);
    const other = await get(`${base}/items?q=b`);
    expect(JSON.parse(other.body.toString())).toMatchObject({ q: 'b' });

    const notModified = await get(`${base}/items?q=a`, { 'if-none-match': String(first.headers.etag) });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);

    cache.clear();
    const after = await get(`${base}/items?q=a`);
    expect(after.headers['x-response-cache']).toBe('MISS');
    expect(JSON.parse(after.body.toString()).n).toBeGreaterThan(JSON.parse(first.body.toString()).n);
  });

  it('sends a gzip copy to clients that accept it, and plain JSON to the rest', async () => {
    const zipped = await get(`${base}/items?size=5000`, { 'accept-encoding': 'gzip, deflate, br' });
    const plain = await get(`${base}/items?size=5000`);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 10);
    const small = await get(`${base}/items?size=1`, { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('does not keep errors', async () => {
    const a = await get(`${base}/items?fail=yes`);
    const b = await get(`${base}/items?fail=yes`);
    expect(a.status).toBe(404);
    expect(JSON.parse(b.body.toString()).message).toBe('No such items');
    expect(b.headers['x-response-cache']).toBeUndefined();
  });

  it('neither keeps nor shares answers while they are not final (an index being rebuilt)', async () => {
    cache.clear();
    final = false;
    try {
      const a = await get(`${base}/items?q=rebuilding`);
      const b = await get(`${base}/items?q=rebuilding`);
      expect(b.headers['x-response-cache']).toBe('NOT-FINAL');
      expect(b.headers['cache-control']).toBe('no-cache');
      expect(JSON.parse(b.body.toString()).n).toBe(JSON.parse(a.body.toString()).n + 1);
    } finally {
      final = true;
    }
  });

  it('with no memory it computes every answer but still lets a shared cache keep it', async () => {
    const a = await get(`${base}/uncached`);
    const b = await get(`${base}/uncached`);
    expect(b.headers['x-response-cache']).toBe('OFF');
    expect(b.headers['cache-control']).toBe('public, max-age=0, s-maxage=5');
    expect(JSON.parse(b.body.toString()).n).toBe(JSON.parse(a.body.toString()).n + 1);
  });
});
