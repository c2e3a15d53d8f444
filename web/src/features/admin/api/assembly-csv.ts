import type { DiagramImportReport } from '@forgeline/contracts/parts-diagrams';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { withQuery } from '../../../lib/api-client.ts';
import { ADMIN_QUERY_KEY, useAdminSession } from '../hooks/use-admin-session.tsx';
import { downloadWithSession } from './download.ts';
import { useAdminUpload } from './upload-session.ts';

/** GET /api/admin/assemblies/export.csv: every assembly's lines, in the import's columns. */
export function useExportDiagrams() {
  const { onUnauthorized } = useAdminSession();
  return useCallback(
    () =>
      downloadWithSession('/api/admin/assemblies/export.csv', 'parts-diagrams.csv').catch((err: unknown) => {
        onUnauthorized(err);
        throw err;
      }),
    [onUnauthorized],
  );
}

/**
 * POST /api/admin/assemblies/import?dryRun= (multipart field `file`): answered with the report once the file is read
 * (a dry run changes nothing). A real import changes assemblies: the tab's reads are asked again.
 */
export function useImportDiagrams() {
  const upload = useAdminUpload();
  const client = useQueryClient();
  return useCallback(
    async (file: File, dryRun: boolean, onProgress?: (percent: number) => void) => {
      const form = new FormData();
      form.append('file', file);
      const report = await upload<DiagramImportReport>(withQuery('/api/admin/assemblies/import', { dryRun: String(dryRun) }), form, onProgress);
      if (!report.dryRun) void client.invalidateQueries({ queryKey: [ADMIN_QUERY_KEY, 'assemblies'] });
      return report;
    },
    [upload, client],
  );
}
