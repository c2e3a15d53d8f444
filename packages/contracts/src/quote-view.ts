import { z } from 'zod';

/**
 * The buyer's own quote page (issue 34), reached by the capability link in every quote reply: no account, the link is
 * the key. GET /api/quote-view/{token}; POST /api/quote-view/{token}/accept, /changes, /decline. A token that is
 * unknown, revoked or past its quote's validity plus the seller's grace period answers 404, with no hint which.
 */

import { QUOTE_DECLINE_REASONS, QUOTE_VIEW_LIMITS } from './quote-view-constants.ts';

export { QUOTE_DECLINE_REASON_LABELS, QUOTE_DECLINE_REASONS, QUOTE_PO_DOCUMENT, QUOTE_TOKEN_PATTERN, QUOTE_VIEW_LIMITS, type QuoteDeclineReason } from './quote-view-constants.ts';

const text = (field: string, max: number) =>
  z.string(`${field} must be text`).trim().max(max, `must be at most ${max} characters`);
const required = (field: string, max: number) => text(field, max).min(1, 'is required');

/** One line of a quoted version, as the buyer sees it. */
export const QuoteViewLineSchema = z.object({
  productId: z.string(),
  productSku: z.string(),
  productName: z.string(),
  quantity: z.number().int(),
  /** null: "on request" (the seller gave no price for this line). */
  unitPrice: z.number().nullable(),
  currency: z.string().nullable(),
  lineTotal: z.number().nullable(),
  leadTime: z.string().nullable(),
});
export type QuoteViewLine = z.infer<typeof QuoteViewLineSchema>;

/** One version of the quote: each priced reply of the seller is the next (1, 2, 3 ...). */
export const QuoteViewVersionSchema = z.object({
  version: z.number().int().min(1),
  quotedAt: z.string(),
  message: z.string(),
  /** The last day the prices hold (YYYY-MM-DD, through the end of that day UTC). */
  validUntil: z.string(),
  lines: z.array(QuoteViewLineSchema),
  /** Per currency, the sum of the priced lines. */
  totals: z.array(z.object({ currency: z.string(), total: z.number() })),
});
export type QuoteViewVersion = z.infer<typeof QuoteViewVersionSchema>;

/** What happened to the request, as the buyer may see it (never staff notes or assignments). */
export const QuoteViewEventSchema = z.object({
  at: z.string(),
  what: z.string(),
  text: z.string().nullable(),
});

/** A purchase-order document kept with an order: the name the buyer's file had, and its size in bytes. */
export const PoDocumentSchema = z.object({ name: z.string(), size: z.number().int() });
export type PoDocument = z.infer<typeof PoDocumentSchema>;

export const QuoteViewOrderSchema = z.object({
  number: z.string(),
  quoteVersion: z.number().int(),
  poNumber: z.string(),
  /** The PO document the buyer attached, if any (absent in answers from before it existed). */
  poDocument: PoDocumentSchema.nullable().optional(),
  status: z.string(),
  createdAt: z.string(),
});

/** GET /api/quote-view/{token} */
export const QuoteViewSchema = z.object({
  reference: z.string(),
  customerName: z.string(),
  /** `requoting`: the buyer asked for a new quote after this one expired. */
  status: z.enum(['open', 'changes_requested', 'accepted', 'declined', 'expired', 'requoting', 'closed']),
  requestedAt: z.string(),
  /** Every version, oldest first; the last is the one the buyer can accept. */
  versions: z.array(QuoteViewVersionSchema),
  latestVersion: z.number().int(),
  canAccept: z.boolean(),
  canAskChanges: z.boolean(),
  canDecline: z.boolean(),
  /** An expired quote: the buyer may ask for a new one (POST …/reopen), which puts the request back with staff. */
  canReopen: z.boolean(),
  history: z.array(QuoteViewEventSchema),
  order: QuoteViewOrderSchema.nullable(),
  declined: z.object({ reason: z.enum(QUOTE_DECLINE_REASONS), text: z.string() }).nullable(),
});
export type QuoteView = z.infer<typeof QuoteViewSchema>;

const version = z.coerce.number('must be a whole number').int('must be a whole number').min(1, 'must be at least 1');

/** POST /api/quote-view/{token}/accept: against one version; per line (same order) the quantity to order. */
export const QuoteAcceptSchema = z.object({
  version,
  poNumber: required('poNumber', QUOTE_VIEW_LIMITS.poNumber),
  delivery: z.object({
    company: text('company', QUOTE_VIEW_LIMITS.name).default(''),
    address: required('address', QUOTE_VIEW_LIMITS.address),
    contactName: required('contactName', QUOTE_VIEW_LIMITS.name),
    contactPhone: text('contactPhone', QUOTE_VIEW_LIMITS.phone).default(''),
  }),
  /** Per quoted line, the quantity to order: 0 drops the line, never more than quoted. Absent: every line as quoted. */
  quantities: z
    .array(z.coerce.number('must be a whole number').int('must be a whole number').min(0, 'must not be negative'))
    .max(200)
    .optional(),
  note: text('note', QUOTE_VIEW_LIMITS.message).default(''),
});
export type QuoteAccept = z.infer<typeof QuoteAcceptSchema>;

/** POST /api/quote-view/{token}/changes: per line (same order) another quantity or a target price, and a message. */
export const QuoteChangesSchema = z.object({
  version,
  message: required('message', QUOTE_VIEW_LIMITS.message),
  lines: z
    .array(
      z.object({
        quantity: z.coerce.number('must be a whole number').int('must be a whole number').min(1, 'must be at least 1').max(1_000_000).nullable().optional(),
        targetPrice: z.coerce.number('must be a number').min(0, 'must not be negative').max(1_000_000_000).nullable().optional(),
      }),
    )
    .max(200)
    .default([]),
});
export type QuoteChanges = z.infer<typeof QuoteChangesSchema>;

/** POST /api/quote-view/{token}/decline */
export const QuoteDeclineSchema = z.object({
  reason: z.enum(QUOTE_DECLINE_REASONS, `must be one of ${QUOTE_DECLINE_REASONS.join(', ')}`),
  text: text('text', QUOTE_VIEW_LIMITS.declineText).default(''),
});
export type QuoteDecline = z.infer<typeof QuoteDeclineSchema>;

/** GET /api/quote-view/{token}/pdf query: a version (the latest when absent). */
export const QuotePdfQuerySchema = z.object({
  version: z.preprocess((v) => (v === '' ? undefined : v), version.optional()),
});

/** POST /api/quote-view/{token}/accept's answer. */
export const QuoteAcceptResponseSchema = z.object({
  order: QuoteViewOrderSchema,
  message: z.string(),
});
export type QuoteAcceptResponse = z.infer<typeof QuoteAcceptResponseSchema>;
