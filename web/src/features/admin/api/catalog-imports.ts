import type { CatalogImportJob } from '@forgeline/contracts/catalog-admin';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { withQuery } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY, useAdminSession } from '../hooks/use-admin-session.tsx';
import { downloadWithSession } from './download.ts';
import { useAdminUpload } from './upload-session.ts';

/** POST /api/admin/catalog/imports: the file, as a background job (answers its id). */
export function useStartCatalogImport() {
  const upload = useAdminUpload();
  return useCallback(
    (file: File, opts: { dryRun: boolean; missing: 'keep' | 'deactivate' }, onProgress?: (percent: number) => void) => {
      const form = new FormData();
      form.append('file', file);
      return upload<{ id: string }>(withQuery('/api/admin/catalog/imports', { dryRun: String(opts.dryRun), missing: opts.missing }), form, onProgress);
    },
    [upload],
  );
}

const running = (job: CatalogImportJob | undefined) => !job || job.state === 'queued' || job.state === 'running';

/** GET /api/admin/catalog/imports/{id}, asked again every second while the job runs. */
export function useCatalogImport(id: string | null) {
  const { adminFetch, session } = useAdminSession();
  return useQuery({
    queryKey: [ADMIN_QUERY_KEY, 'catalog-import', id],
    queryFn: () => adminFetch<CatalogImportJob>(`/api/admin/catalog/imports/${encodeURIComponent(id!)}`),
    enabled: Boolean(session) && id !== null,
    refetchInterval: (q) => (running(q.state.data) ? 1000 : false),
  });
}

export function useCatalogDownloads() {
  const { onUnauthorized } = useAdminSession();
  const download = (path: string, name: string) => downloadWithSession(path, name).catch((err: unknown) => {
    onUnauthorized(err);
    throw err;
  });
  return {
    exportCatalog: () => download('/api/admin/catalog/export.csv', 'catalogue.csv'),
    importErrors: (id: string) => download(`/api/admin/catalog/imports/${encodeURIComponent(id)}/errors.csv`, 'import-errors.csv'),
  };
}
