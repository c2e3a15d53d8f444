import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { COMPANY_QUERY_KEY } from './get-company.ts';
import { buyerSessionQuery } from './get-session.ts';

/**
 * DELETE /api/account/company/members/{email}: a company admin removes a colleague, or anyone leaves (never the last
 * admin). Who leaves is in a company of their own at their next call: everything the page shows is read again.
 */
export function useRemoveMember() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => apiFetch<{ success: true }>(`/api/account/company/members/${encodeURIComponent(email)}`, { method: 'DELETE' }),
    onSuccess: (_, email) =>
      client.invalidateQueries({ queryKey: client.getQueryData(buyerSessionQuery.queryKey)?.email === email ? ['account'] : COMPANY_QUERY_KEY }),
  });
}
