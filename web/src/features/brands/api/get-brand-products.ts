import type { BrandProductsResponse } from '@forgeline/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, withQuery } from '../../../lib/api-client.ts';
import { BRAND_PAGE_SIZE } from '../../../config/constants.ts';
import { machineParams, type MachineChoice } from '../../../lib/machine.ts';

/** A brand page; `machine` narrows it to the parts that fit. */
export interface BrandProductsParams {
  brand: string;
  page: number;
  machine?: MachineChoice;
}

/** GET /api/brands/{brand}/products?page=&limit=75&make=&model=&serial= */
export async function getBrandProducts(q: BrandProductsParams): Promise<BrandProductsResponse> {
  try {
    return await apiFetch<BrandProductsResponse>(
      withQuery(`/api/brands/${encodeURIComponent(q.brand)}/products`, { page: q.page, limit: BRAND_PAGE_SIZE, ...machineParams(q.machine) }),
    );
  } catch {
    throw new Error('Failed to fetch products');
  }
}

export const brandProductsQuery = (q: BrandProductsParams) =>
  queryOptions({
    queryKey: ['products', 'brand', q],
    queryFn: () => getBrandProducts(q),
    // While the next page loads, keep showing this brand's current page (never another brand's products).
    placeholderData: (prev, prevQuery) => ((prevQuery?.queryKey[2] as { brand: string } | undefined)?.brand === q.brand ? prev : undefined),
  });

export const useBrandProducts = (q: BrandProductsParams) => useQuery(brandProductsQuery(q));
