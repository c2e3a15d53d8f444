import type { BulkZipResult } from '@forgeline/contracts/media';
import { useCallback } from 'react';
import { useAdminUpload } from './upload-session.ts';

/** POST /api/admin/upload-bulk-zip: one .zip, multipart field `zip`, a folder per SKU inside. */
export function useUploadBulkZip() {
  const upload = useAdminUpload();
  return useCallback(
    (zip: File, onProgress?: (percent: number) => void) => {
      const form = new FormData();
      form.append('zip', zip);
      return upload<BulkZipResult>('/api/admin/upload-bulk-zip', form, onProgress);
    },
    [upload],
  );
}
