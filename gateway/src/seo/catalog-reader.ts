/**
 * The catalog reads the SEO handler needs, over HTTP with a short timeout. Public routes for pages,
 * one internal route (service token) for the product sitemap.
 */
import { REQUEST_ID_HEADER, SERVICE_TOKEN_HEADER } from '@forgeline/contracts/common';
import {
  BrandProductsResponseSchema,
  ProductListResponseSchema,
  ProductLookupResponseSchema,
  ProductDetailSchema,
  SubcategoryListSchema,
  type BrandProductsResponse,
  type ProductDetail,
  type ProductListResponse,
  type ProductLookupItem,
  type Subcategory,
} from '@forgeline/contracts/products';
import type { Response } from 'undici';
import { SitemapAssembliesResponseSchema, SitemapProductsResponseSchema, type SitemapProductsResponse } from '@forgeline/contracts/sitemap';
import { AssemblyPageSchema, MachinePageSchema, type AssemblyPage, type MachinePage } from '@forgeline/contracts/parts-diagrams';
import type { z } from 'zod';
import type { Logger } from '@forgeline/service-kit/logger';
import { toReplicaPool, type ReplicaPool } from '../replica-pool.ts';

/** The catalog answered, but not with what we need (404 → `notFound`). */
export class CatalogReadError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    /** A 410's way on: the category of a part taken off the storefront. */
    readonly gone?: { category: string; categoryPath: string },
  ) {
    super(message);
  }
  get notFound() {
    return this.status === 404 || this.status === 400;
  }
}

export interface CatalogReaderOptions {
  /** The catalog's replicas: a URL (list), or the pool the proxy uses (a replica found dead there is skipped here). */
  catalogUrl: string | ReplicaPool;
  logger: Logger;
  serviceToken?: string;
  /** Page reads; a slow catalog must not hold a visitor's first paint. */
  timeoutMs: number;
  /** Sitemap reads move up to 50,000 rows. */
  sitemapTimeoutMs: number;
}

