import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProductListQuerySchema } from '@forgeline/contracts/products';
import { ConfigError, allOrNone, baseEnv, loadConfig, port } from '../src/config.ts';
import { HttpError, parseInput } from '../src/errors.ts';
import { createServiceApp, finishApp, requireServiceToken } from '../src/http.ts';
import { createLogger } from '../src/logger.ts';
import { serve } from '../src/serve.ts';

describe('loadConfig', () => {
  const schema = z.object({ ...baseEnv, PORT: port(4001), MONGO_URL: z.url().optional() });

  it('fills defaults from an empty environment', () => {
    const config = loadConfig(schema, {});
    expect(config.PORT).toBe(4001);
    expect(config.DATA_DIR).toMatch(/data$/);
  });

  it('names every bad variable and what it got', () => {
    expect(() => loadConfig(schema, { PORT: 'eighty', MONGO_URL: 'not a url', LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    try {
      loadConfig(schema, { PORT: 'eighty', MONGO_URL: 'not a url' });
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('(got "eighty")');
      expect(message).toContain('MONGO_URL');
    }
  });

  it('refuses a half-given group of variables by name', () => {
    expect(allOrNone({ S3_ENDPOINT: 'http://x' }, ['S3_ENDPOINT', 'S3_ACCESS_KEY'])).toBe('S3_ENDPOINT is set, so S3_ACCESS_KEY must be set too');
    expect(allOrNone({}, ['S3_ENDPOINT', 'S3_ACCESS_KEY'])).toBeNull();
  });
});

describe('parseInput', () => {
  it('gives a 400 that names the field', () => {
    try {
      parseInput(ProductListQuerySchema, { category: 'filters', limit: 'ten' }, 'query');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).status).toBe(400);
      expect((err as HttpError).message).toContain('limit');
    }
  });

  it('refuses an object where text belongs, so it can never become a database operator', () => {
    expect(() => parseInput(ProductListQuerySchema, { category: { $ne: 'x' } }, 'query')).toThrow(/category/);
  });
});

describe('service app', () => {
  it('answers health, JSON errors with the request id, 413 for big bodies, 401 without the service token', async () => {
    const logger = createLogger('kit-test', 'silent');
    const app = createServiceApp({ name: 'kit', logger, ready: () => false, jsonLimit: '1kb' });
    app.post('/echo', (req, res) => void res.json(req.body));
    app.get('/boom', () => {
      throw new Error('secret detail');
    });
    app.get('/internal/x', requireServiceToken('a-long-enough-service-token'), (_req, res) => void res.json({ ok: true }));
    finishApp(app, logger);
    const s = await serve(app, { port: 0, logger, handleSignals: false });
    const base = `http://127.0.0.1:${s.port}`;
    try {
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/readyz`)).status).toBe(503);
      const boom = await fetch(`${base}/boom`, { headers: { 'x-request-id': 'req-1' } });
      expect(boom.status).toBe(500);
      const body = (await boom.json()) as { message: string; requestId: string };
      expect(body.requestId).toBe('req-1');
      expect(body.message).not.toContain('secret detail');
      const big = await fetch(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 'x'.repeat(5000) }) });
      expect(big.status).toBe(413);
      const bad = await fetch(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' });
      expect(bad.status).toBe(400);
      expect((await fetch(`${base}/internal/x`)).status).toBe(401);
      expect((await fetch(`${base}/internal/x`, { headers: { 'x-service-token': 'a-long-enough-service-token' } })).status).toBe(200);
      const missing = await fetch(`${base}/nope`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ message: 'No route for GET /nope' });
    } finally {
      await s.close();
    }
  });

  it('logs a line per answered request with its id, and req.log carries the same id', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('kit-test', 'info', { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const app = createServiceApp({ name: 'kit', logger });
    app.get('/part', (req, res) => {
      req.log.info({ sku: 'X-1' }, 'part read');
      res.json({ ok: true });
    });
    let hungUp!: () => void;
    const hangUp = new Promise<void>((resolve) => (hungUp = resolve));
    app.get('/slow', (_req, res) => void hangUp.then(() => setTimeout(() => res.json({ late: true }), 50)));
    finishApp(app, logger);
    const s = await serve(app, { port: 0, logger, handleSignals: false });
    const base = `http://127.0.0.1:${s.port}`;
    try {
      const status = async (path: string, id?: string) => {
        const res = await fetch(`${base}${path}`, id ? { headers: { 'x-request-id': id } } : {});
        await res.arrayBuffer();
        return res.status;
      };
      expect(await status('/part?x=1', 'req-42')).toBe(200);
      expect(await status('/nope', 'req-43')).toBe(404);
      expect(await status('/healthz')).toBe(200);
      // A client that hangs up before its answer.
      const slow = http.get(`${base}/slow`, { headers: { 'x-request-id': 'req-44' } }).on('error', () => {});
      await new Promise((r) => setTimeout(r, 100));
      slow.destroy();
      hungUp();
      await new Promise((r) => setTimeout(r, 200));
      const forId = (id: string) => lines.filter((l) => l.reqId === id);
      expect(forId('req-42')).toEqual([
        expect.objectContaining({ level: 30, msg: 'part read', sku: 'X-1', req: { method: 'GET', url: '/part?x=1' } }),
        expect.objectContaining({ level: 30, msg: 'request completed', req: { method: 'GET', url: '/part?x=1' }, res: { statusCode: 200 }, responseTime: expect.any(Number) }),
      ]);
      expect(forId('req-43')).toEqual([expect.objectContaining({ level: 40, msg: 'request completed', res: { statusCode: 404 } })]);
      expect(forId('req-44')).toEqual([expect.objectContaining({ level: 30, msg: 'request closed before its answer was sent', req: { method: 'GET', url: '/slow' } })]);
      // Health checks come every few seconds from every orchestrator: not logged.
      expect(lines.filter((l) => (l.req as { url?: string } | undefined)?.url === '/healthz')).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
