import type { ProductListResponse } from '@forgeline/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, withQuery } from '../../../lib/api-client.ts';
import { CATEGORY_PAGE_SIZE } from '../../../config/constants.ts';

/** GET /api/products?category=&brand=&limit=75&offset=(page-1)*75 */
export async function getCategoryProducts(q: { category: string; brand?: string; page: number }): Promise<ProductListResponse> {
  try {
    return await apiFetch<ProductListResponse>(
      withQuery('/api/products', {
        category: q.category,
        brand: q.brand,
        limit: CATEGORY_PAGE_SIZE,
        offset: (q.page - 1) * CATEGORY_PAGE_SIZE,
      }),
    );
  } catch {
    throw new Error('Failed to fetch category products');
  }
}

export const categoryProductsQuery = (q: { category: string; brand?: string; page: number }) =>
  queryOptions({
    queryKey: ['products', 'category', q],
    queryFn: () => getCategoryProducts(q),
    // While the next page loads, keep showing this listing's current page (never another category's products).
    placeholderData: (prev, prevQuery) => {
      const k = prevQuery?.queryKey[2] as { category: string; brand?: string } | undefined;
      return k && k.category === q.category && k.brand === q.brand ? prev : undefined;
    },
  });

export const useCategoryProducts = (q: { category: string; brand?: string; page: number }) => useQuery(categoryProductsQuery(q));
