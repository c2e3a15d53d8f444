/**
 * A link (or a plain GET form, such as an assembly page's) that puts parts on the buyer's quote list:
 * `/quote?add=<productId>~<quantity>&add=...`. Read by the web app's quote list page and, for visitors without
 * JavaScript, by the gateway (gateway/src/seo/quote-form.ts). Without zod: the quote list's chunk imports it.
 */

export const QUOTE_LIST_PATH = '/quote';
export const QUOTE_LIST_ADD_PARAM = 'add';

/**
 * The no-JavaScript quote list form (posted to the gateway's /quote-request): one product id and one quantity a line,
 * in the same order; a refused line's error is named by its product id (its place changes when a part drops out).
 */
export const QUOTE_LIST_FORM_FIELDS = { productId: 'lineProductId', quantity: 'lineQuantity' } as const;
export const quoteListLineErrorField = (productId: string) => `line:${productId}`;

export interface QuoteListAdd {
  productId: string;
  quantity: number;
}

/** A product id as the catalogue writes it (the contract's z.guid(): 8-4-4-4-12 hex digits). */
const ADD_VALUE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:~(\d{1,12}))?$/i;

/** One `add` value: `<productId>~<quantity>` (a bare id asks for one). */
export const quoteListAddValue = (productId: string, quantity: number) => `${productId}~${quantity}`;

/** The address that adds `adds` to the quote list. */
export function quoteListAddPath(adds: readonly QuoteListAdd[]): string {
  const search = new URLSearchParams();
  for (const a of adds) search.append(QUOTE_LIST_ADD_PARAM, quoteListAddValue(a.productId, a.quantity));
  const query = search.toString();
  return query ? `${QUOTE_LIST_PATH}?${query}` : QUOTE_LIST_PATH;
}

/**
 * The parts an address asks for, in the order first asked. Malformed values are skipped; a part asked twice (the same
 * bolt at two callouts) is one line with the quantities added up; quantities are clamped to 1..maxQuantity and at most
 * `maxLines` parts are kept (the caller's limits: the quote list's, or the quote request's).
 */
export function parseQuoteListAdds(values: readonly string[], limits: { maxLines: number; maxQuantity: number }): QuoteListAdd[] {
  const byId = new Map<string, number>();
  for (const value of values) {
    const m = ADD_VALUE.exec(value.trim());
    if (!m) continue;
    const id = m[1]!;
    if (!byId.has(id) && byId.size >= limits.maxLines) continue;
    byId.set(id, (byId.get(id) ?? 0) + (m[2] === undefined ? 1 : Number(m[2])));
  }
  return [...byId].map(([productId, n]) => ({ productId, quantity: Math.min(limits.maxQuantity, Math.max(1, n)) }));
}
