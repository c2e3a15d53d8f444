/**
 * Reads a buyer's parts list (pasted from a spreadsheet, a PDF, a chat or a parts book) into lines of part number,
 * quantity and words: `2 x 1R-0750`, `1R0750 qty 2`, `1R-0750, 2`, `1R-0750<TAB>2<TAB>Oil filter`,
 * `CAT 1R0750 (2 pcs)`, `Qty: 3 — 6I-2503 seal kit`, `1r 0750`, numbered (`1.`, `a)`) or bulleted lines, header
 * rows and blank lines. Pure: matching the lines to products is the catalogue's job (the match route).
 */
import { hasDigit } from '@forgeline/search-engine/text/normalize';

export const PARTS_LIST_MAX_LINES = 500;
export const PARTS_LIST_MAX_LINE_CHARS = 500;
/** Quantities above this are not quantities (a part number of digits, a price, a year). */
const MAX_QUANTITY = 100_000;

export interface PartsListLine {
  /** 1-based line number in what the buyer pasted. */
  line: number;
  /** The line as typed (trimmed). */
  input: string;
  quantity: number;
  /** The likeliest part number on the line, as typed (separators kept), or null when there is none. */
  code: string | null;
  /** Other part-number-like tokens, in order (a second number, a brand's own number...). */
  otherCodes: string[];
  /** The line's remaining words (brand, description), for a match by name. */
  words: string;
  /**
   * The line's first column without the quantity and numbering, as typed: a part number written with spaces
   * ("0 986 685 354", "HD 501/58") is matched from it as a whole.
   */
  compact: string;
}

export class PartsListError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

