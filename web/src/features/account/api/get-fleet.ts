import type { FleetResponse, FleetUnit } from '@forgeline/contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { MY_FLEET_QUERY_KEY } from '../../../lib/my-fleet.ts';

/**
 * GET /api/account/fleet: the company's machines. Cached under the key the rest of the site reads the fleet by
 * (lib/my-fleet.ts: the listings' "My machines"), with the same shape, so a change here shows there at once.
 */
export const fleetQuery = queryOptions({
  queryKey: MY_FLEET_QUERY_KEY,
  queryFn: async (): Promise<FleetUnit[]> => (await apiFetch<FleetResponse>('/api/account/fleet')).units,
  staleTime: 60_000,
});

export const useFleet = () => useQuery(fleetQuery);
