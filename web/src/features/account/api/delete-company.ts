import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { forgetBuyer, signOut } from './sign-out.ts';

/**
 * DELETE /api/account/company (company admins): the company, its fleet and lists go; every member's quotes and orders
 * stay with the seller, their details taken out. The buyer is then signed out (their session would only make a new,
 * empty company at the next call).
 */
export function useDeleteCompany() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiFetch<{ success: true }>('/api/account/company', { method: 'DELETE' });
      await signOut().catch(() => undefined);
    },
    onSuccess: () => forgetBuyer(client),
  });
}
