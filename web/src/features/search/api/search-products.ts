import type { ProductListResponse } from '@forgeline/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, withQuery } from '../../../lib/api-client.ts';
import { HEADER_SEARCH_LIMIT, SEARCH_MIN_CHARS } from '../../../config/constants.ts';

/** GET /api/products?search=&limit=&offset= — the header dropdown and the full results on home. */
export async function searchProducts(q: { search: string; limit: number; offset?: number }): Promise<ProductListResponse> {
  try {
    return await apiFetch<ProductListResponse>(withQuery('/api/products', { search: q.search, limit: q.limit, offset: q.offset || undefined }));
  } catch {
    throw new Error('Search failed');
  }
}

export const searchProductsQuery = (search: string, limit = HEADER_SEARCH_LIMIT, offset = 0) =>
  queryOptions({
    queryKey: ['products', 'search', { search, limit, offset }],
    queryFn: () => searchProducts({ search, limit, offset }),
    enabled: search.trim().length >= SEARCH_MIN_CHARS,
  });

export function useSearchProducts(search: string, limit = HEADER_SEARCH_LIMIT, offset = 0) {
  return useQuery(searchProductsQuery(search.trim(), limit, offset));
}
