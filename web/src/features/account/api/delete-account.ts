import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { forgetBuyer } from './sign-out.ts';

/**
 * DELETE /api/account: the buyer leaves their company (which goes too when they were its last member) and is signed
 * out; their quotes and orders stay with the seller, their details taken out.
 */
export function useDeleteAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ success: true }>('/api/account', { method: 'DELETE' }),
    onSuccess: () => forgetBuyer(client),
  });
}
