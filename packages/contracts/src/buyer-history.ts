import { z } from 'zod';
import { ListPageSchema } from './common.ts';
import { ORDER_STATUSES } from './orders.ts';
import { INBOX_STATUSES, type InboxStatus } from './quote-inbox.ts';

/**
 * A buyer's own quotes and orders (issue 35): every request and order whose e-mail belongs to the company (its
 * members' addresses as auth names them now, in any letter case: a member who left takes theirs along), behind the
 * buyer session (the gateway signs a buyer assertion; the quotes service answers). One company's ids from another's
 * session are a 404, never data; spam is never shown.
 *   GET  /api/account/quotes?page&limit&status    -> { items: BuyerQuote[], pagination }
 *   GET  /api/account/quotes/{id}                  -> BuyerQuoteDetail (the lines asked and the latest version's)
 *   POST /api/account/quotes/{id}/view-link        -> { url } (a fresh link to its quote page, when it has a priced version)
 *   GET  /api/account/orders?page&limit            -> { items: BuyerOrder[], pagination }
 *   GET  /api/account/orders/{id}                  -> BuyerOrder with its lines
 */

/** The statuses a buyer filters by: spam is the seller's call, never shown to the buyer (nor named in a filter). */
export const BUYER_QUOTE_STATUSES = INBOX_STATUSES.filter((s) => s !== 'spam') as Exclude<InboxStatus, 'spam'>[];

export const BuyerHistoryQuerySchema = z.object({
  status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(BUYER_QUOTE_STATUSES, `must be one of ${BUYER_QUOTE_STATUSES.join(', ')}`).optional()),
  page: z.coerce.number('must be a whole number').int('must be a whole number').min(1, 'must be at least 1').max(100_000).default(1),
  limit: z.coerce.number('must be a whole number').int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(25),
});
export type BuyerHistoryQuery = z.infer<typeof BuyerHistoryQuerySchema>;

const Totals = z.array(z.object({ currency: z.string(), total: z.number() }));

export const BuyerQuoteSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  /** Who in the company asked. */
  email: z.string(),
  status: z.enum(INBOX_STATUSES),
  lineCount: z.number().int(),
  /** The first line's name, to recognise the request by. */
  firstLine: z.string(),
  latestVersion: z.object({ version: z.number().int(), quotedAt: z.string(), validUntil: z.string(), totals: Totals }).nullable(),
  orderNumber: z.string().nullable(),
});
export type BuyerQuote = z.infer<typeof BuyerQuoteSchema>;
export const BuyerQuoteListSchema = z.object({ items: z.array(BuyerQuoteSchema), pagination: ListPageSchema });
export type BuyerQuoteList = z.infer<typeof BuyerQuoteListSchema>;

/** A line to copy into the quote list on a reorder: the catalogue part as asked (or quoted), or a free-text line. */
export const BuyerLineSchema = z.object({
  productId: z.string().nullable(),
  sku: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  note: z.string(),
});
export type BuyerLine = z.infer<typeof BuyerLineSchema>;
export const BuyerQuoteDetailSchema = BuyerQuoteSchema.extend({ lines: z.array(BuyerLineSchema) });
export type BuyerQuoteDetail = z.infer<typeof BuyerQuoteDetailSchema>;

export const BuyerOrderSchema = z.object({
  id: z.string(),
  number: z.string(),
  quoteId: z.string(),
  createdAt: z.string(),
  email: z.string(),
  status: z.enum(ORDER_STATUSES),
  poNumber: z.string(),
  delivery: z.object({ company: z.string(), address: z.string(), contactName: z.string(), contactPhone: z.string() }),
  shipment: z.object({ carrier: z.string(), trackingNumber: z.string() }).nullable(),
  totals: Totals,
  lineCount: z.number().int(),
  lines: z.array(BuyerLineSchema).optional(),
});
export type BuyerOrder = z.infer<typeof BuyerOrderSchema>;
export const BuyerOrderListSchema = z.object({ items: z.array(BuyerOrderSchema), pagination: ListPageSchema });
export type BuyerOrderList = z.infer<typeof BuyerOrderListSchema>;
export const BuyerViewLinkSchema = z.object({ url: z.string() });

/** POST /internal/buyers/anonymise { emails }: the person's details taken out of their requests and orders (kept). */
export const AnonymiseBuyersRequestSchema = z.object({ emails: z.array(z.string().min(3).max(254)).min(1).max(200) });
export const AnonymiseBuyersResponseSchema = z.object({ requests: z.number().int(), orders: z.number().int() });

/** POST /internal/buyers/export { email }: one buyer's own requests and orders, for their data download (the gateway adds them to the account's). */
export const ExportBuyerRequestSchema = z.object({ email: z.string().min(3).max(254) });
export const BuyerExportSchema = z.object({
  quoteRequests: z.array(BuyerQuoteDetailSchema.extend({ customerName: z.string(), customerPhone: z.string(), country: z.string(), message: z.string() })),
  orders: z.array(BuyerOrderSchema),
});
export type BuyerExport = z.infer<typeof BuyerExportSchema>;
