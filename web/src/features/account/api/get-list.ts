import type { SavedList } from '@forgeline/contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { LISTS_QUERY_KEY } from './get-lists.ts';

/** GET /api/account/lists/{id}: one parts list with its lines. */
export const listQuery = (id: string) =>
  queryOptions({ queryKey: [...LISTS_QUERY_KEY, id], queryFn: () => apiFetch<SavedList>(`/api/account/lists/${encodeURIComponent(id)}`) });

export const useSavedList = (id: string, enabled = true) => useQuery({ ...listQuery(id), enabled });
