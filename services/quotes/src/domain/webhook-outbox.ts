import { retryDelayMs } from '@forgeline/mailer/backoff';
import type { Logger } from '@forgeline/service-kit/logger';
import type { QuoteStore } from '../ports.ts';
import { deliverWebhook } from './webhook-delivery.ts';

export interface WebhookOutboxOptions {
  store: QuoteStore;
  logger: Logger;
  /** First retry after this long, then 2x, 4x ... up to maxDelayMs (less up to 20 % jitter). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Attempts before a delivery is given up (failed). */
  maxAttempts: number;
  pollMs: number;
  leaseMs: number;
  timeoutMs: number;
  /** The tests' receivers listen on loopback: only their harness sets it; main.ts never does, and no variable can. */
  allowPrivate?: boolean;
  now?: () => Date;
}

/**
 * Sends the webhook deliveries the store holds, in the background: never on a buyer's click. Every replica runs one;
 * a claim (atomic in the store) gives each delivery attempt to one of them. A failed attempt (no answer, a non-2xx, a
 * redirect, an address that is no longer public) is tried again with backoff, up to maxAttempts, each attempt's
 * answer kept for staff to see.
 */
export function createWebhookOutbox(o: WebhookOutboxOptions) {
  const now = o.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;

  async function pass(): Promise<number> {
    let sent = 0;
    for (;;) {
      const batch = await o.store.claimDueDeliveries(now(), 10, o.leaseMs);
      if (!batch.length) return sent;
      await Promise.all(
        batch.map(async (d) => {
          const result = await deliverWebhook({ url: d.url, secret: d.secret, event: d.event, deliveryId: d.id, body: d.body, timeoutMs: o.timeoutMs, allowPrivate: o.allowPrivate });
          const at = now();
          if (result.ok) {
            sent++;
            await o.store.markDelivery(d.id, { status: 'delivered', at, nextAttemptAt: null, responseStatus: result.status, response: result.response, error: null });
            o.logger.info({ deliveryId: d.id, event: d.event, status: result.status, attempts: d.attempts }, 'webhook delivered');
            return;
          }
          const last = d.attempts >= o.maxAttempts;
          const nextAttemptAt = last ? null : new Date(at.getTime() + retryDelayMs(d.attempts, o.baseDelayMs, o.maxDelayMs));
          await o.store.markDelivery(d.id, {
            status: last ? 'failed' : 'pending',
            at,
            nextAttemptAt,
            responseStatus: result.status,
            response: result.response,
            error: result.error ?? (result.status === null ? 'no answer' : `answered ${result.status}`),
          });
          o.logger.warn(
            { deliveryId: d.id, event: d.event, status: result.status, error: result.error, attempts: d.attempts, next: nextAttemptAt?.toISOString() ?? 'given up' },
            last ? 'webhook given up after its last attempt' : 'webhook not delivered; trying again later',
          );
        }),
      );
    }
  }

  /** One pass now; a pass already running is followed by one more (something new may have come in meanwhile). */
  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = pass().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        void runOnce().catch(() => undefined);
      }
    });
    return running;
  }

  const tick = () => void runOnce().catch((err: unknown) => o.logger.error({ err: (err as Error).message }, 'webhook outbox pass failed; trying again at the next look'));

  return {
    runOnce,
    /** Something was queued: look now rather than at the next poll. */
    kick: tick,
    start() {
      if (timer) return;
      timer = setInterval(tick, o.pollMs);
      timer.unref();
      tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
