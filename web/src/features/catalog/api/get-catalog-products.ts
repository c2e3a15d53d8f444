import type { ProductListResponse } from '@forgeline/contracts/products';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, withQuery } from '../../../lib/api-client.ts';
import { GALLERY_PAGE_SIZE } from '../../../config/constants.ts';

/** GET /api/catalog/products?limit=48&offset=&search= (the image gallery). */
export async function getCatalogProducts(q: { page: number; search: string }): Promise<ProductListResponse> {
  try {
    return await apiFetch<ProductListResponse>(
      withQuery('/api/catalog/products', {
        limit: GALLERY_PAGE_SIZE,
        offset: (q.page - 1) * GALLERY_PAGE_SIZE,
        search: q.search.trim() || undefined,
      }),
    );
  } catch {
    throw new Error('Failed to fetch products');
  }
}

export const catalogProductsQuery = (q: { page: number; search: string }) =>
  queryOptions({
    queryKey: ['products', 'catalog', q],
    queryFn: () => getCatalogProducts(q),
    placeholderData: keepPreviousData,
  });

export const useCatalogProducts = (q: { page: number; search: string }) => useQuery(catalogProductsQuery(q));
