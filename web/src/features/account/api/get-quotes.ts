import type { BuyerQuoteList } from '@forgeline/contracts/buyer-history';
import type { InboxStatus } from '@forgeline/contracts/quote-inbox';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch, withQuery } from '../../../lib/api-client.ts';
import { HISTORY_PAGE_SIZE } from '../account-constants.ts';

/** GET /api/account/quotes?page&limit&status: the company's quote requests, newest first (the page shown stays while the next loads). */
export function useMyQuotes(f: { page: number; status: InboxStatus | '' }) {
  return useQuery({
    queryKey: ['account', 'quotes', f],
    queryFn: () => apiFetch<BuyerQuoteList>(withQuery('/api/account/quotes', { page: f.page, limit: HISTORY_PAGE_SIZE, status: f.status })),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
