import type { FleetImportResponse } from '@forgeline/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { MY_FLEET_QUERY_KEY } from '../../../lib/my-fleet.ts';

/**
 * POST /api/account/fleet/import with a CSV file's text as text/csv: a row whose unit name is in the fleet updates
 * that machine, the others are added; each bad row comes back with its line.
 */
export function useImportFleet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (csv: string) =>
      apiFetch<FleetImportResponse>('/api/account/fleet/import', { method: 'POST', body: csv, headers: { 'Content-Type': 'text/csv; charset=utf-8' } }),
    onSuccess: () => client.invalidateQueries({ queryKey: MY_FLEET_QUERY_KEY }),
  });
}
