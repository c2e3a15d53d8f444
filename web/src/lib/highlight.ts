/** A piece of text and whether it was matched by the search (spec section 2: highlighted matches, no HTML). */
export interface TextPart {
  text: string;
  match: boolean;
}

/**
 * Splits `text` by the [start, end) ranges the search API returned for one field. Ranges are clamped,
 * sorted and merged, so overlapping or out-of-bounds ranges never throw or duplicate text.
 */
export function splitByRanges(text: string, ranges: ReadonlyArray<readonly [number, number]> | undefined): TextPart[] {
  if (!ranges || ranges.length === 0) return [{ text, match: false }];
  const sorted = ranges
    .map(([s, e]) => [Math.max(0, Math.min(s, text.length)), Math.max(0, Math.min(e, text.length))] as const)
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [s, e] of sorted) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  const parts: TextPart[] = [];
  let at = 0;
  for (const [s, e] of merged) {
    if (s > at) parts.push({ text: text.slice(at, s), match: false });
    parts.push({ text: text.slice(s, e), match: true });
    at = e;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}
