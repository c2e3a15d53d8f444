import type { Express } from 'express';
import { ProductLookupRequestSchema, type ProductLookupResponse } from '@forgeline/contracts/products';
import { parseInput } from '@forgeline/service-kit/errors';
import { route } from '@forgeline/service-kit/http';
import { lookUpParts } from '../domain/replacement.ts';
import type { ProductRepository } from '../ports.ts';

/** POST /api/products/lookup: a reorder's parts by id or SKU, each current, superseded (and by what) or not sold. */
export function registerProductLookupRoutes(app: Express, deps: { repo: ProductRepository }): void {
  app.post(
    '/api/products/lookup',
    route(async (req, res) => {
      const body = parseInput(ProductLookupRequestSchema, req.body, 'body');
      const answer: ProductLookupResponse = { items: await lookUpParts(deps.repo, { ids: body.ids ?? [], skus: body.skus ?? [] }) };
      res.json(answer);
    }),
  );
}
