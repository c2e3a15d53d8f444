/**
 * Any part of a part number: which whole codes of a vocabulary (normalised part numbers and SKUs) hold a query as a
 * contiguous piece ("4502" in "xkky34502", "0716" in "1r0716"). A buyer reads the last characters off a worn tag.
 *
 * An index of the codes' 4-character pieces (4-grams over 0-9a-z, 36^4 of them, so a gram is its own array index):
 * gram -> the codes holding it. A query's rarest gram gives the candidates, each checked whole. Linear to build, no
 * sorting: a piece per character of each code, 4 bytes each, plus the 6.7 MB table of starts. The base's is written
 * into the snapshot by whoever writes it (the merge process), so a load takes it as it is: built at load, it held
 * searches 1.8 s at 500,000 parts while a merged base was swapped in.
 */
import { CODE_FIELDS, type Vocab } from './vocab.ts';

/** Shortest query looked for inside codes: shorter pieces are in too many numbers to mean anything. */
export const INFIX_MIN_LENGTH = 4;
const GRAM = 4;
const RADIX = 36;
const GRAMS = RADIX ** GRAM;

/** 0-9 -> 0-9, a-z (or A-Z) -> 10-35, anything else -1 (a code with another character is found whole or by prefix only). */
function charId(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 122) return c - 87;
  if (c >= 65 && c <= 90) return c - 55;
  return -1;
}

/** The gram starting at `i` of `s`, or -1 when it holds a character outside 0-9a-z. */
function gramAt(s: string, i: number): number {
  let g = 0;
  for (let k = 0; k < GRAM; k++) {
    const id = charId(s.charCodeAt(i + k));
    if (id < 0) return -1;
    g = g * RADIX + id;
  }
  return g;
}

export class CodeInfixIndex {
  private constructor(
    /** codes of gram g: terms[start[g] .. start[g + 1]) */
    readonly start: Uint32Array,
    readonly terms: Uint32Array,
  ) {}

  /** The index of `vocab` as a snapshot kept it (made by the process that wrote the snapshot, not at load). */
  static adopt(vocab: Vocab, start: Uint32Array, terms: Uint32Array): void {
    if (start.length === GRAMS + 1) built.set(vocab, new CodeInfixIndex(start, terms));
  }

  /** Every term of `vocab` that is a whole part number or SKU of some document. */
  static build(vocab: Vocab): CodeInfixIndex {
    return CodeInfixIndex.over(vocab.size, (t) => vocab.terms.get(t), (t) => isWholeCode(vocab, t));
  }

  /** The codes `codeAt(0 .. count - 1)` that `include` takes (all when absent), by their position. */
  static over(count: number, codeAt: (i: number) => string, include?: (i: number) => boolean): CodeInfixIndex {
    // Two passes over the codes' grams: count, then place (a code's repeated gram counted once).
    const start = new Uint32Array(GRAMS + 1);
    const seen: number[] = [];
    const eachGram = (t: number, fn: (g: number) => void) => {
      const s = codeAt(t);
      seen.length = 0;
      for (let i = 0; i + GRAM <= s.length; i++) {
        const g = gramAt(s, i);
        if (g < 0 || seen.includes(g)) continue;
        seen.push(g);
        fn(g);
      }
    };
    const taken = include ? Uint8Array.from({ length: count }, (_, i) => (include(i) ? 1 : 0)) : null;
    for (let t = 0; t < count; t++) if (!taken || taken[t]) eachGram(t, (g) => start[g + 1]!++);
    for (let g = 0; g < GRAMS; g++) start[g + 1]! += start[g]!;
    const terms = new Uint32Array(start[GRAMS]!);
    const pos = start.slice(0, GRAMS);
    for (let t = 0; t < count; t++) if (!taken || taken[t]) eachGram(t, (g) => (terms[pos[g]!++] = t));
    return new CodeInfixIndex(start, terms);
  }

  /** The index built for `vocab`, once (vocabularies never change once built). */
  static of(vocab: Vocab): CodeInfixIndex {
    let index = built.get(vocab);
    if (!index) built.set(vocab, (index = CodeInfixIndex.build(vocab)));
    return index;
  }

  /** The base's index, built now (at load and after a merge) rather than by the first search that needs it. */
  static warm(vocab: Vocab): void {
    if (CodeInfixIndex.pays(vocab.size)) CodeInfixIndex.of(vocab);
  }

  /** Whether a vocabulary of `terms` gets an index (smaller ones are read term by term). */
  static pays(terms: number): boolean {
    return terms >= SCAN_BELOW;
  }

  /**
   * Positions of the codes holding `piece` (normalised, in the codes' case, at least INFIX_MIN_LENGTH characters), in
   * order, at most `max` (a piece in more codes than that names nothing in particular; the caller says so by the cap).
   */
  find(codeAt: (i: number) => string, piece: string, max: number): number[] {
    if (piece.length < INFIX_MIN_LENGTH) return [];
    let best = -1;
    let bestCount = Infinity;
    for (let i = 0; i + GRAM <= piece.length; i++) {
      const g = gramAt(piece, i);
      if (g < 0) return [];
      const count = this.start[g + 1]! - this.start[g]!;
      if (count < bestCount) {
        best = g;
        bestCount = count;
      }
    }
    const out: number[] = [];
    if (best < 0 || bestCount === 0) return out;
    const exact = piece.length === GRAM;
    for (let p = this.start[best]!, e = this.start[best + 1]!; p < e && out.length < max; p++) {
      const t = this.terms[p]!;
      if (exact || codeAt(t).includes(piece)) out.push(t);
    }
    return out;
  }

  /** Bytes held (for stats and the bench). */
  get bytes(): number {
    return this.start.byteLength + this.terms.byteLength;
  }
}

const built = new WeakMap<Vocab, CodeInfixIndex>();

/**
 * A delta segment's vocabulary is small and short-lived (segments merge as changes come): it is read term by term
 * (~1 ms for 20,000 terms) rather than given a 6.7 MB table of its own.
 */
const SCAN_BELOW = 20_000;

/** The whole codes of `vocab` holding `piece`, in term order, at most `max`. */
export function findInfixCodes(vocab: Vocab, piece: string, max: number): number[] {
  if (piece.length < INFIX_MIN_LENGTH || max <= 0) return [];
  if (vocab.size >= SCAN_BELOW) return CodeInfixIndex.of(vocab).find((t) => vocab.terms.get(t), piece, max);
  const out: number[] = [];
  for (let t = 0; t < vocab.size && out.length < max; t++) if (vocab.terms.get(t).includes(piece) && isWholeCode(vocab, t)) out.push(t);
  return out;
}

/** Whether term `t` is a whole part number or SKU of some document (not only a word of one). */
function isWholeCode(vocab: Vocab, t: number): boolean {
  for (let p = vocab.start[t]!, e = vocab.start[t + 1]!; p < e; p++) if (vocab.fields[p]! & CODE_FIELDS) return true;
  return false;
}
