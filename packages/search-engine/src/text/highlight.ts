/**
 * Where a query matched inside a field, as [start, end) ranges into the original text, so the web app
 * can highlight without inserting HTML (pure functions).
 */
import { tokenizeWithOffsets } from './normalize.ts';

export type Range = [number, number];

/** What a query's words matched: whole words (exact or with typos) and prefixes typed so far. */
export interface WordMatchers {
  words: ReadonlySet<string>;
  prefixes: readonly string[];
}

/** Ranges of the words of `text` that a query matched; a prefix match covers only the typed part. */
export function highlightWords(text: string, m: WordMatchers): Range[] {
  if (!text || (m.words.size === 0 && m.prefixes.length === 0)) return [];
  const out: Range[] = [];
  for (const t of tokenizeWithOffsets(text)) {
    if (m.words.has(t.term)) {
      out.push([t.start, t.end]);
      continue;
    }
    let best = 0;
    for (const p of m.prefixes) if (p.length > best && t.term.startsWith(p)) best = p.length;
    if (best > 0) {
      // Folding kept the length (plain text): highlight exactly the typed part; otherwise the word.
      const sameLength = t.term.length === t.end - t.start;
      out.push([t.start, sameLength ? t.start + best : t.end]);
    }
  }
  return mergeRanges(out);
}

/**
 * Range of a part number or SKU whose normalised form matched: `chars` letters and digits from the
 * first one (a prefix typed so far), or the whole code when `chars` is undefined.
 */
export function highlightCode(text: string, chars?: number): Range[] {
  const tokens = tokenizeWithOffsets(text);
  if (tokens.length === 0) return [];
  const first = tokens[0]!;
  const last = tokens[tokens.length - 1]!;
  if (chars === undefined) return [[first.start, last.end]];
  let left = chars;
  for (const t of tokens) {
    const len = t.term.length;
    if (left <= len) {
      const sameLength = len === t.end - t.start;
      const end = sameLength ? t.start + left : t.end;
      return left > 0 ? [[first.start, end]] : [];
    }
    left -= len;
  }
  return [[first.start, last.end]];
}

/**
 * Range of the normalised characters [from, to) of a code within its text ("0716" in "1R-0716"): a piece matched
 * inside a part number, separators between its characters included.
 */
export function highlightCodePiece(text: string, from: number, to: number): Range[] {
  let seen = 0;
  let start = -1;
  for (const t of tokenizeWithOffsets(text)) {
    const len = t.term.length;
    const sameLength = len === t.end - t.start;
    if (start < 0 && from < seen + len) start = sameLength ? t.start + (from - seen) : t.start;
    if (start >= 0 && to <= seen + len) {
      const end = sameLength ? t.start + (to - seen) : t.end;
      return end > start ? [[start, end]] : [];
    }
    seen += len;
  }
  return [];
}

/** Sorted, with overlapping or touching ranges joined. */
export function mergeRanges(ranges: Range[]): Range[] {
  if (ranges.length < 2) return ranges;
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Range[] = [[sorted[0]![0], sorted[0]![1]]];
  for (let i = 1; i < sorted.length; i++) {
    const r = sorted[i]!;
    const last = out[out.length - 1]!;
    if (r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}
