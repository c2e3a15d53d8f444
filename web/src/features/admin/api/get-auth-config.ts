import type { AuthConfigResponse } from '@forgeline/contracts/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** GET /api/admin/auth/config: the admin address the login screen prefills. */
export const getAuthConfig = () => apiFetch<AuthConfigResponse>('/api/admin/auth/config');

export const authConfigQuery = () => queryOptions({ queryKey: ['auth-config'], queryFn: getAuthConfig });

export const useAuthConfig = () => useQuery(authConfigQuery());
