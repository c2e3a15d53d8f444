/**
 * Catalog replicas as production runs them: separate processes over one MongoDB (FerretDB here), each with its own
 * embedded search index under its own DATA_DIR, and one Redis whose change feed keeps those indexes in step.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAssertionHeaders } from '@forgeline/service-kit/gateway-assertion';
import { createLogger } from '@forgeline/service-kit/logger';
import { connectRedis } from '@forgeline/service-kit/redis';
import { startFerretDb } from '@forgeline/test-support/ferretdb';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { startRedis, type RunningRedis } from '@forgeline/test-support/redis';
import { MongoProductRepository } from '../src/adapters/mongo/mongo-product-repository.ts';
import { PRODUCTS, id } from './fixtures.ts';
import { SERVICE_TOKEN } from './harness.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const FEED_KEY = '{forgeline:catalog:changes}';
/** Tests that start replica processes (several seconds each on a busy machine). */
const PROCESS_STARTS_TIMEOUT_MS = 180_000;

interface Replica {
  url: string;
  /** Everything the process logged so far (pino JSON lines). */
  output: () => string;
  /** SIGTERM; resolves with the exit code. */
  stop: () => Promise<number | null>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const ferret = await startFerretDb();
const redisStarted = 'skip' in ferret ? ferret : await startRedis();
const skip = 'skip' in ferret ? ferret.skip : 'skip' in redisStarted ? redisStarted.skip : null;

if (skip) {
  if (!('skip' in ferret)) await ferret.stop();
  describe.skip(`catalog replicas following the change feed (skipped: ${skip})`, () => it('needs FerretDB and redis-server', () => {}));
} else {
  const mongo = ferret as Exclude<typeof ferret, { skip: string }>;
  let redis = redisStarted as RunningRedis;
  const redisUrl = redis.url;
  const mongoUrl = `${mongo.url}/catalog_change_feed`;

  describe('catalog replicas following the change feed (FerretDB storage, one Redis)', () => {
    const tmp = tempDir('catalog-feed-');
    const running = new Set<Replica>();
    let a: Replica;
    let b: Replica;
    /** The gateway's signed assertion; it expires, so one is made per call. */
    const admin = () => gatewayAssertionHeaders(SERVICE_TOKEN, 'ops@example.com');

    /** Starts main.ts with its own DATA_DIR (its own index); resolves once /readyz says ready. */
    async function startReplica(name: string): Promise<Replica> {
      const port = await freePort();
      const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'services/catalog/src/main.ts'], {
        cwd: repoRoot,
        env: {
          ...process.env,
          DATA_DIR: path.join(tmp.dir, name),
          PORT: String(port),
          LOG_LEVEL: 'info',
          MONGO_URL: mongoUrl,
          REDIS_URL: redisUrl,
          MEILI_URL: '',
          SERVICE_TOKEN,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const replica: Replica = {
        url: `http://127.0.0.1:${port}`,
        output: () => output,
        async stop() {
          running.delete(replica);
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      };
      running.add(replica);
      const until = Date.now() + 90_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`replica ${name} exited early: ${output.slice(-3000)}`);
        if (await fetch(`${replica.url}/readyz`).then((r) => r.ok, () => false)) return replica;
        if (Date.now() > until) throw new Error(`replica ${name} not ready: ${output.slice(-3000)}`);
        await sleep(50);
      }
    }

    async function skusFound(replica: Replica, query: string): Promise<string[]> {
      const res = await fetch(`${replica.url}/api/products?search=${encodeURIComponent(query)}&limit=50`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { products: { sku: string }[] }).products.map((p) => p.sku).sort();
    }

    /** Polls until the search through `replica` names `sku`, up to `ms`; returns what it last found. */
    async function searchUntilFound(replica: Replica, query: string, sku: string, ms: number): Promise<string[]> {
      const until = Date.now() + ms;
      let found = await skusFound(replica, query);
      while (!found.includes(sku) && Date.now() < until) {
        await sleep(25);
        found = await skusFound(replica, query);
      }
      return found;
    }

    async function create(replica: Replica, body: Record<string, unknown>): Promise<{ id: string; sku: string }> {
      const res = await fetch(`${replica.url}/api/admin/products`, { method: 'POST', headers: { ...(await admin()), 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()) as { id: string; sku: string };
    }

    async function rename(replica: Replica, productId: string, name: string): Promise<void> {
      const current = await fetch(`${replica.url}/api/admin/products/${productId}`, { headers: await admin() });
      expect(current.status).toBe(200);
      const res = await fetch(`${replica.url}/api/admin/products/${productId}`, {
        method: 'PATCH',
        headers: { ...(await admin()), 'content-type': 'application/json', 'if-match': current.headers.get('etag')! },
        body: JSON.stringify({ name }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
    }

    /** The same searches through both replicas give the same parts. */
    async function expectAgree(x: Replica, y: Replica, queries: string[]): Promise<void> {
      for (const q of queries) expect(await skusFound(y, q), q).toEqual(await skusFound(x, q));
    }

    beforeAll(async () => {
      const repo = await MongoProductRepository.connect(mongoUrl);
      await repo.upsertMany(PRODUCTS);
      await repo.close();
      [a, b] = await Promise.all([startReplica('a'), startReplica('b')]);
    });
    afterAll(async () => {
      await Promise.all([...running].map((r) => r.stop()));
      await redis.stop();
      await mongo.stop();
      tmp.remove();
    });

    it('finds a part created and then edited through replica A by search through replica B (within 2 s), and the other way round', async () => {
      const made = await create(a, { sku: 'FEED-7001', name: 'Tensioner Pulley', partNumber: 'FP-7001', category: 'Engine Parts', brandName: 'Generic' });
      expect(await searchUntilFound(b, 'FP-7001', 'FEED-7001', 2_000)).toContain('FEED-7001');

      await rename(a, made.id, 'Quokka Tensioner Pulley');
      expect(await searchUntilFound(b, 'quokka', 'FEED-7001', 2_000)).toEqual(['FEED-7001']);

      await create(b, { sku: 'FEED-7002', name: 'Idler Wheel', partNumber: 'FP-7002', category: 'Engine Parts', brandName: 'Generic' });
      expect(await searchUntilFound(a, 'FP-7002', 'FEED-7002', 2_000)).toContain('FEED-7002');
      // Followed, not retried into step: no read of the feed failed along the way.
      for (const r of [a, b]) expect(r.output()).not.toMatch(/search replication paused/);
    });

    it('a replica restarted, and one started late, report ready only once they have the writes made meanwhile', async () => {
      const c = await startReplica('c');
      expect(await c.stop(), c.output()).toBe(0);
      // While C is stopped: a new part, and an edit of a part C has in its index under its old name.
      await create(a, { sku: 'FEED-7101', name: 'Wombat Seal Kit', partNumber: 'FP-7101', category: 'Hydraulic Filters', brandName: 'Komatsu' });
      await rename(b, id(6), 'Numbat Air Filter');

      const restarted = await startReplica('c');
      // No polling: the first answers after ready must have them.
      expect(await skusFound(restarted, 'wombat')).toEqual(['FEED-7101']);
      expect(await skusFound(restarted, 'numbat')).toEqual(['JD-RE587793']);
      expect(restarted.output()).toMatch(/caught up with the change feed/);
      expect(restarted.output()).not.toMatch(/rebuilding the search index from storage/);

      const late = await startReplica('late');
      expect(await skusFound(late, 'wombat')).toEqual(['FEED-7101']);
      expect(await skusFound(late, 'numbat')).toEqual(['JD-RE587793']);
      await Promise.all([restarted.stop(), late.stop()]);
    }, PROCESS_STARTS_TIMEOUT_MS);

    it('a replica whose place in the feed was trimmed away rebuilds from storage and agrees with the others', async () => {
      const c = await startReplica('trimmed');
      await c.stop();
      await rename(a, id(8), 'Platypus Gasket Set');
      await create(b, { sku: 'FEED-7201', name: 'Echidna Track Shoe', partNumber: 'FP-7201', category: 'Rodillos de Oruga', brandName: 'Kässbohrer' });
      // The cap trimming everything C had not read (MAXLEN ~ does this to a replica far enough behind).
      const client = connectRedis(redisUrl, createLogger('catalog-feed-test', 'silent'));
      await new Promise((resolve) => client.once('ready', resolve));
      await client.xtrim(FEED_KEY, 'MAXLEN', 0);
      expect(await client.xlen(FEED_KEY)).toBe(0);
      client.disconnect();

      const restarted = await startReplica('trimmed');
      expect(restarted.output()).toMatch(/rebuilding the search index from storage/);
      expect(await skusFound(restarted, 'platypus')).toEqual(['GEN-GS-100']);
      expect(await skusFound(restarted, 'echidna')).toEqual(['FEED-7201']);
      await expectAgree(a, restarted, ['platypus', 'echidna', 'filter', 'roller']);

      // And it follows again from where the rebuild left it.
      await rename(a, id(9), 'Bilby Track Roller');
      expect(await searchUntilFound(restarted, 'bilby', 'KAS-4400', 2_000)).toEqual(['KAS-4400']);
      await restarted.stop();
    }, PROCESS_STARTS_TIMEOUT_MS);

    it('writes succeed while Redis is down (one warning), and once it is back the replicas agree again', async () => {
      const port = Number(new URL(redisUrl).port);
      await redis.stop();
      await create(a, { sku: 'FEED-7301', name: 'Dingo Fan Belt', partNumber: 'FP-7301', category: 'Engine Parts', brandName: 'John Deere' });
      await rename(a, id(10), 'Kookaburra Carrier Roller');
      // A's own index has them at once; B cannot know yet.
      expect(await skusFound(a, 'dingo')).toEqual(['FEED-7301']);
      expect(await skusFound(a, 'kookaburra')).toEqual(['KAS-4401']);
      expect(a.output().match(/could not announce a catalogue change/g)).toHaveLength(1);

      // Back, empty (no persistence): its counter starts again, so B sees the gap and resyncs.
      const again = await startRedis({ port });
      if ('skip' in again) throw new Error(again.skip);
      redis = again;
      expect(await searchUntilFound(b, 'dingo', 'FEED-7301', 15_000)).toEqual(['FEED-7301']);
      expect(await searchUntilFound(b, 'kookaburra', 'KAS-4401', 15_000)).toEqual(['KAS-4401']);
      await expectAgree(a, b, ['dingo', 'kookaburra', 'quokka', 'filter', 'roller', 'FP-7002']);

      // And the feed carries writes again.
      await rename(b, id(2), 'Wallaby Fuel Water Separator');
      expect(await searchUntilFound(a, 'wallaby', 'CAT-1R0770', 2_000)).toEqual(['CAT-1R0770']);
    });
  });
}
