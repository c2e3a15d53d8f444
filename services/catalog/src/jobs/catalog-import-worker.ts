import type { CatalogImportJob } from '@forgeline/contracts/catalog-admin';
import type { Product } from '@forgeline/contracts/products';
import { createLogger, type Logger } from '@forgeline/service-kit/logger';
import { childRole, startTsProcess } from '@forgeline/service-kit/ts-worker';
import { runImportJob, type ImportRequest, type ImportStore } from './catalog-import.ts';
import { SqliteProductRepository } from '../adapters/sqlite/sqlite-product-repository.ts';

/**
 * Catalogue imports on SQLite run here, in a child process with a connection of its own: better-sqlite3 writes are
 * synchronous (about 200 µs per new row, and checkpoint pauses), and reading and checking a 500,000-row file is
 * CPU work, so in the catalog's thread they would hold up every search and page read. A process rather than a thread:
 * its heap (a batch's rows and the parts they change, the file's SKUs) and its page cache (IMPORT_CACHE_MB)
 * are not the catalog's, and go back whole when the import ends. The catalog keeps the search index: each written
 * batch comes back to it to be indexed while the process writes the next one, and the one after waits for it
 * (back-pressure). If the catalog goes away, so does the process (the open transaction rolls back; the next start
 * marks the job failed).
 *
 * The process's connection is a bulk writer: large transactions (IMPORT_WORKER_BATCH rows), no automatic checkpoint
 * but one every CHECKPOINT_ROWS rows (a 500,000-row import rewrites the same index pages many times over; copying
 * them back into the file every 40 MB of WAL cost more than the writes themselves), no memory map (its reads are
 * the batch's own rows). It runs at a lower CPU priority than the catalog, so searches and page reads go first on a
 * busy machine.
 *
 * It is a way of running the import job (catalog-import.ts), not an implementation of a port, so it lives beside
 * the job and uses the SQLite adapter like any other caller; no adapter imports a job.
 */

/**
 * Rows per transaction in the import process (larger than in-process batches: nothing waits on its thread). Each
 * commit writes every page the batch dirtied, and a batch dirties a leaf page in each of the products table's 8
 * indexes and the history tables' 5 per new row: the more rows share a commit, the fewer times a page is written
 * (100,000 rows into 500,000 parts with a 1 GB cache: 44 s in 5,000-row transactions, 39 s in 20,000-row ones).
 * But each batch is held whole here (its rows, the parts they change, the audit) and crosses to the catalog whole to
 * be indexed: the 500,000-row bench with 20,000-row batches took 143 s, and the import process peaked at 1,086 MB, the
 * catalog at 1,672 MB, search p99 128 ms; with 10,000-row ones 158 s, 889 MB, 995 MB and 68 ms.
 */
export const IMPORT_WORKER_BATCH = 10000;
/** The page cache when none is given (the catalog passes its IMPORT_CACHE_MB). */
const DEFAULT_CACHE_MB = 256;
const CHECKPOINT_ROWS = 100_000;
const WORKER_NICE = 10;
const ROLE = 'catalog-import';

interface WorkerInput {
  sqliteFile: string;
  cacheMb: number;
  req: ImportRequest;
  batchSize: number;
  logLevel: string;
}

type ToMain = { type: 'index'; seq: number; upserts: Product[]; removes: string[] } | { type: 'progress'; job: CatalogImportJob } | { type: 'done' };
type ToWorker = { type: 'indexed'; seq: number } | { type: 'index-failed'; seq: number; message: string };

if (childRole() === ROLE) {
  // The catalog is this process's only reason to be: when its channel closes (the catalog stopped or was killed), stop
  // at once; the open transaction is rolled back and the next start marks the job failed, as after a crash.
  const orphaned = () => process.exit(1);
  process.once('disconnect', orphaned);
  process.once('message', (m: { type: 'start'; input: WorkerInput }) => {
    runChild(m.input).then(
      () => {
        process.off('disconnect', orphaned);
        process.disconnect(); // nothing is left to do: the process ends
      },
      (err: unknown) => {
        console.error('catalogue import process failed', err);
        process.exit(1);
      },
    );
  });
}

async function runChild(input: WorkerInput): Promise<void> {
  const logger = createLogger('catalog-import', input.logLevel as 'info');
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
  process.on('message', (m: ToWorker | { type: 'start' }) => {
    if (m.type === 'start') return;
    const w = waiting.get(m.seq);
    waiting.delete(m.seq);
    if (m.type === 'indexed') w?.resolve();
    else w?.reject(new Error(m.message));
  });
  const send = (m: ToMain) =>
    new Promise<void>((resolve, reject) => process.send!(m, undefined, undefined, (err) => (err ? reject(err) : resolve())));
  await runImportJob({
    job: input.req.job,
    path: input.req.path,
    store,
    logger,
    batchSize: input.batchSize,
    progress: (job) => void send({ type: 'progress', job }).catch(() => undefined),
    index: (upserts, removes) =>
      new Promise<void>((resolve, reject) => {
        const n = ++seq;
        waiting.set(n, { resolve, reject });
        send({ type: 'index', seq: n, upserts, removes }).catch(reject);
      }),
  });
  repo.checkpoint();
  await repo.close();
  await send({ type: 'done' });
}

/**
 * The catalog's side: runs one import in a new child process and serves its calls back (progress, indexing).
 * Resolves when the worker is done; rejects when it could not run or died.
 */
export function runImportInWorker(
  opts: { sqliteFile: string; batchSize: number; logger: Logger; logLevel: string; cacheMb?: number },
  req: ImportRequest,
  here: { progress: (job: CatalogImportJob) => void; index: (upserts: Product[], removes: string[]) => Promise<void> },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const input: WorkerInput = {
      sqliteFile: opts.sqliteFile,
      cacheMb: opts.cacheMb ?? DEFAULT_CACHE_MB,
      req,
      batchSize: opts.batchSize,
      logLevel: opts.logLevel,
    };
    // A process that cannot start throws here, which rejects the promise.
    const worker = startTsProcess(import.meta.url, ROLE, WORKER_NICE);
    worker.send({ type: 'start', input });
    let done = false;
    worker.on('message', (m: ToMain) => {
      if (m.type === 'progress') here.progress(m.job);
      else if (m.type === 'done') {
        // The job has ended and the process's connection is closed: it ends by itself (disconnect), or is ended.
        done = true;
        const kill = setTimeout(() => worker.kill('SIGKILL'), 5_000);
        kill.unref();
        worker.once('exit', () => clearTimeout(kill));
      }
      else if (m.type === 'index') {
        const reply = (answer: ToWorker) => {
          if (worker.connected) worker.send(answer);
        };
        here.index(m.upserts, m.removes).then(
          () => reply({ type: 'indexed', seq: m.seq }),
          (err: unknown) => reply({ type: 'index-failed', seq: m.seq, message: (err as Error).message }),
        );
      }
    });
    worker.once('error', (err) => {
      opts.logger.error({ importId: req.job.id, err }, 'catalogue import process failed');
      if (!done) reject(err);
    });
    worker.once('exit', (code, signal) => {
      if (done && code !== 0) opts.logger.warn({ importId: req.job.id, code, signal }, 'catalogue import process ended uncleanly after its job');
      if (done) resolve();
      else reject(new Error(`the import process stopped (${signal ?? `exit ${code}`}) before the job ended`));
    });
  });
}

