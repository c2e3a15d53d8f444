import path from 'node:path';
import { loadConfig } from '@forgeline/service-kit/config';
import { createLogger } from '@forgeline/service-kit/logger';
import { runMain, serve } from '@forgeline/service-kit/serve';
import { createApp } from './app.ts';
import { PARTS_MATCH_PER_MINUTE } from './parts-match-routes.ts';
import { CatalogConfigSchema } from './config.ts';
import { catalogPaths, openStores } from './stores.ts';

const REINDEX_BATCH = 2_000;

runMain('catalog', async () => {
  const config = loadConfig(CatalogConfigSchema);
  const logger = createLogger('catalog', config.LOG_LEVEL);
  const stores = await openStores(config, logger);
  const { repo, search } = stores;

  // An empty index over a filled store (a new search engine, a lost index folder): rebuild it while serving;
  // /readyz says "not ready" until it is done, so the launcher and compose wait for it.
  const [products, indexed] = await Promise.all([repo.count(), search.size()]);
  let reindexing = products > 0 && indexed === 0;
  logger.info({ products, indexed, reindexing }, 'catalog opened');

  const app = createApp({
    repo,
    search,
    serviceToken: config.SERVICE_TOKEN,
    logger,
    ready: () => !reindexing,
    partsMatchPerMinute: PARTS_MATCH_PER_MINUTE * config.RATE_LIMIT_MULTIPLIER,
    tmpDir: path.join(config.DATA_DIR, 'tmp'),
    importWorker: stores.kinds.storage === 'sqlite' ? { sqliteFile: catalogPaths(config.DATA_DIR).sqlite, logLevel: config.LOG_LEVEL } : undefined,
    responseCache: { maxBytes: Math.round(config.RESPONSE_CACHE_MB * 1024 * 1024), ttlMs: config.RESPONSE_CACHE_TTL_SECONDS * 1000 },
  });
  await serve(app, { host: config.HOST, port: config.PORT, logger, onClose: () => stores.close() });

  if (reindexing) {
    const started = Date.now();
    try {
      await search.rebuild(repo.scan(REINDEX_BATCH));
      logger.info({ documents: await search.size(), ms: Date.now() - started }, 'search index rebuilt');
    } catch (err) {
      logger.error({ err }, 'search index rebuild failed; search answers from what it has (run `npm run reindex`)');
    } finally {
      reindexing = false;
    }
  }
});
