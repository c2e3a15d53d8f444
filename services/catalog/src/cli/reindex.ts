/**
 * npm run reindex
 * Rebuilds the product search index (embedded under DATA_DIR, or Meilisearch when MEILI_URL is set)
 * from every product in the catalogue storage, printing how many were indexed and how long it took.
 * Run it after changing products outside the catalog service, or to recover a damaged index.
 */
import { pathToFileURL } from 'node:url';
import { loadConfig } from '@forgeline/service-kit/config';
import { createLogger } from '@forgeline/service-kit/logger';
import { CatalogConfigSchema } from '../config.ts';
import type { Product } from '@forgeline/contracts/products';
import type { ProductRepository, SearchIndex } from '../ports.ts';
import { openStores } from '../stores.ts';

/** Streams the whole catalogue into `search`; returns how many products were read and the time taken. */
export async function reindex(repo: ProductRepository, search: SearchIndex, onBatch?: (read: number) => void): Promise<{ products: number; ms: number }> {
  const started = performance.now();
  let read = 0;
  async function* counted(): AsyncIterable<Product[]> {
    for await (const batch of repo.scan(5000)) {
      read += batch.length;
      onBatch?.(read);
      yield batch;
    }
  }
  await search.rebuild(counted());
  return { products: read, ms: performance.now() - started };
}

async function main(): Promise<void> {
  const config = loadConfig(CatalogConfigSchema);
  const logger = createLogger('reindex', config.LOG_LEVEL);
  const stores = await openStores(config, logger);
  try {
    let lastLog = 0;
    const result = await reindex(stores.repo, stores.search, (read) => {
      if (read - lastLog >= 50_000) {
        lastLog = read;
        logger.info({ read }, 'reading products');
      }
    });
    const indexed = await stores.search.size();
    logger.info(
      { products: result.products, indexed, search: stores.kinds.search, seconds: +(result.ms / 1000).toFixed(1) },
      `reindexed ${indexed.toLocaleString('en-US')} products in ${(result.ms / 1000).toFixed(1)} s`,
    );
  } finally {
    await stores.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`reindex failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
