import type { InboxDetail, InboxListResponse, InboxStaffResponse, InboxStats, InboxStatus } from '@forgeline/contracts/quote-inbox';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { withQuery } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY, useAdminSession } from '../hooks/use-admin-session.tsx';
import { downloadWithSession } from './download.ts';

export interface InboxFilters {
  status: InboxStatus | '';
  kind: '' | 'quote' | 'contact';
  assignee: string;
  q: string;
  from: string;
  to: string;
  page: number;
}

export const INBOX_PAGE_SIZE = 25;
const params = (f: InboxFilters) => ({ status: f.status, kind: f.kind, assignee: f.assignee, q: f.q.trim(), from: f.from, to: f.to });

/** GET /api/admin/quotes: the list, its paging and the per-status counts (the previous page stays while the next loads). */
export function useInboxList(f: InboxFilters) {
  const { adminFetch, session } = useAdminSession();
  return useQuery({
    queryKey: [ADMIN_QUERY_KEY, 'inbox', 'list', f],
    queryFn: () => adminFetch<InboxListResponse>(withQuery('/api/admin/quotes', { ...params(f), page: f.page, limit: INBOX_PAGE_SIZE })),
    enabled: Boolean(session),
    placeholderData: keepPreviousData,
  });
}

export function useInboxStats() {
  const { adminFetch, session } = useAdminSession();
  return useQuery({
    queryKey: [ADMIN_QUERY_KEY, 'inbox', 'stats'],
    queryFn: () => adminFetch<InboxStats>('/api/admin/quotes/stats'),
    enabled: Boolean(session),
  });
}

export function useInboxStaff() {
  const { adminFetch, session } = useAdminSession();
  return useQuery({
    queryKey: [ADMIN_QUERY_KEY, 'inbox', 'staff'],
    queryFn: () => adminFetch<InboxStaffResponse>('/api/admin/quotes/staff'),
    enabled: Boolean(session),
    staleTime: Infinity,
  });
}

export function useInboxItem(id: string | null) {
  const { adminFetch, session } = useAdminSession();
  return useQuery({
    queryKey: [ADMIN_QUERY_KEY, 'inbox', 'item', id],
    queryFn: () => adminFetch<InboxDetail>(`/api/admin/quotes/${encodeURIComponent(id!)}`),
    enabled: Boolean(session) && id !== null,
  });
}

export type InboxAction =
  | { kind: 'patch'; body: { status?: InboxStatus; assignee?: string | null; note?: string } }
  | {
      kind: 'reply';
      body: {
        message: string;
        lines: { unitPrice: number | null; currency: string | null; leadTime: string | null }[];
        validUntil: string | null;
      };
    };

/**
 * PATCH /api/admin/quotes/{id} or POST .../reply, sent with If-Match (the version on screen), so a change a colleague
 * made meanwhile comes back as a 409 instead of being overwritten. The list, the numbers and the request refresh.
 */
export function useInboxAction(item: InboxDetail | undefined) {
  const { adminFetch } = useAdminSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: InboxAction) => {
      if (!item) throw new Error('No request is open');
      const path = `/api/admin/quotes/${encodeURIComponent(item.id)}${action.kind === 'reply' ? '/reply' : ''}`;
      return adminFetch<InboxDetail>(path, {
        method: action.kind === 'reply' ? 'POST' : 'PATCH',
        headers: { 'If-Match': `"v${item.version}"` },
        json: action.body,
      });
    },
    onSuccess: (updated) => client.setQueryData([ADMIN_QUERY_KEY, 'inbox', 'item', updated.id], updated),
    onSettled: () => client.invalidateQueries({ queryKey: [ADMIN_QUERY_KEY, 'inbox'] }),
  });
}

/** GET /api/admin/quotes/export.csv with the current filters, saved as a file; an ended session shows 'Session Expired'. */
export function useInboxExport() {
  const { onUnauthorized } = useAdminSession();
  return (f: InboxFilters) =>
    downloadWithSession(withQuery('/api/admin/quotes/export.csv', params(f)), 'quote-requests.csv').catch((err: unknown) => {
      onUnauthorized(err);
      throw err;
    });
}
