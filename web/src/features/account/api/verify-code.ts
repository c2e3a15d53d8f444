import type { BuyerVerifyResponse } from '@forgeline/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { markBuyerSignedIn } from '../../../lib/my-fleet.ts';
import { buyerSessionQuery } from './get-session.ts';

/**
 * POST /api/account/sign-in/verify: checks the code; the session cookie comes with the answer. The account (company,
 * role) is then read again, and the mutation stays pending until it is, so the page goes straight to the account.
 */
export function useVerifyCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { sessionId: string; otp: string }) => apiFetch<BuyerVerifyResponse>('/api/account/sign-in/verify', { method: 'POST', json: v }),
    onSuccess: async () => {
      markBuyerSignedIn(true);
      await client.refetchQueries({ queryKey: buyerSessionQuery.queryKey });
    },
  });
}
