import type { InboxEvent } from '@forgeline/contracts/quote-inbox';
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

/** What a deleted buyer's records say instead of them: a name, and an address that reaches nobody. */
export const anonymousBuyer = (id: string) => ({ name: 'Deleted buyer', email: `deleted-${id}@deleted.invalid` });
