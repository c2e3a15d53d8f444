import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { MY_FLEET_QUERY_KEY } from '../../../lib/my-fleet.ts';
import { LISTS_QUERY_KEY } from './get-lists.ts';

/** DELETE /api/account/fleet/{id}: the machine goes; the parts lists tied to it stay, tied to none. */
export function useDeleteMachine() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<{ success: true }>(`/api/account/fleet/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: MY_FLEET_QUERY_KEY }), client.invalidateQueries({ queryKey: LISTS_QUERY_KEY })]),
  });
}
