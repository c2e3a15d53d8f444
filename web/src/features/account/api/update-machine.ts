import type { FleetUnit } from '@forgeline/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { MY_FLEET_QUERY_KEY } from '../../../lib/my-fleet.ts';
import type { MachineInput } from './add-machine.ts';

/** PUT /api/account/fleet/{id}: a machine changed (the whole of it). */
export function useUpdateMachine() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: MachineInput }) => apiFetch<FleetUnit>(`/api/account/fleet/${encodeURIComponent(id)}`, { method: 'PUT', json: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: MY_FLEET_QUERY_KEY }),
  });
}
