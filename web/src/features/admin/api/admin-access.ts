import type {
  ApiKeyListResponse,
  ApiKeyScope,
  AuditListResponse,
  CreateApiKeyResponse,
  LiftSignInLockResponse,
  SignInLockListResponse,
} from '@forgeline/contracts/admin-access';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { withQuery } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY, useAdminSession } from '../hooks/use-admin-session.tsx';

/** GET /api/admin/api-keys: every key, revoked ones too, newest first (never the keys themselves). */
export function useApiKeys() {
  const { adminFetch, session } = useAdminSession();
  return useQuery({
    queryKey: [ADMIN_QUERY_KEY, 'api-keys'],
    queryFn: () => adminFetch<ApiKeyListResponse>('/api/admin/api-keys'),
    enabled: Boolean(session),
  });
}

/** POST /api/admin/api-keys: the answer holds the key, shown once. */
export function useCreateApiKey() {
  const { adminFetch } = useAdminSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; scopes: ApiKeyScope[] }) =>
      adminFetch<CreateApiKeyResponse>('/api/admin/api-keys', { method: 'POST', json: input }),
    onSettled: () => client.invalidateQueries({ queryKey: [ADMIN_QUERY_KEY, 'api-keys'] }),
  });
}

/** DELETE /api/admin/api-keys/{id}: the key stops working at once. */
export function useRevokeApiKey() {
  const { adminFetch } = useAdminSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => adminFetch<{ success: true }>(`/api/admin/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: [ADMIN_QUERY_KEY, 'api-keys'] }),
  });
}

export interface AuditFilters {
  actor: string;
  action: string;
  from: string;
  to: string;
}

export const AUDIT_PAGE_SIZE = 50;

/** GET /api/admin/audit, newest first, a page at a time ("Load more" follows nextCursor). */
export function useAuditLog(f: AuditFilters) {
  const { adminFetch, session } = useAdminSession();
  return useInfiniteQuery({
    queryKey: [ADMIN_QUERY_KEY, 'audit', f],
    queryFn: ({ pageParam }) =>
      adminFetch<AuditListResponse>(
        withQuery('/api/admin/audit', { actor: f.actor.trim(), action: f.action.trim(), from: f.from, to: f.to, cursor: pageParam, limit: AUDIT_PAGE_SIZE }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: Boolean(session),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/admin/sign-in-locks: admin addresses with wrong codes counted, locked ones first. */
export function useSignInLocks() {
  const { adminFetch, session } = useAdminSession();
  return useQuery({
    queryKey: [ADMIN_QUERY_KEY, 'sign-in-locks'],
    queryFn: () => adminFetch<SignInLockListResponse>('/api/admin/sign-in-locks'),
    enabled: Boolean(session),
  });
}

/** DELETE /api/admin/sign-in-locks/{email}: the lock ends and the count is forgotten (never one's own). */
export function useLiftSignInLock() {
  const { adminFetch } = useAdminSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => adminFetch<LiftSignInLockResponse>(`/api/admin/sign-in-locks/${encodeURIComponent(email)}`, { method: 'DELETE' }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: [ADMIN_QUERY_KEY, 'sign-in-locks'] });
      void client.invalidateQueries({ queryKey: [ADMIN_QUERY_KEY, 'audit'] });
    },
  });
}
