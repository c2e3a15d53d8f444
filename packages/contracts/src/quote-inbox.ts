import { z } from 'zod';
import { dateParam, ListPageSchema } from './common.ts';
import { QUOTE_DECLINE_REASONS } from './quote-view.ts';

/**
 * The staff inbox over quote requests and contact messages (admin only, behind the gateway's admin session):
 * GET /api/admin/quotes, GET/PATCH /api/admin/quotes/{id}, POST /api/admin/quotes/{id}/reply,
 * GET /api/admin/quotes/export.csv, GET /api/admin/quotes/stats.
 */

export const INBOX_STATUSES = ['pending', 'in_progress', 'quoted', 'changes_requested', 'won', 'lost', 'spam', 'closed'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];
export const INBOX_KINDS = ['quote', 'contact'] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

export const INBOX_STATUS_LABELS: Record<InboxStatus, string> = {
  pending: 'New',
  in_progress: 'In progress',
  quoted: 'Quoted',
  changes_requested: 'Changes asked',
  won: 'Won',
  lost: 'Lost',
  spam: 'Spam',
  closed: 'Closed',
};

/**
 * The workflow: where a request may go from each status. New → in progress → quoted → won | lost is the usual road;
 * spam and closed are exits that can be undone (back to new); a lost or won request can be closed, a lost one
 * quoted again. The buyer's own page (quote-view.ts) moves a quoted request to changes asked, won or lost; staff
 * answer changes asked with a revised quote (quoted again).
 */
export const INBOX_TRANSITIONS: Record<InboxStatus, readonly InboxStatus[]> = {
  pending: ['in_progress', 'quoted', 'spam', 'closed'],
  in_progress: ['pending', 'quoted', 'spam', 'closed'],
  quoted: ['in_progress', 'quoted', 'changes_requested', 'won', 'lost', 'closed'],
  changes_requested: ['in_progress', 'quoted', 'lost', 'closed'],
  won: ['closed'],
  lost: ['in_progress', 'quoted', 'closed'],
  spam: ['pending'],
  closed: ['pending'],
};

export const canMove = (from: InboxStatus, to: InboxStatus) => INBOX_TRANSITIONS[from].includes(to);

export const INBOX_LIMITS = {
  note: 5_000,
  reply: 10_000,
  search: 200,
  pageSize: 100,
  replyLines: 200,
  currency: 3,
  leadTime: 100,
  maxPrice: 1_000_000_000,
} as const;

/** One part asked for: the product at the time of the request and how many. */
export const InboxLineSchema = z.object({
  productId: z.string(),
  productName: z.string(),
  productSku: z.string(),
  quantity: z.number().int(),
});
export type InboxLine = z.infer<typeof InboxLineSchema>;

/** A row of the inbox list. */
export const InboxItemSchema = z.object({
  id: z.string(),
  kind: z.enum(INBOX_KINDS),
  status: z.enum(INBOX_STATUSES),
  customerName: z.string(),
  customerEmail: z.string(),
  /** The part of the e-mail address after the @ (the buyer's company, mostly). */
  emailDomain: z.string(),
  country: z.string(),
  /** A quote's first part (null for a contact message) and how many parts it asks for. */
  firstLine: InboxLineSchema.nullable(),
  lineCount: z.number().int(),
  /** A contact message's subject; a quote's product name. */
  subject: z.string(),
  assignee: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  firstReplyAt: z.string().nullable(),
  version: z.number().int(),
});
export type InboxItem = z.infer<typeof InboxItemSchema>;

/** What the buyer answered on their quote page (stored with the request's history). */
function InboxBuyerAnswerSchema() {
  return z.object({
    action: z.enum(['accept', 'changes', 'decline', 'reopen']),
    version: z.number().int(),
    /** Changes: per line another quantity and/or a target price. Accept: per line the quantity ordered. */
    lines: z.array(z.object({ quantity: z.number().int().nullable(), targetPrice: z.number().nullable() })).optional(),
    reason: z.enum(QUOTE_DECLINE_REASONS).optional(),
    orderNumber: z.string().optional(),
    poNumber: z.string().optional(),
  });
}
export type InboxBuyerAnswer = z.infer<ReturnType<typeof InboxBuyerAnswerSchema>>;

export const InboxEventSchema = z.object({
  at: z.string(),
  actor: z.string(),
  /** `buyer`: the buyer's answer on their quote page (actor `buyer`): accepted, changes asked or declined. */
  /** `order`: staff moved the request's order (from and to are order statuses; text: the shipment or the reason). */
  type: z.enum(['status', 'assignee', 'note', 'reply', 'buyer', 'order']),
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** The note's or reply's text. */
  text: z.string().nullable(),
  /** A reply's priced lines and validity. */
  reply: z
    .object({
      lines: z.array(
        z.object({
          productSku: z.string(),
          productName: z.string(),
          quantity: z.number().int(),
          unitPrice: z.number().nullable(),
          currency: z.string().nullable(),
          leadTime: z.string().nullable(),
        }),
      ),
      validUntil: z.string().nullable(),
    })
    .nullable(),
  /** A buyer event's answer, against one version of the quote. */
  buyer: InboxBuyerAnswerSchema().nullable().optional(),
});
export type InboxEvent = z.infer<typeof InboxEventSchema>;

