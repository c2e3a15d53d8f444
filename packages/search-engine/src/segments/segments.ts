/**
 * The index's segments: each a pair of vocabularies (words and codes) with postings over a range of documents. The
 * base segment covers the base documents; each batch of changes since gets a delta segment of its own (built in the
 * builder thread when large), and neighbours of similar size merge, so a bulk import keeps O(log n) segments without
 * rebuilding the base. A search reads every segment, base first.
 */
import type { Documents } from '../documents/documents.ts';
import type { SearchDoc } from '../documents/search-doc.ts';
import { IndexBuilder } from './index-builder.ts';
import { buildSegmentParts, toVocab, vocabParts, type SegmentParts } from './segment-builder.ts';
import { Vocab } from './vocab.ts';

/** Delta segments are merged pairwise while similar in size, up to this many documents each (then left as they are). */
export const SEGMENT_MERGE_CAP = 32_768;

export interface Segment {
  words: Vocab;
  codes: Vocab;
}

export const toSegment = (p: SegmentParts): Segment => ({ words: toVocab(p.words), codes: toVocab(p.codes) });
export const segmentParts = (s: Segment, copy = false): SegmentParts => ({ words: vocabParts(s.words, copy), codes: vocabParts(s.codes, copy) });
export const emptySegment = (): Segment => ({ words: Vocab.empty(), codes: Vocab.empty() });

export class Segments {
  base: Segment = emptySegment();
  /**
   * The delta's segments, oldest first, each over a range [from, to) of the delta documents: a batch of changes gets
   * a segment of its own (built at its first search, in time proportional to the batch), and neighbours of similar
   * size merge, so a bulk import keeps O(log n) segments without rebuilding the base.
   */
  delta: { from: number; to: number; seg: Segment }[] = [];
  readonly builder = new IndexBuilder();

  /**
   * Every segment, base first. Batches get their segment as they are written (upsert); only documents replayed from
   * the journal at start are covered here, at the first search.
   */
  all(docs: Documents): Segment[] {
    if (docs.delta.length === 0) return [this.base];
    const covered = this.delta.at(-1)?.to ?? 0;
    if (covered < docs.delta.length) {
      const seg = toSegment(buildSegmentParts(docs.delta.slice(covered), docs.base.n + covered));
      this.delta.push({ from: covered, to: docs.delta.length, seg });
    }
    return [this.base, ...this.delta.map((s) => s.seg)];
  }

  /**
   * A batch of changed documents with a segment of their own, built (in the builder thread when large) before the
   * batch shows: until then searches answer from the documents as they were.
   */
  async addBatch(docs: Documents, batch: SearchDoc[]): Promise<void> {
    this.all(docs);
    const first = docs.base.n + docs.delta.length;
    const parts = await this.builder.build(batch, first);
    docs.applyUpsert(batch);
    this.delta.push({ from: first - docs.base.n, to: docs.delta.length, seg: toSegment(parts) });
    await this.mergeDeltaSegments(docs);
  }

  /**
   * Merges the newest two delta segments while the newer is at least half the older (a binary counter, up to
   * SEGMENT_MERGE_CAP documents): O(log n) segments. The merge joins their sorted postings (no document is tokenized
   * again), leaving out documents replaced since, in the builder thread when large. Runs in the write queue, so no
   * write changes the segments meanwhile; searches use the two old ones until the merged one is in.
   */
  private async mergeDeltaSegments(docs: Documents): Promise<void> {
    for (;;) {
      const k = this.delta.length;
      if (k < 2) return;
      const older = this.delta[k - 2]!;
      const newer = this.delta[k - 1]!;
      if ((newer.to - newer.from) * 2 < older.to - older.from || newer.to - older.from > SEGMENT_MERGE_CAP) return;
      const lo = docs.base.n + older.from;
      const remap = new Int32Array(newer.to - older.from);
      for (let i = 0; i < remap.length; i++) remap[i] = docs.alive[lo + i] ? lo + i : -1;
      let parts: SegmentParts;
      try {
        parts = await this.builder.merge([segmentParts(older.seg, true), segmentParts(newer.seg, true)], remap, lo);
      } catch (err) {
        // A merge only saves searches some work: without it the index is whole, with one more segment.
        console.error('embedded search: merging two segments failed; keeping them as they are', err);
        return;
      }
      this.delta.splice(k - 2, 2, { from: older.from, to: newer.to, seg: toSegment(parts) });
    }
  }
}
