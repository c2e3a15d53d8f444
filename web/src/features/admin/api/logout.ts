import type { LogoutResponse } from '@forgeline/contracts/auth';
import { apiFetch } from '../../../lib/api-client.ts';

/** POST /api/admin/auth/logout (bearer token): revokes the session on the server. */
export const logoutSession = (token: string) =>
  apiFetch<LogoutResponse>('/api/admin/auth/logout', { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
