import { z } from 'zod';
import { MAX_OFFSET, queryInt } from './common.ts';

/** One sitemap holds at most 50,000 URLs (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

/** Internal: GET /internal/sitemap/products (catalog), what the gateway's sitemap needs per product. */
export const SitemapProductsQuerySchema = z.object({
  offset: queryInt({ min: 0, max: MAX_OFFSET, fallback: 0 }),
  limit: queryInt({ min: 1, max: SITEMAP_MAX_URLS, fallback: SITEMAP_MAX_URLS }),
});
export type SitemapProductsQuery = z.infer<typeof SitemapProductsQuerySchema>;

export const SitemapProductSchema = z.object({ id: z.string(), name: z.string(), slug: z.string() });
export const SitemapProductsResponseSchema = z.object({
  items: z.array(SitemapProductSchema),
  total: z.number().int(),
});
export type SitemapProductsResponse = z.infer<typeof SitemapProductsResponseSchema>;

/** Internal: GET /internal/sitemap/assemblies (catalog): the parts books' pages (#38), machines and assemblies. */
export const SitemapAssembliesResponseSchema = z.object({
  /** At most SITEMAP_MAX_URLS paths in all: /machines/<make>/<model> and /machines/<make>/<model>/<assembly>. */
  paths: z.array(z.string()),
});
export type SitemapAssembliesResponse = z.infer<typeof SitemapAssembliesResponseSchema>;
