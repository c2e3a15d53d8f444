import type { SavedList, SavedListInput } from '@forgeline/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { LISTS_QUERY_KEY } from './get-lists.ts';

/** What a list is saved with (SavedListInput as it goes over the wire). */
export type ListInput = Pick<SavedListInput, 'name' | 'unitId' | 'lines'>;

/** POST /api/account/lists: a new parts list for the company (409 when the company keeps the most it may). */
export function useCreateList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ListInput) => apiFetch<SavedList>('/api/account/lists', { method: 'POST', json: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: LISTS_QUERY_KEY }),
  });
}
