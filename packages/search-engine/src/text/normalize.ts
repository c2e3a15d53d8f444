/**
 * Text rules shared by every search adapter (pure functions, no I/O).
 *
 * - A *word* is a run of letters, digits and combining marks; it is compared lowercased with accents
 *   stripped, so "Hydraulic", "HYDRAULIC" and "hydraulíc" are the same word.
 * - A *code* (part number or SKU) is compared with everything but letters and digits removed, so
 *   "1R-0750", "1r 0750" and "1R0750" are the same code.
 */

/** Longest query the engines look at; the HTTP layer already refuses longer input. */
export const MAX_QUERY_CHARS = 200;
/** At most this many words of a query are used; the rest are ignored (a fast answer beats a slow one). */
export const MAX_QUERY_TOKENS = 10;
/** Words longer than this are matched exactly only (no typo expansion). */
export const MAX_TYPO_TOKEN_LENGTH = 32;

const WORD_RE = /[\p{L}\p{N}\p{M}]+/gu;
const MARKS_RE = /\p{M}/gu;
const DIGIT_RE = /\p{N}/u;

/** Lowercase, accents stripped, compatibility forms folded ("Ⅳ" -> "iv", "ﬁ" -> "fi"). */
export function foldWord(word: string): string {
  // Fast path: plain ASCII needs no Unicode normalisation.
  if (/^[\x00-\x7f]*$/.test(word)) return word.toLowerCase();
  return word.normalize('NFKD').replace(MARKS_RE, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

export interface Token {
  /** Folded form used for matching. */
  term: string;
  /** [start, end) in the original text, in UTF-16 code units. */
  start: number;
  end: number;
}

/** Words of `text` with their positions in the original string. Empty folded words are dropped. */
export function tokenizeWithOffsets(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD_RE)) {
    const term = foldWord(m[0]);
    if (term) out.push({ term, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Folded words of `text`. */
export function tokenize(text: string): string[] {
  const ascii = tokenizeAscii(text);
  if (ascii) return ascii;
  const out: string[] = [];
  for (const m of text.matchAll(WORD_RE)) {
    const term = foldWord(m[0]);
    if (term) out.push(term);
  }
  return out;
}

/**
 * The same as the Unicode path for plain ASCII text, without regular expressions (indexing 500,000
 * products tokenizes a few million fields). Returns null when the text has a non-ASCII character.
 */
function tokenizeAscii(text: string): string[] | null {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (c > 127) return null;
    const alnum = (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    if (alnum) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push(text.slice(start, i).toLowerCase());
      start = -1;
    }
  }
  return out;
}

/** A part number or SKU as compared: "1R-0750" -> "1r0750", "RE 504836" -> "re504836". */
export function normalizeCode(code: string): string {
  return tokenize(code).join('');
}

export const hasDigit = (s: string): boolean => DIGIT_RE.test(s);

/**
 * Typos forgiven in a word of this length (Meilisearch's defaults): none under 5 characters,
 * 1 from 5, 2 from 9.
 */
export function typoBudget(length: number): number {
  if (length >= 9) return 2;
  if (length >= 5) return 1;
  return 0;
}

/** Part numbers and SKUs of at least this many characters (normalised) forgive one typo. */
export const CODE_TYPO_MIN_LENGTH = 6;

/** A parsed query: its words (capped) and the whole query as a code. */
export interface ParsedQuery {
  tokens: string[];
  code: string;
}

export function parseQuery(query: string): ParsedQuery {
  const tokens = tokenize(query.slice(0, MAX_QUERY_CHARS)).slice(0, MAX_QUERY_TOKENS);
  return { tokens, code: tokens.join('') };
}
