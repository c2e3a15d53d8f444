import { z } from 'zod';

/** Hard caps on list reads: a request above them is refused with 400, never silently served. */
export const MAX_PAGE_LIMIT = 100;
/** Room for a catalogue of ten million parts: every page of the gallery and every sitemap file stays reachable. */
export const MAX_OFFSET = 10_000_000;
export const MAX_QUERY_LENGTH = 120;

/** An integer taken from a query string; "abc", "1.5" and "" are refused by name. */
export const queryInt = (opts: { min: number; max: number; fallback: number }) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(opts.min).max(opts.max))
    .optional()
    .transform((v) => v ?? opts.fallback);

/** Free text from a query string. Arrays (?q=a&q=b) and objects (?q[$ne]=x) are refused by the string type. */
export const queryText = z.string().trim().max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`);

/**
 * A date filter of a staff list (`from`, `to`): YYYY-MM-DD (a time after it is taken too), a real date; an empty
 * parameter is as if absent.
 */
export const dateParam = (field: string) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/, `${field} must be a date (YYYY-MM-DD)`)
      .refine((s) => !Number.isNaN(Date.parse(s)), `${field} must be a real date`)
      .optional(),
  );

/** A staff list's page (the inbox, the orders): which page, its size, and how many there are in all. */
export const ListPageSchema = z.object({ page: z.number(), limit: z.number(), total: z.number(), totalPages: z.number() });

export const PaginationSchema = z.object({
  totalProducts: z.number().int(),
  totalCount: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  hasNextPage: z.boolean(),
  hasPrevPage: z.boolean(),
});
export type Pagination = z.infer<typeof PaginationSchema>;

export function paginate(total: number, limit: number, offset: number): Pagination {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  const currentPage = Math.floor(offset / limit) + 1;
  return {
    totalProducts: total,
    totalCount: total,
    totalPages,
    currentPage,
    limit,
    offset,
    hasNextPage: offset + limit < total,
    hasPrevPage: offset > 0,
  };
}

/** Every error body: a message a person can read, and for 400s the field-level issues. */
export const ErrorBodySchema = z.object({
  message: z.string(),
  requestId: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Header carrying the shared secret on /internal routes; the gateway never forwards /internal. */
export const SERVICE_TOKEN_HEADER = 'x-service-token';
export const REQUEST_ID_HEADER = 'x-request-id';
