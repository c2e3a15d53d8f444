import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import type { CatalogImportJob } from '@forgeline/contracts/catalog-admin';
import { createLogger } from '@forgeline/service-kit/logger';
import { tempDir } from '@forgeline/test-support/net';
import { COMPACT_AFTER } from '@forgeline/search-engine/persistence/compaction';
import { EmbeddedSearchIndex } from '../src/adapters/embedded-search/embedded-search-index.ts';
import { SqliteProductRepository } from '../src/adapters/sqlite/sqlite-product-repository.ts';
import { CATALOG_COLUMNS, exportRow } from '../src/domain/catalog-import.ts';
import { createImportRunner } from '../src/jobs/catalog-import.ts';
import { generateProducts } from '../src/seed/generate.ts';

/**
 * A catalogue import holds the embedded index's full merge off until its last batch is in (at 2,000,000 parts the
 * batches come ~10 s apart, the merge's idle wait, and three merges of the whole index ran during one import), then
 * makes it due. Real SQLite store, real embedded index, a real file, the runner the catalog uses.
 */
const tmp = tempDir('forgeline-import-merges-');
afterAll(() => tmp.remove());

it('holds the index merge off while an import runs and makes it due when the import ends', async () => {
  const repo = SqliteProductRepository.open(':memory:');
  const search = await EmbeddedSearchIndex.open(path.join(tmp.dir, 'search'));
  const rows = [...generateProducts({ count: COMPACT_AFTER + 500, seed: 5 })].map(exportRow);
  const file = path.join(tmp.dir, 'import.csv');
  fs.writeFileSync(file, stringify([[...CATALOG_COLUMNS], ...rows]));
  const waitingAfterBatch: boolean[] = [];
  const runner = createImportRunner({
    repo,
    search,
    logger: createLogger('test', 'warn'),
    batchSize: 1000,
    onChange: () => waitingAfterBatch.push(search.stats().mergeWaiting),
  });
  const job: CatalogImportJob = {
    id: 'import-merges',
    state: 'queued',
    dryRun: false,
    missing: 'keep',
    fileName: 'import.csv',
    total: 0,
    processed: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    deactivated: 0,
    errorCount: 0,
    errors: [],
    unknownColumns: [],
    message: null,
    createdBy: 'test@example.com',
    createdAt: new Date().toISOString(),
    startedAt: null,
    finishedAt: null,
  };
  await runner.start({ job, path: file });
  await runner.idle();
  expect(await runner.get(job.id)).toMatchObject({ state: 'completed', created: rows.length });
  // Every batch past the merge threshold found no merge waiting; the end of the import made it due.
  expect(waitingAfterBatch.length).toBeGreaterThan(5);
  expect(search.stats().delta).toBe(rows.length);
  expect(waitingAfterBatch.every((w) => !w)).toBe(true);
  expect(search.stats().mergeWaiting).toBe(true);
  await search.close();
  await repo.close();
});
