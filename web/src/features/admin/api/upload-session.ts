import { useCallback } from 'react';
import { toast } from 'sonner';
import { ApiError } from '../../../lib/api-client.ts';
import { useAdminSession } from '../hooks/use-admin-session.tsx';
import { uploadWithProgress } from './upload-request.ts';

/**
 * uploadWithProgress with the admin session's token. A 401 means the session is gone: 'Session Expired'
 * and back to the login screen, as adminFetch does for the other admin calls.
 */
export function useAdminUpload() {
  const { session, logout } = useAdminSession();
  const token = session?.token;
  return useCallback(
    async <T,>(path: string, body: FormData, onProgress?: (percent: number) => void): Promise<T> => {
      try {
        return await uploadWithProgress<T>(path, body, { token, onProgress });
      } catch (err) {
        if (err instanceof ApiError && err.status === 401 && token) {
          toast.error('Session Expired', { description: 'Please log in again' });
          void logout();
        }
        throw err;
      }
    },
    [token, logout],
  );
}
