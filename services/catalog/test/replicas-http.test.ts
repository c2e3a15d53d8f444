/**
 * Two catalog replicas over the same storage (as over MongoDB and Meilisearch in production: here one set of
 * embedded stores both apps use) and one Redis, each on its own port: the parts-list limit counts across both,
 * a write through one empties the other's ready-made answers, and a Redis outage answers no 500.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClearChannel, type ClearChannel } from '@forgeline/service-kit/clear-channel';
import { gatewayAssertionHeaders } from '@forgeline/service-kit/gateway-assertion';
import { createLogger } from '@forgeline/service-kit/logger';
import { connectRedis, type Redis } from '@forgeline/service-kit/redis';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { tempDir } from '@forgeline/test-support/net';
import { startRedis } from '@forgeline/test-support/redis';
import { createApp } from '../src/app.ts';
import { openStores } from '../src/stores.ts';
import { PRODUCTS, id } from './fixtures.ts';
import { SERVICE_TOKEN } from './harness.ts';

const redis = await startRedis();
if ('skip' in redis) {
  describe.skip(`catalog replicas sharing Redis (skipped: ${redis.skip})`, () => it('needs redis-server', () => {}));
} else {
  describe('catalog replicas sharing Redis', () => {
    const logger = createLogger('catalog-replicas-test', 'silent');
    const tmp = tempDir('catalog-replicas-');
    const links: { client: Redis; clears: ClearChannel }[] = [];
    const served: Served[] = [];
    let stores: Awaited<ReturnType<typeof openStores>>;
    let a = '';
    let b = '';

    beforeAll(async () => {
      stores = await openStores({ DATA_DIR: path.join(tmp.dir, 'data'), MEILI_INDEX: 'products' });
      await stores.repo.upsertMany(PRODUCTS);
      await stores.search.upsert(PRODUCTS);
      const replica = async () => {
        const client = connectRedis(redis.url, logger);
        const clears = openClearChannel({ redis: client, channel: 'test:catalog:response-cache', logger });
        links.push({ client, clears });
        await new Promise((resolve) => client.once('ready', resolve));
        const app = createApp({
          repo: stores.repo,
          search: stores.search,
          serviceToken: SERVICE_TOKEN,
          logger,
          tmpDir: path.join(tmp.dir, 'tmp'),
          partsMatchPerMinute: 2,
          redis: client,
          responseCacheClears: clears,
        });
        const s = await serve(app, { port: 0, logger, handleSignals: false });
        served.push(s);
        return `http://127.0.0.1:${s.port}`;
      };
      [a, b] = await Promise.all([replica(), replica()]);
    });
    afterAll(async () => {
      await Promise.all(served.map((s) => s.close()));
      for (const { client, clears } of links) {
        await clears.close();
        client.disconnect();
      }
      await stores?.close();
      await redis.stop();
      tmp.remove();
    });

    const match = async (base: string) =>
      (await fetch(`${base}/api/parts/match`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: '1R-0750 x 2' }) })).status;

    it('allows the parts-list limit across both replicas together, then 429 on either', async () => {
      expect(await match(a)).toBe(200);
      expect(await match(b)).toBe(200);
      expect(await match(b)).toBe(429);
      expect(await match(a)).toBe(429);
    });

    it("empties the other replica's ready-made answers after a write through this one", async () => {
      const product = `/api/products/${id(1)}`;
      const read = async (base: string) => {
        const res = await fetch(base + product);
        return { cache: res.headers.get('x-response-cache'), price: ((await res.json()) as { price: number }).price };
      };
      await read(b);
      expect(await read(b)).toMatchObject({ cache: 'HIT' });

      const admin = await gatewayAssertionHeaders(SERVICE_TOKEN, 'ops@example.com');
      const current = await fetch(`${a}/api/admin/products/${id(1)}`, { headers: admin });
      const patched = await fetch(`${a}/api/admin/products/${id(1)}`, {
        method: 'PATCH',
        headers: { ...admin, 'content-type': 'application/json', 'if-match': current.headers.get('etag')! },
        body: JSON.stringify({ price: 123.45 }),
      });
      expect(patched.status).toBe(200);

      // Within 2 s (in practice a millisecond or two) replica B answers the new price.
      const until = Date.now() + 2_000;
      let seen = await read(b);
      while (seen.price !== 123.45 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 20));
        seen = await read(b);
      }
      expect(seen.price).toBe(123.45);
    });

    it('answers parts lists while Redis is down (the limit lets them through): no 500', async () => {
      await redis.stop();
      expect([await match(a), await match(b), await match(a)]).toEqual([200, 200, 200]);
      expect((await fetch(`${b}/api/products/${id(1)}`)).status).toBe(200);
    });
  });
}
