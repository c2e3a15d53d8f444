import type { CompanyInvite, CompanyRole } from '@forgeline/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { COMPANY_QUERY_KEY } from './get-company.ts';

/** POST /api/account/company/invites { email, role } (company admins): the address is mailed, and joins at its sign-in. */
export function useInviteMember() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invite: { email: string; role: CompanyRole }) => apiFetch<CompanyInvite>('/api/account/company/invites', { method: 'POST', json: invite }),
    onSuccess: () => client.invalidateQueries({ queryKey: COMPANY_QUERY_KEY }),
  });
}
