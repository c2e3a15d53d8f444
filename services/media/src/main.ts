import path from 'node:path';
import { loadConfig, serverLimitsOf } from '@forgeline/service-kit/config';
import { createLogger } from '@forgeline/service-kit/logger';
import { createServiceApp, finishApp } from '@forgeline/service-kit/http';
import { runMain, serve } from '@forgeline/service-kit/serve';
import { ConfigSchema, type Config } from './config.ts';
import { createApp } from './app.ts';
import type { JobQueue, WorkerHandle } from './ports.ts';
import { objectStoreOf } from '@forgeline/object-store/config';
import { createSqliteJobQueue } from './adapters/sqlite/job-queue.ts';
import { createBullJobQueue } from './adapters/bullmq/job-queue.ts';
import { timedHandlers, watchQueue } from './metrics.ts';
import { tracedQueue } from './tracing.ts';
import { traced } from '@forgeline/service-kit/tracing';
import { createHttpCatalog } from './adapters/catalog-http/catalog.ts';
import { createJobHandlers } from './worker/process-sku.ts';
import { configureSharp } from './images/variants.ts';
import type { Logger } from '@forgeline/service-kit/logger';


function buildQueue(config: Config, logger: Logger): JobQueue {
  const retry = { attempts: config.MEDIA_JOB_ATTEMPTS, backoffMs: config.MEDIA_JOB_BACKOFF_MS, logger };
  if (config.REDIS_URL) {
    return createBullJobQueue({
      redisUrl: config.REDIS_URL,
      ...retry,
      lockDurationMs: config.MEDIA_JOB_LOCK_MS,
      stalledIntervalMs: config.MEDIA_JOB_STALLED_CHECK_MS,
      maxStalledCount: config.MEDIA_JOB_MAX_STALLED,
    });
  }
  return createSqliteJobQueue(path.join(config.DATA_DIR, 'media-queue.sqlite'), { ...retry, leaseMs: config.MEDIA_JOB_LOCK_MS });
}

// Traces name the role (media-api, media-worker), as the logs do.
runMain(`media-${process.env.MEDIA_ROLE || 'all'}`, async () => {
  const config = loadConfig(ConfigSchema);
  const logger = createLogger(`media-${config.MEDIA_ROLE}`, config.LOG_LEVEL);
  const store = traced(objectStoreOf(config, path.join(config.DATA_DIR, 'media')), 'media.objects');
  const queue = tracedQueue(buildQueue(config, logger));
  watchQueue(queue);
  const catalog = createHttpCatalog(config.CATALOG_URL, config.SERVICE_TOKEN);
  const runsApi = config.MEDIA_ROLE !== 'worker';
  const runsWorker = config.MEDIA_ROLE !== 'api';

  let worker: WorkerHandle | undefined;
  if (runsWorker) {
    configureSharp(config.MEDIA_IMAGE_THREADS);
    worker = await queue.work(timedHandlers(createJobHandlers({ store, catalog, logger })), { concurrency: config.MEDIA_WORKER_CONCURRENCY });
    logger.info(
      { concurrency: config.MEDIA_WORKER_CONCURRENCY, imageThreads: config.MEDIA_IMAGE_THREADS, queue: config.REDIS_URL ? 'bullmq' : 'sqlite' },
      'worker taking jobs',
    );
  }

  // A worker alone still answers /healthz and /readyz (for compose and the launcher).
  const app = runsApi
    ? createApp({
        store,
        queue,
        catalog,
        logger,
        tmpDir: path.join(config.DATA_DIR, 'tmp', 'media-uploads'),
        uploadWaitMs: config.MEDIA_UPLOAD_WAIT_MS,
        serviceToken: config.SERVICE_TOKEN,
        limits: {
          maxFileBytes: config.MEDIA_MAX_FILE_MB,
          maxRequestBytes: config.MEDIA_MAX_REQUEST_MB,
          maxZipBytes: config.MEDIA_MAX_ZIP_MB,
          zip: {
            maxEntries: config.MEDIA_ZIP_MAX_ENTRIES,
            maxTotalUncompressed: config.MEDIA_ZIP_MAX_UNCOMPRESSED_MB,
            maxEntryUncompressed: config.MEDIA_MAX_FILE_MB,
            maxRatio: config.MEDIA_ZIP_MAX_RATIO,
          },
        },
      })
    : finishApp(createServiceApp({ name: 'media-worker', logger, ready: () => queue.ready() }), logger);

  await serve(app, {
    host: config.HOST,
    port: config.PORT,
    logger,
    limits: serverLimitsOf(config),
    onClose: async () => {
      await worker?.close();
      await queue.close();
      await store.close();
    },
  });
  logger.info({ role: config.MEDIA_ROLE, store: config.S3_ENDPOINT ? 'minio' : 'local-fs' }, 'media started');
});
