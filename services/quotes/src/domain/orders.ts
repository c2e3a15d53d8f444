import type { OrderLine, OrderRecord } from '../ports.ts';

/** An order's number: the year it was placed and its place in that year, e.g. `2026-00042` (what buyers quote back). */
export const orderNumber = (year: string, n: number) => `${year}-${String(n).padStart(5, '0')}`;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Sums per currency, in the order the currencies first appear; amounts without a price are left out. */
export function totalsByCurrency(items: { amount: number | null; currency: string | null }[]): { currency: string; total: number }[] {
  const totals = new Map<string, number>();
  for (const i of items) if (i.amount !== null) totals.set(i.currency ?? '', round2((totals.get(i.currency ?? '') ?? 0) + i.amount));
  return [...totals].map(([currency, total]) => ({ currency, total }));
}

export const lineTotal = (l: { unitPrice: number | null; quantity: number }) => (l.unitPrice === null ? null : round2(l.unitPrice * l.quantity));

export const orderTotals = (lines: OrderLine[]) => totalsByCurrency(lines.map((l) => ({ amount: lineTotal(l), currency: l.currency })));

/** What the orders' search looks through: number, PO, buyer, parts. */
export const orderSearchText = (o: OrderRecord) =>
  [o.number, o.poNumber, o.customerName, o.customerEmail, o.delivery.company, ...o.lines.map((l) => l.productSku)].join('\n').toLowerCase();
