import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startRedis } from '@forgeline/test-support/redis';
import { tempDir } from '@forgeline/test-support/net';
import { createSqliteJobQueue } from '../src/adapters/sqlite/job-queue.ts';
import { createBullJobQueue } from '../src/adapters/bullmq/job-queue.ts';
import { describeJobQueue, noDiagrams, payload, resultFor, until } from './job-queue.contract.ts';

const retry = { attempts: 3, backoffMs: 20 };

describeJobQueue('sqlite (embedded)', async () => {
  const tmp = tempDir('media-queue-');
  return { queue: createSqliteJobQueue(path.join(tmp.dir, 'q.sqlite'), { ...retry, pollMs: 20 }), cleanup: async () => tmp.remove() };
});

describe('sqlite job queue across restarts', () => {
  it('keeps queued jobs when the process stops before a worker took them', async () => {
    const tmp = tempDir('media-queue-restart-');
    const file = path.join(tmp.dir, 'q.sqlite');
    const first = createSqliteJobQueue(file, { ...retry, pollMs: 20 });
    await first.add('process-sku', payload('kept'), { jobId: 'kept' });
    await first.close();

    const second = createSqliteJobQueue(file, { ...retry, pollMs: 20 });
    expect((await second.get('kept'))?.state).toBe('waiting');
    const worker = await second.work({ 'process-sku': async (p) => resultFor(p.sku), 'process-diagram': noDiagrams }, { concurrency: 1 });
    expect((await until(second, 'kept', ['completed', 'failed'])).state).toBe('completed');
    await worker.close();
    await second.close();
    tmp.remove();
  });

  it('gives a job whose worker died (lease ran out) to another worker', async () => {
    const tmp = tempDir('media-queue-stall-');
    const file = path.join(tmp.dir, 'q.sqlite');
    const queue = createSqliteJobQueue(file, { ...retry, pollMs: 20 });
    await queue.add('process-sku', payload('stalled'), { jobId: 'stalled' });
    // Another process leased the job and died: its lease ran out and nobody renews it.
    const other = new Database(file);
    other
      .prepare(`UPDATE jobs SET state = 'active', attempts_made = 1, lease_owner = 'dead', lease_until = ? WHERE id = 'stalled'`)
      .run(Date.now() - 1);
    other.close();
    const worker = await queue.work({ 'process-sku': async (p) => resultFor(p.sku), 'process-diagram': noDiagrams }, { concurrency: 1 });
    const info = await until(queue, 'stalled', ['completed', 'failed']);
    expect(info).toMatchObject({ state: 'completed', attemptsMade: 2 });
    await worker.close();
    await queue.close();
    tmp.remove();
  });
});

// BullMQ against a real redis-server started on a free port.
const redis = await startRedis();
if ('skip' in redis) {
  console.warn(`[media] BullMQ job-queue suite skipped: ${redis.skip}`);
  describe.skip(`JobQueue contract: bullmq (skipped: ${redis.skip})`, () => it('needs redis-server', () => {}));
} else {
  describeJobQueue('bullmq (redis-server)', async () => ({
    queue: createBullJobQueue({ redisUrl: redis.url, name: `media-test-${process.pid}`, ...retry }),
    cleanup: () => redis.stop(),
  }));
}
