import type { CompanyResponse } from '@forgeline/contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

export const COMPANY_QUERY_KEY = ['account', 'company'] as const;

/** GET /api/account/company: the company, its members, and (for its admins) the standing invitations. */
export const companyQuery = queryOptions({ queryKey: COMPANY_QUERY_KEY, queryFn: () => apiFetch<CompanyResponse>('/api/account/company') });

export const useCompany = () => useQuery(companyQuery);
