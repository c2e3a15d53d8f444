import type { Express } from 'express';
import { paginate } from '@forgeline/contracts/common';
import {
  AdminCodeSearchQuerySchema,
  AdminProductsQuerySchema,
  BrandParamsSchema,
  BrandProductsQuerySchema,
  CatalogQuerySchema,
  FitmentModelsQuerySchema,
  GeneratedImageParamsSchema,
  ProductIdParamsSchema,
  ProductImagesUpdateSchema,
  ProductListQuerySchema,
  SkuParamsSchema,
  TestimonialQuerySchema,
  type AdminProductRow,
  type BrandProductsResponse,
  type FitmentMakesResponse,
  type FitmentModelsResponse,
  type MachineFilter,
  type Product,
  type ProductDetail,
  type ProductRef,
  type ProductListResponse,
  type ProductSummary,
  type Subcategory,
  type Testimonial,
} from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import { HttpError, notFound, parseInput } from '@forgeline/service-kit/errors';
import { AdminProductFilterSchema } from '@forgeline/contracts/catalog-admin';
import { createServiceApp, finishApp, route } from '@forgeline/service-kit/http';
import { createResponseCache, RawJson } from '@forgeline/service-kit/response-cache';
import type { ClearChannel } from '@forgeline/service-kit/clear-channel';
import type { Redis } from '@forgeline/service-kit/redis';
import type { Logger } from '@forgeline/service-kit/logger';
import { toAdminRow } from './domain/products.ts';
import { fleetQuery, machineQuery } from './domain/part-history.ts';
import { replacementOf } from './domain/replacement.ts';
import { fitsNarrowing, mergeHistoryHits } from './domain/search/history-search.ts';
import type { DiagramStore, MachineNarrowing, Page, ProductRepository, SearchIndex, SearchInsightsStore, SearchOptions } from './ports.ts';
import { registerPartsDiagramRoutes } from './routes/parts-diagrams.ts';
import { DiagramSearch, whereUsed } from './domain/parts-diagrams.ts';
import { dayOf, SearchEventBuffer } from './domain/search-insights.ts';
import { SearchRules, withPinned } from './domain/search/search-rules.ts';
import { registerSearchInsightsRoutes } from './routes/search-insights.ts';
import { searchDuration, searches } from './metrics.ts';
import { renderPartImageSvg } from './seed/part-image.ts';
import { GeneratedDiagramParamsSchema, renderDemoDiagram } from './seed/demo-diagrams.ts';
import { registerPartsMatchRoutes } from './routes/parts-match.ts';
import { registerProductLookupRoutes } from './routes/product-lookup.ts';
import { registerSitemapRoutes } from './routes/sitemap.ts';
import { registerCatalogAdminRoutes } from './routes/catalog-admin.ts';
import { createImportRunner, IMPORT_BATCH } from './jobs/catalog-import.ts';
import { IMPORT_WORKER_BATCH, runImportInWorker } from './jobs/catalog-import-worker.ts';
import { categoryPath } from '@forgeline/contracts/slug';
import { tmpdir } from 'node:os';

export interface CatalogDeps {
  repo: ProductRepository;
  search: SearchIndex;
  /** Guards /internal routes. */
  serviceToken: string;
  logger: Logger;
  /** An extra readiness condition (main.ts: false while the search index is being rebuilt). */
  ready?: () => boolean;
  /** Parts lists matched per client address per minute (PARTS_MATCH_PER_MINUTE by default). */
  partsMatchPerMinute?: number;
  /** Where uploads (catalogue imports, parts lists) wait while they are read; the system's temp folder by default. */
  tmpDir?: string;
  /** Rows per import batch (IMPORT_BATCH by default; tests use small ones). */
  importBatch?: number;
  /** SQLite: run catalogue imports in a process of their own writing to this file (main.ts), not in the request thread. */
  importWorker?: { sqliteFile: string; logLevel: string; cacheMb?: number };
  /** Ready-made answers of the public reads (default 64 MB, 60 s); maxBytes 0 turns it off. */
  responseCache?: { maxBytes: number; ttlMs: number };
  /** REDIS_URL's connection: the parts-list limit counts across every catalog replica. */
  redis?: Redis;
  /**
   * Replicas over shared storage (MongoDB): a write here empties every replica's ready-made answers, not
   * only this one's, which would otherwise serve (and feed the gateway's edge cache) the old answer for up to the TTL.
   */
  responseCacheClears?: ClearChannel;
  /** Other replicas' writes applied to this replica's search index (change feed): its search answers must go. */
  searchChanges?: { onApplied(listener: () => void): void };
  /**
   * Search analytics and the staff's search rules (#36). `rulesChannel`: replicas over shared storage hear each
   * other's rule changes at once (they also poll the store every few seconds).
   */
  searchInsights?: { store: SearchInsightsStore; retentionDays: number; rulesChannel?: ClearChannel; buffer?: ConstructorParameters<typeof SearchEventBuffer>[2] };
  /** Parts diagrams (#38): machine models' assemblies; a part's page then says where it is drawn. */
  diagrams?: DiagramStore;
}

