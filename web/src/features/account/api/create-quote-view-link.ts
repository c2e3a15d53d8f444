import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** POST /api/account/quotes/{id}/view-link: a fresh link to the request's quote page (once it has a priced version). */
export const useQuoteViewLink = () =>
  useMutation({ mutationFn: (id: string) => apiFetch<{ url: string }>(`/api/account/quotes/${encodeURIComponent(id)}/view-link`, { method: 'POST' }) });
