import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { LISTS_QUERY_KEY } from './get-lists.ts';

/** DELETE /api/account/lists/{id}. */
export function useDeleteList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<{ success: true }>(`/api/account/lists/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_, id) => {
      client.removeQueries({ queryKey: [...LISTS_QUERY_KEY, id] });
      return client.invalidateQueries({ queryKey: LISTS_QUERY_KEY, exact: true });
    },
  });
}
