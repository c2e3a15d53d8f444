import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from '@forgeline/service-kit/logger';
import { assertHandlers, parsePayload, type JobName, type JobPayloads, type JobResults } from '../../jobs.ts';
import { PermanentJobError, type JobContext, type JobInfo, type JobQueue, type JobState, type QueueRetryOptions } from '../../ports.ts';

interface Row {
  id: string;
  name: string;
  payload: string;
  state: 'waiting' | 'active' | 'completed' | 'failed';
  progress: number;
  attempts_made: number;
  max_attempts: number;
  backoff_ms: number;
  run_at: number;
  lease_until: number | null;
  lease_owner: string | null;
  result: string | null;
  failed_reason: string | null;
}

export interface SqliteQueueOptions extends QueueRetryOptions {
  /** How long a taken job stays leased without a heartbeat before another worker may take it. */
  leaseMs?: number;
  /** How often an idle worker looks for work that another process queued. */
  pollMs?: number;
  logger?: Logger;
}

/**
 * The embedded job queue: jobs are rows in `${DATA_DIR}/media-queue.sqlite` (WAL), so queued work
 * survives a restart, and several processes on one DATA_DIR (media-api plus media-workers) share it.
 * A worker takes a job by leasing it in a write transaction and renews the lease while it runs; a
 * job whose worker died is taken again once its lease runs out (BullMQ's stalled-job rule).
 * Retries wait backoffMs, 2x, 4x, ...
 */
