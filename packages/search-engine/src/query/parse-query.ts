/**
 * Query parsing, the first stage of a search: the query's words become runs of vocabulary terms (exact, prefix while
 * typing, typos) and spans of words that spell a whole part number or SKU ("600 211 1231"). Nothing is scored here:
 * the next stages (matching, ranking) read what this one found.
 */
import type { Segment } from '../segments/segments.ts';
import { findInfixCodes, INFIX_MIN_LENGTH } from '../segments/code-infix.ts';
import { CODE_FIELDS, type Vocab } from '../segments/vocab.ts';
import { CODE_TYPO_MIN_LENGTH, MAX_TYPO_TOKEN_LENGTH, hasDigit, typoBudget } from '../text/normalize.ts';
import { oneEditVariants } from '../text/part-numbers.ts';
import { fuzzyLookup, type TermMatch } from './fuzzy.ts';

/** Longest span of query words joined to look for a part number ("600 211 1231"). */
const MAX_CODE_SPAN = 4;
const MAX_CODE_TYPO_LENGTH = 24;
/**
 * Most whole codes a piece of a number reaches: "0716" in a few dozen numbers is a buyer's worn tag, in thousands it
 * is a common run of digits (the page still shows the first of them, by the usual order).
 */
export const MAX_INFIX_CODES = 2_000;

/** A run of vocabulary terms a query word matched ([from, to): one term, or a whole prefix run). */
export interface TermSource {
  vocab: Vocab;
  from: number;
  to: number;
  typos: number;
  prefix: boolean;
  /** length of the query word */
  qlen: number;
}

export interface CodeSpan {
  from: number;
  to: number;
  code: string;
  /** synonym: not a number at all, a run of words that also finds other words (query/synonyms.ts) */
  kind: 'exact' | 'prefix' | 'typo' | 'infix' | 'synonym';
  /** for typo spans: the neighbouring codes that exist; for infix spans: the whole codes holding the piece */
  found: Set<string>;
}

/** What one query matched, kept to compute highlight ranges for the returned page only. */
export interface QueryMatchers {
  words: Set<string>;
  prefixes: string[];
  spans: CodeSpan[];
}

interface Expansion {
  seg: Segment;
  vocab: Vocab;
  match: TermMatch;
}

function hasCodePosting(vocab: Vocab, term: number): boolean {
  if (term < 0) return false;
  for (let p = vocab.start[term]!, e = vocab.start[term + 1]!; p < e; p++) if (vocab.fields[p]! & CODE_FIELDS) return true;
  return false;
}

export function findCodeSpans(tokens: string[], segs: Segment[]): CodeSpan[] {
  const n = tokens.length;
  const spans: CodeSpan[] = [];
  const exactCovered = new Uint8Array(n);
  const has = (code: string): boolean => segs.some((s) => hasCodePosting(s.codes, s.codes.lookup(code)));
  for (let from = 0; from < n; from++) {
    let code = '';
    let digit = false;
    for (let to = from; to < n && to < from + MAX_CODE_SPAN; to++) {
      code += tokens[to]!;
      digit ||= hasDigit(tokens[to]!);
      if (!digit || code.length < 2) continue;
      if (has(code)) {
        spans.push({ from, to, code, kind: 'exact', found: new Set() });
        for (let k = from; k <= to; k++) exactCovered[k] = 1;
      } else if (to === n - 1) {
        const prefixHit = segs.some((s) => {
          const [a, b] = s.codes.prefixRange(code);
          return b > a;
        });
        if (prefixHit) spans.push({ from, to, code, kind: 'prefix', found: new Set() });
      }
    }
  }
  // One wrong, missing, extra or swapped character: each single word, and the whole query when it
  // looks like one number typed in pieces ("600 211 1213", "RE 504863": no long plain words).
  const typoCandidates: Array<[number, number]> = [];
  if (tokens.every((t) => t.length <= 3 || hasDigit(t))) typoCandidates.push([0, n - 1]);
  for (let k = 0; k < n; k++) if (n > 1) typoCandidates.push([k, k]);
  for (const [from, to] of typoCandidates) {
    const code = tokens.slice(from, to + 1).join('');
    if (code.length < CODE_TYPO_MIN_LENGTH - 1 || code.length > MAX_CODE_TYPO_LENGTH || !hasDigit(code)) continue;
    if (from === to ? exactCovered[from] : spans.some((s) => s.kind === 'exact' && s.from === from && s.to === to)) continue;
    const found = new Set<string>();
    for (const v of oneEditVariants(code)) if (has(v)) found.add(v);
    if (found.size > 0) spans.push({ from, to, code, kind: 'typo', found });
  }
  // Any part of a number, separators ignored ("4502" of XKKY-34502, "r 0716" of 1R-0716): each word with a digit,
  // and the whole query when it looks like one number in pieces; ranked below whole numbers and their starts.
  const infixCandidates: Array<[number, number]> = tokens.map((_, k) => [k, k]);
  if (n > 1 && tokens.every((t) => t.length <= 3 || hasDigit(t))) infixCandidates.push([0, n - 1]);
  for (const [from, to] of infixCandidates) {
    const piece = tokens.slice(from, to + 1).join('');
    if (piece.length < INFIX_MIN_LENGTH || piece.length > MAX_CODE_TYPO_LENGTH || !hasDigit(piece)) continue;
    // A whole number typed is that number: looking for it inside others cost every part-number search (p95 +14 %).
    if (spans.some((s) => s.kind === 'exact' && s.from <= from && s.to >= to)) continue;
    const found = new Set<string>();
    for (const s of segs) {
      for (const t of findInfixCodes(s.codes, piece, MAX_INFIX_CODES - found.size)) found.add(s.codes.terms.get(t));
    }
    if (found.size > 0) spans.push({ from, to, code: piece, kind: 'infix', found });
  }
  return spans;
}

export function expandToken(token: string, isLast: boolean, segs: Segment[], matchers: QueryMatchers, allWords: Set<string>): TermSource[] {
  const found: Expansion[] = [];
  const digit = hasDigit(token);
  const maxTypos = digit || token.length > MAX_TYPO_TOKEN_LENGTH ? 0 : typoBudget(token.length);
  const run = (allowPrefix: boolean) => {
    for (const seg of segs) {
      const vocab = digit ? seg.codes : seg.words;
      for (const match of fuzzyLookup(vocab, token, maxTypos, allowPrefix)) found.push({ seg, vocab, match });
    }
  };
  run(isLast);
  // A word that matches nothing whole may be an abbreviation ("cat" for Caterpillar).
  if (!isLast && found.length === 0 && token.length >= 2) run(true);
  const out: TermSource[] = [];
  const qlen = token.length;
  for (const { vocab, match } of found) {
    if (match.prefix) {
      if (match.matchedPrefix && matchers.prefixes.length < 200) matchers.prefixes.push(match.matchedPrefix);
    } else {
      for (let t = match.from; t < match.to; t++) {
        const term = vocab.terms.get(t);
        allWords.add(term);
        if (matchers.words.size < 500) matchers.words.add(term);
      }
    }
    out.push({ vocab, from: match.from, to: match.to, typos: match.typos, prefix: match.prefix, qlen });
  }
  return out;
}
