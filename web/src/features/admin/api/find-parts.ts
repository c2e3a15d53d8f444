import type { AdminProductRow } from '@forgeline/contracts/products';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ADMIN_QUERY_KEY, useAdminSession } from '../hooks/use-admin-session.tsx';
import { getAdminProducts } from './get-admin-products.ts';
import { searchProductsByCode } from './search-products-by-code.ts';

/**
 * A part picker's matches for what was typed: part numbers and SKUs first (GET /api/admin/search-products-by-code),
 * then the catalogue search by name and words (GET /api/admin/products?search=), each part once.
 */
export function useFindParts(text: string) {
  const { adminFetch, session } = useAdminSession();
  const q = text.trim();
  return useQuery({
    queryKey: [ADMIN_QUERY_KEY, 'find-parts', q],
    queryFn: async (): Promise<AdminProductRow[]> => {
      const [byCode, bySearch] = await Promise.all([searchProductsByCode(adminFetch, q), getAdminProducts(adminFetch, q)]);
      const seen = new Set<string>();
      return [...byCode.products, ...bySearch].filter((p) => !seen.has(p.id) && Boolean(seen.add(p.id))).slice(0, 20);
    },
    enabled: Boolean(session) && q.length >= 2,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
