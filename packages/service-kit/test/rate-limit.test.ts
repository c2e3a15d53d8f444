import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startRedis } from '@forgeline/test-support/redis';
import { createServiceApp, finishApp } from '../src/http.ts';
import { createRateLimiter } from '../src/rate-limit.ts';
import { connectRedis, type Redis } from '../src/redis.ts';
import { serve, type Served } from '../src/serve.ts';

/** A logger whose warnings the test reads. */
function recordingLogger() {
  const lines: { msg: string; limiter?: string; passedUncounted?: number }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, stream), lines };
}

/** A service with one limited route, listening on a free port. */
async function limitedService(opts: { name: string; limit: number; redis?: Redis; logger: pino.Logger }): Promise<Served & { get: () => Promise<number> }> {
  const app = createServiceApp({ name: 'limited', logger: opts.logger });
  app.get(
    '/thing',
    createRateLimiter({ ...opts, windowMs: 60_000, handler: (_req, res) => void res.status(429).json({ message: 'slow down' }) }),
    (_req, res) => void res.json({ ok: true }),
  );
  const served = await serve(finishApp(app, opts.logger), { port: 0, logger: opts.logger, handleSignals: false });
  return { ...served, get: async () => (await fetch(`http://127.0.0.1:${served.port}/thing`)).status };
}

const ready = (client: Redis) => new Promise<void>((resolve) => (client.status === 'ready' ? resolve() : client.once('ready', () => resolve())));

const redis = await startRedis();
if ('skip' in redis) {
  describe.skip(`createRateLimiter on Redis (skipped: ${redis.skip})`, () => it('needs redis-server', () => {}));
} else {
  describe('createRateLimiter', () => {
    const cleanup: (() => unknown)[] = [];
    afterAll(async () => {
      for (const c of cleanup.reverse()) await c();
      await redis.stop();
    });

    it('without Redis counts in each process, as before', async () => {
      const { logger } = recordingLogger();
      const a = await limitedService({ name: 'memory', limit: 1, logger });
      const b = await limitedService({ name: 'memory', limit: 1, logger });
      cleanup.push(a.close, b.close);
      expect([await a.get(), await b.get(), await a.get()]).toEqual([200, 200, 429]);
    });

    it('made before Redis has answered, it lets requests through, then counts once Redis is there', async () => {
      const { logger } = recordingLogger();
      const client = connectRedis(redis.url, logger);
      cleanup.push(() => client.disconnect());
      // The store loads its scripts at once, while the connection is still being made: that load fails.
      const service = await limitedService({ name: 'early', limit: 2, redis: client, logger });
      cleanup.push(service.close);
      await ready(client);
      expect([await service.get(), await service.get(), await service.get()]).toEqual([200, 200, 429]);
    });

    it('fails open while Redis is down, with one warning rather than one per request', async () => {
      const { logger, lines } = recordingLogger();
      const client = connectRedis(redis.url, logger);
      cleanup.push(() => client.disconnect());
      await ready(client);
      const service = await limitedService({ name: 'outage', limit: 1, redis: client, logger });
      cleanup.push(service.close);
      expect([await service.get(), await service.get()]).toEqual([200, 429]);
      await redis.stop();
      const during = [];
      for (let i = 0; i < 5; i++) during.push(await service.get());
      expect(during).toEqual([200, 200, 200, 200, 200]);
      const warnings = lines.filter((l) => l.msg === 'rate limit store unavailable: requests pass uncounted');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ limiter: 'outage' });
    });
  });
}
