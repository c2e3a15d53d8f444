/**
 * The base: the documents and the one segment a rebuild makes in one go, that a snapshot holds, and that the full
 * merge writes (the live documents of base and delta, renumbered densely). Loading or building a base starts the
 * delta afresh; the journal's changes are then replayed on top of it.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Documents, emptyBase, intern } from '../documents/documents.ts';
import { DeltaDocs } from '../documents/delta-docs.ts';
import { DOC_FIELDS, type SearchDoc } from '../documents/search-doc.ts';
import { StringColumn } from '../documents/string-column.ts';
import { CodeInfixIndex } from '../segments/code-infix.ts';
import { indexDoc } from '../segments/index-doc.ts';
import { buildSegmentParts, columnParts, compact, snapshotValues, type DocColumns, type SegmentParts } from '../segments/segment-builder.ts';
import { emptySegment, SEGMENT_MERGE_CAP, segmentParts, Segments } from '../segments/segments.ts';
import { buildTable, Vocab, VocabBuilder } from '../segments/vocab.ts';
import { collectGarbage } from './collect-garbage.ts';
import { cutTornTail, readJournal } from './journal.ts';
import { readSnapshot, writeSnapshot, type LoadedSnapshot } from './snapshot.ts';

export const SNAPSHOT_FILE = 'search-index.bin';
/** The merge process's snapshot, until the index takes it in place of the old one. */
export const MERGED_FILE = 'search-index.bin.merged';
/** Bumped when the snapshot's sections change; an older snapshot is ignored (the index starts empty and is rebuilt). */
export const LAYOUT = 2;
export const JOURNAL_FILE = 'search-journal.ndjson';

/** What an index holds in memory: its documents and the segments over them. */
export interface IndexState {
  readonly docs: Documents;
  readonly segs: Segments;
}

export function buildBase({ docs: target, segs }: IndexState, docs: SearchDoc[]): void {
  const n = docs.length;
  const brandNames: string[] = [];
  const brandIds = new Map<string, number>();
  const categoryNames: string[] = [];
  const categoryIds = new Map<string, number>();
  const alive = new Uint8Array(Math.max(1024, n)).fill(1, 0, n);
  const brandOf = new Uint32Array(alive.length);
  const categoryOf = new Uint32Array(alive.length);
  const nameWords = new Uint8Array(alive.length);
  const words = new VocabBuilder();
  const codes = new VocabBuilder();
  for (let d = 0; d < n; d++) {
    const doc = docs[d]!;
    brandOf[d] = intern(brandNames, brandIds, doc.brandName);
    categoryOf[d] = intern(categoryNames, categoryIds, doc.category);
    nameWords[d] = Math.min(255, indexDoc(words, codes, d, doc));
  }
  const col = (f: keyof SearchDoc) => StringColumn.from(docs.map((doc) => doc[f]));
  target.base = {
    n,
    id: col('id'),
    name: col('name'),
    partNumber: col('partNumber'),
    sku: col('sku'),
    brandName: col('brandName'),
    category: col('category'),
    extra: col('extra'),
  };
  segs.base = { words: words.build(), codes: codes.build() };
  CodeInfixIndex.warm(segs.base.codes);
  target.delta = new DeltaDocs();
  segs.delta = [];
  target.brandNames = brandNames;
  target.brandIds = brandIds;
  target.categoryNames = categoryNames;
  target.categoryIds = categoryIds;
  target.alive = alive;
  target.brandOf = brandOf;
  target.categoryOf = categoryOf;
  target.nameWords = nameWords;
  target.brandTokens = [];
  target.categoryTokens = [];
  target.live = n;
  target.baseIdTable = buildTable(target.base.id);
  target.deltaIds = new Map();
}

export function loadSnapshot({ docs, segs }: IndexState, snap: LoadedSnapshot): void {
  const meta = snap.meta as { n: number; brandNames: string[]; categoryNames: string[] };
  const n = meta.n;
  docs.base = {
    n,
    id: snap.get('id'),
    name: snap.get('name'),
    partNumber: snap.get('partNumber'),
    sku: snap.get('sku'),
    brandName: snap.get('brandName'),
    category: snap.get('category'),
    extra: snap.get('extra'),
  };
  const vocab = (prefix: string) =>
    Vocab.fromParts(
      snap.get(`${prefix}.terms`),
      snap.get(`${prefix}.start`),
      snap.get(`${prefix}.docs`),
      snap.get(`${prefix}.fields`),
      snap.get(`${prefix}.table`),
    );
  segs.base = { words: vocab('words'), codes: vocab('codes') };
  if (snap.has('codes.infix.start')) CodeInfixIndex.adopt(segs.base.codes, snap.get('codes.infix.start'), snap.get('codes.infix.terms'));
  else CodeInfixIndex.warm(segs.base.codes); // a snapshot written before the pieces were kept
  docs.brandNames = meta.brandNames;
  docs.brandIds = new Map(meta.brandNames.map((name, i) => [name, i]));
  docs.categoryNames = meta.categoryNames;
  docs.categoryIds = new Map(meta.categoryNames.map((name, i) => [name, i]));
  const cap = Math.max(1024, n);
  docs.alive = new Uint8Array(cap).fill(1, 0, n);
  docs.brandOf = new Uint32Array(cap);
  docs.brandOf.set(snap.get<Uint32Array>('brandOf'));
  docs.categoryOf = new Uint32Array(cap);
  docs.categoryOf.set(snap.get<Uint32Array>('categoryOf'));
  docs.nameWords = new Uint8Array(cap);
  docs.nameWords.set(snap.get<Uint8Array>('nameWords'));
  docs.brandTokens = [];
  docs.categoryTokens = [];
  docs.live = n;
  docs.delta = new DeltaDocs();
  segs.delta = [];
  docs.baseIdTable = buildTable(docs.base.id);
  docs.deltaIds = new Map();
}

