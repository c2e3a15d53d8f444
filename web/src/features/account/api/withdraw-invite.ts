import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { COMPANY_QUERY_KEY } from './get-company.ts';

/** DELETE /api/account/company/invites/{id} (company admins). */
export function useWithdrawInvite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<{ success: true }>(`/api/account/company/invites/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: COMPANY_QUERY_KEY }),
  });
}
