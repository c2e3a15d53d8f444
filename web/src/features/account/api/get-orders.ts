import type { BuyerOrderList } from '@forgeline/contracts/buyer-history';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch, withQuery } from '../../../lib/api-client.ts';
import { HISTORY_PAGE_SIZE } from '../account-constants.ts';

/** GET /api/account/orders?page&limit: the company's orders, newest first. */
export function useMyOrders(page: number) {
  return useQuery({
    queryKey: ['account', 'orders', page],
    queryFn: () => apiFetch<BuyerOrderList>(withQuery('/api/account/orders', { page, limit: HISTORY_PAGE_SIZE })),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
