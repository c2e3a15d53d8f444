/**
 * Two quotes replicas sharing one Redis (REDIS_URL), each on its own port, as behind the gateway in production:
 * together they allow what one allows, and a Redis outage lets buyers through instead of answering 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@forgeline/service-kit/logger';
import { connectRedis, type Redis } from '@forgeline/service-kit/redis';
import { startRedis } from '@forgeline/test-support/redis';
import { downUrl, post, send, startService, type TestService } from './harness.ts';

const redis = await startRedis();
if ('skip' in redis) {
  describe.skip(`quotes replicas sharing rate limits (skipped: ${redis.skip})`, () => it('needs redis-server', () => {}));
} else {
  describe('quotes replicas sharing rate limits through Redis', () => {
    const logger = createLogger('quotes-replicas-test', 'silent');
    const clients: Redis[] = [];
    let a: TestService;
    let b: TestService;

    beforeAll(async () => {
      const catalogUrl = await downUrl(); // the routes under test never reach the catalog
      const replica = async () => {
        const client = connectRedis(redis.url, logger);
        clients.push(client);
        await new Promise((resolve) => client.once('ready', resolve));
        return startService({ catalogUrl, redis: client, rateLimits: { captcha: 2, contact: 3 } });
      };
      [a, b] = await Promise.all([replica(), replica()]);
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      for (const client of clients) client.disconnect();
      await redis.stop();
    });

    const captcha = async (svc: TestService) => (await send('GET', `${svc.url}/api/captcha`)).status;

    it('allows the limit across both replicas together, and refuses the next request on either with 429', async () => {
      expect(await captcha(a)).toBe(200);
      expect(await captcha(b)).toBe(200);
      const refused = await send('GET', `${b.url}/api/captcha`);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/Too many security checks/);
      expect(refused.headers.get('ratelimit')).toMatch(/; r=0;/); // draft-8: none left
      expect(await captcha(a)).toBe(429);
    });

    it('keeps each limit its own counter', async () => {
      // The security checks are used up (above); messages are counted apart (an empty one is a 400, not a 429).
      expect((await post(`${a.url}/api/contact`, {})).status).toBe(400);
      expect((await post(`${b.url}/api/contact`, {})).status).toBe(400);
    });

    it('lets requests through, uncounted, while Redis is down: no 500', async () => {
      await redis.stop();
      for (const svc of [a, b, a, b]) expect(await captcha(svc)).toBe(200);
      expect((await post(`${b.url}/api/contact`, {})).status).toBe(400);
    });
  });
}
