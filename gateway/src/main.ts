import { loadConfig, serverLimitsOf } from '@forgeline/service-kit/config';
import { createLogger } from '@forgeline/service-kit/logger';
import { openClearChannel } from '@forgeline/service-kit/clear-channel';
import { connectRedis } from '@forgeline/service-kit/redis';
import { PUBLIC_MAX_HEADER_BYTES, runMain, serve } from '@forgeline/service-kit/serve';
import { createGatewayApp, withEdgeCache } from './app.ts';
import { createEdgeCache } from './edge-cache.ts';
import { gatewayEnv } from './config.ts';
import { createAdminAuth } from './admin-auth.ts';
import { createBuyerAuth } from './buyer-auth.ts';
import { createSearchEventRelay } from './search-events.ts';
import { serveGatewayMetrics } from './metrics-server.ts';
import { createAuditSink } from './audit-sink.ts';
import { overrideSiteConfig } from '@forgeline/site-config/site';
import { createSeoHandler } from './seo/seo-handler.ts';
import { createReplicaPool } from './replica-pool.ts';

runMain('gateway', async () => {
  const config = loadConfig(gatewayEnv);
  const logger = createLogger('gateway', config.LOG_LEVEL);
  // One pool per service, shared by the proxy and the gateway's own calls: a replica found dead by one is skipped by all.
  const replicas = { retryAfterMs: config.UPSTREAM_RETRY_AFTER_MS, connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS, logger };
  const pools = {
    catalog: createReplicaPool({ service: 'catalog', urls: config.CATALOG_URL, ...replicas }),
    quotes: createReplicaPool({ service: 'quotes', urls: config.QUOTES_URL, ...replicas }),
    auth: createReplicaPool({ service: 'auth', urls: config.AUTH_URL, ...replicas }),
    media: createReplicaPool({ service: 'media', urls: config.MEDIA_URL, ...replicas }),
  };
  logger.info(Object.fromEntries(Object.entries(pools).map(([name, pool]) => [name, pool.urls.length])), 'service replicas');
  const seo = config.WEB_DIST_DIR
    ? createSeoHandler({
        webDistDir: config.WEB_DIST_DIR,
        catalogUrl: pools.catalog,
        quotesUrl: pools.quotes, // the no-JavaScript quote form (seo/quote-form.ts)
        publicUrl: config.PUBLIC_URL,
        serviceToken: config.SERVICE_TOKEN, // the product sitemaps read the catalog's /internal/sitemap/products
        site: overrideSiteConfig(process.env), // SITE_PHONE, SITE_EMAIL, ... as the web build's VITE_SITE_*
        logger,
      })
    : undefined;
  const audit = createAuditSink({ authUrl: pools.auth, serviceToken: config.SERVICE_TOKEN, logger });
  const edgeCache = createEdgeCache({ maxBytes: Math.round(config.EDGE_CACHE_MB * 1024 * 1024), logger });
  // Replicas: API key limits counted together, and an admin's change through one empties every edge cache.
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, logger, 'replicas') : undefined;
  const edgeCacheClears = redis ? openClearChannel({ redis, channel: 'forgeline:gateway:edge-cache', logger }) : undefined;
  logger.info({ replicas: redis ? 'redis' : 'this process only' }, 'rate limits and edge cache');
  const searchEvents = createSearchEventRelay({ catalogUrl: pools.catalog, serviceToken: config.SERVICE_TOKEN, logger, redis, perMinute: config.SEARCH_EVENTS_PER_MINUTE });
  const app = createGatewayApp({
    logger,
    edgeCache,
    edgeCacheClears,
    hsts: config.PUBLIC_URL.startsWith('https://'), // Strict-Transport-Security only for a site served over https
    services: pools,
    upstreamTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    uploadTimeoutMs: config.UPLOAD_TIMEOUT_MS,
    webDistDir: config.WEB_DIST_DIR,
    adminAuth: createAdminAuth({
      authUrl: pools.auth,
      serviceToken: config.SERVICE_TOKEN,
      publicUrl: config.PUBLIC_URL,
      keyRateLimitPerMinute: config.API_KEY_RATE_LIMIT_PER_MINUTE,
      redis,
      audit,
      logger,
    }),
    buyerAuth: createBuyerAuth({ authUrl: pools.auth, quotesUrl: pools.quotes, serviceToken: config.SERVICE_TOKEN, publicUrl: config.PUBLIC_URL, logger }),
    pageHandler: seo?.pageHandler,
    extraRoutes: seo?.mountRoutes,
    searchEvents,
    checkServices: true,
  });
  const metrics = await serveGatewayMetrics({ port: config.METRICS_PORT, host: config.HOST, logger });
  await serve(withEdgeCache(app, edgeCache), {
    port: config.PORT,
    host: config.HOST,
    logger,
    limits: serverLimitsOf(config),
    maxHeaderBytes: PUBLIC_MAX_HEADER_BYTES,
    onClose: async () => {
      await metrics.close();
      await searchEvents.close();
      await audit.flush();
      await edgeCacheClears?.close();
      redis?.disconnect();
      await Promise.all(Object.values(pools).map((pool) => pool.close()));
    },
  });
}, { publicEdge: true });
