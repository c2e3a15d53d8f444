import type { DiagramUploadResponse } from '@forgeline/contracts/media';
import { useCallback } from 'react';
import { useAdminUpload } from './upload-session.ts';

/**
 * POST /api/admin/diagrams/{assemblyId} (multipart field `file`): a parts drawing, with upload progress. Answers 202
 * with the job to follow (GET /api/admin/media-jobs/{jobId}, useMediaJob); once it is done, the assembly has it.
 */
export function useUploadDiagram() {
  const upload = useAdminUpload();
  return useCallback(
    (assemblyId: string, file: File, onProgress?: (percent: number) => void) => {
      const form = new FormData();
      form.append('file', file);
      return upload<DiagramUploadResponse>(`/api/admin/diagrams/${encodeURIComponent(assemblyId)}`, form, onProgress);
    },
    [upload],
  );
}
