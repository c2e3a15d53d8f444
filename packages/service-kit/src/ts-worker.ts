import { fork, type ChildProcess } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

/**
 * A child process running a TypeScript module (by its import.meta.url) through tsx, with an IPC channel that carries
 * structured-clone messages (typed arrays, Maps, Dates). For background work whose memory should not count against
 * the service that starts it (a process's own heap and caches go back whole when it ends). `role` is set in its
 * environment as FORGELINE_CHILD_ROLE, so the module knows it is the child (see childRole).
 */
export function startTsProcess(moduleUrl: string, role: string, nice = 0): ChildProcess {
  const child = fork(fileURLToPath(moduleUrl), [], {
    // Not the parent's own flags (an inspector port or a profiler would clash): only the TypeScript loader.
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    env: { ...process.env, [CHILD_ROLE]: role },
    stdio: 'inherit',
  });
  if (nice && child.pid) {
    try {
      setPriority(child.pid, nice);
    } catch {
      // not allowed: it keeps the parent's priority
    }
  }
  return child;
}

const CHILD_ROLE = 'FORGELINE_CHILD_ROLE';

/** In a process started by startTsProcess: its role; else undefined. */
export function childRole(): string | undefined {
  return process.send ? process.env[CHILD_ROLE] : undefined;
}
