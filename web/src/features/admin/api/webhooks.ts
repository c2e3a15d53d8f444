import type { WebhookEndpointInput, WebhookListResponse, WebhookEndpoint } from '@forgeline/contracts/webhooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ADMIN_QUERY_KEY, useAdminSession } from '../hooks/use-admin-session.tsx';

const KEY = [ADMIN_QUERY_KEY, 'webhooks'];

/** GET /api/admin/webhooks: the endpoints with their last answers, and the latest deliveries. */
export function useWebhooks() {
  const { adminFetch, session } = useAdminSession();
  return useQuery({ queryKey: KEY, queryFn: () => adminFetch<WebhookListResponse>('/api/admin/webhooks'), enabled: Boolean(session) });
}

/** POST /api/admin/webhooks: answers the endpoint with its signing secret (shown once). */
export function useAddWebhook() {
  const { adminFetch } = useAdminSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookEndpointInput) => adminFetch<WebhookEndpoint & { secret: string }>('/api/admin/webhooks', { method: 'POST', json: input }),
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

export function useRemoveWebhook() {
  const { adminFetch } = useAdminSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => adminFetch<void>(`/api/admin/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
}
