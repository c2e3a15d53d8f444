import { useCallback } from 'react';
import { useAdminSession } from '../hooks/use-admin-session.tsx';
import { uploadWithProgress } from './upload-request.ts';

/**
 * uploadWithProgress with the admin session (its cookie). A 401 means the session is gone: 'Session Expired'
 * and back to the login screen, as adminFetch does for the other admin calls.
 */
export function useAdminUpload() {
  const { onUnauthorized } = useAdminSession();
  return useCallback(
    async <T,>(path: string, body: FormData, onProgress?: (percent: number) => void): Promise<T> => {
      try {
        return await uploadWithProgress<T>(path, body, { onProgress });
      } catch (err) {
        onUnauthorized(err);
        throw err;
      }
    },
    [onUnauthorized],
  );
}
