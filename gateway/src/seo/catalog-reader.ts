/**
 * The catalog reads the SEO handler needs, over HTTP with a short timeout. Public routes for pages,
 * one internal route (service token) for the product sitemap.
 */
import { REQUEST_ID_HEADER, SERVICE_TOKEN_HEADER } from '@forgeline/contracts/common';
import {
  BrandProductsResponseSchema,
  ProductListResponseSchema,
  ProductDetailSchema,
  SubcategoryListSchema,
  type BrandProductsResponse,
  type ProductDetail,
  type ProductListResponse,
  type Subcategory,
} from '@forgeline/contracts/products';
import type { Response } from 'undici';
import { SitemapProductsResponseSchema, type SitemapProductsResponse } from '@forgeline/contracts/sitemap';
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
    opts: { requestId?: string; internal?: boolean; timeoutMs?: number } = {},
  ): Promise<z.infer<S>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.requestId) headers[REQUEST_ID_HEADER] = opts.requestId;
    if (opts.internal) {
      if (!o.serviceToken) throw new CatalogReadError('no service token configured for the internal sitemap route', null);
      headers[SERVICE_TOKEN_HEADER] = o.serviceToken;
    }
    let res: Response;
    try {
      // Reads: one whose replica dies before answering is asked of the next replica.
      res = await catalog.fetch(path, { headers, signal: AbortSignal.timeout(opts.timeoutMs ?? o.timeoutMs) });
    } catch (err) {
      const reason = err instanceof Error && err.name === 'TimeoutError' ? 'timed out' : String((err as Error)?.message ?? err);
      throw new CatalogReadError(`GET ${path}: ${reason}`, null);
    }
    if (res.status === 410) {
      const body = (await res.json().catch(() => ({}))) as { category?: unknown; categoryPath?: unknown };
      const gone = typeof body.category === 'string' && typeof body.categoryPath === 'string' ? { category: body.category, categoryPath: body.categoryPath } : undefined;
      throw new CatalogReadError(`GET ${path} answered 410`, 410, gone);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new CatalogReadError(`GET ${path} answered ${res.status}`, res.status);
    }
    const parsed = schema.safeParse(await res.json());
    if (!parsed.success) throw new CatalogReadError(`GET ${path}: unexpected body (${parsed.error.issues[0]?.message})`, res.status);
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
    sitemapProducts: (offset: number, limit: number): Promise<SitemapProductsResponse> =>
      get(`/internal/sitemap/products?${q({ offset, limit })}`, SitemapProductsResponseSchema, {
        internal: true,
        timeoutMs: o.sitemapTimeoutMs,
      }),
  };
}
export type CatalogReader = ReturnType<typeof createCatalogReader>;
