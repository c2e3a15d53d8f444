/**
 * The media queue in traces (#37): adding a job is a producer span of the upload's trace, and the job carries that
 * span's `traceparent`; running it is a consumer span of a trace of its own (a job may run long after the upload's
 * answer, and each retry is a run), linked to the upload's span, with the job's id and attempt. With tracing off the
 * queue is returned as it is.
 */
import { inSpan, linkTo, SpanKind, traceHeaders, tracingOn } from '@forgeline/service-kit/tracing';
import type { JobContext, JobHandlers, JobQueue } from './ports.ts';

export function tracedQueue(queue: JobQueue): JobQueue {
  if (!tracingOn) return queue;
  const add: JobQueue['add'] = (name, payload, opts) =>
    inSpan(`media.queue add ${name}`, { 'messaging.operation.type': 'send', 'messaging.message.id': opts.jobId }, () => {
      const { traceparent } = traceHeaders(); // this producer span's
      return queue.add(name, traceparent ? { ...payload, traceparent } : payload, opts);
    }, { kind: SpanKind.PRODUCER });
  const work: JobQueue['work'] = (handlers, opts) => queue.work(tracedHandlers(handlers), opts);
  return new Proxy(queue, {
    get(target, key) {
      if (key === 'add') return add;
      if (key === 'work') return work;
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function tracedHandlers(handlers: JobHandlers): JobHandlers {
  const out = {} as Record<string, unknown>;
  for (const [name, handler] of Object.entries(handlers) as [keyof JobHandlers, (p: { traceparent?: string }, c: JobContext) => Promise<unknown>][]) {
    out[name] = (payload: { traceparent?: string }, ctx: JobContext) =>
      inSpan(
        `media.job ${name}`,
        { 'messaging.operation.type': 'process', 'messaging.message.id': ctx.id, 'forgeline.job.attempt': ctx.attempt },
        () => handler(payload, ctx),
        { kind: SpanKind.CONSUMER, links: linkTo(payload.traceparent), root: true },
      );
  }
  return out as unknown as JobHandlers;
}