export function createSqliteJobQueue(file: string, opts: SqliteQueueOptions): JobQueue {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 10000');
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS jobs (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      payload TEXT NOT NULL,
      state TEXT NOT NULL,
      progress REAL NOT NULL DEFAULT 0,
      attempts_made INTEGER NOT NULL DEFAULT 0,
      max_attempts INTEGER NOT NULL,
      backoff_ms INTEGER NOT NULL,
      run_at INTEGER NOT NULL,
      lease_until INTEGER,
      lease_owner TEXT,
      result TEXT,
      failed_reason TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS jobs_due ON jobs (state, run_at);
  `);
  // Same retention as the BullMQ adapter: finished jobs a week, failed ones a month.
  const DAY = 24 * 60 * 60 * 1000;
  db.prepare(`DELETE FROM jobs WHERE (state = 'completed' AND updated_at < ?) OR (state = 'failed' AND updated_at < ?)`).run(
    Date.now() - 7 * DAY,
    Date.now() - 30 * DAY,
  );
  const leaseMs = opts.leaseMs ?? 30_000;
  const pollMs = opts.pollMs ?? 200;
  const log = opts.logger;

  const insert = db.prepare(
    `INSERT OR IGNORE INTO jobs (id, name, payload, state, max_attempts, backoff_ms, run_at, created_at, updated_at)
     VALUES (@id, @name, @payload, 'waiting', @maxAttempts, @backoffMs, @now, @now, @now)`,
  );
  const requeueFailed = db.prepare(
    `UPDATE jobs SET state = 'waiting', attempts_made = 0, progress = 0, run_at = @now, failed_reason = NULL, result = NULL,
       lease_owner = NULL, lease_until = NULL, payload = @payload, updated_at = @now
     WHERE id = @id AND state = 'failed'`,
  );
  const selectOne = db.prepare<[string], Row>('SELECT * FROM jobs WHERE id = ?');
  const nextDue = db.prepare<[number, number], Row>(
    `SELECT * FROM jobs WHERE (state = 'waiting' AND run_at <= ?) OR (state = 'active' AND lease_until < ?)
     ORDER BY run_at, created_at LIMIT 1`,
  );
  const lease = db.prepare(
    `UPDATE jobs SET state = 'active', attempts_made = attempts_made + 1, lease_until = @until, lease_owner = @owner, updated_at = @now WHERE id = @id`,
  );
  const renew = db.prepare(`UPDATE jobs SET lease_until = @until WHERE id = @id AND lease_owner = @owner AND state = 'active'`);
  const setProgress = db.prepare(`UPDATE jobs SET progress = @progress, updated_at = @now WHERE id = @id AND lease_owner = @owner`);
  const complete = db.prepare(
    `UPDATE jobs SET state = 'completed', progress = 100, result = @result, lease_until = NULL, failed_reason = NULL, updated_at = @now
     WHERE id = @id AND lease_owner = @owner AND state = 'active'`,
  );
  const fail = db.prepare(
    `UPDATE jobs SET state = 'failed', failed_reason = @reason, lease_until = NULL, updated_at = @now
     WHERE id = @id AND lease_owner = @owner AND state = 'active'`,
  );
  const retry = db.prepare(
    `UPDATE jobs SET state = 'waiting', failed_reason = @reason, run_at = @runAt, lease_until = NULL, lease_owner = NULL, updated_at = @now
     WHERE id = @id AND lease_owner = @owner AND state = 'active'`,
  );
  const countStmt = db.prepare<[number], { state: string; due: number; n: number }>(
    `SELECT state, (run_at <= ?) AS due, COUNT(*) AS n FROM jobs GROUP BY state, due`,
  );

  const take = db.transaction((owner: string): Row | null => {
    const now = Date.now();
    const row = nextDue.get(now, now);
    if (!row) return null;
    lease.run({ id: row.id, until: now + leaseMs, owner, now });
    return { ...row, attempts_made: row.attempts_made + 1 };
  });

  const wakers = new Set<() => void>();
  const workers = new Set<{ close(): Promise<void> }>();
  let closed = false;

  function toInfo(row: Row): JobInfo {
    const now = Date.now();
    let state: JobState = row.state;
    if (row.state === 'waiting' && row.run_at > now) state = 'delayed';
    if (row.state === 'active' && (row.lease_until ?? 0) < now) state = 'waiting'; // stalled: will be taken again
    return {
      id: row.id,
      name: row.name as JobName,
      payload: JSON.parse(row.payload),
      state,
      progress: row.progress,
      attemptsMade: row.attempts_made,
      ...(row.result ? { result: JSON.parse(row.result) } : {}),
      ...(row.failed_reason ? { failedReason: row.failed_reason } : {}),
    };
  }

  return {
    async add(name, payload, { jobId }) {
      const parsed = parsePayload(name, payload);
      const info = insert.run({
        id: jobId,
        name,
        payload: JSON.stringify(parsed),
        maxAttempts: opts.attempts,
        backoffMs: opts.backoffMs,
        now: Date.now(),
      });
      // A failed job's id added again runs again (the upload was repeated to retry it).
      const created = info.changes === 1 || requeueFailed.run({ id: jobId, payload: JSON.stringify(parsed), now: Date.now() }).changes === 1;
      if (created) for (const wake of wakers) wake();
      return { id: jobId, created };
    },
    async get(id) {
      const row = selectOne.get(id);
      return row ? toInfo(row) : null;
    },
    async getMany(ids) {
      return ids.map((id) => {
        const row = selectOne.get(id);
        return row ? toInfo(row) : null;
      });
    },
    async work(handlers, { concurrency }) {
      assertHandlers(handlers);
      const owner = randomUUID();
      let stopping = false;
      let wakeUp: (() => void) | null = null;
      const waker = () => wakeUp?.();
      wakers.add(waker);
      const running = new Set<Promise<void>>();

      async function run(row: Row) {
        const heartbeat = setInterval(() => {
          try {
            renew.run({ id: row.id, owner, until: Date.now() + leaseMs });
          } catch (err) {
            log?.warn({ err, jobId: row.id }, 'could not renew job lease');
          }
        }, Math.max(50, Math.floor(leaseMs / 3)));
        try {
          const name = row.name as JobName;
          // One handler per name; the payload parsed for that name is the one it takes.
          const handler = handlers[name] as (p: JobPayloads[JobName], ctx: JobContext) => Promise<JobResults[JobName]>;
          const payload = parsePayload(name, JSON.parse(row.payload));
          const result = await handler(payload, {
            id: row.id,
            attempt: row.attempts_made,
            progress: async (p) => void setProgress.run({ id: row.id, owner, progress: p, now: Date.now() }),
          });
          complete.run({ id: row.id, owner, result: JSON.stringify(result ?? null), now: Date.now() });
        } catch (err) {
          const reason = err instanceof Error ? err.message : String(err);
          const permanent = err instanceof PermanentJobError;
          if (permanent || row.attempts_made >= row.max_attempts) {
            fail.run({ id: row.id, owner, reason, now: Date.now() });
            log?.warn({ jobId: row.id, attempts: row.attempts_made, reason }, 'job failed');
          } else {
            const delay = row.backoff_ms * 2 ** (row.attempts_made - 1);
            retry.run({ id: row.id, owner, reason, runAt: Date.now() + delay, now: Date.now() });
            log?.info({ jobId: row.id, attempt: row.attempts_made, retryInMs: delay, reason }, 'job will retry');
          }
        } finally {
          clearInterval(heartbeat);
        }
      }

      const loop = (async () => {
        while (!stopping && !closed) {
          if (running.size >= concurrency) {
            await Promise.race(running);
            continue;
          }
          let row: Row | null = null;
          try {
            row = take(owner);
          } catch (err) {
            log?.warn({ err }, 'could not take a job; will look again');
          }
          if (row) {
            const p = run(row).finally(() => running.delete(p));
            running.add(p);
            continue;
          }
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, pollMs);
            wakeUp = () => {
              clearTimeout(t);
              resolve();
            };
          });
          wakeUp = null;
        }
      })();

      const handle = {
        async close() {
          stopping = true;
          wakeUp?.();
          wakers.delete(waker);
          workers.delete(handle);
          await loop;
          await Promise.all(running);
        },
      };
      workers.add(handle);
      return handle;
    },
    async counts() {
      const out: Record<JobState, number> = { waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 };
      for (const r of countStmt.all(Date.now())) {
        if (r.state === 'waiting') out[r.due ? 'waiting' : 'delayed'] += r.n;
        else out[r.state as JobState] += r.n;
      }
      return out;
    },
    async ready() {
      return db.open;
    },
    async close() {
      // Let running jobs finish and record their outcome before the file closes.
      await Promise.all([...workers].map((w) => w.close()));
      closed = true;
      db.close();
    },
  };
}
