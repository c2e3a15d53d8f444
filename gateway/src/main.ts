import { loadConfig } from '@forgeline/service-kit/config';
import { createLogger } from '@forgeline/service-kit/logger';
import { runMain, serve } from '@forgeline/service-kit/serve';
import { createGatewayApp, withEdgeCache } from './app.ts';
import { createEdgeCache } from './edge-cache.ts';
import { gatewayEnv } from './config.ts';
import { createAdminAuth } from './admin-auth.ts';
import { overrideSiteConfig } from '@forgeline/site-config/site';
import { createSeoHandler } from './seo/seo-handler.ts';

runMain('gateway', async () => {
  const config = loadConfig(gatewayEnv);
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const seo = config.WEB_DIST_DIR
    ? createSeoHandler({
        webDistDir: config.WEB_DIST_DIR,
        catalogUrl: config.CATALOG_URL,
        quotesUrl: config.QUOTES_URL, // the no-JavaScript quote form (seo/quote-form.ts)
        publicUrl: config.PUBLIC_URL,
        serviceToken: config.SERVICE_TOKEN, // the product sitemaps read the catalog's /internal/sitemap/products
        site: overrideSiteConfig(process.env), // SITE_PHONE, SITE_EMAIL, ... as the web build's VITE_SITE_*
        logger,
      })
    : undefined;
  const edgeCache = createEdgeCache({ maxBytes: Math.round(config.EDGE_CACHE_MB * 1024 * 1024), logger });
  const app = createGatewayApp({
    logger,
    edgeCache,
    services: { catalog: config.CATALOG_URL, quotes: config.QUOTES_URL, auth: config.AUTH_URL, media: config.MEDIA_URL },
    upstreamTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    uploadTimeoutMs: config.UPLOAD_TIMEOUT_MS,
    webDistDir: config.WEB_DIST_DIR,
    adminAuth: createAdminAuth({ authUrl: config.AUTH_URL, serviceToken: config.SERVICE_TOKEN, logger }),
    pageHandler: seo?.pageHandler,
    extraRoutes: seo?.mountRoutes,
    checkServices: true,
  });
  await serve(withEdgeCache(app, edgeCache), { port: config.PORT, host: config.HOST, logger });
});
