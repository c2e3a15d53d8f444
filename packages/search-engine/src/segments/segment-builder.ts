/**
 * The engine's heavy lifting, as plain functions over plain data so that it can run in a worker thread
 * (index-builder.ts): a segment for a batch of documents, a merge of segments, and the full merge of the base and
 * every delta segment into a new base (compaction). Inputs and outputs are strings and typed arrays only: they cross
 * to and from a worker by copy or transfer, and the catalog's thread keeps serving searches meanwhile.
 */
import { CodeInfixIndex } from './code-infix.ts';
import { DOC_FIELDS, type DocField, type SearchDoc } from '../documents/search-doc.ts';
import { GrowableU32, GrowableU8, StringColumn } from '../documents/string-column.ts';
import type { SnapshotValue } from '../persistence/snapshot.ts';
import { indexDoc } from './index-doc.ts';
import { buildTable, Vocab, VocabBuilder } from './vocab.ts';

export interface ColumnParts {
  text: string;
  offsets: Uint32Array;
}

export interface VocabParts {
  terms: ColumnParts;
  start: Uint32Array;
  docs: Uint32Array;
  fields: Uint8Array;
  table: Int32Array;
}

export interface SegmentParts {
  words: VocabParts;
  codes: VocabParts;
}

export type DocColumns = Record<DocField, ColumnParts>;

export const columnParts = (c: StringColumn, copy = false): ColumnParts => ({ text: c.text, offsets: copy ? c.offsets.slice() : c.offsets });
export const toColumn = (p: ColumnParts): StringColumn => new StringColumn(p.text, p.offsets);

/** A vocabulary's arrays; `copy` slices them (a view on a snapshot's buffer would otherwise send the whole buffer). */
export function vocabParts(v: Vocab, copy = false): VocabParts {
  const c = <T extends Uint8Array | Uint32Array | Int32Array>(a: T): T => (copy ? (a.slice() as T) : a);
  return { terms: columnParts(v.terms, copy), start: c(v.start), docs: c(v.docs), fields: c(v.fields), table: c(v.table) };
}

export const toVocab = (p: VocabParts): Vocab => Vocab.fromParts(toColumn(p.terms), p.start, p.docs, p.fields, p.table);

/** The buffers a segment can hand over to another thread (it is not used after). */
export function segmentTransfer(s: SegmentParts): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const v of [s.words, s.codes]) out.push(v.terms.offsets.buffer as ArrayBuffer, v.start.buffer as ArrayBuffer, v.docs.buffer as ArrayBuffer, v.fields.buffer as ArrayBuffer, v.table.buffer as ArrayBuffer);
  return [...new Set(out)];
}

/** A segment over `docs`, numbered from `first`. */
export function buildSegmentParts(docs: readonly SearchDoc[], first: number): SegmentParts {
  const words = new VocabBuilder();
  const codes = new VocabBuilder();
  for (let i = 0; i < docs.length; i++) indexDoc(words, codes, first + i, docs[i]!);
  return { words: vocabParts(words.build()), codes: vocabParts(codes.build()) };
}

/**
 * Merges vocabularies whose documents lie in ascending, disjoint ranges (the base, then delta segments oldest
 * first): a term's postings are each input's postings in input order, renumbered through `remap` (document d becomes
 * remap[d - lo]; -1 drops it). Terms left without postings are dropped. No document is tokenized again: this is a
 * merge of sorted lists, linear in the postings.
 */
export function mergeVocabParts(inputs: readonly VocabParts[], remap: Int32Array, lo: number): VocabParts {
  const vocabs = inputs.map((p) => ({ terms: toColumn(p.terms), start: p.start, docs: p.docs, fields: p.fields }));
  const k = vocabs.length;
  const at = new Int32Array(k);
  const head: (string | null)[] = vocabs.map((v) => (v.terms.size > 0 ? v.terms.get(0) : null));
  const terms: string[] = [];
  let postings = 0;
  for (const v of vocabs) postings += v.docs.length;
  const start = new GrowableU32(1024);
  const docs = new GrowableU32(Math.max(1024, postings));
  const fields = new GrowableU8(Math.max(1024, postings));
  for (;;) {
    let min: string | null = null;
    for (let j = 0; j < k; j++) {
      const h = head[j]!;
      if (h !== null && (min === null || h < min)) min = h;
    }
    if (min === null) break;
    const termStart = docs.length;
    for (let j = 0; j < k; j++) {
      if (head[j] !== min) continue;
      const v = vocabs[j]!;
      const t = at[j]!;
      for (let p = v.start[t]!, e = v.start[t + 1]!; p < e; p++) {
        const d = remap[v.docs[p]! - lo]!;
        if (d < 0) continue;
        docs.push(d);
        fields.push(v.fields[p]!);
      }
      at[j] = t + 1;
      head[j] = t + 1 < v.terms.size ? v.terms.get(t + 1) : null;
    }
    if (docs.length > termStart) {
      start.push(termStart);
      terms.push(min);
    }
  }
  start.push(docs.length);
  const column = StringColumn.from(terms);
  return {
    terms: columnParts(column),
    start: start.toArray(),
    docs: docs.data.slice(0, docs.length),
    fields: fields.data.slice(0, fields.length),
    table: buildTable(column),
  };
}

