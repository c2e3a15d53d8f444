import { parentPort, workerData } from 'node:worker_threads';
import type { CatalogImportJob } from '@forgeline/contracts/catalog-admin';
import type { Product } from '@forgeline/contracts/products';
import { createLogger, type Logger } from '@forgeline/service-kit/logger';
import { lowerThreadPriority, startTsWorker } from '@forgeline/service-kit/ts-worker';
import { runImportJob, type ImportRequest, type ImportStore } from '../../catalog-import-jobs.ts';
import { SqliteProductRepository } from './sqlite-product-repository.ts';

/**
 * Catalogue imports on SQLite run here, in a worker thread with a connection of its own: better-sqlite3 writes are
 * synchronous (about 200 µs per new row, and checkpoint pauses), and reading and checking a 500,000-row file is
 * CPU work, so in the catalog's thread they would hold up every search and page read. The catalog thread keeps the
 * search index: each written batch comes back to it to be indexed while the worker writes the next one, and the one
 * after waits for it (back-pressure).
 *
 * The worker's connection is a bulk writer: large transactions (IMPORT_WORKER_BATCH rows), no automatic checkpoint
 * but one every CHECKPOINT_ROWS rows (a 500,000-row import rewrites the same index pages many times over; copying
 * them back into the file every 40 MB of WAL cost more than the writes themselves), no memory map (its reads are
 * the batch's own rows, and mapped pages would count against the catalog's memory). The thread runs at a lower CPU
 * priority than the catalog's, so searches and page reads go first on a busy machine.
 */

/**
 * Rows per transaction in the worker (larger than in-process batches: nothing waits on the worker's thread). Each
 * commit writes every page the batch dirtied, and a batch dirties a leaf page in each of the products table's 8
 * indexes and the history tables' 5 per new row: the more rows share a commit, the fewer times a page is written
 * (100,000 rows into 500,000 parts with a 1 GB cache: 44 s in 5,000-row transactions, 39 s in 20,000-row ones).
 */
export const IMPORT_WORKER_BATCH = 20000;
/** The page cache when none is given (the catalog passes its IMPORT_CACHE_MB). */
const DEFAULT_CACHE_MB = 256;
const CHECKPOINT_ROWS = 100_000;
const WORKER_NICE = 10;

interface WorkerInput {
  sqliteFile: string;
  cacheMb: number;
  req: ImportRequest;
  batchSize: number;
  logLevel: string;
}

type ToMain = { type: 'index'; seq: number; upserts: Product[]; removes: string[] } | { type: 'progress'; job: CatalogImportJob } | { type: 'done' };
type ToWorker = { type: 'indexed'; seq: number } | { type: 'index-failed'; seq: number; message: string };

if (parentPort && (workerData as WorkerInput | undefined)?.sqliteFile) {
  const port = parentPort;
  const input = workerData as WorkerInput;
  const logger = createLogger('catalog-import', input.logLevel as 'info');
  lowerThreadPriority(WORKER_NICE);
  const repo = SqliteProductRepository.open(input.sqliteFile, { cacheMb: input.cacheMb, mmapMb: 0, bulkWriter: true });
  let sinceCheckpoint = 0;
  const wrote = (rows: number) => {
    sinceCheckpoint += rows;
    if (sinceCheckpoint < CHECKPOINT_ROWS) return;
    sinceCheckpoint = 0;
    repo.checkpoint();
  };
  const store: ImportStore = {
    getBySkus: (skus) => repo.getBySkus(skus),
    scanSkus: (n) => repo.scanSkus(n),
    addImportErrors: (id, errors) => repo.addImportErrors(id, errors),
    saveImportJob: (job) => repo.saveImportJob(job),
    applyChanges: async (products, audit) => {
      await repo.applyChanges(products, audit);
      wrote(products.length);
    },
    deactivate: async (ids, audit) => {
      const moved = await repo.deactivate(ids, audit);
      wrote(moved.length);
      return moved;
    },
  };
  const waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  let seq = 0;
  port.on('message', (m: ToWorker) => {
    const w = waiting.get(m.seq);
    waiting.delete(m.seq);
    if (m.type === 'indexed') w?.resolve();
    else w?.reject(new Error(m.message));
  });
  const send = (m: ToMain) => port.postMessage(m);
  await runImportJob({
    job: input.req.job,
    path: input.req.path,
    store,
    logger,
    batchSize: input.batchSize,
    progress: (job) => send({ type: 'progress', job }),
    index: (upserts, removes) =>
      new Promise<void>((resolve, reject) => {
        const n = ++seq;
        waiting.set(n, { resolve, reject });
        send({ type: 'index', seq: n, upserts, removes });
      }),
  });
  repo.checkpoint();
  await repo.close();
  send({ type: 'done' });
  port.close();
}

/**
 * The catalog's side: runs one import in a new worker thread and serves its calls back (progress, indexing).
 * Resolves when the worker is done; rejects when it could not run or died.
 */
export function runImportInWorker(
  opts: { sqliteFile: string; batchSize: number; logger: Logger; logLevel: string; cacheMb?: number },
  req: ImportRequest,
  here: { progress: (job: CatalogImportJob) => void; index: (upserts: Product[], removes: string[]) => Promise<void> },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = startTsWorker(import.meta.url, {
      sqliteFile: opts.sqliteFile,
      cacheMb: opts.cacheMb ?? DEFAULT_CACHE_MB,
      req,
      batchSize: opts.batchSize,
      logLevel: opts.logLevel,
    } satisfies WorkerInput);
    let done = false;
    worker.on('message', (m: ToMain) => {
      if (m.type === 'progress') here.progress(m.job);
      else if (m.type === 'done') {
        // The job has ended and the worker's connection is closed: nothing is left to wait for.
        done = true;
        void worker.terminate();
      }
      else if (m.type === 'index') {
        here.index(m.upserts, m.removes).then(
          () => worker.postMessage({ type: 'indexed', seq: m.seq } satisfies ToWorker),
          (err: unknown) => worker.postMessage({ type: 'index-failed', seq: m.seq, message: (err as Error).message } satisfies ToWorker),
        );
      }
    });
    worker.once('error', (err) => {
      opts.logger.error({ importId: req.job.id, err }, 'catalogue import worker failed');
      reject(err);
    });
    worker.once('exit', (code) => {
      if (done) resolve();
      else reject(new Error(`the import worker stopped (exit ${code}) before the job ended`));
    });
  });
}