/** How many rows the admin part-number search returns at most. */
export const CODE_SEARCH_LIMIT = 50;

export const RESPONSE_CACHE_DEFAULTS = { maxBytes: 64 * 1024 * 1024, ttlMs: 60_000 };
/**
 * How long the gateway's edge cache may answer a public read without asking again. Writes through
 * the gateway empty it at once; the media worker's image changes show within this time.
 */
export const PUBLIC_READ_SHARED_SECONDS = 5;

const quoted = (text: string) => `"${text.length > 60 ? `${text.slice(0, 60)}…` : text}"`;

export function createApp(deps: CatalogDeps): Express {
  const { repo, search, logger } = deps;

  /** The part that supersedes this one (following the chain to today's part), or null. */
  async function replacementRef(product: Product): Promise<ProductRef | null> {
    const current = await replacementOf(repo, product);
    return current ? { id: current.id, name: current.name, partNumber: current.partNumber, slug: current.slug } : null;
  }
  const app = createServiceApp({
    name: 'catalog',
    logger,
    adminGuard: { serviceToken: deps.serviceToken },
    // A pasted parts list is up to 500 lines of 500 characters.
    jsonLimit: '300kb',
    ready: async () => {
      if (deps.ready && !deps.ready()) return false;
      await repo.count();
      return search.ready();
    },
  });

  // Public reads answer from ready-made JSON; every write below clears it. Off while the index is rebuilt.
  const cache = createResponseCache({
    ...(deps.responseCache ?? RESPONSE_CACHE_DEFAULTS),
    enabled: () => !deps.ready || deps.ready(),
    sharedMaxAgeSeconds: PUBLIC_READ_SHARED_SECONDS,
  });
  const clears = deps.responseCacheClears;
  clears?.onClear(() => cache.clear());
  deps.searchChanges?.onApplied(() => cache.clear());
  /** After a write: this replica's answers and, through the channel, every other replica's. */
  const clearAnswers = () => {
    cache.clear();
    clears?.announce();
  };

  const diagramSearch = deps.diagrams ? new DiagramSearch(deps.diagrams) : null;
  clears?.onClear(() => diagramSearch?.clear());

  // Search analytics and the staff's rules (#36): their buffer and rules live as long as the app.
  const insights = deps.searchInsights;
  const rules = insights ? new SearchRules(insights.store, logger, () => cache.clear()) : null;
  const buffer = insights ? new SearchEventBuffer(insights.store, logger, insights.buffer) : null;
  if (insights && rules && buffer) {
    insights.rulesChannel?.onClear(() => void rules.refresh().catch((err: unknown) => logger.warn({ err }, 'search rules: reading them again failed')));
    void rules.refresh().catch((err: unknown) => logger.error({ err }, 'search rules: first read failed; searching without them until the next'));
    rules.start();
    buffer.start();
    const prune = () => {
      const before = dayOf(new Date(Date.now() - insights.retentionDays * 86_400_000));
      insights.store.prune(before).then(
        (n) => n && logger.info({ before, rows: n }, 'search analytics: older counts dropped (retention)'),
        (err: unknown) => logger.warn({ err }, 'search analytics: dropping older counts failed; will try again'),
      );
    };
    prune();
    const pruning = setInterval(prune, 6 * 3_600_000);
    pruning.unref();
    app.locals.searchInsights = {
      buffer,
      rules,
      stop: async () => {
        clearInterval(pruning);
        rules.stop();
        await buffer.stop();
      },
    };
  }

  /** The engine's hits with a part's history placed among them (see domain/search/history-search.ts), after the parts an alias names. */
  async function searchProducts(query: string, opts: SearchOptions): Promise<Page<ProductSummary>> {
    const timer = searchDuration.startTimer();
    const withRules: SearchOptions = rules?.synonyms ? { ...opts, synonyms: rules.synonyms } : opts;
    const aliased = rules?.aliasFor(query) ?? [];
    const pinned = aliased.length ? (await repo.getSummaries(aliased)).filter((s) => fitsNarrowing(s, opts)) : [];
    const page = await withPinned(pinned, opts, (window) => mergeHistoryHits(repo, query, withRules, window, (w) => searchEngine(query, { ...withRules, ...w })));
    timer();
    searches.inc({ results: page.total === 0 ? 'zero' : 'some' });
    return page;
  }

  async function searchEngine(query: string, opts: SearchOptions): Promise<Page<ProductSummary>> {
    const result = await search.search(query, opts);
    const summaries = await repo.getSummaries(result.hits.map((h) => h.id));
    if (summaries.length < result.hits.length) {
      // The index names products the store no longer has: say so, and serve what exists.
      logger.warn({ query, hits: result.hits.length, found: summaries.length }, 'search index is behind the store');
    }
    const matches = new Map(result.hits.map((h) => [h.id, h.matches]));
    return { items: summaries.map((s) => ({ ...s, matches: matches.get(s.id) ?? [] })), total: result.total };
  }

  /** make, model and serial, or machines, of a request as the store takes them (empty: no machine chosen). */
  function machineOf(q: MachineFilter): MachineNarrowing {
    if (q.machines) return { fleet: fleetQuery(q.machines) };
    const machine = machineQuery(q);
    return machine ? { machine } : {};
  }

  /** ...and as the search engines take it: with the ids of the parts that fit (the store's answer decides). */
  async function searchNarrowing(n: MachineNarrowing): Promise<Pick<SearchOptions, 'machine' | 'fleet' | 'onlyIds'>> {
    if (n.fleet) return { fleet: n.fleet, onlyIds: await repo.idsFittingAny(n.fleet) };
    if (n.machine) return { machine: n.machine, onlyIds: await repo.idsFitting(n.machine) };
    return {};
  }

  /** Search hits narrowed to a fleet: each says which of the fleet's machines it fits (the store's lists say it themselves). */
  async function withFitsMachines(page: Page<ProductSummary>, n: MachineNarrowing): Promise<Page<ProductSummary>> {
    if (!n.fleet || page.items.length === 0) return page;
    const fits = await repo.fleetFits(page.items.map((p) => p.id), n.fleet);
    return { items: page.items.map((p) => ({ ...p, fitsMachines: fits.get(p.id) ?? [] })), total: page.total };
  }

  /** A list answer; a page the store gave as JSON text goes out as it came (RawJson), not parsed and serialised again. */
  function listResponse<T extends ProductListResponse = ProductListResponse>(
    page: Page<ProductSummary>,
    limit: number,
    offset: number,
    extra?: Omit<T, keyof ProductListResponse>,
  ): T | RawJson {
    const pagination = paginate(page.total, limit, offset);
    if (page.itemsJson === undefined) return { products: page.items, pagination, ...extra } as T;
    return new RawJson(`{"products":${page.itemsJson},${JSON.stringify({ pagination, ...extra }).slice(1)}`);
  }

  async function requireCategory(name: string) {
    const category = await repo.findCategory(slugify(name));
    if (!category) throw notFound(`Category ${quoted(name)}`);
    return category;
  }

  async function requireBrand(name: string) {
    const brand = await repo.findBrand(slugify(name));
    if (!brand) throw notFound(`Brand ${quoted(name)}`);
    return brand;
  }

  // Category pages (category, brand?) and the header search (search): one response shape.
  app.get(
    '/api/products',
    cache.json(async (req) => {
      const q = parseInput(ProductListQuerySchema, req.query, 'query');
      const { limit, offset } = q;
      const machine = machineOf(q);
      let page: Page<ProductSummary>;
      if (q.search) {
        const hits = await searchProducts(q.search, {
          limit,
          offset,
          ...(q.category ? { categorySlug: slugify(q.category) } : {}),
          ...(q.brand ? { brandSlug: slugify(q.brand) } : {}),
          ...(await searchNarrowing(machine)),
        });
        page = await withFitsMachines(hits, machine);
        const notice = rules?.noticeFor(q.search);
        // A machine and a word of its parts book ("320D idler seal"): the assemblies the search can open (#38).
        const assemblies = diagramSearch && offset === 0 ? await diagramSearch.find(q.search, page.items.map((p) => p.id)) : [];
        if (notice || assemblies.length) return listResponse(page, limit, offset, { ...(notice ? { notice } : {}), ...(assemblies.length ? { assemblies } : {}) });
      } else if (q.category) {
        const category = await requireCategory(q.category);
        const brand = q.brand ? await requireBrand(q.brand) : undefined;
        page = await repo.listByCategory({ categorySlug: category.slug, brandSlug: brand?.slug, limit, offset, ...machine });
      } else {
        const brand = await requireBrand(q.brand!);
        page = await repo.listByBrand({ brandSlug: brand.slug, limit, offset, ...machine });
      }
      return listResponse(page, limit, offset);
    }),
  );

  app.get(
    '/api/products/:id',
    cache.json(async (req) => {
      const { id } = parseInput(ProductIdParamsSchema, req.params, 'params');
      const product: Product | null = await repo.getById(id);
      if (product) {
        const [replacedBy, usedIn] = await Promise.all([replacementRef(product), deps.diagrams ? whereUsed(deps.diagrams, product.id) : undefined]);
        const detail: ProductDetail = { ...product, replacedBy, ...(usedIn ? { whereUsed: usedIn } : {}) };
        return detail;
      }
      // Taken off the storefront by an import: gone for good, with a way to its category.
      const retired = await repo.getDeactivated(id);
      if (retired) {
        throw new HttpError(410, `Product ${retired.sku} is no longer available`, undefined, {
          category: retired.category,
          categoryPath: categoryPath(retired.category),
        });
      }
      throw notFound('Product');
    }),
  );

  app.get(
    '/api/subcategories',
    cache.json(async () => {
      const items: Subcategory[] = await repo.listSubcategories();
      return items;
    }),
  );

  // The image gallery.
  app.get(
    '/api/catalog/products',
    cache.json(async (req) => {
      const q = parseInput(CatalogQuerySchema, req.query, 'query');
      const machine = machineOf(q);
      const page = q.search
        ? await withFitsMachines(await searchProducts(q.search, { limit: q.limit, offset: q.offset, ...(await searchNarrowing(machine)) }), machine)
        : await repo.listAll({ limit: q.limit, offset: q.offset, ...machine });
      const notice = q.search ? rules?.noticeFor(q.search) : undefined;
      return listResponse(page, q.limit, q.offset, notice ? { notice } : undefined);
    }),
  );

  app.get(
    '/api/brands/:brand/products',
    cache.json(async (req) => {
      const params = parseInput(BrandParamsSchema, req.params, 'params');
      const q = parseInput(BrandProductsQuerySchema, req.query, 'query');
      const brand = await requireBrand(params.brand);
      const offset = (q.page - 1) * q.limit;
      const machine = machineOf(q);
      const page = await repo.listByBrand({ brandSlug: brand.slug, limit: q.limit, offset, ...machine });
      return listResponse<BrandProductsResponse>(page, q.limit, offset, { brand });
    }),
  );

  // The machines parts fit: the storefront's "Find parts for your machine" (make, then model).
  app.get(
    '/api/fitment/makes',
    cache.json(async () => {
      const makes = await repo.listMachineMakes();
      const body: FitmentMakesResponse = { makes: makes.map((m) => ({ make: m.name, slug: m.slug, productCount: m.productCount })) };
      return body;
    }),
  );
  app.get(
    '/api/fitment/models',
    cache.json(async (req) => {
      const q = parseInput(FitmentModelsQuerySchema, req.query, 'query');
      const found = await repo.listMachineModels(slugify(q.make));
      if (!found) throw notFound(`Machine make ${quoted(q.make)}`);
      const body: FitmentModelsResponse = {
        make: found.make.name,
        slug: found.make.slug,
        models: found.models.map((m) => ({ model: m.name, slug: m.slug, productCount: m.productCount })),
      };
      return body;
    }),
  );

  app.get(
    '/api/testimonials',
    cache.json(async (req) => {
      const q = parseInput(TestimonialQuerySchema, req.query, 'query');
      const items: Testimonial[] = await repo.listTestimonials(q.featured === undefined ? {} : { featured: q.featured === 'true' });
      return items;
    }),
  );

  // Admin reads; the gateway checks the admin token before these are reached.
  app.get(
    '/api/admin/products',
    route(async (req, res) => {
      const q = parseInput(AdminProductsQuerySchema, req.query, 'query');
      const f = parseInput(AdminProductFilterSchema, req.query, 'query');
      const categorySlug = f.category ? slugify(f.category) : undefined;
      const brandSlug = f.brand ? slugify(f.brand) : undefined;
      const inStock = f.inStock === undefined ? undefined : f.inStock === 'true';
      let items: ProductSummary[];
      if (q.search) {
        // Stock is not in the search index: a wider page of hits, narrowed here.
        const hits = await searchProducts(q.search, { limit: inStock === undefined ? q.limit : q.limit * 4, offset: 0, categorySlug, brandSlug });
        items = hits.items.filter((p) => inStock === undefined || p.inStock === inStock).slice(0, q.limit);
      } else {
        items = await repo.listForAdmin({ categorySlug, brandSlug, inStock, limit: q.limit });
      }
      const rows: AdminProductRow[] = items.map(toAdminRow);
      res.json(rows);
    }),
  );

  app.get(
    '/api/admin/search-products-by-code',
    route(async (req, res) => {
      const q = parseInput(AdminCodeSearchQuerySchema, req.query, 'query');
      const found = await repo.findByCode(q.q, CODE_SEARCH_LIMIT);
      res.json({ success: true, products: found.map(toAdminRow) });
    }),
  );

  // Generated part pictures: the seed points imageUrl here until real photos are uploaded. Same input, same picture.
  app.get(
    '/media/generated/:category/:brand/:part.svg',
    route(async (req, res) => {
      const p = parseInput(GeneratedImageParamsSchema, req.params, 'params');
      const svg = renderPartImageSvg({ categorySlug: p.category, brandSlug: p.brand, partSlug: p.part });
      res
        .status(200)
        .set({ 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' })
        .send(svg);
    }),
  );

  // Generated parts-book drawings (#38): the demo's assemblies point here. Same input, same drawing.
  app.get(
    '/media/generated/diagrams/:make/:model/:file.svg',
    route(async (req, res) => {
      const p = parseInput(GeneratedDiagramParamsSchema, req.params, 'params');
      res
        .status(200)
        .set({ 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' })
        .send(renderDemoDiagram(p));
    }),
  );

  // Internal routes: the service token is checked where /internal is mounted (createServiceApp); the gateway never
  // forwards /internal.

  app.put(
    '/internal/products/:id/images',
    route(async (req, res) => {
      const { id } = parseInput(ProductIdParamsSchema, req.params, 'params');
      const update = parseInput(ProductImagesUpdateSchema, req.body, 'body');
      const product = await repo.updateImages(id, update);
      if (!product) throw notFound('Product');
      clearAnswers();
      await search.upsert([product]);
      clearAnswers(); // again: a read between the two writes may have stored the old search answer
      req.log.info({ productId: id, sku: product.sku, images: update.images.length }, 'product images updated');
      res.json(product);
    }),
  );

  app.get(
    '/internal/products/by-sku/:sku',
    route(async (req, res) => {
      const { sku } = parseInput(SkuParamsSchema, req.params, 'params');
      const product = await repo.getBySku(sku);
      if (!product) throw notFound(`Product with SKU ${quoted(sku)}`);
      res.json(product);
    }),
  );

  registerSitemapRoutes(app, { products: repo });
  registerPartsMatchRoutes(app, { repo, search, logger, perMinute: deps.partsMatchPerMinute, tmpDir: deps.tmpDir, redis: deps.redis });
  registerProductLookupRoutes(app, { repo });
  if (insights && rules && buffer) {
    registerSearchInsightsRoutes(app, {
      store: insights.store,
      buffer,
      rules,
      repo,
      logger,
      retentionDays: insights.retentionDays,
      announceRules: () => {
        cache.clear();
        clears?.announce();
        insights.rulesChannel?.announce();
      },
    });
  }

  const importWorker = deps.importWorker;
  const batchSize = deps.importBatch ?? IMPORT_BATCH;
  const imports = createImportRunner({
    repo,
    search,
    logger,
    batchSize,
    onChange: clearAnswers,
    inWorker: importWorker
      ? (req, here) => runImportInWorker({ ...importWorker, batchSize: deps.importBatch ?? IMPORT_WORKER_BATCH, logger }, req, here)
      : undefined,
  });
  void imports.recover().catch((err: unknown) => logger.error({ err }, 'catalogue imports: recovery after a stop failed'));
  registerCatalogAdminRoutes(app, { repo, search, imports, tmpDir: deps.tmpDir ?? tmpdir(), onChange: clearAnswers });
  if (deps.diagrams) {
    const onChange = () => {
      diagramSearch?.clear();
      clearAnswers();
    };
    registerPartsDiagramRoutes(app, { repo, diagrams: deps.diagrams, cache, tmpDir: deps.tmpDir ?? tmpdir(), logger, onChange });
  }
  app.locals.imports = imports;

  return finishApp(app, logger);
}
