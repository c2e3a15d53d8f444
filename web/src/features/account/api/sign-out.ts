import type { BuyerSignOutResponse } from '@forgeline/contracts/account';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { markBuyerSignedIn } from '../../../lib/my-fleet.ts';
import { buyerSessionQuery } from './get-session.ts';

/** The browser forgets the buyer: their account's data leaves the cache and the page shows the sign-in form. */
export function forgetBuyer(client: QueryClient) {
  markBuyerSignedIn(false);
  client.removeQueries({ queryKey: ['account'], predicate: (q) => q.queryKey[1] !== 'session' });
  client.setQueryData(buyerSessionQuery.queryKey, null);
}

/** POST /api/account/sign-out: the session ends and its cookie is cleared. */
export const signOut = () => apiFetch<BuyerSignOutResponse>('/api/account/sign-out', { method: 'POST' });

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({ mutationFn: signOut, onSuccess: () => forgetBuyer(client) });
}
