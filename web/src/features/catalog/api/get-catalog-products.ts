import type { ProductListResponse } from '@forgeline/contracts/products';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, withQuery } from '../../../lib/api-client.ts';
import { GALLERY_PAGE_SIZE } from '../../../config/constants.ts';
import { machineParams, type MachineChoice } from '../../../lib/machine.ts';

/** A gallery page; `machine` narrows it to the parts that fit. */
export interface CatalogProductsParams {
  page: number;
  search: string;
  machine?: MachineChoice;
}

/** GET /api/catalog/products?limit=48&offset=&search=&make=&model=&serial= (the image gallery). */
export async function getCatalogProducts(q: CatalogProductsParams): Promise<ProductListResponse> {
  try {
    return await apiFetch<ProductListResponse>(
      withQuery('/api/catalog/products', {
        limit: GALLERY_PAGE_SIZE,
        offset: (q.page - 1) * GALLERY_PAGE_SIZE,
        search: q.search.trim() || undefined,
        ...machineParams(q.machine),
      }),
    );
  } catch {
    throw new Error('Failed to fetch products');
  }
}

export const catalogProductsQuery = (q: CatalogProductsParams) =>
  queryOptions({
    queryKey: ['products', 'catalog', q],
    queryFn: () => getCatalogProducts(q),
    placeholderData: keepPreviousData,
  });

export const useCatalogProducts = (q: CatalogProductsParams) => useQuery(catalogProductsQuery(q));
