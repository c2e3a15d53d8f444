/**
 * Server-side <head> for the single-page app, so crawlers and link previews get each page's own title,
 * description, canonical URL, Open Graph tags and JSON-LD on the first request, plus robots.txt and sitemaps.
 *
 * `createSeoHandler(...)` returns
 *  - `mountRoutes(app)`: GET /robots.txt, /sitemap.xml, /sitemap-pages.xml, /sitemap-products-<n>.xml;
 *  - `pageHandler`: for page paths the static handler did not answer. Navigations (Accept: text/html) get
 *    web/dist/index.html with the tags injected; other page requests, and any failure here, get the plain
 *    index.html. Paths with a file extension call next() (a missing asset is a 404, not the app).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { SITEMAP_MAX_URLS } from '@forgeline/contracts/sitemap';
import type { QuoteFormState, QuoteViewFormState } from '@forgeline/contracts/ssr';
import type { Logger } from '@forgeline/service-kit/logger';
import { siteConfig, type SiteConfig } from '@forgeline/site-config/site';
import { CatalogReadError, createCatalogReader, type CatalogReader } from './catalog-reader.ts';
import { injectHead } from './html.ts';
import { assemblyHead, brandHead, cardImagePreload, categoryHead, goneHead, machineHead, notFoundHead, productHead, quoteViewHead, staticPageHead, type PageContext, type PageHead } from './pages.ts';
import { createSitemaps, robotsTxt } from './sitemap.ts';
import { createQuoteForm } from './quote-form.ts';
import { createQuoteViewPage, privatePage, QUOTE_VIEW_PAGE } from './quote-view-page.ts';
import { toReplicaPool, type ReplicaPool } from '../replica-pool.ts';
import { createSsrRenderer, createStylesheetReader, injectApp, type PageData, type SsrRenderer } from './ssr.ts';

export interface SeoHandlerOptions {
  /** Folder holding the built index.html. */
  webDistDir: string;
  /** The catalog's replicas (a URL, a list, or the pool the proxy uses). */
  catalogUrl: string | ReplicaPool;
  /** The quotes service: the no-JavaScript quote form's security check and POST /quote-request. */
  quotesUrl?: string | ReplicaPool;
  /** Public origin for canonical URLs and sitemaps (PUBLIC_URL). */
  publicUrl: string;
  logger: Logger;
  /** SERVICE_TOKEN: the product sitemaps read the catalog's /internal/sitemap/products. */
  serviceToken?: string;
  /** Site content; main.ts passes `overrideSiteConfig(process.env)` so SITE_* variables apply. */
  site?: SiteConfig;
  /** Catalog timeout for page requests. */
  fetchTimeoutMs?: number;
  /** Products per sitemap file (at most 50,000; tests use small numbers). */
  sitemapChunkSize?: number;
  /** Products per call to the catalog while a sitemap file is built (tests use small numbers). */
  sitemapReadSlice?: number;
  sitemapCacheMs?: number;
  /** The web app's server-rendering bundle (web/dist/.ssr/entry-server.js); absent = head tags only. */
  ssrEntry?: string;
}

const PAGE_SIZE = 75; // spec section 9: category and brand pages
const SEARCH_PAGE_SIZE = 48; // web/src/config/constants.ts: search results and the gallery
const SEARCH_MIN_CHARS = 2;
const SKIP_PREFIXES = ['/api/', '/media/', '/internal/', '/assets/'];
const PRODUCT_SITEMAP = /^\/sitemap-products-(\d{1,6})\.xml$/;
/** Content pages the web app's server bundle renders (web/src/entry-server.tsx): no catalogue data needed. */
const SSR_CONTENT_PAGES = new Set(['/about', '/faq', '/contact', '/quote', '/privacy', '/refund-policy', '/shipping-policy', '/disclaimer']);

/** A refused form's state, for the page rendered again with it. */
interface FormStates {
  quote?: QuoteFormState;
  quoteView?: QuoteViewFormState;
}

export interface SeoHandler {
  pageHandler: RequestHandler;
  mountRoutes: (app: Express) => void;
}

