/**
 * Where a returned document matched the query, as ranges per field for the caller to highlight: computed for the
 * page of hits only, from what query parsing kept (QueryMatchers), not during matching.
 */
import type { SearchDoc } from '../documents/search-doc.ts';
import type { QueryMatchers } from '../query/parse-query.ts';
import { highlightCode, highlightCodePiece, highlightWords, mergeRanges, type Range } from '../text/highlight.ts';
import { normalizeCode } from '../text/normalize.ts';

const WORD_FIELDS = ['name', 'brandName', 'category'] as const;
const CODE_FIELD_NAMES = ['partNumber', 'sku'] as const;

/** The ranges of one field of a hit that the query matched ([start, end) in the field's text). */
export interface FieldMatch {
  field: (typeof WORD_FIELDS)[number] | (typeof CODE_FIELD_NAMES)[number];
  ranges: Range[];
}

export function matchesFor(doc: SearchDoc, m: QueryMatchers): FieldMatch[] {
  const out: FieldMatch[] = [];
  const wm = { words: m.words, prefixes: m.prefixes };
  for (const field of WORD_FIELDS) {
    const ranges = highlightWords(doc[field], wm);
    if (ranges.length) out.push({ field, ranges });
  }
  for (const field of CODE_FIELD_NAMES) {
    const text = doc[field];
    const ranges: Range[] = [...highlightWords(text, wm)];
    if (m.spans.length) {
      const code = normalizeCode(text);
      for (const span of m.spans) {
        if (span.kind === 'exact' && code === span.code) ranges.push(...highlightCode(text));
        else if (span.kind === 'typo' && span.found.has(code)) ranges.push(...highlightCode(text));
        else if (span.kind === 'prefix' && code.startsWith(span.code)) ranges.push(...highlightCode(text, span.code.length));
        else if (span.kind === 'infix' && span.found.has(code)) {
          const at = code.indexOf(span.code);
          ranges.push(...highlightCodePiece(text, at, at + span.code.length));
        }
      }
    }
    if (ranges.length) out.push({ field, ranges: mergeRanges(ranges) });
  }
  return out;
}
