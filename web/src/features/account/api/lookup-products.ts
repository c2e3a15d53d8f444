import type { ProductLookupResponse } from '@forgeline/contracts/products';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/**
 * POST /api/products/lookup { ids }: parts by id as they stand today, one item per id in the order given: current,
 * superseded (with what replaced it) or not sold. An empty list asks nothing.
 */
export const lookUpProducts = (ids: string[]): Promise<ProductLookupResponse> =>
  ids.length ? apiFetch<ProductLookupResponse>('/api/products/lookup', { method: 'POST', json: { ids } }) : Promise.resolve({ items: [] });

/**
 * The parts of an earlier request or order as they stand today. Asked only once the ids are known (undefined: not
 * yet; an empty list asks nothing).
 */
export const useProductLookup = (ids: string[] | undefined) =>
  useQuery({
    queryKey: ['products', 'lookup', ids],
    queryFn: () => lookUpProducts(ids!),
    enabled: ids !== undefined,
    staleTime: 60_000,
  });
