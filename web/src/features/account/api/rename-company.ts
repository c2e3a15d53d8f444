import type { CompanyResponse } from '@forgeline/contracts/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { COMPANY_QUERY_KEY } from './get-company.ts';
import { buyerSessionQuery } from './get-session.ts';

/** PATCH /api/account/company { name } (company admins): the page's header shows the new name too. */
export function useRenameCompany() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiFetch<CompanyResponse>('/api/account/company', { method: 'PATCH', json: { name } }),
    onSuccess: (company) => {
      client.setQueryData(COMPANY_QUERY_KEY, company);
      client.setQueryData(buyerSessionQuery.queryKey, (s) => (s ? { ...s, company: { ...s.company, name: company.company.name } } : s));
    },
  });
}
