import { z } from 'zod';
import { HttpError } from '@forgeline/service-kit/errors';
import { createServiceClient } from '@forgeline/service-kit/service-client';
import type { Catalog, CatalogProduct } from '../../ports.ts';

/** Only the fields media uses; the product may come bare or wrapped as { product }. */
const ProductFields = z.object({
  id: z.string(),
  sku: z.string(),
  name: z.string().default(''),
  images: z.array(z.string()).default([]),
  imageUrl: z.string().nullable().default(''),
});

/**
 * The catalog over its routes: GET /internal/products/by-sku/{sku}, GET /api/products/{id} and
 * PUT /internal/products/{id}/images (which also refreshes the search index).
 */
export function createHttpCatalog(baseUrl: string, serviceToken: string, timeoutMs = 10_000): Catalog {
  const call = createServiceClient(baseUrl, serviceToken, timeoutMs);
  const orNull = async (p: Promise<unknown>): Promise<CatalogProduct | null> => {
    try {
      const body = (await p) as { product?: unknown };
      const parsed = ProductFields.parse(body && typeof body === 'object' && 'product' in body ? body.product : body);
      return { ...parsed, imageUrl: parsed.imageUrl ?? '' };
    } catch (err) {
      // 400: the catalog refuses the id or SKU as malformed, so no product has it.
      if (err instanceof HttpError && (err.status === 404 || err.status === 400)) return null;
      throw err;
    }
  };
  return {
    productBySku: (sku) => orNull(call('GET', `/internal/products/by-sku/${encodeURIComponent(sku)}`)),
    productById: (id) => orNull(call('GET', `/api/products/${encodeURIComponent(id)}`)),
    setImages: (productId, update) => orNull(call('PUT', `/internal/products/${encodeURIComponent(productId)}/images`, update)),
  };
}
