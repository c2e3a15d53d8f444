import type { BuyerCodeResponse, BuyerSession, BuyerVerifyResponse } from '@forgeline/contracts/account';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api-client.ts';

/** The signed-in buyer, or null when no buyer session is (the one 401). Read when the account page opens. */
export const buyerSessionQuery = queryOptions({
  queryKey: ['account', 'session'],
  queryFn: () =>
    apiFetch<BuyerSession>('/api/account/session').catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 401) return null;
      throw err;
    }),
  staleTime: 60_000,
  retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
});

export const useBuyerSession = () => useQuery(buyerSessionQuery);

/** Mails a sign-in code (and a link) to the address; the answer is the same for every address. */
export const useSendCode = () => useMutation({ mutationFn: (email: string) => apiFetch<BuyerCodeResponse>('/api/account/sign-in/code', { method: 'POST', json: { email } }) });

/** Checks the code; the session cookie comes with the answer. */
export function useVerifyCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { sessionId: string; otp: string }) => apiFetch<BuyerVerifyResponse>('/api/account/sign-in/verify', { method: 'POST', json: v }),
    onSuccess: (s) => client.setQueryData(buyerSessionQuery.queryKey, (): BuyerSession | null => ({ email: s.email, expiresAt: s.expiresAt })),
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ success: true }>('/api/account/sign-out', { method: 'POST' }),
    onSuccess: () => client.setQueryData(buyerSessionQuery.queryKey, (): BuyerSession | null => null),
  });
}