/** GET /api/admin/quotes/{id} */
export const InboxDetailSchema = InboxItemSchema.extend({
  lines: z.array(InboxLineSchema),
  customerPhone: z.string(),
  message: z.string(),
  history: z.array(InboxEventSchema),
});
export type InboxDetail = z.infer<typeof InboxDetailSchema>;

/** GET /api/admin/quotes query. Empty parameters are as if absent. */
export const InboxQuerySchema = z.object({
  status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(INBOX_STATUSES, `must be one of ${INBOX_STATUSES.join(', ')}`).optional()),
  kind: z.preprocess((v) => (v === '' ? undefined : v), z.enum(INBOX_KINDS, `must be one of ${INBOX_KINDS.join(', ')}`).optional()),
  /** An admin's e-mail, or `none` for requests nobody has taken. */
  assignee: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().toLowerCase().max(254).optional()),
  q: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(INBOX_LIMITS.search, `must be at most ${INBOX_LIMITS.search} characters`).optional()),
  from: dateParam('from'),
  to: dateParam('to'),
  page: z.coerce.number('must be a whole number').int('must be a whole number').min(1, 'must be at least 1').max(100_000).default(1),
  limit: z.coerce
    .number('must be a whole number')
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(INBOX_LIMITS.pageSize, `must be at most ${INBOX_LIMITS.pageSize}`)
    .default(25),
});
export type InboxQuery = z.infer<typeof InboxQuerySchema>;

export const InboxListResponseSchema = z.object({
  items: z.array(InboxItemSchema),
  pagination: ListPageSchema,
  /** Requests per status under the other filters (the tab's counts). */
  counts: z.record(z.enum(INBOX_STATUSES), z.number()),
});
export type InboxListResponse = z.infer<typeof InboxListResponseSchema>;

/** PATCH /api/admin/quotes/{id}: at least one of status, assignee, note. Sent with If-Match (or `version`). */
export const InboxPatchSchema = z
  .object({
    status: z.enum(INBOX_STATUSES, `must be one of ${INBOX_STATUSES.join(', ')}`).optional(),
    /** An admin's e-mail, or null to leave it to nobody. */
    assignee: z.string().trim().toLowerCase().max(254).nullable().optional(),
    note: z.string().trim().min(1, 'must not be empty').max(INBOX_LIMITS.note, `must be at most ${INBOX_LIMITS.note} characters`).optional(),
    version: z.number().int().min(0).optional(),
  })
  .refine((p) => p.status !== undefined || p.assignee !== undefined || p.note !== undefined, {
    message: 'send a status, an assignee or a note',
    path: ['status'],
  });
export type InboxPatch = z.infer<typeof InboxPatchSchema>;

/** POST /api/admin/quotes/{id}/reply */
export const InboxReplySchema = z.object({
  message: z.string().trim().min(1, 'is required').max(INBOX_LIMITS.reply, `must be at most ${INBOX_LIMITS.reply} characters`),
  /** Per line of the request (same order), a price and lead time; all optional. */
  lines: z
    .array(
      z.object({
        /** A revised quote's quantity for the line (the buyer asked for another); absent: as requested. */
        quantity: z.number('must be a whole number').int('must be a whole number').min(1, 'must be at least 1').max(1_000_000).nullable().optional(),
        unitPrice: z.number('must be a number').min(0, 'must not be negative').max(INBOX_LIMITS.maxPrice).nullable().optional(),
        currency: z
          .string()
          .trim()
          .toUpperCase()
          .regex(/^[A-Z]{3}$/, 'must be a three-letter currency code (USD, EUR...)')
          .nullable()
          .optional(),
        leadTime: z.string().trim().max(INBOX_LIMITS.leadTime, `must be at most ${INBOX_LIMITS.leadTime} characters`).nullable().optional(),
      }),
    )
    .max(INBOX_LIMITS.replyLines)
    .optional()
    .default([]),
  validUntil: dateParam('validUntil').nullable(),
  version: z.number().int().min(0).optional(),
});
export type InboxReply = z.infer<typeof InboxReplySchema>;

/** GET /api/admin/quotes/stats: computed by the quotes service. */
export const InboxStatsSchema = z.object({
  /** Quote requests received in the last 7 days. */
  requestsThisWeek: z.number(),
  /** Median hours from a request to its first reply, over requests of the last 90 days that got one (null: none). */
  medianHoursToFirstReply: z.number().nullable(),
  /** Won ÷ (won + lost) over all decided quotes (null: none decided yet). */
  shareWon: z.number().nullable(),
  /** The most asked-for parts of the last 30 days. */
  topParts: z.array(z.object({ productId: z.string(), productSku: z.string(), productName: z.string(), requests: z.number() })),
  /** Lost requests per reason the buyer gave when declining on their quote page (lost without one: not counted). */
  lostReasons: z.array(z.object({ reason: z.enum(QUOTE_DECLINE_REASONS), requests: z.number() })),
});
export type InboxStats = z.infer<typeof InboxStatsSchema>;

/** The part of an e-mail address after the @, lower-cased. */
export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** GET /api/admin/quotes/staff: the admin addresses (ADMIN_EMAILS) a request can be assigned to. */
export const InboxStaffResponseSchema = z.object({ staff: z.array(z.string()).describe('The admin addresses (ADMIN_EMAILS) a request can be assigned to') });
export type InboxStaffResponse = z.infer<typeof InboxStaffResponseSchema>;
