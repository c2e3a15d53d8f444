import os from 'node:os';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '@forgeline/service-kit/logger';
import { assertHandlers, parsePayload, type JobName, type JobPayloads, type JobResults } from '../../jobs.ts';
import { PermanentJobError, type JobContext, type JobInfo, type JobQueue, type JobState, type QueueRetryOptions } from '../../ports.ts';

export interface BullQueueOptions extends QueueRetryOptions {
  redisUrl: string;
  /** Queue name; tests give each run its own. */
  name?: string;
  logger?: Logger;
  /** A running job's lock; the worker renews it every half of this while alive (BullMQ default 30 s). */
  lockDurationMs?: number;
  /** How often workers look for jobs whose lock ran out and put them back in the queue (default 30 s). */
  stalledIntervalMs?: number;
  /** Times a job may lose its worker and be taken again before it fails (default 2; a stall uses no attempt). */
  maxStalledCount?: number;
}

const DAY = 24 * 60 * 60;

/**
 * The production job queue: BullMQ on Redis through ioredis. Any number of worker processes share
 * it (`docker compose up --scale media-worker=4`). Job ids make adding idempotent (BullMQ ignores
 * an add whose id exists); attempts and exponential backoff are BullMQ's own; finished jobs are kept
 * a week (failed ones a month) so the status call can report them.
 *
 * A worker killed mid-job (SIGKILL, OOM, a lost host) stops renewing the job's lock; once the lock has
 * run out, the next stalled-job check of any live worker puts the job back in the queue and another
 * worker runs it from the start. Handlers are idempotent for that (variants are written under their
 * content-hash keys, so a rerun overwrites; the catalog is told the full list, not an increment).
 * Each worker is named `<host>:<pid>` (BullMQ stores it on the job as processedBy).
 */
export function createBullJobQueue(opts: BullQueueOptions): JobQueue {
  const name = opts.name ?? 'media';
  const connect = () => new Redis(opts.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
  const connection = connect();
  const queue = new Queue(name, {
    connection,
    defaultJobOptions: {
      attempts: opts.attempts,
      backoff: { type: 'exponential', delay: opts.backoffMs },
      removeOnComplete: { age: 7 * DAY },
      removeOnFail: { age: 30 * DAY },
    },
  });
  const workers = new Set<Worker>();
  const log = opts.logger;

  async function toInfo(found: Job | undefined): Promise<JobInfo | null> {
    if (!found?.id) return null;
    const raw = await found.getState();
    if (raw === 'unknown') return null;
    // The job may have finished between reading it and reading its state: read it again for its result.
    const job = raw === 'completed' || raw === 'failed' ? ((await queue.getJob(found.id)) ?? found) : found;
    const state: JobState =
      raw === 'completed' || raw === 'failed' || raw === 'active' || raw === 'delayed' ? raw : 'waiting';
    const progress = typeof job.progress === 'number' ? job.progress : 0;
    return {
      id: found.id,
      name: job.name as JobName,
      payload: job.data,
      state,
      progress: state === 'completed' ? 100 : progress,
      attemptsMade: job.attemptsStarted ?? job.attemptsMade,
      ...(state === 'completed' ? { result: job.returnvalue } : {}),
      ...(job.failedReason ? { failedReason: job.failedReason } : {}),
    };
  }

  return {
    async add(jobName, payload, { jobId }) {
      const parsed = parsePayload(jobName, payload);
      const existing = await queue.getJob(jobId);
      if (existing) {
        // A failed job's id added again runs again (the upload was repeated to retry it).
        if ((await existing.getState()) === 'failed') {
          await existing.retry('failed');
          return { id: jobId, created: true };
        }
        return { id: jobId, created: false };
      }
      await queue.add(jobName, parsed, { jobId });
      return { id: jobId, created: true };
    },
    async get(id) {
      return toInfo(await queue.getJob(id));
    },
    async getMany(ids) {
      const out: (JobInfo | null)[] = [];
      // Small groups keep Redis round trips few without one huge burst.
      for (let i = 0; i < ids.length; i += 50) {
        out.push(...(await Promise.all(ids.slice(i, i + 50).map(async (id) => toInfo(await queue.getJob(id))))));
      }
      return out;
    },
    async work(handlers, { concurrency }) {
      assertHandlers(handlers);
      const worker = new Worker(
        name,
        async (job: Job) => {
          const jobName = job.name as JobName;
          // One handler per name; the payload parsed for that name is the one it takes.
          const handler = handlers[jobName] as (p: JobPayloads[JobName], ctx: JobContext) => Promise<JobResults[JobName]>;
          if (!handler) throw new UnrecoverableError(`No handler for job "${job.name}"`);
          try {
            return await handler(parsePayload(jobName, job.data), {
              id: job.id!,
              attempt: job.attemptsMade + 1,
              progress: (p) => job.updateProgress(p),
            });
          } catch (err) {
            if (err instanceof PermanentJobError) throw new UnrecoverableError(err.message);
            throw err;
          }
        },
        {
          connection: connect(),
          concurrency,
          name: `${os.hostname()}:${process.pid}`,
          lockDuration: opts.lockDurationMs ?? 30_000,
          stalledInterval: opts.stalledIntervalMs ?? 30_000,
          maxStalledCount: opts.maxStalledCount ?? 2,
        },
      );
      worker.on('stalled', (jobId) =>
        log?.warn({ jobId }, "job's worker stopped without finishing it (lock ran out); the job is queued again"),
      );
      worker.on('failed', (job, err) =>
        log?.warn({ jobId: job?.id, attempts: job?.attemptsMade, reason: err.message }, 'job attempt failed'),
      );
      worker.on('error', (err) => log?.error({ err }, 'worker error'));
      await worker.waitUntilReady();
      workers.add(worker);
      return {
        async close() {
          workers.delete(worker);
          await worker.close();
        },
      };
    },
    async counts() {
      const c = await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed');
      return {
        waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
        delayed: c.delayed ?? 0,
        active: c.active ?? 0,
        completed: c.completed ?? 0,
        failed: c.failed ?? 0,
      };
    },
    async ready() {
      try {
        return (await connection.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      await Promise.all([...workers].map((w) => w.close()));
      await queue.close();
      connection.disconnect();
    },
  };
}
