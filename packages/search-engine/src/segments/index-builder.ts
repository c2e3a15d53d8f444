import { parentPort, workerData, type Worker } from 'node:worker_threads';
import { lowerThreadPriority, startTsWorker } from '@forgeline/service-kit/ts-worker';
import type { SearchDoc } from '../documents/search-doc.ts';
import { buildSegmentParts, mergeSegmentParts, segmentTransfer, type SegmentParts } from './segment-builder.ts';

/**
 * Builds the engine's segments in a worker thread, so that indexing a bulk import (hundreds of thousands of parts,
 * tokenized, sorted and merged) never holds up the catalog's thread, which keeps answering
 * searches from the segments it has until the new ones arrive. Small jobs (an edit, a few parts) run in the calling
 * thread: a round trip would cost more than the work. If the worker cannot start or dies, the work runs in the
 * calling thread: slower for searches meanwhile, never lost. (The full merge runs in a process of its own:
 * merge-process.ts.)
 */

const ROLE = 'search-index-builder';
/** Below these sizes a job runs in the calling thread. */
const IN_THREAD_DOCS = 200;
const IN_THREAD_POSTINGS = 20_000;
/** A thread idle this long ends (its memory goes back); the next job starts another. */
const IDLE_MS = 20_000;

type Job =
  | { op: 'build'; docs: SearchDoc[]; first: number }
  | { op: 'merge'; segs: SegmentParts[]; remap: Int32Array; lo: number };

type Reply = { id: number; ok: true; result: SegmentParts } | { id: number; ok: false; message: string };

async function runJob(job: Job): Promise<SegmentParts> {
  switch (job.op) {
    case 'build':
      return buildSegmentParts(job.docs, job.first);
    case 'merge':
      return mergeSegmentParts(job.segs, job.remap, job.lo);
  }
}

if (parentPort && (workerData as { role?: string } | undefined)?.role === ROLE) {
  const port = parentPort;
  // Background work: searches in the catalog's thread go first on a busy machine.
  lowerThreadPriority(10);
  port.on('message', (m: { id: number; job: Job }) => {
    runJob(m.job).then(
      (result) => {
        port.postMessage({ id: m.id, ok: true, result } satisfies Reply, segmentTransfer(result));
      },
      (err: unknown) => port.postMessage({ id: m.id, ok: false, message: (err as Error).stack ?? String(err) } satisfies Reply),
    );
  });
}

export class IndexBuilder {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly waiting = new Map<number, { job: Job; handedOver: boolean; resolve: (r: never) => void; reject: (e: Error) => void }>();
  private closed = false;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Jobs done by the builder thread (logs, tests). */
  threadJobs = 0;

  /** A segment over `docs`, numbered from `first`. */
  build(docs: SearchDoc[], first: number): Promise<SegmentParts> {
    const job: Job = { op: 'build', docs, first };
    return docs.length < IN_THREAD_DOCS ? runJob(job) as Promise<SegmentParts> : this.send(job);
  }

  /**
   * One segment from several over ascending ranges of documents (see mergeVocabParts). The segments and `remap` are
   * handed over (their buffers move to the builder thread): pass copies of segments still in use.
   */
  merge(segs: SegmentParts[], remap: Int32Array, lo: number): Promise<SegmentParts> {
    let postings = 0;
    for (const s of segs) postings += s.words.docs.length + s.codes.docs.length;
    const job: Job = { op: 'merge', segs, remap, lo };
    if (postings < IN_THREAD_POSTINGS) return runJob(job) as Promise<SegmentParts>;
    return this.send(job, [...segs.flatMap(segmentTransfer), remap.buffer as ArrayBuffer]);
  }

  /** Ends an idle thread. */
  private retire(worker: Worker): void {
    if (this.worker !== worker || this.waiting.size > 0) return;
    this.worker = null;
    void worker.terminate();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private send<T>(job: Job, transfer: ArrayBuffer[] = []): Promise<T> {
    const worker = this.closed ? null : this.start();
    if (!worker) return runJob(job) as Promise<T>;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    return new Promise<T>((resolve, reject) => {
      const id = ++this.nextId;
      this.waiting.set(id, { job, handedOver: transfer.length > 0, resolve: resolve as (r: never) => void, reject });
      worker.ref();
      worker.postMessage({ id, job }, transfer);
    });
  }

  private start(): Worker | null {
    if (this.worker) return this.worker;
    let worker: Worker;
    try {
      worker = startTsWorker(import.meta.url, { role: ROLE });
    } catch (err) {
      console.error('embedded search: the index builder thread could not start; building in this thread', err);
      return null;
    }
    worker.unref();
    worker.on('message', (m: Reply) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (this.waiting.size === 0) {
        worker.unref();
        if (this.idleTimer) clearTimeout(this.idleTimer);
        this.idleTimer = setTimeout(() => this.retire(worker), IDLE_MS);
        this.idleTimer.unref();
      }
      if (!w) return;
      if (m.ok) {
        this.threadJobs++;
        w.resolve(m.result as never);
      }
      else w.reject(new Error(`index builder: ${m.message}`));
    });
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      // A build the thread had not finished runs here instead (its documents were copied, not handed over); a merge
      // whose buffers went with the thread fails, and the index keeps the segments it had.
      const pending = [...this.waiting.values()];
      this.waiting.clear();
      if (!this.closed) console.error('embedded search: the index builder thread stopped; finishing its work in this thread', err);
      for (const w of pending) {
        if (w.handedOver) w.reject(new Error(`index builder: the thread stopped during a ${w.job.op} (${err.message})`));
        else runJob(w.job).then(w.resolve as (r: unknown) => void, w.reject);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit ${code}`)));
    this.worker = worker;
    return worker;
  }
}
