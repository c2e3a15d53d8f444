import type { SavedListSummary } from '@forgeline/contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

export const LISTS_QUERY_KEY = ['account', 'lists'] as const;

/** GET /api/account/lists: the company's saved parts lists (without their lines). */
export const listsQuery = queryOptions({
  queryKey: LISTS_QUERY_KEY,
  queryFn: async () => (await apiFetch<{ lists: SavedListSummary[] }>('/api/account/lists')).lists,
});

export const useSavedLists = () => useQuery(listsQuery);
