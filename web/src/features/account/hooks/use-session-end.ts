import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { statusOf } from '../../../lib/api-error.ts';
import { forgetBuyer } from '../api/sign-out.ts';

/**
 * While the signed-in account shows: any of its calls answered 401 (the session ended elsewhere: a sign-out in
 * another tab, its expiry) takes the page back to the sign-in form, saying why, instead of showing one failed section.
 */
export function useSessionEnd() {
  const client = useQueryClient();
  useEffect(() => {
    let ended = false;
    const end = (err: unknown) => {
      if (ended || statusOf(err) !== 401) return;
      ended = true;
      forgetBuyer(client);
      toast.error('You are signed out', { description: 'Your session has ended. Sign in again to see your account.' });
    };
    const queries = client.getQueryCache().subscribe((e) => {
      if (e.type !== 'updated' || e.action.type !== 'error') return;
      const key = e.query.queryKey as readonly unknown[];
      // The session's own 401 is its answer "signed out" (null), not a failure.
      if (key[0] === 'account' && key[1] !== 'session') end(e.action.error);
    });
    const mutations = client.getMutationCache().subscribe((e) => {
      if (e.type === 'updated' && e.action.type === 'error') end(e.action.error);
    });
    return () => {
      queries();
      mutations();
    };
  }, [client]);
}
