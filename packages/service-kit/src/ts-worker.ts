import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running a TypeScript module (given by its import.meta.url). The services run through tsx, and a
 * Node 20 worker does not inherit the parent's loader, so the worker registers tsx itself before importing it.
 */
export function startTsWorker(moduleUrl: string, workerData?: unknown): Worker {
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/**
 * Lowers the calling thread's CPU priority (a worker's: background work that must yield to requests). Linux gives
 * each thread its own nice value, so setpriority() on the thread's id (from /proc/thread-self) lowers this thread
 * only. Elsewhere, or when refused, the thread keeps the process's priority.
 */
export function lowerThreadPriority(nice = 10): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) setPriority(tid, nice);
  } catch {
    // not Linux, or not allowed
  }
}
