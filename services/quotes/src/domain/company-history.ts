import { emailDomain, type InboxEvent } from '@forgeline/contracts/quote-inbox';
import type { MailMessage } from '@forgeline/mailer/mailer';
import type { BuyerLine, BuyerOrder, BuyerQuote, BuyerQuoteDetail } from '@forgeline/contracts/buyer-history';
import type { InboxRecord, OrderRecord } from '../ports.ts';
import { orderTotals } from './orders.ts';
import { quoteVersions, type QuoteViewSettings } from './quote-view.ts';

/**
 * A buyer company's own requests and orders as its members see them (issue 35): what was asked, the latest priced
 * version, the order; never staff notes, assignees or the seller's other buyers.
 */

export function buyerQuote(r: InboxRecord, history: InboxEvent[], order: OrderRecord | null, s: QuoteViewSettings): BuyerQuote {
  const latest = quoteVersions(history, s, r.lines).at(-1);
  return {
    id: r.id,
    createdAt: r.createdAt,
    email: r.customerEmail,
    status: r.status,
    lineCount: r.lineCount,
    firstLine: r.firstLine?.productName ?? r.subject,
    latestVersion: latest ? { version: latest.version, quotedAt: latest.quotedAt, validUntil: latest.validUntil, totals: latest.totals } : null,
    orderNumber: order?.number ?? null,
  };
}

/** With the lines a reorder copies: the latest version's (its quantities, as the seller quoted them), else those asked. */
export function buyerQuoteDetail(r: InboxRecord, history: InboxEvent[], order: OrderRecord | null, s: QuoteViewSettings): BuyerQuoteDetail {
  const latest = quoteVersions(history, s, r.lines).at(-1);
  const lines: BuyerLine[] = latest
    ? latest.lines.map((l) => ({ productId: l.productId || null, sku: l.productSku, name: l.productName, quantity: l.quantity, note: '' }))
    : r.lines.map((l) => ({ productId: l.productId || null, sku: l.productSku, name: l.productName, quantity: l.quantity, note: '' }));
  return { ...buyerQuote(r, history, order, s), lines };
}

export function buyerOrder(o: OrderRecord, withLines: boolean): BuyerOrder {
  return {
    id: o.id,
    number: o.number,
    quoteId: o.quoteId,
    createdAt: o.createdAt,
    email: o.customerEmail,
    status: o.status,
    poNumber: o.poNumber,
    delivery: o.delivery,
    shipment: o.shipment,
    totals: orderTotals(o.lines),
    lineCount: o.lines.length,
    ...(withLines ? { lines: o.lines.map((l) => ({ productId: l.productId || null, sku: l.productSku, name: l.productName, quantity: l.quantity, note: '' })) } : {}),
  };
}

/** What a deleted buyer's records say instead of them: a name, and an address that reaches nobody (RFC 2606). */
export interface AnonymousBuyer {
  name: string;
  email: string;
}
export const anonymousBuyer = (id: string): AnonymousBuyer => ({ name: 'Deleted buyer', email: `deleted-${id}@deleted.invalid` });
/** An address anonymising put in: nothing is mailed to it (reminders, order moves; a staff reply is refused). */
export const isAnonymised = (email: string) => email.toLowerCase().endsWith('@deleted.invalid');

/*
 * Anonymising keeps what the seller must keep (lines, prices, versions, numbers, PO number, the delivery company and
 * address, the country) and takes out the person: name, address, phone, and their own words (the request's message, an
 * order's note, their answers' texts), which are theirs and often signed.
 */
export const anonymisedRequest = (r: InboxRecord, who: AnonymousBuyer): InboxRecord => ({
  ...r,
  customerName: who.name,
  customerEmail: who.email,
  emailDomain: emailDomain(who.email),
  customerPhone: '',
  message: '',
});

export const anonymisedOrder = (o: OrderRecord, who: AnonymousBuyer): OrderRecord => ({
  ...o,
  customerName: who.name,
  customerEmail: who.email,
  note: '',
  delivery: { ...o.delivery, contactName: '', contactPhone: '' },
});

/** An event of the request's history without the person: a reply's address, a buyer's answer's text. */
export function anonymisedEvent(e: InboxEvent, person: string, who: AnonymousBuyer): InboxEvent {
  if (e.type === 'reply' && e.to?.toLowerCase() === person) return { ...e, to: who.email };
  if (e.type === 'buyer' && e.text) return { ...e, text: '' };
  return e;
}

/** The history's word that it happened (a staff-only note: the buyer's page never shows notes). */
export const anonymisedNote = (at: string): InboxEvent => ({
  at,
  actor: 'system',
  type: 'note',
  from: null,
  to: null,
  text: "The buyer deleted their account: their name, address, phone and own words were taken out; the request's lines, prices and order stay.",
  reply: null,
});

/** A sent mail's stored copy once its request is anonymised: its id stays (one mail per id), its content goes. */
export const redactedMail = (m: MailMessage, person: string, who: AnonymousBuyer): MailMessage => ({
  to: m.to.toLowerCase().includes(person) ? who.email : m.to,
  subject: '(removed: the buyer deleted their account)',
  text: '',
  ...(m.messageId ? { messageId: m.messageId } : {}),
});
