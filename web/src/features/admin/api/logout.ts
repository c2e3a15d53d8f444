import type { LogoutResponse } from '@forgeline/contracts/auth';
import { apiFetch } from '../../../lib/api-client.ts';

/** POST /api/admin/auth/logout: ends the session on the server, which clears its cookie. */
export const logoutSession = () => apiFetch<LogoutResponse>('/api/admin/auth/logout', { method: 'POST' });
