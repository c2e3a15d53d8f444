/**
 * Search that learns from its buyers (#36): what buyers search (kept without personal data: a random visitor id from
 * the browser's own storage, never an IP or an e-mail), the staff's reports over it, and the queue staff work
 * (aliases, synonyms, "not stocked", dismissed).
 */
import { z } from 'zod';
import { MAX_QUERY_LENGTH, queryInt } from './common.ts';

/** Where a search was made or its result used. */
export const SEARCH_PAGES = ['header', 'search', 'gallery', 'category', 'brand', 'product', 'parts-list', 'other'] as const;
export type SearchPage = (typeof SEARCH_PAGES)[number];

export const SEARCH_EVENT_LIMITS = {
  /** Events in one POST (a page sends what it gathered when hidden or every few seconds). */
  maxEvents: 50,
  maxQuery: MAX_QUERY_LENGTH,
  maxHits: 100_000_000,
} as const;

const visitor = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be a random id of 16 to 64 letters, digits, - or _');
const query = z.string().trim().min(1, 'must not be empty').max(SEARCH_EVENT_LIMITS.maxQuery, `must be at most ${SEARCH_EVENT_LIMITS.maxQuery} characters`);
const page = z.enum(SEARCH_PAGES);
const productId = z.string().trim().min(1).max(100);

/** One thing a visitor did: searched (and how many it found), opened a result, added one to the quote list, sent a quote request. */
export const SearchEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('search'), query, hits: z.number().int().min(0).max(SEARCH_EVENT_LIMITS.maxHits), page }).strict(),
  z.object({ type: z.literal('open'), query, productId, page }).strict(),
  z.object({ type: z.literal('quote_add'), query, productId: productId.optional(), page }).strict(),
  z.object({ type: z.literal('quote_request') }).strict(),
]);
export type SearchEvent = z.infer<typeof SearchEventSchema>;

/** POST /api/search/events: a page's batch of events (answered 202; a full buffer drops them and counts). */
export const SearchEventsInputSchema = z
  .object({
    visitor,
    events: z.array(SearchEventSchema).min(1, 'must have at least one event').max(SEARCH_EVENT_LIMITS.maxEvents, `must have at most ${SEARCH_EVENT_LIMITS.maxEvents} events`),
  })
  .strict();
export type SearchEventsInput = z.infer<typeof SearchEventsInputSchema>;

/** POST /internal/search/events: what the gateway gathered from buyers' pages since it last handed some over. */
export const InternalSearchEventsSchema = z.object({ batches: z.array(SearchEventsInputSchema).min(1).max(1_000) }).strict();

/** DELETE /api/search/visitors/{visitor}: "forget my searches on this device". */
export const SearchVisitorParamsSchema = z.object({ visitor }).strict();

/** What staff decided about a query of the queue. */
export const QUERY_STATUSES = ['open', 'alias', 'synonym', 'not_stocked', 'dismissed'] as const;
export type QueryStatus = (typeof QUERY_STATUSES)[number];

export const SearchInsightsQuerySchema = z.object({
  /** The period: the last N days, today included. */
  days: queryInt({ min: 1, max: 400, fallback: 30 }),
  limit: queryInt({ min: 1, max: 500, fallback: 50 }),
});

/** One query over the period. */
export const QueryStatsSchema = z.object({
  /** Normalised: lowercase, accents and punctuation folded, words joined by one space. */
  query: z.string(),
  /** The latest query as typed that normalised to it. */
  example: z.string(),
  searches: z.number(),
  /** Searches that found nothing. */
  zeroResults: z.number(),
  /** Hits of the latest search. */
  hits: z.number(),
  visitors: z.number(),
  opens: z.number(),
  quoteAdds: z.number(),
  firstSeen: z.string(),
  lastSeen: z.string(),
  status: z.enum(QUERY_STATUSES),
  note: z.string().optional(),
});
export type QueryStats = z.infer<typeof QueryStatsSchema>;

export const SearchDaySchema = z.object({ day: z.string(), searches: z.number(), zeroResults: z.number(), visitors: z.number() });

/** GET /api/admin/search/insights */
export const SearchInsightsSchema = z.object({
  days: z.number(),
  from: z.string(),
  to: z.string(),
  retentionDays: z.number(),
  perDay: z.array(SearchDaySchema),
  totals: z.object({ searches: z.number(), zeroResults: z.number(), visitors: z.number(), queries: z.number() }),
  top: z.array(QueryStatsSchema),
  /** Queries that found nothing, still open (no alias, synonym, not-stocked mark or dismissal yet), most asked first. */
  zeroResults: z.array(QueryStatsSchema),
  /** Queries that found parts nobody opened or added. */
  unopened: z.array(QueryStatsSchema),
  /** Events dropped since the catalog started because the buffer was full (the search itself never waits for them). */
  dropped: z.number(),
});
export type SearchInsights = z.infer<typeof SearchInsightsSchema>;

