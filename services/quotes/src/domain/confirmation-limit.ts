import { createHash } from 'node:crypto';
import type { ConfirmationQuota, MailQuotaStore } from '../ports.ts';

/** Providers that ignore dots in the local part (john.smith@ and johnsmith@ are one mailbox). */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to, as far as counting goes: lower-cased (domains are case-blind and practically
 * every mail server treats local parts so too); a `+tag` dropped (Gmail, Outlook, iCloud, Fastmail, Proton and most
 * servers deliver `box+anything@` to `box@`, so tags would otherwise give one inbox unlimited confirmations); on
 * Gmail, dots dropped and googlemail.com read as gmail.com. Merging two addresses only makes the count stricter.
 */
export function normaliseRecipient(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS.has(domain)) {
    local = local.replace(/\./g, '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/** The store's and the logs' name for a recipient: a hash of its normalised address, never the address. */
export const recipientKey = (email: string) => createHash('sha256').update(`recipient:${normaliseRecipient(email)}`).digest('base64url');

/** "ada.buyer@example.com" -> "a***@example.com", for logs. */
export const maskEmail = (email: string) => {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '***' : `${email[0]}***${email.slice(at)}`;
};

/** The UTC calendar day of a time, as YYYY-MM-DD. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * At most `perDay` buyer confirmations to one recipient per UTC calendar day, counted in the store across every
 * sender and every replica. The quote form takes any address without proving it is the sender's, so without this
 * cap the seller's mail server would send a confirmation to whatever address a script names, as often as it asks.
 */
export class ConfirmationLimit {
  private purgedFor = '';

  constructor(
    private readonly store: MailQuotaStore,
    readonly perDay: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The count a confirmation to `email` takes one from today, for the store to take it with the save
   * (QuoteStore.saveQuoteRequest): the mail is queued only when the recipient has had fewer than `perDay`.
   */
  async quotaFor(email: string, mailId: string): Promise<ConfirmationQuota> {
    const day = utcDay(this.now());
    if (day !== this.purgedFor) {
      this.purgedFor = day;
      // Yesterday's counts stay until tomorrow: a replica whose clock is a little behind still counts against them.
      await this.store.purgeMailQuotas(utcDay(this.now() - 86_400_000));
    }
    return { mailId, recipient: recipientKey(email), day, limit: this.perDay };
  }
}
