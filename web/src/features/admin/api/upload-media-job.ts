import type { MediaJobStatus } from '@forgeline/contracts/media';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_QUERY_KEY, useAdminSession, type AdminFetch } from '../hooks/use-admin-session.tsx';

const FINISHED: MediaJobStatus['state'][] = ['completed', 'completed_with_errors', 'failed'];
export const isJobFinished = (s?: MediaJobStatus) => !!s && FINISHED.includes(s.state);

/** GET /api/admin/media-jobs/{id}: progress of what one upload queued. */
export const mediaJobQuery = (adminFetch: AdminFetch, id: string) =>
  queryOptions({
    queryKey: [ADMIN_QUERY_KEY, 'media-job', id],
    queryFn: () => adminFetch<MediaJobStatus>(`/api/admin/media-jobs/${encodeURIComponent(id)}`),
  });

/** Polls once a second until the job is finished. */
export function useMediaJob(id: string | null | undefined) {
  const { adminFetch } = useAdminSession();
  return useQuery({
    ...mediaJobQuery(adminFetch, id ?? ''),
    enabled: !!id,
    refetchInterval: (q) => (isJobFinished(q.state.data) ? false : 1000),
  });
}
