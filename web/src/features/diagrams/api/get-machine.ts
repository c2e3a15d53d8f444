import type { MachinePage } from '@forgeline/contracts/parts-diagrams';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api-client.ts';

/**
 * GET /api/machines/{make}/{model}: a machine model's parts book (its assemblies, how many parts fit it), or null when
 * the catalogue knows no such machine (404). `make` and `model` are the address's segments, as the server's render
 * keys them (web/src/entry-server.tsx), so the browser hydrates without asking again.
 */
export const machineQuery = (make: string, model: string) =>
  queryOptions({
    queryKey: ['machines', make, model],
    queryFn: () =>
      apiFetch<MachinePage>(`/api/machines/${encodeURIComponent(make)}/${encodeURIComponent(model)}`).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }),
  });

export const useMachinePage = (make: string, model: string) => useQuery(machineQuery(make, model));
