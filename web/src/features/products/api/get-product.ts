import type { ProductDetail } from '@forgeline/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api-client.ts';

/** A part the seller took off the storefront (410): its category is the way on. */
export class ProductGoneError extends Error {
  constructor(
    readonly category: string | null,
    readonly categoryPath: string | null,
  ) {
    super('Product no longer available');
  }
}

/** GET /api/products/{id}: the product and, when it has been superseded, the part sold in its place (`replacedBy`). */
export async function getProduct(id: string): Promise<ProductDetail> {
  try {
    return await apiFetch<ProductDetail>(`/api/products/${encodeURIComponent(id)}`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 410) {
      let body: { category?: unknown; categoryPath?: unknown } = {};
      try {
        body = JSON.parse(err.message.replace(/^\d{3}: /, '')) as typeof body;
      } catch {
        // no body: the page still says the part is gone
      }
      throw new ProductGoneError(typeof body.category === 'string' ? body.category : null, typeof body.categoryPath === 'string' ? body.categoryPath : null);
    }
    throw new Error('Product not found');
  }
}

export const productQuery = (id: string, initialData?: ProductDetail) =>
  queryOptions({
    queryKey: ['products', 'detail', id],
    queryFn: () => getProduct(id),
    enabled: Boolean(id),
    initialData,
  });

export const useProduct = (id: string, initialData?: ProductDetail) => useQuery(productQuery(id, initialData));
