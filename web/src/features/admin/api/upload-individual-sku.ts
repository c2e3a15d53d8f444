import type { UploadIndividualSkuResponse } from '@forgeline/contracts/media';
import { useCallback } from 'react';
import { useAdminUpload } from './upload-session.ts';

/** POST /api/admin/upload-individual-sku: multipart `sku`, `productName`, `images` (photos or .zip files). */
export function useUploadIndividualSku() {
  const upload = useAdminUpload();
  return useCallback(
    (input: { sku: string; productName: string; files: File[] }, onProgress?: (percent: number) => void) => {
      const form = new FormData();
      form.append('sku', input.sku);
      form.append('productName', input.productName);
      for (const f of input.files) form.append('images', f);
      return upload<UploadIndividualSkuResponse>('/api/admin/upload-individual-sku', form, onProgress);
    },
    [upload],
  );
}