export function createSeoHandler(o: SeoHandlerOptions): SeoHandler {
  const publicUrl = o.publicUrl.replace(/\/+$/, '');
  const ctx: PageContext = { site: o.site ?? siteConfig, publicUrl };
  const catalog: CatalogReader = createCatalogReader({
    catalogUrl: o.catalogUrl,
    logger: o.logger,
    serviceToken: o.serviceToken,
    timeoutMs: o.fetchTimeoutMs ?? 1500,
    sitemapTimeoutMs: 30_000,
  });
  const chunkSize = Math.min(SITEMAP_MAX_URLS, Math.max(1, o.sitemapChunkSize ?? SITEMAP_MAX_URLS));
  const sitemaps = createSitemaps({ catalog, publicUrl, chunkSize, readSlice: o.sitemapReadSlice, cacheMs: o.sitemapCacheMs ?? 10 * 60_000 });
  const indexFile = path.join(o.webDistDir, 'index.html');
  const ssr: SsrRenderer = createSsrRenderer(o.ssrEntry ?? path.join(o.webDistDir, '.ssr', 'entry-server.js'), o.logger);
  const stylesheet = createStylesheetReader(o.webDistDir);
  let indexCache: { mtimeMs: number; html: string } | undefined;

  /** index.html, re-read only when the build changes it; null when there is no build. */
  async function indexHtml(): Promise<string | null> {
    try {
      const s = await stat(indexFile);
      if (indexCache?.mtimeMs !== s.mtimeMs) indexCache = { mtimeMs: s.mtimeMs, html: await readFile(indexFile, 'utf8') };
      return indexCache.html;
    } catch {
      return null;
    }
  }

  async function sendXml(req: Request, res: Response, gz: Buffer | null) {
    if (!gz) {
      res.status(404).type('text/plain').send('No such sitemap');
      return;
    }
    res.type('application/xml').setHeader('cache-control', 'public, max-age=600');
    res.vary('accept-encoding');
    if (req.acceptsEncodings('gzip')) {
      res.setHeader('content-encoding', 'gzip');
      res.send(gz);
    } else {
      res.send(gunzipSync(gz));
    }
  }

  /** Express route for one sitemap file; a catalog failure is a 503 the crawler retries. */
  const xmlRoute =
    (build: (req: Request) => Promise<Buffer | null>): RequestHandler =>
    async (req, res) => {
      try {
        await sendXml(req, res, await build(req));
      } catch (err) {
        o.logger.error({ path: req.path, err: (err as Error).message }, 'seo: sitemap build failed');
        res.status(503).setHeader('retry-after', '60');
        res.type('text/plain').send('Sitemap temporarily unavailable');
      }
    };

  function mountRoutes(app: Express) {
    app.get('/robots.txt', (_req, res) => {
      res.type('text/plain').setHeader('cache-control', 'public, max-age=3600');
      res.send(robotsTxt(publicUrl));
    });
    app.get('/sitemap.xml', xmlRoute(() => sitemaps.index()));
    app.get('/sitemap-pages.xml', xmlRoute(() => sitemaps.pages()));
    app.get('/sitemap-diagrams.xml', xmlRoute(() => sitemaps.diagrams()));
    app.get(/^\/sitemap-products-(\d{1,6})\.xml$/, xmlRoute((req) => sitemaps.products(Number(PRODUCT_SITEMAP.exec(req.path)?.[1]))));
    quoteForm.mount(app);
    quoteViewPage.mount(app);
  }

  const requestIdOf = (req: Request) => (req as { id?: string }).id;
  const pageOf = (raw: string | null) => {
    const n = Number(raw ?? 1);
    return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
  };
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };

  /** Page 1 of a listing: the first card's image (the largest paint on phones) starts downloading with the HTML. */
  function withFirstCardPreload(head: PageHead, page: number, first: Parameters<typeof cardImagePreload>[0] | undefined): PageHead {
    if (head.status !== 200 || page !== 1 || !first) return head;
    return { ...head, tags: { ...head.tags, preloadImages: cardImagePreload(first) } };
  }

  /**
   * The head for a path, and the data its page is server-rendered with; catalog failures other than "not found" fall
   * back to a generic head with status 200 (and the page is rendered in the browser).
   */
  async function headFor(req: Request, url: URL, state: FormStates = {}): Promise<PageHead & { data?: PageData }> {
    const quote = state.quote;
    const segments = url.pathname.split('/').filter(Boolean).map(decode);
    const rid = requestIdOf(req);
    const [first, second, third] = segments;
    const search = url.searchParams;
    const page = pageOf(search.get('page'));
    try {
      if (first === 'quote' && second === 'view' && third !== undefined && segments.length === 3) {
        const read = await quoteViewPage.read(req, third);
        if (read.status === 503) return { ...quoteViewHead(ctx, null, 503) };
        const view = read.status === 200 ? read.view : null;
        return { ...quoteViewHead(ctx, view?.reference ?? null, read.status), data: { kind: 'quote-view', token: third, view, form: state.quoteView } };
      }
      if (first === 'products') {
        if (!second) return { ...notFoundHead(ctx, 'Product'), status: 404 };
        const product = await catalog.product(second, rid);
        // ?quote=1 without JavaScript shows the quote form: it needs a security check (or the refused form's state).
        const form = quote ?? (search.get('quote') === '1' ? { captcha: await quoteForm.captcha(req) } : undefined);
        return { ...productHead(ctx, product), data: { kind: 'product', id: second, product, quote: form } };
      }
      if (first === 'category' && second && segments.length <= 3) {
        const list = await catalog.categoryProducts(second, third, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }, rid);
        const sample = list.products[0];
        const head = categoryHead(ctx, {
          categorySlug: second,
          brandSlug: third,
          categoryName: sample?.category,
          brandName: sample?.brandName,
          total: list.pagination.totalProducts,
          page,
          totalPages: Math.max(1, Math.ceil(list.pagination.totalProducts / PAGE_SIZE)),
        });
        const data: PageData | undefined = head.status === 200 && list.products.length ? { kind: 'category', category: second, brand: third, page, list } : undefined;
        return { ...withFirstCardPreload(head, page, sample), data };
      }
      // A machine's parts book and its assemblies (#38): the whole table server-rendered, so it is crawlable.
      if (first === 'machines' && second && third && segments.length === 3) {
        const machine = await catalog.machine(second, third, rid);
        return { ...machineHead(ctx, machine), data: { kind: 'machine', make: second, model: third, machine } };
      }
      if (first === 'machines' && second && third && segments[3] && segments.length === 4) {
        const page = await catalog.assembly(second, third, segments[3], rid);
        return { ...assemblyHead(ctx, page), data: { kind: 'assembly', make: second, model: third, assembly: segments[3], page } };
      }
      if (first === 'machines') return notFoundHead(ctx);
      if (first === 'brands-available' && second && segments.length === 2) {
        const list = await catalog.brandProducts(second, page, rid);
        const head = brandHead(ctx, {
          brandSlug: list.brand.slug || second,
          brandName: list.brand.name,
          total: list.pagination.totalProducts,
          page,
          totalPages: Math.max(1, Math.ceil(list.pagination.totalProducts / PAGE_SIZE)),
        });
        const data: PageData | undefined = head.status === 200 ? { kind: 'brand', brand: second, page, list } : undefined;
        return { ...withFirstCardPreload(head, page, list.products[0]), data };
      }
      const pathname = url.pathname.replace(/\/+$/, '') || '/';
      const head = staticPageHead(ctx, pathname, search);
      if (!head) return notFoundHead(ctx);
      if (pathname === '/') {
        const q = search.get('search')?.trim();
        if (!q) return { ...head, data: { kind: 'home' } };
        let list = null;
        try {
          list = q.length >= SEARCH_MIN_CHARS ? await catalog.search(q, { limit: SEARCH_PAGE_SIZE, offset: (page - 1) * SEARCH_PAGE_SIZE }, rid) : null;
        } catch (err) {
          // A query the catalog refuses (over 120 characters) is still the results page, not a missing one: the
          // app asks again and shows the catalog's message.
          if (err instanceof CatalogReadError && err.status === 400) return head;
          throw err;
        }
        return { ...withFirstCardPreload(head, page, list?.products[0]), data: { kind: 'search', search: q, page, list } };
      }
      if (pathname === '/categories') return { ...head, data: { kind: 'categories', subcategories: await catalog.subcategories(rid) } };
      if (pathname === '/catalog') {
        // The gallery's box is debounced in the app; a search typed into it without JavaScript arrives untrimmed.
        const q = search.get('search')?.trim() ?? '';
        const list = await catalog.catalogProducts(q, { limit: SEARCH_PAGE_SIZE, offset: (page - 1) * SEARCH_PAGE_SIZE }, rid);
        return { ...withFirstCardPreload(head, page, list.products[0]), data: { kind: 'catalog', page, search: q, list } };
      }
      if (pathname === '/quote') {
        // A link that adds parts (?add=, an assembly page's form): without JavaScript, a form for those lines.
        const list = await quoteForm.listPage(req, search, quote);
        if (list) return { ...head, data: { kind: 'quote-list', ...list } };
      }
      return SSR_CONTENT_PAGES.has(pathname) ? { ...head, data: { kind: 'static' } } : head;
    } catch (err) {
      if (err instanceof CatalogReadError && err.status === 410 && first === 'products') {
        o.logger.info({ path: url.pathname, requestId: rid }, 'seo: product taken off the storefront, serving 410 page');
        return goneHead(ctx, err.gone);
      }
      if (err instanceof CatalogReadError && err.notFound) {
        const what =
          first === 'products'
            ? 'Product'
            : first === 'category'
              ? 'Category'
              : first === 'brands-available'
                ? 'Brand'
                : first === 'machines'
                  ? segments.length === 4 ? 'Assembly' : 'Machine'
                  : 'Page';
        o.logger.info({ path: url.pathname, requestId: rid, reason: err.message }, 'seo: not found, serving 404 page');
        return notFoundHead(ctx, what);
      }
      o.logger.warn({ path: url.pathname, requestId: rid, err: (err as Error).message }, 'seo: catalog read failed, generic head');
      const generic = staticPageHead(ctx, '/', new URLSearchParams());
      return { status: 200, tags: { ...generic!.tags, canonical: undefined, openGraph: { ...generic!.tags.openGraph, url: undefined } } };
    }
  }

  /**
   * The document for `url`: index.html with the page's head and, when it can be rendered, the app's own HTML for it.
   * `state` carries a refused form's state: the product page's no-JavaScript quote form (POST /quote-request), or a
   * buyer's quote page answer (POST /quote/view/<token>/<action>).
   */
  async function renderDocument(req: Request, url: URL, state: FormStates = {}): Promise<{ status: number; html: string } | null> {
    const html = await indexHtml();
    if (html === null) return null;
    try {
      const head = await headFor(req, url, state);
      // One leading slash: `/x/..//` resolves to `//`, which the renderer's URL parsing would take for a host.
      const page = `${url.pathname.replace(/^\/+/, '/')}${url.search}`;
      const rendered = head.data ? await ssr.render(page, head.data, requestIdOf(req)) : null;
      const withHead = injectHead(html, head.tags);
      return { status: head.status, html: rendered ? injectApp(withHead, rendered, await stylesheet(html)) : withHead };
    } catch (err) {
      o.logger.error({ path: url.pathname, requestId: requestIdOf(req), err }, 'seo: head failed, plain index.html');
      return { status: 200, html };
    }
  }

  const quotes = o.quotesUrl ? toReplicaPool(o.quotesUrl, 'quotes', o.logger) : undefined;
  const quoteForm = createQuoteForm({ quotes, catalog, logger: o.logger, renderDocument: (req, url, quote) => renderDocument(req, url, { quote }) });
  const quoteViewPage = createQuoteViewPage({ quotes, logger: o.logger, renderDocument });

  const isNavigation = (req: Request) => req.accepts(['html', 'json']) === 'html';

  async function pageHandler(req: Request, res: Response, next: NextFunction) {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || SKIP_PREFIXES.some((p) => req.path.startsWith(p))) return next();
    if (path.posix.basename(req.path).includes('.')) return next();
    res.type('html').setHeader('cache-control', 'no-cache');
    if (QUOTE_VIEW_PAGE.test(req.path)) privatePage(res);
    if (!isNavigation(req)) {
      const html = await indexHtml();
      if (html === null) return next();
      res.send(html);
      return;
    }
    // Appended, not resolved: a path starting `//` would be read as another host (and fail as one).
    const doc = await renderDocument(req, new URL(`http://page.local${req.originalUrl}`));
    if (!doc) return next();
    res.status(doc.status).send(doc.html);
  }

  return { pageHandler, mountRoutes };
}
