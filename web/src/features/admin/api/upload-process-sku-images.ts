import type { ProcessSkuImagesBody, ProcessSkuImagesResponse } from '@forgeline/contracts/media';
import { useMutation } from '@tanstack/react-query';
import { useAdminSession } from '../hooks/use-admin-session.tsx';

/** POST /api/admin/process-sku-images: (re)process the photos stored for SKUs. */
export function useProcessSkuImages() {
  const { adminFetch } = useAdminSession();
  return useMutation({
    mutationFn: (body: ProcessSkuImagesBody) =>
      adminFetch<ProcessSkuImagesResponse>('/api/admin/process-sku-images', { method: 'POST', json: body }),
  });
}