export function createCatalogReader(o: CatalogReaderOptions) {
  const catalog = toReplicaPool(o.catalogUrl, 'catalog', o.logger);
  async function get<S extends z.ZodType>(
    path: string,
    schema: S,
    opts: { requestId?: string; internal?: boolean; timeoutMs?: number; json?: unknown } = {},
  ): Promise<z.infer<S>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.json !== undefined) headers['content-type'] = 'application/json';
    const call = `${opts.json === undefined ? 'GET' : 'POST'} ${path}`;
    if (opts.requestId) headers[REQUEST_ID_HEADER] = opts.requestId;
    if (opts.internal) {
      if (!o.serviceToken) throw new CatalogReadError('no service token configured for the internal sitemap route', null);
      headers[SERVICE_TOKEN_HEADER] = o.serviceToken;
    }
    let res: Response;
    try {
      // Reads (a POSTed lookup too): one whose replica dies before answering is asked of the next replica.
      const body = opts.json === undefined ? {} : { method: 'POST', body: JSON.stringify(opts.json), idempotent: true };
      res = await catalog.fetch(path, { headers, ...body, signal: AbortSignal.timeout(opts.timeoutMs ?? o.timeoutMs) });
    } catch (err) {
      const reason = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : String((err as Error)?.message ?? err);
      throw new CatalogReadError(`${call}: ${reason}`, null);
    }
    if (res.status === 410) {
      const body = (await res.json().catch(() => ({}))) as { category?: unknown; categoryPath?: unknown };
      const gone = typeof body.category === 'string' && typeof body.categoryPath === 'string' ? { category: body.category, categoryPath: body.categoryPath } : undefined;
      throw new CatalogReadError(`${call} answered 410`, 410, gone);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new CatalogReadError(`${call} answered ${res.status}`, res.status);
    }
    const parsed = schema.safeParse(await res.json());
    if (!parsed.success) throw new CatalogReadError(`${call}: unexpected body (${parsed.error.issues[0]?.message})`, res.status);
    return parsed.data;
  }

  const q = (params: Record<string, string | number | undefined>) => {
    const s = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') s.set(k, String(v));
    return s.toString();
  };

  return {
    /** With `replacedBy`, so the page says what replaced a superseded part from its first paint. */
    product: (id: string, requestId?: string): Promise<ProductDetail> =>
      get(`/api/products/${encodeURIComponent(id)}`, ProductDetailSchema, { requestId }),
    /** One listing page, asked exactly as the web app asks for it (so both share the catalog's cached answer). */
    categoryProducts: (category: string, brand: string | undefined, page: { limit: number; offset: number }, requestId?: string): Promise<ProductListResponse> =>
      get(`/api/products?${q({ category, brand, limit: page.limit, offset: page.offset })}`, ProductListResponseSchema, { requestId }),
    /** A brand page (75 a page), as brand-page.tsx asks for it. */
    brandProducts: (brand: string, page: number, requestId?: string): Promise<BrandProductsResponse> =>
      get(`/api/brands/${encodeURIComponent(brand)}/products?${q({ page, limit: 75 })}`, BrandProductsResponseSchema, { requestId }),
    /** Search results on home (?search=), as search-products.ts asks for them. */
    search: (search: string, page: { limit: number; offset: number }, requestId?: string): Promise<ProductListResponse> =>
      get(`/api/products?${q({ search, limit: page.limit, offset: page.offset || undefined })}`, ProductListResponseSchema, { requestId }),
    /** A gallery page, as get-catalog-products.ts asks for it. */
    catalogProducts: (search: string, page: { limit: number; offset: number }, requestId?: string): Promise<ProductListResponse> =>
      get(`/api/catalog/products?${q({ limit: page.limit, offset: page.offset, search: search || undefined })}`, ProductListResponseSchema, { requestId }),
    /** For sitemaps (a long timeout) or, with `requestId`, for the /categories page. */
    subcategories: (requestId?: string): Promise<Subcategory[]> =>
      get('/api/subcategories', SubcategoryListSchema, requestId ? { requestId } : { timeoutMs: o.sitemapTimeoutMs }),
    productCount: async (): Promise<number> =>
      (await get(`/api/catalog/products?${q({ limit: 1, offset: 0 })}`, ProductListResponseSchema, { timeoutMs: o.sitemapTimeoutMs }))
        .pagination.totalProducts,
    /** Parts by id as they stand today (current, superseded, not sold), one item per id in the order given. */
    lookup: async (ids: string[], requestId?: string): Promise<ProductLookupItem[]> =>
      (await get('/api/products/lookup', ProductLookupResponseSchema, { requestId, json: { ids } })).items,
    /** A machine's parts book (#38), as machine-page.tsx asks for it. */
    machine: (make: string, model: string, requestId?: string): Promise<MachinePage> =>
      get(`/api/machines/${encodeURIComponent(make)}/${encodeURIComponent(model)}`, MachinePageSchema, { requestId }),
    /** An assembly's drawing and table, as assembly-page.tsx asks for it. */
    assembly: (make: string, model: string, assembly: string, requestId?: string): Promise<AssemblyPage> =>
      get(`/api/machines/${encodeURIComponent(make)}/${encodeURIComponent(model)}/assemblies/${encodeURIComponent(assembly)}`, AssemblyPageSchema, { requestId }),
    sitemapAssemblies: async (): Promise<string[]> =>
      (await get('/internal/sitemap/assemblies', SitemapAssembliesResponseSchema, { internal: true, timeoutMs: o.sitemapTimeoutMs })).paths,
    sitemapProducts: (offset: number, limit: number): Promise<SitemapProductsResponse> =>
      get(`/internal/sitemap/products?${q({ offset, limit })}`, SitemapProductsResponseSchema, {
        internal: true,
        timeoutMs: o.sitemapTimeoutMs,
      }),
  };
}
export type CatalogReader = ReturnType<typeof createCatalogReader>;