/** Writes the base as the snapshot of `dir`, and starts a new journal (the snapshot holds everything it said). */
export async function persist({ docs, segs }: IndexState, dir: string): Promise<void> {
  const b = docs.base;
  const columns = Object.fromEntries(DOC_FIELDS.map((f) => [f, columnParts(b[f])])) as DocColumns;
  await writeSnapshot(
    path.join(dir, SNAPSHOT_FILE),
    { layout: LAYOUT, n: b.n, brandNames: docs.brandNames, categoryNames: docs.categoryNames },
    snapshotValues(
      columns,
      { brandOf: docs.brandOf.subarray(0, b.n), categoryOf: docs.categoryOf.subarray(0, b.n), nameWords: docs.nameWords.subarray(0, b.n) },
      segmentParts(segs.base),
      CodeInfixIndex.pays(segs.base.codes.size) ? CodeInfixIndex.of(segs.base.codes) : undefined,
    ),
  );
  // The snapshot holds everything the journal said: start a new one.
  await writeFile(path.join(dir, JOURNAL_FILE), '');
}

/**
 * Applies the journal (up to `end` bytes; all of it at start) to the documents, a line at a time. At start a line torn
 * by a crash mid-write is cut off (the product is sent again by its next change or a reindex), so the next entry
 * does not join it.
 */
export async function replayJournal(docs: Documents, dir: string, end?: number): Promise<number> {
  const journal = path.join(dir, JOURNAL_FILE);
  if (end === undefined) await cutTornTail(journal);
  let ops = 0;
  for await (const entry of readJournal(journal, end)) {
    if (entry.u) docs.applyUpsert(entry.u);
    if (entry.r) docs.applyRemove(entry.r);
    ops++;
  }
  return ops;
}

/**
 * In the merge process: the index as the snapshot and the journal's first `journalEnd` bytes have it (what the
 * index held when it asked for the merge), for writeMerged.
 */
export async function openForMerge(dir: string, journalEnd: number): Promise<IndexState> {
  const state: IndexState = { docs: new Documents(), segs: new Segments() };
  const snap = await readSnapshot(path.join(dir, SNAPSHOT_FILE));
  if (snap && (snap.meta as { layout?: number }).layout === LAYOUT) loadSnapshot(state, snap);
  if (journalEnd > 0) await replayJournal(state.docs, dir, journalEnd);
  return state;
}

/**
 * Writes the live documents as one new base (renumbered densely, one segment) to the snapshot `file`: the full
 * merge, run in this thread (the merge process has nothing else to do). Takes `state` apart as it goes.
 */
export async function writeMerged({ docs, segs }: IndexState, file: string): Promise<{ documents: number; merged: number }> {
  const baseN = docs.base.n;
  const merged = docs.delta.length;
  const total = baseN + merged;
  // Only what the merge reads is kept from here on: each part goes once used (see compact).
  docs.deltaIds = new Map();
  docs.baseIdTable = buildTable(StringColumn.from([]));
  // The changed documents' segments, in slices: their documents are objects only while a slice is indexed.
  const segments: SegmentParts[] = [segmentParts(segs.base)];
  for (let from = 0; from < merged; from += SEGMENT_MERGE_CAP) {
    segments.push(buildSegmentParts(docs.delta.slice(from, from + SEGMENT_MERGE_CAP), baseN + from));
  }
  const base = {} as DocColumns;
  const delta = {} as DocColumns;
  for (const f of DOC_FIELDS) {
    base[f] = columnParts(docs.base[f]);
    delta[f] = columnParts(docs.delta.column(f));
  }
  docs.base = emptyBase();
  segs.base = emptySegment();
  docs.delta = new DeltaDocs();
  collectGarbage();
  const out = compact(
    {
      base,
      baseN,
      delta,
      segments,
      alive: docs.alive.subarray(0, total),
      brandOf: docs.brandOf.subarray(0, total),
      categoryOf: docs.categoryOf.subarray(0, total),
      nameWords: docs.nameWords.subarray(0, total),
    },
    collectGarbage,
  );
  const meta = { layout: LAYOUT, n: out.n, brandNames: docs.brandNames, categoryNames: docs.categoryNames };
  await writeSnapshot(file, meta, snapshotValues(out.columns, out, out.segment));
  return { documents: out.n, merged };
}
