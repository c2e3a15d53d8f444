import type { Alias, DemandRow, RulesImportResult, SearchInsights, Synonym } from '@forgeline/contracts/search-insights';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ADMIN_QUERY_KEY, useAdminSession } from '../hooks/use-admin-session.tsx';

const KEY = [ADMIN_QUERY_KEY, 'search'];

/** GET /api/admin/search/insights: searches per day, top queries, the zero-result queue, results nobody opened. */
export function useSearchInsights(days: number) {
  const { adminFetch, session } = useAdminSession();
  return useQuery({
    queryKey: [...KEY, 'insights', days],
    queryFn: () => adminFetch<SearchInsights>(`/api/admin/search/insights?days=${days}&limit=50`),
    enabled: Boolean(session),
  });
}

/** GET /api/admin/search/demand: not-stocked and zero-result queries by visitors. */
export function useSearchDemand(days: number) {
  const { adminFetch, session } = useAdminSession();
  return useQuery({
    queryKey: [...KEY, 'demand', days],
    queryFn: () => adminFetch<{ days: number; rows: DemandRow[] }>(`/api/admin/search/demand?days=${days}&limit=200`),
    enabled: Boolean(session),
  });
}

export function useSearchAliases() {
  const { adminFetch, session } = useAdminSession();
  return useQuery({ queryKey: [...KEY, 'aliases'], queryFn: () => adminFetch<{ aliases: Alias[] }>('/api/admin/search/aliases'), enabled: Boolean(session) });
}

export function useSearchSynonyms() {
  const { adminFetch, session } = useAdminSession();
  return useQuery({ queryKey: [...KEY, 'synonyms'], queryFn: () => adminFetch<{ synonyms: Synonym[] }>('/api/admin/search/synonyms'), enabled: Boolean(session) });
}

/** Every change to the rules moves the queue and the lists: all of the tab's reads are asked again. */
function useSearchMutation<I, O>(call: (adminFetch: ReturnType<typeof useAdminSession>['adminFetch'], input: I) => Promise<O>) {
  const { adminFetch } = useAdminSession();
  const client = useQueryClient();
  return useMutation({ mutationFn: (input: I) => call(adminFetch, input), onSettled: () => client.invalidateQueries({ queryKey: KEY }) });
}

export const useSetQueryStatus = () =>
  useSearchMutation((f, input: { query: string; status: 'open' | 'not_stocked' | 'dismissed'; note?: string }) => f('/api/admin/search/queries/status', { method: 'PUT', json: input }));
export const useAddAlias = () => useSearchMutation((f, input: { text: string; productIds: string[]; query?: string }) => f<Alias>('/api/admin/search/aliases', { method: 'POST', json: input }));
export const useRemoveAlias = () => useSearchMutation((f, id: string) => f(`/api/admin/search/aliases/${encodeURIComponent(id)}`, { method: 'DELETE' }));
export const useAddSynonym = () =>
  useSearchMutation((f, input: { words: string[]; mode: 'both' | 'one-way'; query?: string }) => f<Synonym>('/api/admin/search/synonyms', { method: 'POST', json: input }));
export const useRemoveSynonym = () => useSearchMutation((f, id: string) => f(`/api/admin/search/synonyms/${encodeURIComponent(id)}`, { method: 'DELETE' }));
/** POST …/aliases.csv or …/synonyms.csv with the file's text. */
export const useImportRules = () =>
  useSearchMutation((f, input: { kind: 'aliases' | 'synonyms'; text: string }) =>
    f<RulesImportResult>(`/api/admin/search/${input.kind}.csv`, { method: 'POST', body: input.text, headers: { 'Content-Type': 'text/csv' } }),
  );
