/** The gateway with the SEO handler plugged in as main.ts plugs it, for the seo tests (real HTTP, other services down). */
import { createLogger } from '@forgeline/service-kit/logger';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { siteConfig } from '@forgeline/site-config/site';
import { freePort } from '@forgeline/test-support/net';
import { createGatewayApp } from '../../src/app.ts';
import { createSeoHandler } from '../../src/seo/seo-handler.ts';

export async function startSeoGateway(opts: {
  catalogUrl: string;
  /** The quotes service, for the no-JavaScript quote form; absent = closed. */
  quotesUrl?: string;
  webDistDir: string;
  serviceToken: string;
  publicUrl: string;
  chunkSize?: number;
  readSlice?: number;
}): Promise<Served> {
  const logger = createLogger('seo-test', 'silent');
  const closed = `http://127.0.0.1:${await freePort()}`;
  const seo = createSeoHandler({
    webDistDir: opts.webDistDir,
    catalogUrl: opts.catalogUrl,
    quotesUrl: opts.quotesUrl ?? closed,
    publicUrl: opts.publicUrl,
    logger,
    serviceToken: opts.serviceToken,
    site: siteConfig,
    sitemapChunkSize: opts.chunkSize,
    sitemapReadSlice: opts.readSlice,
    sitemapCacheMs: 0,
  });
  const app = createGatewayApp({
    logger,
    services: { catalog: opts.catalogUrl, quotes: opts.quotesUrl ?? closed, auth: closed, media: closed },
    upstreamTimeoutMs: 2_000,
    uploadTimeoutMs: 2_000,
    webDistDir: opts.webDistDir,
    pageHandler: seo.pageHandler,
    extraRoutes: seo.mountRoutes,
  });
  return serve(app, { port: 0, logger, handleSignals: false });
}
