import type { AssemblyPage } from '@forgeline/contracts/parts-diagrams';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api-client.ts';

/**
 * GET /api/machines/{make}/{model}/assemblies/{assembly}: an assembly's drawing and callout table, each line with its
 * part as it stands today; null when there is no such assembly (404). Keyed by the address's segments, as the
 * server's render keys it (web/src/entry-server.tsx).
 */
export const assemblyQuery = (make: string, model: string, assembly: string) =>
  queryOptions({
    queryKey: ['machines', make, model, 'assemblies', assembly],
    queryFn: () =>
      apiFetch<AssemblyPage>(
        `/api/machines/${encodeURIComponent(make)}/${encodeURIComponent(model)}/assemblies/${encodeURIComponent(assembly)}`,
      ).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }),
  });

export const useAssemblyPage = (make: string, model: string, assembly: string) => useQuery(assemblyQuery(make, model, assembly));
