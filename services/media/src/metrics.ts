/**
 * The media service's own metrics (#37): the queue's depth by state (what KEDA scales the workers on and the
 * dashboards show), read from the queue when Prometheus scrapes, and how long jobs take by outcome.
 */
import { gauge, histogram } from '@forgeline/service-kit/metrics';
import type { JobHandlers, JobQueue, JobState } from './ports.ts';

const QUEUE_STATES: JobState[] = ['waiting', 'active', 'delayed', 'failed'];

export function watchQueue(queue: Pick<JobQueue, 'counts'>): void {
  gauge('media_queue_jobs', 'Media jobs in the queue, by state (waiting, active, delayed, failed)', ['state'], async function collect() {
    const counts = await queue.counts().catch(() => null);
    if (!counts) return;
    for (const state of QUEUE_STATES) this.set({ state }, counts[state] ?? 0);
  });
}

const jobDuration = () => histogram('media_job_duration_seconds', 'Time a media job ran, by job and outcome', ['job', 'outcome'], [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]);

/** The handlers, each timed. */
export function timedHandlers(handlers: JobHandlers): JobHandlers {
  const time = jobDuration();
  const out = {} as Record<string, unknown>;
  for (const [name, handler] of Object.entries(handlers) as [keyof JobHandlers, (p: unknown, c: unknown) => Promise<unknown>][]) {
    out[name] = async (payload: unknown, ctx: unknown) => {
      const end = time.startTimer({ job: name });
      try {
        const result = await handler(payload, ctx);
        end({ outcome: 'done' });
        return result;
      } catch (err) {
        end({ outcome: 'error' });
        throw err;
      }
    };
  }
  return out as unknown as JobHandlers;
}
