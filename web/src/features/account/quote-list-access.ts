import type { SavedListLine } from '@forgeline/contracts/account';
import { createContext, useContext } from 'react';
import type { QuoteListAccess, QuoteListLineLike, QuoteListProductLike } from '../../lib/quote-list-access.ts';

/** The quote list's store as the account page gets it from the app (lib/quote-list-access.ts says why). */
export type { AddResultLike, QuoteListAccess, QuoteListLineLike, QuoteListProductLike } from '../../lib/quote-list-access.ts';

export const QuoteListAccessContext = createContext<QuoteListAccess | null>(null);

export function useQuoteListAccess(): QuoteListAccess {
  const access = useContext(QuoteListAccessContext);
  if (!access) throw new Error('The account page needs the quote list (QuoteListAccessContext): the app hands it over in router.tsx');
  return access;
}

/** The quote list's address (web/src/app/router.tsx), where the buyer sends the request. */
export const QUOTE_LIST_PATH = '/quote';

/** A line to put on the quote list: a catalogue part, or the buyer's own words. */
export type QuoteEntry = ({ product: QuoteListProductLike } | { text: string }) & { quantity: number; note: string };

/** The quote list's lines as a saved list keeps them: a part's id and what its card showed, or the typed text. */
export function toSavedLines(lines: readonly QuoteListLineLike[]): SavedListLine[] {
  return lines.map((l) => {
    const common = { quantity: l.quantity, note: l.note.trim() };
    if (!l.product) return { text: l.text ?? '', ...common };
    const p = l.product;
    return {
      productId: p.id,
      name: p.name,
      sku: p.sku,
      partNumber: p.partNumber,
      brandName: p.brandName,
      ...(p.slug ? { slug: p.slug } : {}),
      ...(p.image ? { image: p.image } : {}),
      ...common,
    };
  });
}

/** A saved list's line back on the quote list: a part when it names one, else a text line. */
export function entryOfSavedLine(l: SavedListLine): QuoteEntry {
  const common = { quantity: l.quantity, note: l.note };
  if (l.productId && l.name) {
    const product = { id: l.productId, name: l.name, sku: l.sku ?? '', partNumber: l.partNumber ?? '', brandName: l.brandName ?? '', slug: l.slug ?? null, image: l.image ?? '' };
    return { product, ...common };
  }
  return { text: l.text || l.name || l.partNumber || l.sku || '', ...common };
}

/** How a copy into the quote list went. */
export interface CopyResult {
  added: number;
  /** Lines already on the list: their quantities were added to. */
  merged: number;
  /** Why the rest was left out (the list is full), or null. */
  stopped: string | null;
}

/** The store's text lines are matched as it keeps them: spaces squeezed, trimmed, case aside. */
const textKey = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Puts the entries on the quote list with the store's own add functions (a part already there gets the quantity
 * added, as everywhere on the site), and a line's note when the list's line has none yet.
 */
export function copyToQuoteList(access: QuoteListAccess, entries: readonly QuoteEntry[]): CopyResult {
  const result: CopyResult = { added: 0, merged: 0, stopped: null };
  for (const e of entries) {
    const r = 'product' in e ? access.addProduct(e.product, e.quantity) : access.addText(e.text, e.quantity);
    if (!r.ok) {
      if ('text' in e && !e.text.trim()) continue;
      result.stopped = r.message;
      break;
    }
    if (r.added) result.added += 1;
    else result.merged += 1;
    const note = e.note.trim();
    if (!note) continue;
    const line = access.getQuoteList().find((l) => ('product' in e ? l.key === e.product.id : !l.product && textKey(l.text ?? '') === textKey(e.text)));
    if (line && !line.note.trim()) access.updateLine(line.key, { note });
  }
  return result;
}

/** "3 lines added to your quote list (1 already there: its quantity raised)." */
export function copySummary(r: CopyResult): string {
  const parts = [`${r.added} line${r.added === 1 ? '' : 's'} added`];
  if (r.merged) parts.push(`${r.merged} already on it, quantity raised`);
  return `${parts.join('; ')}.`;
}
