import { randomUUID } from 'node:crypto';
import type { WebhookEvent } from '@forgeline/contracts/webhooks';
import type { WebhookEmit } from '../ports.ts';

/**
 * An event for the seller's ERP as its endpoints receive it: `{ id, event, createdAt, data }`, the same body to every
 * endpoint (each delivery has its own id in the Forgeline-Delivery header). Documented in the OpenAPI document's
 * Webhooks tag.
 */
export function webhookEmit(event: WebhookEvent, data: Record<string, unknown>, at = new Date().toISOString()): WebhookEmit {
  const id = randomUUID();
  return { id, event, body: JSON.stringify({ id, event, createdAt: at, data }) };
}
