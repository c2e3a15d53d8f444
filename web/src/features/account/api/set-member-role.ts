import type { CompanyResponse, CompanyRole } from '@forgeline/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { COMPANY_QUERY_KEY } from './get-company.ts';
import { buyerSessionQuery } from './get-session.ts';

/** PATCH /api/account/company/members/{email} { role } (company admins; never the company's last admin). */
export function useSetMemberRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ email, role }: { email: string; role: CompanyRole }) =>
      apiFetch<CompanyResponse>(`/api/account/company/members/${encodeURIComponent(email)}`, { method: 'PATCH', json: { role } }),
    onSuccess: (company, { email }) => {
      client.setQueryData(COMPANY_QUERY_KEY, company);
      // Their own role changed: the header and what the page lets them do follow.
      if (client.getQueryData(buyerSessionQuery.queryKey)?.email === email) void client.invalidateQueries({ queryKey: ['account'] });
    },
  });
}
