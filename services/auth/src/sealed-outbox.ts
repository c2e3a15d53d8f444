import type { ClaimedMail, MailOutboxStore, OutboxLogger } from '@forgeline/mailer/outbox';
import type { AuthStore } from './ports.ts';
import { openMail } from './domain/mail-seal.ts';

/**
 * The shared Outbox's view of auth's store: mails are opened only here, the moment they are handed to the mailer,
 * and deleted once the mail server took them. One that does not open (sealed under another OTP_SECRET, e.g. an
 * unset one before a restart, whose code would not verify either) is deleted and logged, never retried.
 */
export function sealedOutbox(store: AuthStore, key: Buffer, logger: OutboxLogger): MailOutboxStore {
  return {
    async claimDueMails(now, limit, leaseMs) {
      const opened: ClaimedMail[] = [];
      for (const mail of await store.claimDueMails(now, limit, leaseMs)) {
        let message;
        try {
          message = openMail(key, mail.id, mail.sealed);
        } catch {
          logger.error({ mailId: mail.id, refId: mail.refId }, 'outbox mail does not open with this OTP_SECRET: dropped');
          await store.deleteMail(mail.id);
          continue;
        }
        opened.push({ id: mail.id, refId: mail.refId, attempts: mail.attempts, message });
      }
      return opened;
    },
    markSent: (id) => store.deleteMail(id),
    markFailed: (id, nextAttemptAt, error) => store.markFailed(id, nextAttemptAt, error),
    backlog: () => store.mailBacklog(),
  };
}
