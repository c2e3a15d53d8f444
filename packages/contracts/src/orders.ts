import { z } from 'zod';
import { dateParam, ListPageSchema } from './common.ts';
import { PoDocumentSchema, QuoteViewLineSchema } from './quote-view.ts';

/**
 * Orders (issue 34): what a buyer's accept on their quote page makes, fulfilled by staff (admin only, behind the
 * gateway's admin session or an API key with quotes:read / quotes:write): GET /api/admin/orders,
 * GET /api/admin/orders/export.csv, GET/PATCH /api/admin/orders/{id}.
 */

export const ORDER_STATUSES = ['confirmed', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  confirmed: 'Confirmed',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

/** confirmed → shipped (carrier, tracking number) → delivered; cancelled (with a reason) before delivery. */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  confirmed: ['shipped', 'cancelled'],
  shipped: ['delivered', 'cancelled'],
  delivered: [],
  cancelled: [],
};

export const ORDER_LIMITS = { carrier: 100, trackingNumber: 100, reason: 1_000, search: 200, pageSize: 100 } as const;

/** A line of an order: the quoted line as accepted (its quantity the one ordered), without the quote's line total. */
export const OrderLineSchema = QuoteViewLineSchema.omit({ lineTotal: true });

export const OrderSchema = z.object({
  id: z.string(),
  /** Sequential per year: `2026-00042`. */
  number: z.string(),
  quoteId: z.string(),
  quoteVersion: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  poNumber: z.string(),
  /** The buyer's PO document (GET /api/admin/orders/{id}/po-document), if they attached one. */
  poDocument: PoDocumentSchema.nullable(),
  delivery: z.object({ company: z.string(), address: z.string(), contactName: z.string(), contactPhone: z.string() }),
  note: z.string(),
  lines: z.array(OrderLineSchema),
  /** Per currency, the sum of the lines. */
  totals: z.array(z.object({ currency: z.string(), total: z.number() })),
  customerName: z.string(),
  customerEmail: z.string(),
  shipment: z.object({ carrier: z.string(), trackingNumber: z.string() }).nullable(),
  cancelReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number().int(),
});
export type Order = z.infer<typeof OrderSchema>;

const optionalText = (max: number) => z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(max, `must be at most ${max} characters`).optional());
/** GET /api/admin/orders query. Empty parameters are as if absent. */
export const OrderQuerySchema = z.object({
  status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(ORDER_STATUSES, `must be one of ${ORDER_STATUSES.join(', ')}`).optional()),
  /** Order number, PO number, buyer's name or e-mail, a part's SKU. */
  q: optionalText(ORDER_LIMITS.search),
  from: dateParam('from'),
  to: dateParam('to'),
  page: z.coerce.number('must be a whole number').int('must be a whole number').min(1, 'must be at least 1').max(100_000).default(1),
  limit: z.coerce.number('must be a whole number').int('must be a whole number').min(1, 'must be at least 1').max(ORDER_LIMITS.pageSize, `must be at most ${ORDER_LIMITS.pageSize}`).default(25),
});
export type OrderQuery = z.infer<typeof OrderQuerySchema>;

export const OrderListResponseSchema = z.object({
  items: z.array(OrderSchema),
  pagination: ListPageSchema,
  /** Orders per status under the other filters. */
  counts: z.record(z.enum(ORDER_STATUSES), z.number()),
});
export type OrderListResponse = z.infer<typeof OrderListResponseSchema>;

/** PATCH /api/admin/orders/{id}: the next status; shipped needs the carrier and tracking number, cancelled a reason. */
export const OrderPatchSchema = z
  .object({
    status: z.enum(ORDER_STATUSES, `must be one of ${ORDER_STATUSES.join(', ')}`),
    carrier: optionalText(ORDER_LIMITS.carrier),
    trackingNumber: optionalText(ORDER_LIMITS.trackingNumber),
    reason: optionalText(ORDER_LIMITS.reason),
    version: z.number().int().min(0).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.status === 'shipped' && !p.carrier) ctx.addIssue({ code: 'custom', path: ['carrier'], message: 'is required to mark an order shipped' });
    if (p.status === 'shipped' && !p.trackingNumber) ctx.addIssue({ code: 'custom', path: ['trackingNumber'], message: 'is required to mark an order shipped' });
    if (p.status === 'cancelled' && !p.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'is required to cancel an order' });
  });
export type OrderPatch = z.infer<typeof OrderPatchSchema>;
