import type { ProductListResponse } from '@forgeline/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, withQuery } from '../../../lib/api-client.ts';
import { CATEGORY_PAGE_SIZE } from '../../../config/constants.ts';
import { machineParams, type MachineChoice } from '../../../lib/machine.ts';

/** A category listing's page; `machine` narrows it to the parts that fit (absent: every part, as the server renders it). */
export interface CategoryProductsParams {
  category: string;
  brand?: string;
  page: number;
  machine?: MachineChoice;
}

/** GET /api/products?category=&brand=&make=&model=&serial=&limit=75&offset=(page-1)*75 */
export async function getCategoryProducts(q: CategoryProductsParams): Promise<ProductListResponse> {
  try {
    return await apiFetch<ProductListResponse>(
      withQuery('/api/products', {
        category: q.category,
        brand: q.brand,
        ...machineParams(q.machine),
        limit: CATEGORY_PAGE_SIZE,
        offset: (q.page - 1) * CATEGORY_PAGE_SIZE,
      }),
    );
  } catch {
    throw new Error('Failed to fetch category products');
  }
}

export const categoryProductsQuery = (q: CategoryProductsParams) =>
  queryOptions({
    // An absent machine leaves the key as the server's page data has it (entry-server.tsx), so hydration finds it.
    queryKey: ['products', 'category', q],
    queryFn: () => getCategoryProducts(q),
    // While the next page (or the list for another machine) loads, keep showing this listing's current page, dimmed
    // (never another category's products).
    placeholderData: (prev, prevQuery) => {
      const k = prevQuery?.queryKey[2] as { category: string; brand?: string } | undefined;
      return k && k.category === q.category && k.brand === q.brand ? prev : undefined;
    },
  });

export const useCategoryProducts = (q: CategoryProductsParams) => useQuery(categoryProductsQuery(q));
