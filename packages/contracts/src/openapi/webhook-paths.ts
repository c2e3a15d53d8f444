import { WebhookEndpointCreatedSchema, WebhookEndpointInputSchema, WebhookListResponseSchema } from '../webhooks.ts';
import { ADMIN_ERRORS, body, errors, json, parameters, staff, textId, type Paths } from './shared.ts';

const tags = ['Webhooks'];

/**
 * The seller's webhook endpoints (quotes service), for signed-in staff only. Each delivery is a POST of
 * `{ id, event, createdAt, data }` with `Forgeline-Event`, `Forgeline-Delivery` (its id) and `Forgeline-Signature:
 * t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the endpoint's secret>`; a 2xx is delivered, anything else
 * (or no answer in 10 s, or a redirect) is tried again with backoff.
 */
export const webhookPaths: Paths = {
  '/api/admin/webhooks': {
    get: {
      tags,
      operationId: 'listWebhooks',
      summary: 'The endpoints, each with its last delivery and answer, and the latest 50 deliveries',
      security: staff,
      responses: { 200: json(WebhookListResponseSchema, 'Endpoints and deliveries'), ...errors(...ADMIN_ERRORS) },
    },
    post: {
      tags,
      operationId: 'addWebhook',
      summary: 'Add an endpoint (a public https:// address) for some events; the answer holds its signing secret, shown this once',
      security: staff,
      requestBody: body(WebhookEndpointInputSchema),
      responses: {
        201: json(WebhookEndpointCreatedSchema, 'The endpoint and its secret'),
        ...errors([400, 'Invalid body: an address that is not public https (another scheme, credentials, a private or loopback address)'], ...ADMIN_ERRORS, [409, 'Too many endpoints'], 413),
      },
    },
  },
  '/api/admin/webhooks/{id}': {
    delete: {
      tags,
      operationId: 'removeWebhook',
      summary: 'Remove an endpoint; its deliveries not yet made are given up',
      security: staff,
      parameters: parameters(textId('The id of a webhook endpoint'), 'path'),
      responses: { 204: { description: 'Removed' }, ...errors(...ADMIN_ERRORS, 404) },
    },
  },
};
