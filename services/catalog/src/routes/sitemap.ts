/**
 * GET /internal/sitemap/products?offset=&limit= : id, name and slug of up to 50,000 products in the catalogue's
 * stable order (name, then id), behind the service token (checked where /internal is mounted), so the gateway can write one sitemap file per 50,000 URLs without paging the
 * public list 100 rows at a time. Mount with `registerSitemapRoutes(app, deps)` before `finishApp`.
 */
import type { Express } from 'express';
import { SitemapProductsQuerySchema, type SitemapProductsResponse } from '@forgeline/contracts/sitemap';
import { parseInput } from '@forgeline/service-kit/errors';
import { route } from '@forgeline/service-kit/http';
import type { ProductRepository } from '../ports.ts';

export function registerSitemapRoutes(app: Express, deps: { products: Pick<ProductRepository, 'listAll'> }): void {
  app.get(
    '/internal/sitemap/products',
    route(async (req, res) => {
      const q = parseInput(SitemapProductsQuerySchema, req.query, 'query');
      const page = await deps.products.listAll({ limit: q.limit, offset: q.offset });
      const body: SitemapProductsResponse = {
        items: page.items.map((p) => ({ id: p.id, name: p.name, slug: p.slug })),
        total: page.total,
      };
      res.json(body);
    }),
  );
}
