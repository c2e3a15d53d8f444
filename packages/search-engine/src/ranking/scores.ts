/**
 * What one match is worth, read by candidate matching as it visits postings: a term's base score (exact, prefix,
 * typos) times the weight of the field it is in, and a part-number span's code tier. Ranking packs these into keys.
 */
import type { CodeSpan, TermSource } from '../query/parse-query.ts';
import { Field } from '../segments/vocab.ts';

const TIER_EXACT_CODE = 4;
const TIER_CODE_PREFIX = 3;
const TIER_CODE_TYPO = 2;
/** A piece inside a number ("4502" of XKKY-34502): below the whole number, its start and a typo of either. */
const TIER_CODE_INFIX = 1;

/** Field weight x10 for a posting's field bits: the best field it occurs in. */
export const FIELD_WEIGHT = new Uint8Array(256);
for (let bits = 0; bits < 256; bits++) {
  let w = 0;
  if (bits & (Field.name | Field.partNumberWord | Field.skuWord | Field.partNumberCode | Field.skuCode)) w = 10;
  else if (bits & (Field.brandName | Field.category)) w = 9;
  else if (bits & Field.extra) w = 6;
  FIELD_WEIGHT[bits] = w;
}

/** How well a term matched, before the field weight: exact 100, prefix 60-90, 1 typo 50, 2 typos 30. */
export function baseOf(src: TermSource, term: number): number {
  if (!src.prefix) return src.typos === 0 ? 100 : src.typos === 1 ? 50 : 30;
  if (src.typos > 0) return 40 - 10 * src.typos;
  return 60 + Math.floor((30 * src.qlen) / Math.max(src.qlen, src.vocab.terms.lengthOf(term)));
}

/**
 * A product's code tier: the kind of part-number match, then how many characters of the query
 * it covers ("Set 30" as the start of "SET-3052" beats "30" as the start of "3033505").
 */
export const tierOf = (span: CodeSpan): number =>
  span.kind === 'synonym' ? 0 : (span.kind === 'exact' ? TIER_EXACT_CODE : span.kind === 'prefix' ? TIER_CODE_PREFIX : span.kind === 'typo' ? TIER_CODE_TYPO : TIER_CODE_INFIX) * 32 +
  Math.min(31, span.code.length);
export const isExactTier = (t: number): boolean => t >= TIER_EXACT_CODE * 32;
