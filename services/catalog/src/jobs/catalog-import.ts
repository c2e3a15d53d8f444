import { importJobs, importRows } from '../metrics.ts';
import { rm } from 'node:fs/promises';
import type { CatalogAuditEntry, CatalogImportJob, ImportRowError } from '@forgeline/contracts/catalog-admin';
import { IMPORT_ERRORS_SHOWN } from '@forgeline/contracts/catalog-admin';
import type { Product } from '@forgeline/contracts/products';
import type { Logger } from '@forgeline/service-kit/logger';
import type { ProductRepository, SearchIndex } from '../ports.ts';
import { applyRow, CatalogFileError, parseRow, readHeader, type HeaderMap, type ParsedRow } from '../domain/catalog-import.ts';
import { countTabularRows, readTabularRows, TabularFileError } from '../adapters/spreadsheet/tabular-file.ts';
import { CATALOG_IMPORT_XLSX_LIMITS as limits } from '../adapters/spreadsheet/xlsx-limits.ts';

/**
 * Runs catalogue imports in the background, one at a time, in batches: each batch is read from the store, compared,
 * written with its audit entries in one transaction, then put in the search index, so a stop between batches leaves
 * whole batches behind. A process that stopped mid-import marks it failed on the next start and re-indexes the
 * parts it had written (recover()).
 */

export interface ImportRunnerDeps {
  repo: ProductRepository;
  search: SearchIndex;
  logger: Logger;
  /** After every batch written: public read caches must forget. */
  onChange: () => void;
  batchSize?: number;
  /**
   * Runs a job somewhere else (a process of its own writing through its own connection), calling back for progress and
   * for each batch to index here; absent, jobs run in this thread.
   */
  inWorker?: (
    req: ImportRequest,
    here: { progress: (job: CatalogImportJob) => void; index: (upserts: Product[], removes: string[]) => Promise<void> },
  ) => Promise<void>;
}

export const IMPORT_BATCH = 500;
const SAVE_EVERY_MS = 1000;
/** Parts indexed at a time in the catalog's thread, with a turn for waiting requests between slices. */
const INDEX_SLICE = 500;

export interface ImportRequest {
  job: CatalogImportJob;
  /** The uploaded file; removed when the import ends. */
  path: string;
}

export function createImportRunner(deps: ImportRunnerDeps) {
  const { repo, search, logger } = deps;
  const batchSize = deps.batchSize ?? IMPORT_BATCH;
  const live = new Map<string, CatalogImportJob>();
  let tail: Promise<void> = Promise.resolve();

  /** Queues an import (saved as queued first, so its id answers at once). */
  async function start(req: ImportRequest): Promise<void> {
    live.set(req.job.id, req.job);
    await repo.saveImportJob(req.job);
    tail = tail.then(() => run(req)).catch(() => undefined);
  }

  /** The job as it is now: from memory while it runs, else from the store. */
  async function get(id: string): Promise<CatalogImportJob | null> {
    return live.get(id) ?? (await repo.getImportJob(id));
  }

  /** Resolves when every queued import has ended (tests, shutdown). */
  const idle = () => tail;

  async function run(req: ImportRequest): Promise<void> {
    // What stays in this thread wherever the job runs: its progress for GET, and the search index.
    const here = {
      progress: (job: CatalogImportJob) => live.set(job.id, job),
      index: async (upserts: Product[], removes: string[]) => {
        for (let i = 0; i < upserts.length; i += INDEX_SLICE) {
          await search.upsert(upserts.slice(i, i + INDEX_SLICE));
          await new Promise((r) => setImmediate(r));
        }
        await search.remove(removes);
        deps.onChange();
      },
    };
    // Merged once at the end, not while the batches come (at 2,000,000 parts a merge is half a minute of a core).
    const releaseMerges = search.holdMerges?.();
    try {
      if (deps.inWorker) await deps.inWorker(req, here);
      else await runImportJob({ job: req.job, path: req.path, store: repo, logger, batchSize, ...here });
    } catch (err) {
      // Only a worker that could not run at all gets here (the job itself records its own failures).
      logger.error({ importId: req.job.id, err }, 'catalogue import could not run');
      await repo
        .saveImportJob({ ...req.job, state: 'failed', message: 'The import could not run; see the service log.', finishedAt: new Date().toISOString() })
        .catch(() => undefined);
    } finally {
      releaseMerges?.();
      live.delete(req.job.id);
      await rm(req.path, { force: true }).catch(() => undefined);
    }
  }

  /**
   * After a restart: imports left queued or running are marked failed, and the parts they wrote are put in the
   * search index again (a stop between a batch's write and its indexing would leave the index behind).
   */
  async function recover(): Promise<number> {
    const marked = await repo.failUnfinishedImports('The service stopped during this import; the batches written before the stop are kept. Run the import again to finish it.', new Date().toISOString());
    if (marked === 0) return 0;
    // The audit names every part an import wrote: re-index those of the most recent imports.
    const recent = await repo.listAudit({ limit: 200_000 });
    const skus = [...new Set(recent.filter((a) => a.source.startsWith('import:')).map((a) => a.sku))];
    for (let i = 0; i < skus.length; i += batchSize) {
      const stored = await repo.getBySkus(skus.slice(i, i + batchSize));
      const parts = [...stored.values()];
      await search.upsert(parts.filter((p) => p.active).map((p) => p.product));
      await search.remove(parts.filter((p) => !p.active).map((p) => p.product.id));
    }
    logger.warn({ imports: marked, reindexed: skus.length }, 'catalogue imports left unfinished by a stop marked failed; their parts re-indexed');
    deps.onChange();
    return marked;
  }

  return { start, get, idle, recover };
}

