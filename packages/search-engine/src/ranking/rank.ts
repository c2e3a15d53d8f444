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
/**
 * Ranking keys pack the document number below the rank: up to 33.5M document numbers (a changed document takes a new
 * number until the next full merge, so a 2,000,000-part catalogue after a whole-catalogue import reaches 4M). The
 * largest rank (tier 159, a 16-word score) times this stays below 2^53, so keys are exact doubles.
 */
const DOC_SPACE = 33_554_432;

/**
 * The best `k` ranking keys (largest first) of the candidates in `result` that `allowed` lets through (all when null),
 * and how many it let through, clearing each candidate's scratch on the way (everything else touched was cleared when
 * it dropped out). One pass: a key that cannot make the page is dropped as it is made, so a common word's 150,000
 * candidates cost no key array and no second pass (the heap rarely moves: candidates come in document order, and among
 * equal ranks the older document wins).
 */
export function rankTop(
  result: Int32Array,
  matcher: CandidateMatcher,
  documents: Documents,
  brandFull: Uint8Array,
  categoryFull: Uint8Array,
  allowed: Uint8Array | null,
  k: number,
  /** Whether any candidate can have a code tier (the query has a part-number span); if not, none is read or cleared. */
  tiers: boolean,
): { top: Float64Array; total: number } {
  const heap = new Float64Array(Math.max(0, k));
  let size = 0;
  let total = 0;
  const { tier, score, mask } = matcher;
  const { brandOf, categoryOf, nameWords } = documents;
  for (let i = 0; i < result.length; i++) {
    const d = result[i]!;
    const bonus = (brandFull[brandOf[d]!] ? FULL_NAME_BONUS : 0) + (categoryFull[categoryOf[d]!] ? FULL_NAME_BONUS : 0);
    let rank = (score[d]! + bonus) * 64 + (63 - Math.min(63, nameWords[d]!));
    if (tiers) {
      rank += tier[d]! * TIER;
      tier[d] = 0;
    }
    mask[d] = 0;
    score[d] = 0;
    if (allowed && allowed[d] !== 1) continue; // not among the parts that fit the chosen machine
    total++;
    if (k === 0) continue;
    const v = rank * DOC_SPACE + (DOC_SPACE - 1 - d);
    if (size < k) {
      // sift up into the min-heap of the best k so far
      let j = size++;
      heap[j] = v;
      while (j > 0) {
        const parent = (j - 1) >> 1;
        if (heap[parent]! <= v) break;
        heap[j] = heap[parent]!;
        j = parent;
      }
      heap[j] = v;
    } else if (v > heap[0]!) {
      // replace the smallest and sift it down
      let j = 0;
      for (;;) {
        const l = 2 * j + 1;
        if (l >= k) break;
        const r = l + 1;
        const m = r < k && heap[r]! < heap[l]! ? r : l;
        if (heap[m]! >= v) break;
        heap[j] = heap[m]!;
        j = m;
      }
      heap[j] = v;
    }
  }
  return { top: heap.subarray(0, size).sort().reverse(), total };
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
