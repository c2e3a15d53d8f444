import type { Order, OrderListResponse, OrderStatus } from '@forgeline/contracts/orders';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { withQuery } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY, useAdminSession } from '../hooks/use-admin-session.tsx';
import { downloadWithSession } from './download.ts';

export interface OrderFilters {
  status: OrderStatus | '';
  q: string;
  page: number;
}

export const ORDERS_PAGE_SIZE = 25;
const params = (f: OrderFilters) => ({ status: f.status, q: f.q.trim() });

/** GET /api/admin/orders: a page of orders and the per-status counts (the previous page stays while the next loads). */
export function useOrderList(f: OrderFilters) {
  const { adminFetch, session } = useAdminSession();
  return useQuery({
    queryKey: [ADMIN_QUERY_KEY, 'orders', 'list', f],
    queryFn: () => adminFetch<OrderListResponse>(withQuery('/api/admin/orders', { ...params(f), page: f.page, limit: ORDERS_PAGE_SIZE })),
    enabled: Boolean(session),
    placeholderData: keepPreviousData,
  });
}

export type OrderMove = { status: OrderStatus; carrier?: string; trackingNumber?: string; reason?: string };

/** PATCH /api/admin/orders/{id} with If-Match (the version on screen): a colleague's change meanwhile is a 409. */
export function useOrderMove() {
  const { adminFetch } = useAdminSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ order, move }: { order: Order; move: OrderMove }) =>
      adminFetch<Order>(`/api/admin/orders/${encodeURIComponent(order.id)}`, { method: 'PATCH', headers: { 'If-Match': `"v${order.version}"` }, json: move }),
    onSettled: () => client.invalidateQueries({ queryKey: [ADMIN_QUERY_KEY, 'orders'] }),
  });
}

/** GET /api/admin/orders/export.csv with the current filters, saved as a file; an ended session shows 'Session Expired'. */
export function useOrderExport() {
  const { onUnauthorized } = useAdminSession();
  return (f: OrderFilters) =>
    downloadWithSession(withQuery('/api/admin/orders/export.csv', params(f)), 'orders.csv').catch((err: unknown) => {
      onUnauthorized(err);
      throw err;
    });
}
