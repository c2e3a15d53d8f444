import type { CurrentSessionResponse } from '@forgeline/contracts/admin-access';
import { apiFetch } from '../../../lib/api-client.ts';

/** GET /api/admin/auth/session: who the session cookie signs in (401 when none). */
export const getCurrentSession = () => apiFetch<CurrentSessionResponse>('/api/admin/auth/session');
