/**
 * Two gateway replicas sharing one Redis (REDIS_URL), each on its own port, in front of the real auth service and a
 * catalog stand-in: an admin's change through one empties the other's edge cache, an API key's calls count across
 * both, and a Redis outage leaves both answering (limits let calls through, each cache still empties itself).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClearChannel, type ClearChannel } from '@forgeline/service-kit/clear-channel';
import { createServiceApp, finishApp } from '@forgeline/service-kit/http';
import { createLogger } from '@forgeline/service-kit/logger';
import { connectRedis, type Redis } from '@forgeline/service-kit/redis';
import { createResponseCache } from '@forgeline/service-kit/response-cache';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { startRedis } from '@forgeline/test-support/redis';
import { SERVICE_TOKEN, startAuth, type AuthHarness } from '../../services/auth/test/harness.ts';
import { DEFAULT_RATE_LIMITS } from '../../services/auth/src/app.ts';
import { createAdminAuth } from '../src/admin-auth.ts';
import { createGatewayApp, withEdgeCache } from '../src/app.ts';
import { createEdgeCache } from '../src/edge-cache.ts';

const logger = createLogger('gateway-replicas-test', 'silent');

/** A catalog stand-in: a public read the edge may keep for a minute, and an admin write that changes it. */
async function startCatalogStandIn() {
  let version = 1;
  const responses = createResponseCache({ maxBytes: 0, ttlMs: 1, sharedMaxAgeSeconds: 60 });
  const app = createServiceApp({ name: 'catalog', logger });
  app.get('/api/products', responses.json(async () => ({ version })));
  app.get('/api/admin/products', (_req, res) => void res.json({ products: [] }));
  app.post('/api/admin/products/:id/touch', (_req, res) => {
    version++;
    res.json({ version });
  });
  return serve(finishApp(app, logger), { port: 0, logger, handleSignals: false });
}

const redis = await startRedis();
if ('skip' in redis) {
  describe.skip(`gateway replicas sharing Redis (skipped: ${redis.skip})`, () => it('needs redis-server', () => {}));
} else {
  describe('gateway replicas sharing Redis', () => {
    const links: { client: Redis; clears: ClearChannel }[] = [];
    const served: Served[] = [];
    let auth: AuthHarness;
    let a = '';
    let b = '';
    let staff: Record<string, string>;
    /** The API key made in the limit test, used again once Redis is down. */
    let key: Record<string, string> = {};

    beforeAll(async () => {
      auth = await startAuth({ rateLimits: { ...DEFAULT_RATE_LIMITS, sendPerEmail: 100 } });
      const catalog = await startCatalogStandIn();
      served.push(catalog);
      const catalogUrl = `http://127.0.0.1:${catalog.port}`;
      const replica = async () => {
        const client = connectRedis(redis.url, logger);
        const clears = openClearChannel({ redis: client, channel: 'test:gateway:edge-cache', logger });
        links.push({ client, clears });
        await new Promise((resolve) => client.once('ready', resolve));
        const edgeCache = createEdgeCache({ maxBytes: 4 * 1024 * 1024, logger });
        const app = createGatewayApp({
          logger,
          edgeCache,
          edgeCacheClears: clears,
          services: { catalog: catalogUrl, quotes: catalogUrl, media: catalogUrl, auth: auth.url },
          upstreamTimeoutMs: 5_000,
          uploadTimeoutMs: 5_000,
          webDistDir: '',
          adminAuth: createAdminAuth({ authUrl: auth.url, serviceToken: SERVICE_TOKEN, logger, keyRateLimitPerMinute: 2, redis: client }),
        });
        const s = await serve(withEdgeCache(app, edgeCache), { port: 0, logger, handleSignals: false });
        served.push(s);
        return `http://127.0.0.1:${s.port}`;
      };
      [a, b] = await Promise.all([replica(), replica()]);
      staff = { authorization: `Bearer ${(await auth.signIn()).token}` };
    });
    afterAll(async () => {
      await Promise.all(served.map((s) => s.close()));
      for (const { client, clears } of links) {
        await clears.close();
        client.disconnect();
      }
      await auth?.stop();
      await redis.stop();
    });

    const read = async (base: string) => {
      const res = await fetch(`${base}/api/products?search=pump`);
      return { status: res.status, cache: res.headers.get('x-edge-cache'), version: ((await res.json()) as { version: number }).version };
    };
    const touch = async (base: string) => (await fetch(`${base}/api/admin/products/p1/touch`, { method: 'POST', headers: staff })).status;

    it("drops a public read cached on gateway B within 2 s of an admin's change through gateway A", async () => {
      const first = await read(b);
      expect(await read(b)).toEqual({ ...first, cache: 'HIT' });
      expect(await touch(a)).toBe(200);
      const until = Date.now() + 2_000;
      let seen = await read(b);
      while (seen.version === first.version && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 20));
        seen = await read(b);
      }
      expect(seen).toMatchObject({ status: 200, cache: null, version: first.version + 1 });
    });

    it("counts an API key's calls across both gateways: the limit together, then 429 on either", async () => {
      const created = await fetch(`${a}/api/admin/api-keys`, {
        method: 'POST',
        headers: { ...staff, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'ERP sync', scopes: ['catalog:read'] }),
      });
      expect(created.status).toBe(201);
      key = { authorization: `Bearer ${((await created.json()) as { key: string }).key}` };
      const call = async (base: string) => (await fetch(`${base}/api/admin/products`, { headers: key })).status;
      expect([await call(a), await call(b), await call(b), await call(a)]).toEqual([200, 200, 429, 429]);
    });

    it('keeps answering with Redis stopped: limits let calls through, each gateway still empties its own cache', async () => {
      await redis.stop();
      for (const base of [a, b]) expect((await fetch(`${base}/api/admin/products`, { headers: key })).status).toBe(200);
      const before = await read(a);
      expect((await read(a)).cache).toBe('HIT');
      expect(await touch(a)).toBe(200);
      expect(await read(a)).toMatchObject({ status: 200, cache: null, version: before.version + 1 });
      expect((await read(b)).status).toBe(200);
    });
  });
}
