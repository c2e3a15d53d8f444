import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobPayloads, JobResults } from '../src/jobs.ts';
import { PermanentJobError, type JobContext, type JobHandlers, type JobInfo, type JobQueue, type WorkerHandle } from '../src/ports.ts';

type Handler = (payload: JobPayloads['process-sku'], ctx: JobContext) => Promise<JobResults['process-sku']>;

export const payload = (sku: string): JobPayloads['process-sku'] => ({ sku, productId: `p-${sku}`, batchId: 'b', forceReprocess: false });
/** The diagram jobs' handler where a test runs only SKU jobs (a worker needs one for every job name). */
export const noDiagrams: JobHandlers['process-diagram'] = async (p) => ({ assemblyId: p.assemblyId, diagram: null, superseded: true, catalogUpdated: false });

export const resultFor = (sku: string): JobResults['process-sku'] => ({
  sku,
  productId: `p-${sku}`,
  processed: 1,
  unchanged: 0,
  failed: [],
  images: [],
  catalogUpdated: true,
});

/** Poll until the job reaches a state (no timing assertions: the test timeout is the only clock). */
export async function until(queue: JobQueue, id: string, states: JobInfo['state'][]): Promise<JobInfo> {
  for (;;) {
    const info = await queue.get(id);
    if (info && states.includes(info.state)) return info;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The JobQueue contract, run once per adapter. The factory makes a queue whose retries wait
 * `backoffMs` 20 and try `attempts` 3 times.
 */
export function describeJobQueue(name: string, factory: () => Promise<{ queue: JobQueue; cleanup: () => Promise<void> }>) {
  describe(`JobQueue contract: ${name}`, () => {
    let queue: JobQueue;
    let cleanup: () => Promise<void>;
    let worker: WorkerHandle;
    const behaviours = new Map<string, Handler>();
    const calls = new Map<string, number>();
    const handlers: JobHandlers = {
      'process-sku': async (p, ctx) => {
        calls.set(p.sku, (calls.get(p.sku) ?? 0) + 1);
        const b = behaviours.get(p.sku);
        return b ? b(p, ctx) : resultFor(p.sku);
      },
      'process-diagram': noDiagrams,
    };

    beforeAll(async () => {
      ({ queue, cleanup } = await factory());
      worker = await queue.work(handlers, { concurrency: 2 });
    });
    afterAll(async () => {
      await worker?.close();
      await queue?.close();
      await cleanup?.();
    });

    it('is ready', async () => {
      expect(await queue.ready()).toBe(true);
    });

    it('runs a job and keeps its result', async () => {
      const r = await queue.add('process-sku', payload('ok-1'), { jobId: 'ok-1' });
      expect(r).toEqual({ id: 'ok-1', created: true });
      const info = await until(queue, 'ok-1', ['completed', 'failed']);
      expect(info).toMatchObject({ id: 'ok-1', name: 'process-sku', state: 'completed', progress: 100, result: resultFor('ok-1') });
      expect(info.payload).toEqual(payload('ok-1'));
    });

    it('adds a job id once: a second add with the same id adds nothing', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      behaviours.set('dup', async () => {
        await gate;
        return resultFor('dup');
      });
      expect((await queue.add('process-sku', payload('dup'), { jobId: 'dup' })).created).toBe(true);
      expect((await queue.add('process-sku', payload('dup'), { jobId: 'dup' })).created).toBe(false);
      release();
      await until(queue, 'dup', ['completed']);
      expect((await queue.add('process-sku', payload('dup'), { jobId: 'dup' })).created).toBe(false);
      expect(calls.get('dup')).toBe(1);
    });

    it('retries a failing job with backoff until it succeeds', async () => {
      behaviours.set('flaky', async (_p, ctx) => {
        if (ctx.attempt < 3) throw new Error(`catalog unreachable (attempt ${ctx.attempt})`);
        return resultFor('flaky');
      });
      await queue.add('process-sku', payload('flaky'), { jobId: 'flaky' });
      const info = await until(queue, 'flaky', ['completed', 'failed']);
      expect(info.state).toBe('completed');
      expect(info.attemptsMade).toBe(3);
      expect(calls.get('flaky')).toBe(3);
    });

    it('ends in a visible failed state with the reason after the last attempt', async () => {
      behaviours.set('broken', async () => {
        throw new Error('catalog answered 500');
      });
      await queue.add('process-sku', payload('broken'), { jobId: 'broken' });
      const info = await until(queue, 'broken', ['failed', 'completed']);
      expect(info).toMatchObject({ state: 'failed', failedReason: 'catalog answered 500', attemptsMade: 3 });
      expect(calls.get('broken')).toBe(3);
    });

    it('runs a failed job again when its id is added again', async () => {
      let fail = true;
      behaviours.set('again', async () => {
        if (fail) throw new PermanentJobError('bad input');
        return resultFor('again');
      });
      await queue.add('process-sku', payload('again'), { jobId: 'again' });
      expect((await until(queue, 'again', ['failed', 'completed'])).state).toBe('failed');
      fail = false;
      expect((await queue.add('process-sku', payload('again'), { jobId: 'again' })).created).toBe(true);
      const info = await until(queue, 'again', ['completed']);
      expect(info.result).toEqual(resultFor('again'));
    });

    it('fails at once on a PermanentJobError', async () => {
      behaviours.set('permanent', async () => {
        throw new PermanentJobError('No product has SKU "permanent" any more');
      });
      await queue.add('process-sku', payload('permanent'), { jobId: 'permanent' });
      const info = await until(queue, 'permanent', ['failed', 'completed']);
      expect(info).toMatchObject({ state: 'failed', failedReason: 'No product has SKU "permanent" any more' });
      expect(calls.get('permanent')).toBe(1);
    });

    it('reports progress while a job runs', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      behaviours.set('slow', async (_p, ctx) => {
        await ctx.progress(40);
        await gate;
        return resultFor('slow');
      });
      await queue.add('process-sku', payload('slow'), { jobId: 'slow' });
      for (;;) {
        const info = await queue.get('slow');
        if (info?.state === 'active' && info.progress === 40) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      release();
      await until(queue, 'slow', ['completed']);
    });

    it('answers null for an unknown id and counts jobs by state', async () => {
      expect(await queue.get('nobody')).toBeNull();
      expect(await queue.getMany(['ok-1', 'nobody'])).toMatchObject([{ id: 'ok-1' }, null]);
      const counts = await queue.counts();
      expect(counts.completed).toBeGreaterThanOrEqual(3);
      expect(counts.failed).toBeGreaterThanOrEqual(2);
    });

    it('refuses to start a worker that lacks a handler for a registered job', async () => {
      await expect(queue.work({} as JobHandlers, { concurrency: 1 })).rejects.toThrow(/No handler for job\(s\): process-sku/);
    });

    it('refuses a payload that does not match the job schema', async () => {
      await expect(queue.add('process-sku', { sku: 1 } as never, { jobId: 'bad' })).rejects.toThrow();
    });
  });
}
