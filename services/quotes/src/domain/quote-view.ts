import { createHash, randomBytes } from 'node:crypto';
import type { InboxEvent } from '@forgeline/contracts/quote-inbox';
import { QUOTE_DECLINE_REASON_LABELS, type QuoteView, type QuoteViewVersion } from '@forgeline/contracts/quote-view';
import type { InboxRecord, OrderRecord, QuoteLink } from '../ports.ts';
import { DAY_MS } from './inbox.ts';
import { lineTotal, totalsByCurrency } from './orders.ts';

/** What the seller sets about quote links (QUOTE_LINK_GRACE_DAYS, QUOTE_VALIDITY_DAYS, PUBLIC_URL). */
export interface QuoteViewSettings {
  /** The site's address: links in mails point there. */
  publicUrl: string;
  /** How long after a quote's validity its link still opens (the page then says it expired). */
  graceDays: number;
  /** A reply without a validity date holds this many days. */
  defaultValidityDays: number;
}

/** A new link's token: 256 random bits, base64url (43 characters). Only its hash is stored. */
export const newQuoteToken = () => randomBytes(32).toString('base64url');
export const hashQuoteToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const quoteViewUrl = (s: QuoteViewSettings, token: string) => `${s.publicUrl.replace(/\/$/, '')}/quote/view/${token}`;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The instant a validity date ends: the end of that day, UTC. */
const endOf = (date: string) => Date.parse(`${date}T00:00:00.000Z`) + DAY_MS;

/** Every priced reply of the seller, oldest first, as versions 1, 2, 3 ... */
export function quoteVersions(history: InboxEvent[], s: QuoteViewSettings, asked: { productId: string }[] = []): QuoteViewVersion[] {
  return history
    .filter((e) => e.type === 'reply' && e.reply)
    .map((e, i) => {
      const lines = e.reply!.lines.map((l, j) => ({
        productId: asked[j]?.productId ?? '',
        productSku: l.productSku,
        productName: l.productName,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        currency: l.currency,
        lineTotal: lineTotal(l),
        leadTime: l.leadTime,
        j,
      }));
      return {
        version: i + 1,
        quotedAt: e.at,
        message: e.text ?? '',
        validUntil: e.reply!.validUntil?.slice(0, 10) ?? day(Date.parse(e.at) + s.defaultValidityDays * DAY_MS),
        lines: lines.map(({ j: _j, ...l }) => l),
        totals: totalsByCurrency(lines.map((l) => ({ amount: l.lineTotal, currency: l.currency }))),
      };
    });
}

/** Whether a link still opens its page: not revoked, and not past the latest version's validity plus the grace period. */
export function linkOpens(link: QuoteLink, versions: QuoteViewVersion[], now: number, s: QuoteViewSettings): boolean {
  const latest = versions.at(-1);
  return !link.revokedAt && latest !== undefined && now < endOf(latest.validUntil) + s.graceDays * DAY_MS;
}

/** The PDF's file name: `quote-<reference>-v<version>.pdf`. */
export const quotePdfName = (view: QuoteView, version: number) => `quote-${view.reference}-v${version}.pdf`;

export const isExpired = (v: QuoteViewVersion, now: number) => now >= endOf(v.validUntil);

/** The request's history as its buyer may see it: what was asked, quoted and answered; never staff notes or assignments. */
function buyerHistory(r: InboxRecord, history: InboxEvent[]): QuoteView['history'] {
  const out: QuoteView['history'] = [{ at: r.createdAt, what: 'You asked for a quote', text: null }];
  let n = 0;
  for (const e of history) {
    if (e.type === 'reply' && e.reply) out.push({ at: e.at, what: ++n === 1 ? 'Quoted (version 1)' : `Revised quote (version ${n})`, text: null });
    else if (e.type === 'buyer' && e.buyer) {
      const b = e.buyer;
      if (b.action === 'accept') out.push({ at: e.at, what: `You accepted version ${b.version}: order ${b.orderNumber ?? ''}`.trim(), text: b.poNumber ? `PO ${b.poNumber}` : null });
      else if (b.action === 'changes') out.push({ at: e.at, what: `You asked for changes to version ${b.version}`, text: e.text });
      else if (b.action === 'reopen') out.push({ at: e.at, what: `You asked for a new quote (version ${b.version} had expired)`, text: null });
      else out.push({ at: e.at, what: `You declined: ${b.reason ? QUOTE_DECLINE_REASON_LABELS[b.reason] : 'no reason given'}`, text: e.text || null });
    } else if (e.type === 'order') {
      const label = e.to === 'shipped' ? `Shipped: ${e.text ?? ''}` : e.to === 'delivered' ? 'Delivered' : e.to === 'cancelled' ? 'Order cancelled' : `Order ${e.to ?? ''}`;
      out.push({ at: e.at, what: label.trim(), text: e.to === 'cancelled' ? e.text : null });
    } else if (e.type === 'status' && e.actor !== 'buyer' && (e.to === 'closed' || e.to === 'won' || e.to === 'lost')) {
      out.push({ at: e.at, what: e.to === 'closed' ? 'Closed by the seller' : e.to === 'won' ? 'Marked as ordered by the seller' : 'Marked as not going ahead by the seller', text: null });
    }
  }
  return out;
}

/** The buyer's page: the versions, what the buyer can still do, the order or the decline. */
export function buyerQuoteView(r: InboxRecord, history: InboxEvent[], order: OrderRecord | null, now: number, s: QuoteViewSettings): QuoteView {
  const versions = quoteVersions(history, s, r.lines);
  const latest = versions.at(-1)!;
  const decline = history.findLast((e) => e.type === 'buyer' && e.buyer?.action === 'decline');
  const lostReason = decline?.buyer?.reason ? { reason: decline.buyer.reason, text: decline.text ?? '' } : null;
  let status: QuoteView['status'];
  // Won without an order: staff marked it so, or (MongoDB) an accept whose order is being written this moment.
  if (order || r.status === 'won') status = 'accepted';
  else if (r.status === 'lost' && lostReason) status = 'declined';
  else if (r.status === 'changes_requested') status = 'changes_requested';
  else if ((r.status === 'in_progress' || r.status === 'pending') && history.findLast((e) => e.type === 'buyer')?.buyer?.action === 'reopen') status = 'requoting';
  else if (r.status !== 'quoted') status = 'closed';
  else if (isExpired(latest, now)) status = 'expired';
  else status = 'open';
  return {
    reference: r.id.slice(0, 8).toUpperCase(),
    customerName: r.customerName,
    status,
    requestedAt: r.createdAt,
    versions,
    latestVersion: latest.version,
    canAccept: status === 'open',
    canAskChanges: status === 'open',
    canDecline: status === 'open' || status === 'changes_requested',
    canReopen: status === 'expired',
    history: buyerHistory(r, history),
    order: order
      ? {
          number: order.number,
          quoteVersion: order.quoteVersion,
          poNumber: order.poNumber,
          poDocument: order.poDocument && { name: order.poDocument.name, size: order.poDocument.size },
          status: order.status,
          createdAt: order.createdAt,
        }
      : null,
    declined: status === 'declined' ? lostReason : null,
  };
}
