import type { Logger } from '@forgeline/service-kit/logger';
import type { QuoteStore } from '../ports.ts';
import { isAnonymised } from './company-history.ts';
import { DAY_MS } from './inbox.ts';
import { expiryReminderMail, type MailSettings } from './mails.ts';
import { hashQuoteToken, newQuoteToken, quoteViewUrl, type QuoteViewSettings } from './quote-view.ts';

export interface ExpiryRemindersOptions {
  store: QuoteStore;
  mail: MailSettings;
  quoteView: QuoteViewSettings;
  /** QUOTE_REMINDER_DAYS: how many days before a quote's last valid day its buyer is reminded; 0: never. */
  daysBefore: number;
  /** How often to look (QUOTE_REMINDER_POLL_MS). */
  pollMs: number;
  logger: Logger;
  outbox: { kick(): void };
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * One reminder per quote version before it expires. Every replica looks; the mail's id names the request and the
 * day it expires, and the outbox keeps one mail per id, so however many replicas find the same quote the buyer gets
 * one reminder (a replica that finds it already queued makes no new link either).
 */
export function createExpiryReminders(o: ExpiryRemindersOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  async function pass(now: number): Promise<number> {
    if (o.daysBefore <= 0) return 0;
    const due = await o.store.listExpiringQuotes(day(now), day(now + o.daysBefore * DAY_MS), 500);
    let queued = 0;
    for (const q of due) {
      if (isAnonymised(q.customerEmail)) continue;
      const id = `quote-${q.id}-expiry-${q.validUntil}`;
      if ((await o.store.listMails(q.id)).some((m) => m.id === id)) continue;
      const token = newQuoteToken();
      await o.store.saveQuoteLink({ tokenHash: hashQuoteToken(token), quoteId: q.id, createdAt: new Date(now).toISOString(), revokedAt: null });
      queued += await o.store.enqueueMails([expiryReminderMail(q, id, quoteViewUrl(o.quoteView, token), o.mail)]);
    }
    if (queued) {
      o.logger.info({ queued, due: due.length }, 'quote expiry reminders queued');
      o.outbox.kick();
    }
    return queued;
  }

  /** One look now (tests, and the timer); a look already running is waited for rather than doubled. */
  function runOnce(now = Date.now()): Promise<number> {
    running ??= pass(now).finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    runOnce,
    start() {
      if (o.daysBefore <= 0 || timer) return;
      const tick = () =>
        void runOnce().catch((err: unknown) => o.logger.error({ err: (err as Error).message }, 'quote expiry reminders failed; trying again at the next look'));
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