/** GET /api/admin/search/demand[.csv]: not-stocked and zero-result queries by how many visitors asked. */
export const DemandRowSchema = z.object({
  query: z.string(),
  example: z.string(),
  status: z.enum(QUERY_STATUSES),
  note: z.string().optional(),
  visitors: z.number(),
  /** Of those visitors, how many sent a quote request that day or later. */
  quoteRequesters: z.number(),
  searches: z.number(),
  firstSeen: z.string(),
  lastSeen: z.string(),
});
export type DemandRow = z.infer<typeof DemandRowSchema>;
export const DemandQuerySchema = z.object({ days: queryInt({ min: 1, max: 400, fallback: 90 }), limit: queryInt({ min: 1, max: 5000, fallback: 500 }) });

export const SEARCH_RULE_LIMITS = {
  aliasText: 120,
  aliasParts: 20,
  synonymWords: 20,
  synonymWord: 60,
  note: 300,
  aliases: 10_000,
  synonyms: 5_000,
  csvBytes: 2 * 1024 * 1024,
} as const;

const ruleText = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** PUT /api/admin/search/queries/status: mark a query not stocked (with a note buyers see), dismissed, or open again. */
export const QueryStatusInputSchema = z
  .object({
    query: ruleText(SEARCH_EVENT_LIMITS.maxQuery),
    status: z.enum(['open', 'not_stocked', 'dismissed']),
    note: z.string().trim().max(SEARCH_RULE_LIMITS.note, `must be at most ${SEARCH_RULE_LIMITS.note} characters`).optional(),
  })
  .strict();

/** An alias: this text finds these parts (a buyer's own code, a misspelt brand). */
export const AliasInputSchema = z
  .object({
    text: ruleText(SEARCH_RULE_LIMITS.aliasText),
    productIds: z
      .array(z.string().trim().min(1).max(100))
      .min(1, 'must name at least one part')
      .max(SEARCH_RULE_LIMITS.aliasParts, `must name at most ${SEARCH_RULE_LIMITS.aliasParts} parts`),
    /** The queue's query this settles (its status becomes `alias`). */
    query: ruleText(SEARCH_EVENT_LIMITS.maxQuery).optional(),
  })
  .strict();
export const AliasSchema = z.object({
  id: z.string(),
  text: z.string(),
  /** The text normalised as queries are. */
  key: z.string(),
  productIds: z.array(z.string()),
  /** The parts as they are now (a part taken off the storefront since is left out). */
  parts: z.array(z.object({ id: z.string(), name: z.string(), partNumber: z.string(), sku: z.string() })).optional(),
  createdAt: z.string(),
});
export type Alias = z.infer<typeof AliasSchema>;

/** A synonym set: words (or phrases) that find each other (`both`), or the first that also finds the rest (`one-way`). */
export const SynonymInputSchema = z
  .object({
    words: z
      .array(ruleText(SEARCH_RULE_LIMITS.synonymWord))
      .min(2, 'must have at least two words')
      .max(SEARCH_RULE_LIMITS.synonymWords, `must have at most ${SEARCH_RULE_LIMITS.synonymWords} words`),
    mode: z.enum(['both', 'one-way']).default('both'),
    /** The queue's query this settles (its status becomes `synonym`). */
    query: ruleText(SEARCH_EVENT_LIMITS.maxQuery).optional(),
  })
  .strict();
export const SynonymSchema = z.object({ id: z.string(), words: z.array(z.string()), mode: z.enum(['both', 'one-way']), createdAt: z.string() });
export type Synonym = z.infer<typeof SynonymSchema>;

export const SearchRuleIdParamsSchema = z.object({ id: z.string().trim().min(1).max(100) }).strict();

/** The answer to a CSV import of aliases or synonyms: what was added, and the rows refused, by line. */
export const RulesImportResultSchema = z.object({
  added: z.number(),
  unchanged: z.number(),
  errors: z.array(z.object({ line: z.number(), message: z.string() })),
});
export type RulesImportResult = z.infer<typeof RulesImportResultSchema>;

/** Said beside a search's results when staff marked its query not stocked: buyers can still ask for a quote. */
export const SearchNoticeSchema = z.object({ kind: z.literal('not_stocked'), note: z.string().optional() });
export type SearchNotice = z.infer<typeof SearchNoticeSchema>;