export function mergeSegmentParts(segs: readonly SegmentParts[], remap: Int32Array, lo: number): SegmentParts {
  return {
    words: mergeVocabParts(
      segs.map((s) => s.words),
      remap,
      lo,
    ),
    codes: mergeVocabParts(
      segs.map((s) => s.codes),
      remap,
      lo,
    ),
  };
}

/** Document d's new number when the dead are left out (-1 for the dead), over [0, alive.length). */
export function compactionRemap(alive: Uint8Array): { remap: Int32Array; n: number } {
  const remap = new Int32Array(alive.length);
  let n = 0;
  for (let d = 0; d < alive.length; d++) remap[d] = alive[d] ? n++ : -1;
  return { remap, n };
}

export interface CompactionInput {
  /** documents [0, baseN) */
  base: DocColumns;
  baseN: number;
  /** documents [baseN, baseN + delta size) */
  delta: DocColumns;
  /** the base segment, then the delta segments oldest first */
  segments: SegmentParts[];
  /** per document up to the last: alive flag, brand, category, words in the name */
  alive: Uint8Array;
  brandOf: Uint32Array;
  categoryOf: Uint32Array;
  nameWords: Uint8Array;
}

export interface CompactionOutput {
  n: number;
  columns: DocColumns;
  segment: SegmentParts;
  brandOf: Uint32Array;
  categoryOf: Uint32Array;
  nameWords: Uint8Array;
}

/**
 * The live documents of the base and the delta as one new base, renumbered densely, with one merged segment. It takes
 * its input apart as it goes: each part is let go once used (the caller keeps no other reference) and `between` runs
 * after each step (a garbage collection, in the merge process), so at the peak it holds the new base and what is left
 * of the old, not both whole.
 */
export function compact(input: CompactionInput, between: () => void = () => {}): CompactionOutput {
  const { remap, n } = compactionRemap(input.alive);
  const segment = mergeSegmentParts(input.segments, remap, 0);
  input.segments.length = 0;
  between();
  const b = input.baseN;
  const total = input.alive.length;
  const columns = {} as DocColumns;
  const none = columnParts(StringColumn.from([]));
  for (const f of DOC_FIELDS) {
    const base = toColumn(input.base[f]);
    const delta = toColumn(input.delta[f]);
    input.base[f] = none;
    input.delta[f] = none;
    const values: string[] = new Array(n);
    for (let d = 0; d < total; d++) {
      const to = remap[d]!;
      if (to >= 0) values[to] = d < b ? base.get(d) : delta.get(d - b);
    }
    columns[f] = columnParts(StringColumn.from(values));
    between();
  }
  const brandOf = new Uint32Array(n);
  const categoryOf = new Uint32Array(n);
  const nameWords = new Uint8Array(n);
  for (let d = 0; d < total; d++) {
    const to = remap[d]!;
    if (to < 0) continue;
    brandOf[to] = input.brandOf[d]!;
    categoryOf[to] = input.categoryOf[d]!;
    nameWords[to] = input.nameWords[d]!;
  }
  return { n, columns, segment, brandOf, categoryOf, nameWords };
}

/** The snapshot's sections for a base: its columns, per-document arrays and segment. */
export function snapshotValues(
  columns: DocColumns,
  perDoc: { brandOf: Uint32Array; categoryOf: Uint32Array; nameWords: Uint8Array },
  seg: SegmentParts,
  /** The codes' piece index, when the caller has it already (the base in memory); built from `seg` otherwise. */
  infix?: CodeInfixIndex,
): Record<string, SnapshotValue> {
  const values: Record<string, SnapshotValue> = {};
  for (const f of DOC_FIELDS) values[f] = toColumn(columns[f]);
  values.brandOf = perDoc.brandOf;
  values.categoryOf = perDoc.categoryOf;
  values.nameWords = perDoc.nameWords;
  for (const kind of ['words', 'codes'] as const) {
    const v = seg[kind];
    values[`${kind}.terms`] = toColumn(v.terms);
    values[`${kind}.start`] = v.start;
    values[`${kind}.docs`] = v.docs;
    values[`${kind}.fields`] = v.fields;
    values[`${kind}.table`] = v.table;
  }
  if (CodeInfixIndex.pays(seg.codes.start.length - 1)) {
    const pieces = infix ?? CodeInfixIndex.build(toVocab(seg.codes));
    values['codes.infix.start'] = pieces.start;
    values['codes.infix.terms'] = pieces.terms;
  }
  return values;
}
