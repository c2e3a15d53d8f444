import type { CurrentSessionResponse } from '@forgeline/contracts/admin-access';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { ApiError, apiFetch } from '../../../lib/api-client.ts';
import { getCurrentSession } from '../api/get-current-session.ts';
import { logoutSession } from '../api/logout.ts';

export type AdminFetch = <T>(path: string, init?: RequestInit & { json?: unknown }) => Promise<T>;

/** Who is signed in. The session itself is an HttpOnly cookie: no script on the page can read it. */
export type AdminIdentity = CurrentSessionResponse;

interface AdminSessionValue {
  /** null: signed out; undefined: still asking the server (after a reload). */
  session: AdminIdentity | null | undefined;
  /** After a verified code: the server has set the session cookie; this only remembers who it is. */
  signIn: (session: AdminIdentity) => void;
  /** Ends the session on the server (which clears the cookie), forgets it here and returns to the login screen. */
  logout: () => Promise<void>;
  /**
   * apiFetch for admin calls (the cookie goes with them). Any 401 means the session is gone (expired, revoked
   * elsewhere): it shows 'Session Expired' / 'Please log in again' once and returns to the login screen.
   */
  adminFetch: AdminFetch;
  /** The same 401 handling for calls made another way (uploads with progress, downloads). */
  onUnauthorized: (err: unknown) => void;
}

const AdminSessionContext = createContext<AdminSessionValue | null>(null);

/** Query keys of admin reads start with this, so a logout drops them all. */
export const ADMIN_QUERY_KEY = 'admin';

/** Where earlier versions of the panel kept the session token; removed on sight, so nothing lingers in storage. */
const LEGACY_STORAGE_KEY = 'forgeline.adminSession';

export function AdminSessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<AdminIdentity | null | undefined>(undefined);
  const sessionRef = useRef(session);
  useEffect(() => {
    sessionRef.current = session;
  }, [session]);

  // A reload keeps the admin signed in through the cookie: ask the server who it is.
  useEffect(() => {
    try {
      localStorage.removeItem(LEGACY_STORAGE_KEY);
    } catch {
      /* storage blocked: nothing stored either */
    }
    let live = true;
    getCurrentSession().then(
      (s) => live && setSession((now) => (now === undefined ? s : now)),
      () => live && setSession((now) => (now === undefined ? null : now)),
    );
    return () => {
      live = false;
    };
  }, []);

  const forget = useCallback(() => {
    sessionRef.current = null;
    setSession(null);
    queryClient.removeQueries({ queryKey: [ADMIN_QUERY_KEY] });
  }, [queryClient]);

  const signIn = useCallback((s: AdminIdentity) => {
    const identity = { email: s.email, expiresAt: s.expiresAt };
    sessionRef.current = identity;
    setSession(identity);
  }, []);

  const logout = useCallback(async () => {
    const wasSignedIn = Boolean(sessionRef.current);
    forget();
    if (wasSignedIn) {
      await logoutSession().catch(() => {
        /* already expired or revoked: nothing more to undo */
      });
    }
  }, [forget]);

  const onUnauthorized = useCallback(
    (err: unknown) => {
      if (err instanceof ApiError && err.status === 401 && sessionRef.current) {
        toast.error('Session Expired', { description: 'Please log in again' });
        forget();
      }
    },
    [forget],
  );

  const adminFetch = useCallback<AdminFetch>(
    async (path, init = {}) => {
      try {
        return await apiFetch(path, init);
      } catch (err) {
        onUnauthorized(err);
        throw err;
      }
    },
    [onUnauthorized],
  );

  const value = useMemo(() => ({ session, signIn, logout, adminFetch, onUnauthorized }), [session, signIn, logout, adminFetch, onUnauthorized]);
  return <AdminSessionContext.Provider value={value}>{children}</AdminSessionContext.Provider>;
}

export function useAdminSession(): AdminSessionValue {
  const value = useContext(AdminSessionContext);
  if (!value) throw new Error('useAdminSession must be used inside <AdminSessionProvider>');
  return value;
}
