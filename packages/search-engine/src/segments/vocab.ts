/**
 * A sorted vocabulary with its postings (compressed-row layout): term t's postings are
 * docs[start[t] .. start[t + 1]) with a field bit set per posting. Terms sharing a prefix are
 * contiguous, so a prefix match is one range of terms and one range of postings.
 */
import { StringColumn } from '../documents/string-column.ts';

/** Which field of a product a term came from (bits, OR-ed when a term occurs in several). */
export const Field = {
  name: 1,
  brandName: 2,
  category: 4,
  /** tags and make: searched, not highlighted. */
  extra: 8,
  /** a word of the part number ("1r", "0750" of "1R-0750") */
  partNumberWord: 16,
  skuWord: 32,
  /** the whole normalised part number ("1r0750") */
  partNumberCode: 64,
  skuCode: 128,
} as const;
export const CODE_FIELDS = Field.partNumberCode | Field.skuCode;

export class Vocab {
  constructor(
    readonly terms: StringColumn,
    readonly start: Uint32Array,
    readonly docs: Uint32Array,
    readonly fields: Uint8Array,
    /** open-addressing table of term indexes (-1 = empty), size a power of two */
    readonly table: Int32Array,
    readonly maxTermLength: number,
  ) {}

  static empty(): Vocab {
    return Vocab.fromParts(StringColumn.from([]), new Uint32Array(1), new Uint32Array(0), new Uint8Array(0));
  }

  static fromParts(terms: StringColumn, start: Uint32Array, docs: Uint32Array, fields: Uint8Array, table?: Int32Array): Vocab {
    let maxLen = 0;
    for (let i = 0; i < terms.size; i++) maxLen = Math.max(maxLen, terms.lengthOf(i));
    return new Vocab(terms, start, docs, fields, table ?? buildTable(terms), maxLen);
  }

  get size(): number {
    return this.terms.size;
  }

  /** Index of term s, or -1. */
  lookup(s: string): number {
    return lookupIn(this.terms, this.table, s);
  }

  /** First term index >= s. */
  lowerBound(s: string, from = 0, to = this.size): number {
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms.compare(mid, s) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** [first, end) of the terms starting with s. */
  prefixRange(s: string): [number, number] {
    const first = this.lowerBound(s);
    return [first, this.prefixEnd(first, s, s.length)];
  }

  /** End of the run of terms from `first` that start with the first `len` characters of s. */
  prefixEnd(first: number, s: string, len: number): number {
    let lo = first;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.terms.hasPrefix(mid, s, len)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function hashColumnEntry(col: StringColumn, i: number): number {
  const a = col.offsets[i]!;
  const b = col.offsets[i + 1]!;
  let h = 0x811c9dc5;
  for (let k = a; k < b; k++) {
    h ^= col.text.charCodeAt(k);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Index of s in a column through its hash table (buildTable), or -1. */
export function lookupIn(column: StringColumn, table: Int32Array, s: string): number {
  const mask = table.length - 1;
  let h = hashString(s) & mask;
  for (;;) {
    const t = table[h]!;
    if (t < 0) return -1;
    if (column.equals(t, s)) return t;
    h = (h + 1) & mask;
  }
}

/** An open-addressing table (-1 = empty, size a power of two, at least twice the entries) of a column's indexes. */
export function buildTable(terms: StringColumn): Int32Array {
  let size = 16;
  while (size < terms.size * 2) size *= 2;
  const table = new Int32Array(size).fill(-1);
  const mask = size - 1;
  for (let t = 0; t < terms.size; t++) {
    let h = hashColumnEntry(terms, t) & mask;
    while (table[h]! >= 0) h = (h + 1) & mask;
    table[h] = t;
  }
  return table;
}

/** Collects (term, doc, field) while indexing; docs must arrive in ascending order. */
export class VocabBuilder {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private termOf = new Uint32Array(1 << 16);
  private docOf = new Uint32Array(1 << 16);
  private fieldOf = new Uint8Array(1 << 16);
  private n = 0;

  add(term: string, doc: number, field: number): void {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(term, id);
      this.names.push(term);
    }
    if (this.n === this.termOf.length) this.grow();
    this.termOf[this.n] = id;
    this.docOf[this.n] = doc;
    this.fieldOf[this.n] = field;
    this.n++;
  }

  private grow(): void {
    const size = this.termOf.length * 2;
    const t = new Uint32Array(size);
    t.set(this.termOf);
    this.termOf = t;
    const d = new Uint32Array(size);
    d.set(this.docOf);
    this.docOf = d;
    const f = new Uint8Array(size);
    f.set(this.fieldOf);
    this.fieldOf = f;
  }

  build(): Vocab {
    const T = this.names.length;
    const order = Array.from({ length: T }, (_, i) => i);
    const names = this.names;
    order.sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
    const rank = new Uint32Array(T);
    for (let r = 0; r < T; r++) rank[order[r]!] = r;
    // Counting sort by term rank; stable, so each term's postings stay in doc order.
    const count = new Uint32Array(T + 1);
    for (let i = 0; i < this.n; i++) count[rank[this.termOf[i]!]! + 1]!++;
    for (let t = 0; t < T; t++) count[t + 1]! += count[t]!;
    const pos = count.slice(0, T);
    const docs = new Uint32Array(this.n);
    const fields = new Uint8Array(this.n);
    for (let i = 0; i < this.n; i++) {
      const r = rank[this.termOf[i]!]!;
      const p = pos[r]!++;
      docs[p] = this.docOf[i]!;
      fields[p] = this.fieldOf[i]!;
    }
    // One posting per (term, doc): join the field bits of repeats.
    const start = new Uint32Array(T + 1);
    let w = 0;
    for (let t = 0; t < T; t++) {
      start[t] = w;
      const a = count[t]!;
      const b = count[t + 1]!;
      for (let p = a; p < b; p++) {
        if (w > start[t]! && docs[w - 1] === docs[p]) fields[w - 1]! |= fields[p]!;
        else {
          docs[w] = docs[p]!;
          fields[w] = fields[p]!;
          w++;
        }
      }
    }
    start[T] = w;
    const sorted = order.map((i) => names[i]!);
    return Vocab.fromParts(StringColumn.from(sorted), start, docs.slice(0, w), fields.slice(0, w));
  }
}
