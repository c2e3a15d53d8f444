import type { ProductListResponse } from '@forgeline/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, withQuery } from '../../../lib/api-client.ts';
import { HEADER_SEARCH_LIMIT, SEARCH_MIN_CHARS } from '../../../config/constants.ts';
import { machineParams, type MachineChoice } from '../../../lib/machine.ts';

/**
 * GET /api/products?search=&limit=&offset=&make=&model=&serial= — the header dropdown (every part, whatever machine
 * is chosen: an old or another maker's number is looked up as it is) and the full results on home (narrowed to the
 * chosen machine).
 */
export async function searchProducts(q: { search: string; limit: number; offset?: number; machine?: MachineChoice }): Promise<ProductListResponse> {
  try {
    return await apiFetch<ProductListResponse>(
      withQuery('/api/products', { search: q.search, limit: q.limit, offset: q.offset || undefined, ...machineParams(q.machine) }),
    );
  } catch {
    throw new Error('Search failed');
  }
}

export const searchProductsQuery = (search: string, limit = HEADER_SEARCH_LIMIT, offset = 0, machine?: MachineChoice) =>
  queryOptions({
    // Without a machine the key is the one the server's page data has (entry-server.tsx).
    queryKey: ['products', 'search', { search, limit, offset, machine }],
    queryFn: () => searchProducts({ search, limit, offset, machine }),
    enabled: search.trim().length >= SEARCH_MIN_CHARS,
  });

export function useSearchProducts(search: string, limit = HEADER_SEARCH_LIMIT, offset = 0, machine?: MachineChoice) {
  return useQuery(searchProductsQuery(search.trim(), limit, offset, machine));
}
