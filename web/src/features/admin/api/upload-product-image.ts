import type { UploadImageResponse } from '@forgeline/contracts/media';
import { useCallback } from 'react';
import { useAdminUpload } from './upload-session.ts';

/** POST /api/admin/products/{id}/upload-image: one file a call, multipart field `image`. */
export function useUploadProductImage() {
  const upload = useAdminUpload();
  return useCallback(
    (productId: string, file: File, onProgress?: (percent: number) => void) => {
      const form = new FormData();
      form.append('image', file);
      return upload<UploadImageResponse>(`/api/admin/products/${encodeURIComponent(productId)}/upload-image`, form, onProgress);
    },
    [upload],
  );
}
