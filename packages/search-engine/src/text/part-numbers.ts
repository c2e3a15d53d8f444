/**
 * Part-number rules (pure functions): the one-typo neighbourhood of a normalised code.
 * A buyer reading a worn plate gets one character wrong, drops one, adds one or swaps two
 * neighbours; for a code of at least CODE_TYPO_MIN_LENGTH characters each of those still finds the part.
 */
import { CODE_TYPO_MIN_LENGTH } from './normalize.ts';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Every string one edit (substitution, deletion, insertion, adjacent swap) away from `code`,
 * without `code` itself, without duplicates and without results shorter than the typo minimum.
 * Size is about 73 x length, so callers cap the length they ask for.
 */
export function oneEditVariants(code: string, alphabet: string = ALPHABET): string[] {
  // A 5-character query can still be a 6-character number with one character missing.
  if (code.length < CODE_TYPO_MIN_LENGTH - 1) return [];
  const out = new Set<string>();
  const n = code.length;
  for (let i = 0; i < n; i++) {
    const head = code.slice(0, i);
    const tail = code.slice(i + 1);
    out.add(head + tail); // deletion
    if (i + 1 < n) out.add(head + code[i + 1] + code[i] + code.slice(i + 2)); // swap
    for (const c of alphabet) {
      if (c !== code[i]) out.add(head + c + tail); // substitution
    }
  }
  for (let i = 0; i <= n; i++) {
    const head = code.slice(0, i);
    const tail = code.slice(i);
    for (const c of alphabet) out.add(head + c + tail); // insertion
  }
  out.delete(code);
  // A deletion may leave a code below the minimum length: it would match short numbers by accident.
  for (const v of out) if (v.length < CODE_TYPO_MIN_LENGTH) out.delete(v);
  return [...out];
}

/**
 * Optimal-string-alignment distance (adjacent swaps cost 1), stopping early once it exceeds `max`.
 * Returns max + 1 when the distance is larger than `max`.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const m = a.length;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[n]!, max + 1);
}

/**
 * The pieces of a normalised code that an engine without infix search indexes to find any part of it by prefix
 * ("4502" of "xkky34502" is the start of its suffix "4502"): every proper suffix of at least `min` characters.
 */
export function codeSuffixes(code: string, min = 4): string[] {
  const out: string[] = [];
  for (let i = 1; i + min <= code.length; i++) out.push(code.slice(i));
  return out;
}
