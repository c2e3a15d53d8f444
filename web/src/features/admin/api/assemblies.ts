import type { Assembly, AssemblyCreate, AssemblyHistoryEntry, AssemblyUpdate } from '@forgeline/contracts/parts-diagrams';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { withQuery } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY, useAdminSession, type AdminFetch } from '../hooks/use-admin-session.tsx';

/** The staff's parts diagrams (#38): the catalog's /api/admin/assemblies calls. */
const KEY = [ADMIN_QUERY_KEY, 'assemblies'] as const;

/** A row of the list: the assembly without its table, with how many callout numbers and lines it has. */
export type AssemblyListRow = Omit<Assembly, 'callouts'> & { calloutCount: number; lineCount: number };
export interface AssemblyFilter {
  make?: string;
  model?: string;
  search?: string;
}
/** A part one of the assembly's lines names, as the editor's table shows it. */
export interface AssemblyPartLabel {
  id: string;
  name: string;
  sku: string;
  partNumber: string;
  brandName?: string;
}
export interface AssemblyWithParts {
  assembly: Assembly;
  parts: AssemblyPartLabel[];
}

/** GET /api/admin/assemblies?make=&model=&search= (the first 200). */
export function useAssemblies(filter: AssemblyFilter) {
  const { adminFetch, session } = useAdminSession();
  return useQuery({
    queryKey: [...KEY, 'list', filter],
    queryFn: () => adminFetch<{ assemblies: AssemblyListRow[] }>(withQuery('/api/admin/assemblies', { make: filter.make, model: filter.model, search: filter.search })),
    enabled: Boolean(session),
  });
}

/** GET /api/admin/assemblies/{id}: the assembly and the parts its lines name. */
export const assemblyQuery = (adminFetch: AdminFetch, id: string) =>
  queryOptions({
    queryKey: [...KEY, 'one', id],
    queryFn: () => adminFetch<AssemblyWithParts>(`/api/admin/assemblies/${encodeURIComponent(id)}`),
  });

export function useAssembly(id: string) {
  const { adminFetch, session } = useAdminSession();
  return useQuery({ ...assemblyQuery(adminFetch, id), enabled: Boolean(session) });
}

/** GET /api/admin/assemblies/{id}/history: newest first. Read again for each version (a drawing's comes from media). */
export function useAssemblyHistory(id: string, version: number) {
  const { adminFetch, session } = useAdminSession();
  return useQuery({
    queryKey: [...KEY, 'history', id, version],
    queryFn: () => adminFetch<{ entries: AssemblyHistoryEntry[] }>(`/api/admin/assemblies/${encodeURIComponent(id)}/history`),
    enabled: Boolean(session),
  });
}

/** After any change the list, the assembly and its history are read again. */
function useInvalidateAssemblies() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: KEY });
}

/** POST /api/admin/assemblies {make, model, name}: 201 with the new assembly (409 when the model has that name). */
export function useCreateAssembly() {
  const { adminFetch } = useAdminSession();
  const invalidate = useInvalidateAssemblies();
  return useMutation({
    mutationFn: (body: AssemblyCreate) => adminFetch<Assembly>('/api/admin/assemblies', { method: 'POST', json: body }),
    onSuccess: () => void invalidate(),
  });
}

/** PUT /api/admin/assemblies/{id} {version, name, callouts}: 409 when the version is not the current one. */
export function useSaveAssembly() {
  const { adminFetch } = useAdminSession();
  const invalidate = useInvalidateAssemblies();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AssemblyUpdate }) => adminFetch<Assembly>(`/api/admin/assemblies/${encodeURIComponent(id)}`, { method: 'PUT', json: body }),
    onSuccess: () => void invalidate(),
  });
}

/** DELETE /api/admin/assemblies/{id}. */
export function useDeleteAssembly() {
  const { adminFetch } = useAdminSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => adminFetch<void>(`/api/admin/assemblies/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_r, id) => {
      client.removeQueries({ queryKey: [...KEY, 'one', id] });
      void client.invalidateQueries({ queryKey: [...KEY, 'list'] });
    },
  });
}
