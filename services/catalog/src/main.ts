import path from 'node:path';
import { loadConfig, serverLimitsOf } from '@forgeline/service-kit/config';
import { createLogger } from '@forgeline/service-kit/logger';
import { openClearChannel } from '@forgeline/service-kit/clear-channel';
import { connectRedis } from '@forgeline/service-kit/redis';
import { runMain, serve } from '@forgeline/service-kit/serve';
import { createApp } from './app.ts';
import { PARTS_MATCH_PER_MINUTE } from './routes/parts-match.ts';
import { CatalogConfigSchema } from './config.ts';
import { changeFeedLagSource } from './metrics.ts';
import { catalogPaths, openStores } from './stores.ts';
import { SearchReplication } from './jobs/search-replication.ts';
import { openRedisChangeFeed } from './adapters/redis/redis-change-feed.ts';

const REINDEX_BATCH = 2_000;

runMain('catalog', async () => {
  const config = loadConfig(CatalogConfigSchema);
  const logger = createLogger('catalog', config.LOG_LEVEL);
  const stores = await openStores(config, logger);
  const { repo } = stores;

  // Replicas: shared rate limits, and a write through one empties every one's ready-made answers.
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, logger, 'replicas') : undefined;
  const clears = redis ? openClearChannel({ redis, channel: 'forgeline:catalog:response-cache', logger }) : undefined;
  // A search rule (alias, synonym, not stocked) changed on one replica: the others read the rules again at once.
  const rulesChannel = redis ? openClearChannel({ redis, channel: 'forgeline:catalog:search-rules', logger }) : undefined;
  logger.info({ replicas: redis ? 'redis' : 'this process only' }, 'rate limits and response cache');

  // Each replica's embedded index follows the others' writes through the change feed (Meilisearch is shared already).
  const replication =
    redis && stores.kinds.search === 'embedded'
      ? new SearchReplication({
          repo,
          search: stores.search,
          feed: openRedisChangeFeed({ redis, stream: 'forgeline:catalog:changes', logger }),
          positionFile: path.join(catalogPaths(config.DATA_DIR).searchDir, 'change-feed-position.json'),
          logger,
        })
      : undefined;
  const search = replication?.index ?? stores.search;
  if (replication) changeFeedLagSource.read = () => replication.lag();

  // An empty index over a filled store (a new search engine, a lost index folder): rebuild it while serving;
  // /readyz says "not ready" until it is done, so the launcher and compose wait for it. With the change feed the
  // replication does this, and catches up with the others' writes, before it reports ready.
  const [products, indexed] = await Promise.all([repo.count(), search.size()]);
  let reindexing = !replication && products > 0 && indexed === 0;
  logger.info({ products, indexed, reindexing, changeFeed: !!replication }, 'catalog opened');

  const app = createApp({
    repo,
    search,
    serviceToken: config.SERVICE_TOKEN,
    logger,
    ready: () => !reindexing && (replication?.isCaughtUp() ?? true),
    partsMatchPerMinute: PARTS_MATCH_PER_MINUTE * config.RATE_LIMIT_MULTIPLIER,
    tmpDir: path.join(config.DATA_DIR, 'tmp'),
    importWorker:
      stores.kinds.storage === 'sqlite' ? { sqliteFile: catalogPaths(config.DATA_DIR).sqlite, logLevel: config.LOG_LEVEL, cacheMb: config.IMPORT_CACHE_MB } : undefined,
    responseCache: { maxBytes: Math.round(config.RESPONSE_CACHE_MB * 1024 * 1024), ttlMs: config.RESPONSE_CACHE_TTL_SECONDS * 1000 },
    redis,
    responseCacheClears: clears,
    searchChanges: replication,
    searchInsights: { store: stores.insights, retentionDays: config.SEARCH_ANALYTICS_RETENTION_DAYS, rulesChannel },
    diagrams: stores.diagrams,
  });
  await serve(app, {
    host: config.HOST,
    port: config.PORT,
    logger,
    limits: serverLimitsOf(config),
    onClose: async () => {
      await (app.locals.searchInsights as { stop(): Promise<void> } | undefined)?.stop();
      await replication?.stop();
      await rulesChannel?.close();
      await clears?.close();
      redis?.disconnect();
      await stores.close();
    },
  });

  await replication?.start();
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
