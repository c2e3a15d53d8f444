import type { QuoteView } from '@forgeline/contracts/quote-view';
import { quoteViewFormKey, type QuoteViewFormState } from '@forgeline/contracts/ssr';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api-client.ts';

/**
 * GET /api/quote-view/{token}: the buyer's quote, or null when the link opens nothing (the service's one 404 for an
 * unknown, withdrawn or expired link). Never kept or refetched behind the buyer's back: it changes only by their
 * answers, which reload the page.
 */
export const quoteViewQuery = (token: string) =>
  queryOptions({
    queryKey: ['quote-view', token],
    queryFn: () =>
      apiFetch<QuoteView>(`/api/quote-view/${encodeURIComponent(token)}`).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }),
    staleTime: Infinity,
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
  });

export const useQuoteView = (token: string) => useQuery(quoteViewQuery(token));

/** A refused answer's form state, put in the cache by the server's render; never fetched. */
export const useQuoteViewForm = (token: string) =>
  useQuery({ queryKey: quoteViewFormKey(token), queryFn: (): QuoteViewFormState | null => null, enabled: false, staleTime: Infinity }).data ?? null;
