/**
 * The buyer's quote page's fixed values, without zod: the storefront's quote page imports these (a zod schema built in
 * a storefront chunk would need `new Function`, which the Content-Security-Policy refuses). quote-view.ts re-exports them.
 */

/** 32 random bytes, base64url: what a quote link carries (256 bits; only its SHA-256 is stored). */
export const QUOTE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const QUOTE_DECLINE_REASONS = ['price', 'lead_time', 'bought_elsewhere', 'no_longer_needed', 'other'] as const;
export type QuoteDeclineReason = (typeof QUOTE_DECLINE_REASONS)[number];
export const QUOTE_DECLINE_REASON_LABELS: Record<QuoteDeclineReason, string> = {
  price: 'The price',
  lead_time: 'The lead time',
  bought_elsewhere: 'Bought elsewhere',
  no_longer_needed: 'No longer needed',
  other: 'Another reason',
};

export const QUOTE_VIEW_LIMITS = {
  message: 5_000,
  poNumber: 100,
  address: 1_000,
  name: 200,
  phone: 40,
  declineText: 2_000,
} as const;

/**
 * The purchase-order document a buyer may attach to an accept: a PDF (checked by its bytes, not its name), at most
 * this many MB. The accept then goes as multipart/form-data: the JSON body in the part `body`, the file in `poDocument`.
 */
export const QUOTE_PO_DOCUMENT = { field: 'poDocument', bodyField: 'body', maxMb: 10, type: 'application/pdf' } as const;
