import type { Product } from '@forgeline/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** GET /api/products/{id} */
export async function getProduct(id: string): Promise<Product> {
  try {
    return await apiFetch<Product>(`/api/products/${encodeURIComponent(id)}`);
  } catch {
    throw new Error('Product not found');
  }
}

export const productQuery = (id: string, initialData?: Product) =>
  queryOptions({
    queryKey: ['products', 'detail', id],
    queryFn: () => getProduct(id),
    enabled: Boolean(id),
    initialData,
  });

export const useProduct = (id: string, initialData?: Product) => useQuery(productQuery(id, initialData));
