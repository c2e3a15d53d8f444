import { z } from 'zod';

/**
 * Webhooks for the seller's ERP (issue 34): staff register HTTPS endpoints for events; each delivery is signed
 * (`Forgeline-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the endpoint's secret), retried
 * with backoff from a durable outbox, and shown with its last answer. GET/POST /api/admin/webhooks,
 * DELETE /api/admin/webhooks/{id} (admin only).
 */

export const WEBHOOK_EVENTS = ['quote.replied', 'quote.accepted', 'quote.declined', 'order.status_changed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_LIMITS = { url: 2_000, description: 200, endpoints: 20 } as const;

/** POST /api/admin/webhooks */
export const WebhookEndpointInputSchema = z.object({
  url: z
    .string('must be text')
    .trim()
    .max(WEBHOOK_LIMITS.url, `must be at most ${WEBHOOK_LIMITS.url} characters`)
    .refine((u) => URL.canParse(u), 'must be an address (https://...)'),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, `must be one of ${WEBHOOK_EVENTS.join(', ')}`))
    .min(1, 'choose at least one event')
    .max(WEBHOOK_EVENTS.length)
    .transform((e) => [...new Set(e)]),
  description: z.string('must be text').trim().max(WEBHOOK_LIMITS.description, `must be at most ${WEBHOOK_LIMITS.description} characters`).default(''),
});
export type WebhookEndpointInput = z.infer<typeof WebhookEndpointInputSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const WebhookDeliverySchema = z.object({
  id: z.string(),
  endpointId: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  /** pending: not delivered yet (retried with backoff); failed: given up after the last attempt. */
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  /** The endpoint's last answer: its HTTP status (null: no answer) and the start of its body, or the error. */
  responseStatus: z.number().int().nullable(),
  response: z.string(),
  error: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  description: z.string(),
  createdAt: z.string(),
  /** Its latest delivery, with the endpoint's last answer. */
  lastDelivery: WebhookDeliverySchema.nullable(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** POST /api/admin/webhooks' answer: the only time the signing secret is shown. */
export const WebhookEndpointCreatedSchema = WebhookEndpointSchema.extend({ secret: z.string() });

/** GET /api/admin/webhooks */
export const WebhookListResponseSchema = z.object({
  endpoints: z.array(WebhookEndpointSchema),
  /** The latest deliveries of every endpoint, newest first (at most 50). */
  deliveries: z.array(WebhookDeliverySchema),
});
export type WebhookListResponse = z.infer<typeof WebhookListResponseSchema>;
