import type { BuyerQuoteDetail } from '@forgeline/contracts/buyer-history';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** GET /api/account/quotes/{id}: a request with the lines asked (and the latest version's), for a reorder. */
export const useMyQuote = (id: string | null) =>
  useQuery({
    queryKey: ['account', 'quote', id],
    queryFn: () => apiFetch<BuyerQuoteDetail>(`/api/account/quotes/${encodeURIComponent(id!)}`),
    enabled: id !== null,
    staleTime: 60_000,
  });