export type ImportRunner = ReturnType<typeof createImportRunner>;

/** What an import job needs of the store: the calls it reads and writes with. */
export type ImportStore = Pick<ProductRepository, 'getBySkus' | 'applyChanges' | 'deactivate' | 'scanSkus' | 'addImportErrors' | 'saveImportJob'>;

export interface ImportJobContext {
  job: CatalogImportJob;
  path: string;
  store: ImportStore;
  logger: Logger;
  batchSize: number;
  /** Puts written parts into the search index (and lets read caches forget); removes taken-off ones. */
  index: (upserts: Product[], removes: string[]) => Promise<void>;
  /** The job as it stands, at each save. */
  progress?: (job: CatalogImportJob) => void;
}

/**
 * One import, start to end: count the rows, then read, check, compare and write them batch by batch, then take off
 * the parts the file did not name (missing=deactivate). Runs in the catalog process or in a process of its own with its
 * own connection (catalog-import-worker.ts, on SQLite); it records its own failures on the job.
 */
export async function runImportJob(ctx: ImportJobContext): Promise<void> {
  const { job, path, store, logger, batchSize, index, progress } = ctx;
  const started = Date.now();
  let lastSave = 0;
  const save = async (force = false) => {
    if (!force && Date.now() - lastSave < SAVE_EVERY_MS) return;
    lastSave = Date.now();
    await store.saveImportJob({ ...job, errors: [...job.errors] });
  };
  const pendingErrors: ImportRowError[] = [];
  const report = (errors: ImportRowError[]) => {
    job.errorCount += errors.length;
    for (const e of errors) if (job.errors.length < IMPORT_ERRORS_SHOWN) job.errors.push(e);
    pendingErrors.push(...errors);
  };
  const flushErrors = async () => {
    if (pendingErrors.length) await store.addImportErrors(job.id, pendingErrors.splice(0));
  };

  try {
    job.state = 'running';
    job.startedAt = new Date().toISOString();
    // First pass: count the rows, for an honest progress bar (and refuse a broken file before writing anything).
    job.total = Math.max(0, (await countTabularRows(path, { limits })) - 1);
    await save(true);

    let header: HeaderMap | null = null;
    const seen = new Map<string, number>(); // sku -> row, across the whole file
    let batch = new Map<string, ParsedRow>();
    const now = new Date().toISOString();
    const actor = job.createdBy;
    // One written batch may be in the index's hands while the next is read and written; the one after waits for it.
    let indexing: Promise<void> = Promise.resolve();
    const indexAfter = async (upserts: Product[], removes: string[]) => {
      await indexing;
      indexing = index(upserts, removes);
      // A failed indexing must fail the job at the next batch, not go unhandled meanwhile.
      indexing.catch(() => undefined);
    };

    const flush = async () => {
      if (batch.size === 0) return;
      const parsed = [...batch.values()];
      batch = new Map();
      const stored = await store.getBySkus(parsed.map((p) => p.sku));
      const writes: Product[] = [];
      const audit: CatalogAuditEntry[] = [];
      for (const p of parsed) {
        const before = stored.get(p.sku);
        const outcome = applyRow(p, before?.product ?? null, now);
        if (outcome.kind === 'error') {
          report(outcome.errors);
          continue;
        }
        const revived = before !== undefined && !before.active;
        if (outcome.kind === 'unchanged' && !revived) {
          job.unchanged++;
          continue;
        }
        const product = outcome.kind === 'unchanged' ? before!.product : outcome.product;
        writes.push(product);
        if (outcome.kind === 'created') job.created++;
        else job.updated++;
        audit.push({
          at: now,
          actor,
          source: `import:${job.id}`,
          productId: product.id,
          sku: product.sku,
          action: revived ? 'reactivated' : outcome.kind === 'created' ? 'created' : 'updated',
          fields: outcome.kind === 'unchanged' ? [] : outcome.changed,
        });
      }
      if (!job.dryRun && writes.length) {
        await store.applyChanges(writes, audit);
        await indexAfter(writes, []);
      }
      await flushErrors();
    };

    for await (const { row, cells } of readTabularRows(path, { limits })) {
      if (!header) {
        if (!cells.some((c) => c.trim())) continue;
        header = readHeader(cells);
        job.unknownColumns = header.unknown;
        continue;
      }
      const result = parseRow(cells, row, header);
      if (result === null) continue;
      job.processed++;
      if ('errors' in result) {
        report(result.errors);
        const sku = header.index.sku === undefined ? '' : (cells[header.index.sku] ?? '').trim();
        if (sku) seen.set(sku, seen.get(sku) ?? row); // named in the file: not "missing"
      } else {
        const earlier = seen.get(result.ok.sku);
        if (earlier !== undefined) report([{ row, column: 'sku', message: `"${result.ok.sku}" is also on row ${earlier}; this later row is applied` }]);
        seen.set(result.ok.sku, row);
        batch.set(result.ok.sku, result.ok);
      }
      if (batch.size >= batchSize) {
        await flush();
        await save();
        // Let waiting requests (searches, page reads) run between batches: the store's writes are synchronous.
        await new Promise((r) => setImmediate(r));
      }
    }
    await flush();
    await indexing;
    if (!header) throw new CatalogFileError('the file has no header row (the first row names the columns, one of them "sku")');

    if (job.missing === 'deactivate') {
      const gone: string[] = [];
      const skuOf = new Map<string, string>();
      for await (const page of store.scanSkus(5000)) {
        for (const p of page) {
          if (!seen.has(p.sku)) {
            gone.push(p.id);
            skuOf.set(p.id, p.sku);
          }
        }
      }
      for (let i = 0; i < gone.length; i += batchSize) {
        const ids = gone.slice(i, i + batchSize);
        if (job.dryRun) {
          job.deactivated += ids.length;
          continue;
        }
        const audit = ids.map((id): CatalogAuditEntry => ({ at: now, actor, source: `import:${job.id}`, productId: id, sku: skuOf.get(id)!, action: 'deactivated', fields: [] }));
        const moved = await store.deactivate(ids, audit);
        await indexAfter([], moved.map((p) => p.id));
        job.deactivated += moved.length;
        await save();
      }
    }
    await indexing;
    job.state = job.errorCount ? 'completed_with_errors' : 'completed';
    job.finishedAt = new Date().toISOString();
    await save(true);
    if (!job.dryRun) {
      importRows.inc({ outcome: 'created' }, job.created);
      importRows.inc({ outcome: 'updated' }, job.updated);
      importRows.inc({ outcome: 'unchanged' }, job.unchanged);
      importRows.inc({ outcome: 'error' }, job.errorCount);
    }
    importJobs.inc({ state: job.state });
    logger.info(
      { importId: job.id, dryRun: job.dryRun, total: job.total, created: job.created, updated: job.updated, unchanged: job.unchanged, deactivated: job.deactivated, errors: job.errorCount, ms: Date.now() - started },
      'catalogue import finished',
    );
  } catch (err) {
    const known = err instanceof CatalogFileError || err instanceof TabularFileError;
    job.state = 'failed';
    importJobs.inc({ state: 'failed' });
    job.message = known ? (err as Error).message : 'The import stopped on an unexpected error; the batches written before it are kept. See the service log.';
    job.finishedAt = new Date().toISOString();
    if (known) logger.warn({ importId: job.id, err: (err as Error).message }, 'catalogue import refused');
    else logger.error({ importId: job.id, err }, 'catalogue import failed');
    await flushErrors().catch(() => undefined);
    await save(true).catch((e: unknown) => logger.error({ importId: job.id, err: e }, 'catalogue import: could not record the failure'));
  }
}
