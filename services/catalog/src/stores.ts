import path from 'node:path';
import { traced } from '@forgeline/service-kit/tracing';
import type { Logger } from '@forgeline/service-kit/logger';
import { EmbeddedSearchIndex } from './adapters/embedded-search/embedded-search-index.ts';
import { MeiliSearchIndex } from './adapters/meilisearch/meili-search-index.ts';
import { MongoProductRepository } from './adapters/mongo/mongo-product-repository.ts';
import { SqliteProductRepository } from './adapters/sqlite/sqlite-product-repository.ts';
import type { CatalogConfig } from './config.ts';
import { createSqliteSearchInsights } from './adapters/sqlite/sqlite-search-insights.ts';
import { MongoSearchInsights } from './adapters/mongo/mongo-search-insights.ts';
import { createSqliteDiagramStore } from './adapters/sqlite/sqlite-diagram-store.ts';
import { MongoDiagramStore } from './adapters/mongo/mongo-diagram-store.ts';
import type { DiagramStore, ProductRepository, SearchIndex, SearchInsightsStore } from './ports.ts';

/** Where the embedded adapters keep their data (the launcher checks the SQLite file to decide on seeding). */
export const catalogPaths = (dataDir: string) => ({
  sqlite: path.join(dataDir, 'catalog.sqlite'),
  searchDir: path.join(dataDir, 'catalog-search'),
  insights: path.join(dataDir, 'search-insights.sqlite'),
  diagrams: path.join(dataDir, 'parts-diagrams.sqlite'),
});

export interface Stores {
  repo: ProductRepository;
  search: SearchIndex;
  /** Search analytics and the staff's search rules (#36). */
  insights: SearchInsightsStore;
  /** Parts diagrams: machine models' assemblies and their callouts (#38). */
  diagrams: DiagramStore;
  /** Which adapters were chosen, for the start-up log line. */
  kinds: { storage: 'sqlite' | 'mongodb'; search: 'embedded' | 'meilisearch' };
  close(): Promise<void>;
}

type StoresConfig = Pick<CatalogConfig, 'DATA_DIR' | 'MONGO_URL' | 'MEILI_URL' | 'MEILI_MASTER_KEY' | 'MEILI_INDEX'> &
  Partial<Pick<CatalogConfig, 'SQLITE_CACHE_MB' | 'SQLITE_MMAP_MB'>>;

/** The storage and search the configuration names: MONGO_URL picks MongoDB, MEILI_URL picks Meilisearch. */
export async function openStores(config: StoresConfig, logger?: Logger): Promise<Stores> {
  const paths = catalogPaths(config.DATA_DIR);
  const repo: ProductRepository = config.MONGO_URL
    ? await MongoProductRepository.connect(config.MONGO_URL)
    : SqliteProductRepository.open(paths.sqlite, { cacheMb: config.SQLITE_CACHE_MB, mmapMb: config.SQLITE_MMAP_MB });
  let search: SearchIndex;
  let insights: SearchInsightsStore;
  let diagrams: DiagramStore;
  try {
    insights = config.MONGO_URL ? await MongoSearchInsights.connect(config.MONGO_URL) : createSqliteSearchInsights(paths.insights);
  } catch (err) {
    await repo.close();
    throw err;
  }
  try {
    diagrams = config.MONGO_URL ? await MongoDiagramStore.connect(config.MONGO_URL) : createSqliteDiagramStore(paths.diagrams);
  } catch (err) {
    await Promise.allSettled([repo.close(), insights.close()]);
    throw err;
  }
  try {
    search = config.MEILI_URL
      ? await MeiliSearchIndex.connect({ url: config.MEILI_URL, apiKey: config.MEILI_MASTER_KEY, indexName: config.MEILI_INDEX })
      : await EmbeddedSearchIndex.open(paths.searchDir);
  } catch (err) {
    await Promise.allSettled([repo.close(), insights.close(), diagrams.close()]);
    throw err;
  }
  const kinds = { storage: config.MONGO_URL ? 'mongodb' : 'sqlite', search: config.MEILI_URL ? 'meilisearch' : 'embedded' } as const;
  logger?.info({ ...kinds, dataDir: config.DATA_DIR }, 'catalog stores open');
  return {
    // Each call a span of the request's trace when tracing is on (#37); the objects themselves when it is off.
    repo: traced(repo, 'catalog.store'),
    search: traced(search, `search.${kinds.search}`),
    insights: traced(insights, 'catalog.insights'),
    diagrams: traced(diagrams, 'catalog.diagrams'),
    kinds,
    close: async () => {
      await Promise.allSettled([search.close(), repo.close(), insights.close(), diagrams.close()]);
    },
  };
}
