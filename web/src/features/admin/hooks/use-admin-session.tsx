import type { AdminSession } from '@forgeline/contracts/auth';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { ApiError, apiFetch } from '../../../lib/api-client.ts';
import { logoutSession } from '../api/logout.ts';
import { clearAdminSession, loadAdminSession, saveAdminSession } from '../utils/admin-session-storage.ts';

export type AdminFetch = <T>(path: string, init?: RequestInit & { json?: unknown }) => Promise<T>;

interface AdminSessionValue {
  session: AdminSession | null;
  /** Stores a fresh session (after a verified code). */
  signIn: (session: AdminSession) => void;
  /** Revokes the session on the server (best effort), forgets it here and returns to the login screen. */
  logout: () => Promise<void>;
  /**
   * apiFetch with the bearer token. Any 401 means the session is gone (expired, revoked elsewhere):
   * it shows 'Session Expired' / 'Please log in again' once and returns to the login screen.
   * Upload code in the tabs uses this too.
   */
  adminFetch: AdminFetch;
}

const AdminSessionContext = createContext<AdminSessionValue | null>(null);

/** Query keys of admin reads start with this, so a logout drops them all. */
export const ADMIN_QUERY_KEY = 'admin';

export function AdminSessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<AdminSession | null>(() => loadAdminSession());
  const sessionRef = useRef(session);
  sessionRef.current = session;

  const forget = useCallback(() => {
    clearAdminSession();
    sessionRef.current = null;
    setSession(null);
    queryClient.removeQueries({ queryKey: [ADMIN_QUERY_KEY] });
  }, [queryClient]);

  const signIn = useCallback((s: AdminSession) => {
    saveAdminSession(s);
    sessionRef.current = s;
    setSession(s);
  }, []);

  const logout = useCallback(async () => {
    const token = sessionRef.current?.token;
    forget();
    if (token) {
      await logoutSession(token).catch(() => {
        /* already expired or revoked: nothing more to undo */
      });
    }
  }, [forget]);

  const adminFetch = useCallback<AdminFetch>(
    async (path, init = {}) => {
      const token = sessionRef.current?.token;
      const headers = new Headers(init.headers);
      if (token) headers.set('Authorization', `Bearer ${token}`);
      try {
        return await apiFetch(path, { ...init, headers });
      } catch (err) {
        if (err instanceof ApiError && err.status === 401 && sessionRef.current?.token === token && token) {
          toast.error('Session Expired', { description: 'Please log in again' });
          forget();
        }
        throw err;
      }
    },
    [forget],
  );

  const value = useMemo(() => ({ session, signIn, logout, adminFetch }), [session, signIn, logout, adminFetch]);
  return <AdminSessionContext.Provider value={value}>{children}</AdminSessionContext.Provider>;
}

export function useAdminSession(): AdminSessionValue {
  const value = useContext(AdminSessionContext);
  if (!value) throw new Error('useAdminSession must be used inside <AdminSessionProvider>');
  return value;
}
