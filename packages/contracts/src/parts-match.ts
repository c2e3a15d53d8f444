import { z } from 'zod';
import { ProductSummarySchema } from './products.ts';

/** POST /api/parts/match: a pasted parts list, one part per line (at most 500 lines of 500 characters). */
export const PartsMatchRequestSchema = z.object({
  text: z.string('must be the list as text').max(260_000, 'must be at most 260,000 characters (500 lines)'),
});
export type PartsMatchRequest = z.infer<typeof PartsMatchRequestSchema>;

export const MATCH_KINDS = ['exact', 'normalized', 'typo', 'superseded', 'cross_reference', 'name'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

/** One input line: what was read from it, and what it matched. */
export const PartsMatchLineSchema = z.object({
  line: z.number().int(),
  input: z.string(),
  quantity: z.number().int(),
  /**
   * matched: one product, taken as the buyer's; ambiguous: several fit (or only the words did), the buyer chooses
   * among `alternatives`; unmatched: nothing fits, the line stays in the request as the buyer's text.
   */
  status: z.enum(['matched', 'ambiguous', 'unmatched']),
  match: z.object({ kind: z.enum(MATCH_KINDS), confidence: z.number(), product: ProductSummarySchema }).optional(),
  alternatives: z.array(ProductSummarySchema),
});
export type PartsMatchLine = z.infer<typeof PartsMatchLineSchema>;

export const PartsMatchResponseSchema = z.object({
  lines: z.array(PartsMatchLineSchema),
  summary: z.object({ matched: z.number(), ambiguous: z.number(), unmatched: z.number() }),
});
export type PartsMatchResponse = z.infer<typeof PartsMatchResponseSchema>;