const HEADER_WORDS = /\b(part\s*(no|number|#)?|p\/n|pn|item|sku|ref(erence)?|article|code)\b/i;
const HEADER_QTY = /\b(qty|quantity|pcs|amount|menge|cantidad|quantit[ée])\b/i;
const NUMBERING = /^\s*(?:\(?\d{1,3}[.)]|[a-z][.)]|[-*•·–])\s+/i;
const QTY_PATTERNS: RegExp[] = [
  /\b(?:qty|quantity|pcs|pieces|units)\s*[:=.]?\s*(\d{1,6})\b/i, // qty 2, Qty: 3, pcs 4
  /\(\s*(\d{1,6})\s*(?:pcs?|pieces|units|ea|nos?)\.?\s*\)/i, // (2 pcs)
  /\b(\d{1,6})\s*(?:pcs?|pieces|units|ea|nos?)\b\.?/i, // 2 pcs, 5pc
  /^(\d{1,6})\s*[x×*]\s+/i, // 2 x 1R-0750, 2x 1R-0750 (not 7X-2546: a multiplier has a space after it)
  /\s+[x×*]\s*(\d{1,6})$/i, // 1R-0750 x 2, 1R-0750 x2 (not ABX4)
  // "1625 8335 62 Atlas Copco - 7": a count after a dash with spaces both sides, at the end (not "HD 501-58").
  /\s[-–—]\s+(\d{1,6})$/,
];
/** A part-number-like token: letters and digits with separators inside, at least one digit, 3 or more characters. */
const CODE_TOKEN = /^[\p{L}\p{N}]+(?:[-./][\p{L}\p{N}]+)*$/u;

const isCode = (t: string) => t.length >= 3 && CODE_TOKEN.test(t) && hasDigit(t) && /[\p{L}]|\d{5,}|[-./]/u.test(t);
const isCount = (t: string) => /^\d{1,6}$/.test(t) && Number(t) >= 1 && Number(t) <= MAX_QUANTITY;

/** Whether a line is a header row ("Part No;Qty;Description"): names of columns, no digits. */
export function isHeaderRow(line: string): boolean {
  return !hasDigit(line) && HEADER_WORDS.test(line) && (HEADER_QTY.test(line) || /[;,\t|]/.test(line));
}

/** One line of a list; null for a line with nothing on it. */
export function parsePartsLine(raw: string, line: number): PartsListLine | null {
  const input = raw.replace(/\s+$/, '').replace(/^\s+/, '');
  if (!input) return null;
  if (input.length > PARTS_LIST_MAX_LINE_CHARS) {
    throw new PartsListError(`line ${line} has ${input.length} characters; a line may have at most ${PARTS_LIST_MAX_LINE_CHARS}`, line);
  }
  let rest = input.replace(NUMBERING, '');
  let quantity: number | null = null;
  for (const re of QTY_PATTERNS) {
    const m = re.exec(rest);
    if (m && isCount(m[1]!)) {
      quantity = Number(m[1]);
      rest = `${rest.slice(0, m.index)} ${rest.slice(m.index + m[0].length)}`;
      break;
    }
  }
  // Columns (a spreadsheet's tab, a CSV's comma or semicolon, a table's bar): a column that is only a count is the
  // quantity.
  const columns = rest.split(/\t|;|\||,(?!\d{3}\b)/).map((c) => c.trim()).filter(Boolean);
  if (quantity === null && columns.length > 1) {
    const i = columns.findIndex((c, k) => k > 0 && isCount(c));
    if (i > 0) {
      quantity = Number(columns[i]);
      columns.splice(i, 1);
    }
  }
  const tokens = columns.join(' ').split(/[\s–—:]+/).map((t) => t.replace(/^[("'[]+|[)"'\],.]+$/g, '')).filter(Boolean);
  // "1r 0750": a short letters-and-digits head followed by digits is one number written with a space.
  const joined: string[] = [];
  for (const t of tokens) {
    const prev = joined[joined.length - 1];
    if (prev && /^[\p{L}\p{N}]{1,3}$/u.test(prev) && hasDigit(prev) && /^\d{3,}$/.test(t)) joined[joined.length - 1] = `${prev} ${t}`;
    else joined.push(t);
  }
  const codes = joined.filter((t) => isCode(t.replace(' ', '')));
  // A number written in groups ("WD 212/44", "0 986 685 354", "65 258 31-S"): the longest run of short or digit-bearing
  // tokens with a digit in it, tried after the tokens themselves.
  let run: string[] = [];
  let best: string[] = [];
  for (const t of [...joined, '']) {
    // A short word belongs to the number only ahead of its digits ("WD 212/44", not "31-S air").
    if (t && (hasDigit(t) || (t.length <= 3 && !run.some(hasDigit))) && !/^(x|qty|pcs?)$/i.test(t)) run.push(t);
    else {
      if (run.length > 1 && run.some(hasDigit) && run.join('').length > best.join('').length) best = run;
      run = [];
    }
  }
  const grouped = best.join(' ');
  if (grouped && !codes.includes(grouped)) codes.push(grouped);
  // A lone count left among words ("Oil filter 2") is the quantity when none was written otherwise.
  if (quantity === null) {
    const lone = joined.filter((t) => isCount(t));
    if (lone.length === 1 && codes.length > 0) quantity = Number(lone[0]);
  }
  const words = joined.filter((t) => !codes.includes(t) && !(quantity !== null && t === String(quantity)) && !isCount(t)).join(' ');
  const compact = (columns[0] ?? '').replace(/\s+/g, ' ').trim();
  return { line, input, quantity: quantity ?? 1, code: codes[0] ?? null, otherCodes: codes.slice(1), words, compact };
}

/** A whole list: blank lines and header rows left out, at most 500 lines with something on them. */
export function parsePartsList(text: string): PartsListLine[] {
  if (text.includes('\u0000')) throw new PartsListError('the list is not text (it holds binary data)');
  const out: PartsListLine[] = [];
  const rows = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  rows.forEach((raw, i) => {
    if (out.length === 0 && isHeaderRow(raw)) return;
    const parsed = parsePartsLine(raw, i + 1);
    if (!parsed) return;
    if (out.length === PARTS_LIST_MAX_LINES) {
      throw new PartsListError(`the list has more than ${PARTS_LIST_MAX_LINES} lines; send it in parts`, i + 1);
    }
    out.push(parsed);
  });
  if (out.length === 0) throw new PartsListError('the list is empty');
  return out;
}
