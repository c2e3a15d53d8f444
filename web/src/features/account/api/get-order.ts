import type { BuyerOrder } from '@forgeline/contracts/buyer-history';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** GET /api/account/orders/{id}: an order with its lines, for a reorder. */
export const useMyOrder = (id: string | null) =>
  useQuery({
    queryKey: ['account', 'order', id],
    queryFn: () => apiFetch<BuyerOrder>(`/api/account/orders/${encodeURIComponent(id!)}`),
    enabled: id !== null,
    staleTime: 60_000,
  });
