import type { AdminProductRow } from '@forgeline/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { withQuery } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY, useAdminSession, type AdminFetch } from '../hooks/use-admin-session.tsx';

/** GET /api/admin/products?search= (the session cookie). */
export const getAdminProducts = (adminFetch: AdminFetch, search: string) =>
  adminFetch<AdminProductRow[]>(withQuery('/api/admin/products', { search: search.trim() || undefined }));

export const adminProductsQuery = (adminFetch: AdminFetch, admin: string, search: string) =>
  queryOptions({
    queryKey: [ADMIN_QUERY_KEY, 'products', admin, search.trim()],
    queryFn: () => getAdminProducts(adminFetch, search),
  });

export function useAdminProducts(search: string) {
  const { adminFetch, session } = useAdminSession();
  return useQuery({ ...adminProductsQuery(adminFetch, session?.email ?? '', search), enabled: Boolean(session) });
}
