import type { AdminProductRow } from '@forgeline/contracts/products';
import { useMutation } from '@tanstack/react-query';
import { withQuery } from '../../../lib/api-client.ts';
import { useAdminSession, type AdminFetch } from '../hooks/use-admin-session.tsx';

/** GET /api/admin/search-products-by-code?q= (bearer token) -> {success, products}. */
export const searchProductsByCode = (adminFetch: AdminFetch, q: string) =>
  adminFetch<{ success: boolean; products: AdminProductRow[] }>(withQuery('/api/admin/search-products-by-code', { q: q.trim() }));

/** Run on demand (the Search button), not as the user types. */
export function useSearchProductsByCode() {
  const { adminFetch } = useAdminSession();
  return useMutation({ mutationFn: (q: string) => searchProductsByCode(adminFetch, q) });
}
