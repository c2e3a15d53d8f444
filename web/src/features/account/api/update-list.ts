import type { SavedList } from '@forgeline/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import type { ListInput } from './create-list.ts';
import { LISTS_QUERY_KEY } from './get-lists.ts';

/** PUT /api/account/lists/{id}: the list's name, unit and lines, all of them. */
export function useUpdateList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ListInput }) => apiFetch<SavedList>(`/api/account/lists/${encodeURIComponent(id)}`, { method: 'PUT', json: input }),
    onSuccess: (list) => {
      client.setQueryData([...LISTS_QUERY_KEY, list.id], list);
      return client.invalidateQueries({ queryKey: LISTS_QUERY_KEY, exact: true });
    },
  });
}
