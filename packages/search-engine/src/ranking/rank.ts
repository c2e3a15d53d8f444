/**
 * Ranking, the third stage of a search: each candidate's key packs its code tier, its score (plus a bonus when the
 * query names its brand or category in full) and the shortness of its name above its document number, so one numeric
 * sort orders them and ties go to the older document; only the page asked for is sorted out of the rest.
 */
import type { CandidateMatcher } from '../matching/candidate-matcher.ts';
import type { Documents } from '../documents/documents.ts';
import { tokenize } from '../text/normalize.ts';

/** Ranks pack (code tier, score, name length); a tier step outweighs any score. */
const TIER = 1 << 20;
/** Added when the query names a product's whole brand or category ("komatsu", "fuel filters"). */
const FULL_NAME_BONUS = 250;
/** Ranking keys pack the document number below the rank: up to 4M documents. */
const DOC_SPACE = 4_194_304;

/**
 * Reused by every search (they run one at a time, and the page is copied out before the next): a common word's
 * 150,000 keys were 1.2 MB allocated, and collected, per search.
 */
let keyScratch = new Float64Array(1024);

/**
 * The ranking keys of the candidates in `result` that `allowed` lets through (all when null), clearing each one's
 * scratch on the way (everything else touched was cleared when it dropped out). The keys are valid until the next
 * search: read `keys.subarray(0, total)` at once.
 */
export function rankKeys(
  result: Int32Array,
  matcher: CandidateMatcher,
  documents: Documents,
  brandFull: Uint8Array,
  categoryFull: Uint8Array,
  allowed: Uint8Array | null,
): { keys: Float64Array; total: number } {
  if (keyScratch.length < result.length) keyScratch = new Float64Array(Math.ceil(result.length * 1.25));
  const keys = keyScratch;
  let total = 0;
  const { tier, score, mask } = matcher;
  const { brandOf, categoryOf, nameWords } = documents;
  for (let i = 0; i < result.length; i++) {
    const d = result[i]!;
    const bonus = (brandFull[brandOf[d]!] ? FULL_NAME_BONUS : 0) + (categoryFull[categoryOf[d]!] ? FULL_NAME_BONUS : 0);
    const rank = tier[d]! * TIER + (score[d]! + bonus) * 64 + (63 - Math.min(63, nameWords[d]!));
    // Clear the scratch on the way (everything else touched was cleared when it dropped out).
    mask[d] = 0;
    score[d] = 0;
    tier[d] = 0;
    if (allowed && allowed[d] !== 1) continue; // not among the parts that fit the chosen machine
    keys[total++] = rank * DOC_SPACE + (DOC_SPACE - 1 - d);
  }
  return { keys, total };
}

/** The document a ranking key stands for. */
export const docOfKey = (key: number): number => DOC_SPACE - 1 - (key % DOC_SPACE);

/** Which brand (or category) names the query's words name in full ("komatsu", "fuel filters"). */
export function fullyNamed(names: string[], cache: string[][], words: Set<string>, prefixes: string[]): Uint8Array {
  const out = new Uint8Array(names.length);
  for (let i = 0; i < names.length; i++) {
    let toks = cache[i];
    if (!toks) cache[i] = toks = tokenize(names[i]!);
    if (toks.length === 0) continue;
    out[i] = toks.every((t) => words.has(t) || prefixes.some((p) => t.startsWith(p))) ? 1 : 0;
  }
  return out;
}

/** The k largest keys, largest first. */
export function topKeys(keys: Float64Array, k: number): Float64Array {
  if (k <= 0) return new Float64Array(0);
  if (k * 8 >= keys.length || keys.length <= 4096) {
    const sorted = Float64Array.from(keys).sort();
    return sorted.subarray(sorted.length - k).reverse();
  }
  // Min-heap of the best k seen so far.
  const heap = new Float64Array(k);
  let size = 0;
  for (let i = 0; i < keys.length; i++) {
    const v = keys[i]!;
    if (size < k) {
      let j = size++;
      heap[j] = v;
      while (j > 0) {
        const parent = (j - 1) >> 1;
        if (heap[parent]! <= heap[j]!) break;
        [heap[parent], heap[j]] = [heap[j]!, heap[parent]!];
        j = parent;
      }
    } else if (v > heap[0]!) {
      heap[0] = v;
      let j = 0;
      for (;;) {
        const l = 2 * j + 1;
        const r = l + 1;
        let m = j;
        if (l < k && heap[l]! < heap[m]!) m = l;
        if (r < k && heap[r]! < heap[m]!) m = r;
        if (m === j) break;
        [heap[m], heap[j]] = [heap[j]!, heap[m]!];
        j = m;
      }
    }
  }
  return heap.sort().reverse();
}
