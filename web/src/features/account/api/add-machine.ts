import type { FleetUnit } from '@forgeline/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { MY_FLEET_QUERY_KEY } from '../../../lib/my-fleet.ts';

/** What the machine form sends (FleetUnitInputSchema's input: a blank serial or hours left out). */
export interface MachineInput {
  unitName: string;
  make: string;
  model: string;
  serial?: string;
  hours?: number;
}

/** POST /api/account/fleet: a machine added (409 when the fleet has one by that name, or is full). */
export function useAddMachine() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MachineInput) => apiFetch<FleetUnit>('/api/account/fleet', { method: 'POST', json: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: MY_FLEET_QUERY_KEY }),
  });
}
