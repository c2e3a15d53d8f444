/**
 * The embedded search engine: part-number aware and typo tolerant, inside the catalog process.
 *
 * Layout (see README "Search relevance"):
 * - documents live in string columns (one long string + offsets per field) and typed arrays;
 * - two sorted vocabularies with compressed postings: words (no digits; typo tolerant) and codes
 *   (anything with a digit, plus each whole normalised part number and SKU; exact, prefix and
 *   one-typo lookups);
 * - a base segment loaded from a binary snapshot, plus delta segments for products changed since (replayed from an
 *   append-only journal at start), merged into a new snapshot when they grow (by a process of its own:
 *   merge-process.ts).
 */
import { appendFile, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Product, SearchMatch } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import { highlightCode, highlightWords, mergeRanges, type Range } from '../../domain/search/highlight.ts';
import {
  CODE_TYPO_MIN_LENGTH,
  MAX_TYPO_TOKEN_LENGTH,
  hasDigit,
  normalizeCode,
  parseQuery,
  tokenize,
  typoBudget,
} from '../../domain/search/normalize.ts';
import { oneEditVariants } from '../../domain/search/part-numbers.ts';
import type { SearchHit, SearchIndex, SearchOptions } from '../../ports.ts';
import { fuzzyLookup, type TermMatch } from './fuzzy.ts';
import { indexDoc, toSearchDoc, type SearchDoc } from './search-doc.ts';
import { readSnapshot, writeSnapshot, type LoadedSnapshot } from './snapshot.ts';
import { StringColumn } from './string-column.ts';
import { CODE_FIELDS, Field, buildTable, lookupIn, Vocab, VocabBuilder } from './vocab.ts';
import { DeltaDocs } from './delta-docs.ts';
import { IndexBuilder } from './index-builder.ts';
import { collectGarbage } from './collect-garbage.ts';
import { cutTornTail, fileSize, journalEntries, readFrom, readJournal, replaceFile } from './journal.ts';
import { runMergeProcess } from './merge-process.ts';
import { buildSegmentParts, columnParts, compact, DOC_FIELDS, snapshotValues, toColumn, toVocab, vocabParts, type DocColumns, type SegmentParts } from './segment-builder.ts';

const SNAPSHOT_FILE = 'search-index.bin';
/** The merge process's snapshot, until the catalog takes it in place of the old one. */
const MERGED_FILE = 'search-index.bin.merged';
/** Bumped when the snapshot's sections change; an older snapshot is ignored (the index starts empty and is rebuilt). */
const LAYOUT = 2;
const JOURNAL_FILE = 'search-journal.ndjson';
/** Merge the delta into a new snapshot once this many products changed since the last one, when writes pause. */
const COMPACT_AFTER = 5000;
/**
 * A full merge (a process of its own for tens of seconds at 750,000 products; loading its result holds searches for
 * a moment) waits for the writes to pause this long: a bulk import is merged once, at its end.
 */
const COMPACT_IDLE_MS = 10_000;
/** After a failed full merge, the next try (the journal keeps every change meanwhile: nothing is lost). */
const MERGE_RETRY_MS = 60_000;
/** Delta segments are merged pairwise while similar in size, up to this many documents each (then left as they are). */
const SEGMENT_MERGE_CAP = 32_768;
/** Longest span of query words joined to look for a part number ("600 211 1231"). */
const MAX_CODE_SPAN = 4;
const MAX_CODE_TYPO_LENGTH = 24;
/** Ranks pack (code tier, score, name length); a tier step outweighs any score. */
const TIER = 1 << 20;
const TIER_EXACT_CODE = 4;
const TIER_CODE_PREFIX = 3;
const TIER_CODE_TYPO = 2;
/** Added when the query names a product's whole brand or category ("komatsu", "fuel filters"). */
const FULL_NAME_BONUS = 250;
/** Ranking keys pack the document number below the rank: up to 4M documents. */
const DOC_SPACE = 4_194_304;

interface Segment {
  words: Vocab;
  codes: Vocab;
}

interface BaseDocs {
  n: number;
  id: StringColumn;
  name: StringColumn;
  partNumber: StringColumn;
  sku: StringColumn;
  brandName: StringColumn;
  category: StringColumn;
  extra: StringColumn;
}

/** Field weight x10 for a posting's field bits: the best field it occurs in. */
const FIELD_WEIGHT = new Uint8Array(256);
for (let bits = 0; bits < 256; bits++) {
  let w = 0;
  if (bits & (Field.name | Field.partNumberWord | Field.skuWord | Field.partNumberCode | Field.skuCode)) w = 10;
  else if (bits & (Field.brandName | Field.category)) w = 9;
  else if (bits & Field.extra) w = 6;
  FIELD_WEIGHT[bits] = w;
}

/** A run of vocabulary terms a query word matched ([from, to): one term, or a whole prefix run). */
interface TermSource {
  vocab: Vocab;
  from: number;
  to: number;
  typos: number;
  prefix: boolean;
  /** length of the query word */
  qlen: number;
}

/** How well a term matched, before the field weight: exact 100, prefix 60-90, 1 typo 50, 2 typos 30. */
function baseOf(src: TermSource, term: number): number {
  if (!src.prefix) return src.typos === 0 ? 100 : src.typos === 1 ? 50 : 30;
  if (src.typos > 0) return 40 - 10 * src.typos;
  return 60 + Math.floor((30 * src.qlen) / Math.max(src.qlen, src.vocab.terms.lengthOf(term)));
}

interface ScoreContext {
  tokens: string[];
  sources: TermSource[][];
  spans: CodeSpan[];
  spanDocs: number[][];
  brandFilter: Uint8Array | null;
  categoryFilter: Uint8Array | null;
  /** how many entries of `touched` are in use */
  nt: number;
}

/**
 * A product's code tier: the kind of part-number match, then how many characters of the query
 * it covers ("Set 30" as the start of "SET-3052" beats "30" as the start of "3033505").
 */
const tierOf = (span: CodeSpan): number =>
  (span.kind === 'exact' ? TIER_EXACT_CODE : span.kind === 'prefix' ? TIER_CODE_PREFIX : TIER_CODE_TYPO) * 32 +
  Math.min(31, span.code.length);
const isExactTier = (t: number): boolean => t >= TIER_EXACT_CODE * 32;

interface Expansion {
  seg: Segment;
  vocab: Vocab;
  match: TermMatch;
}

interface CodeSpan {
  from: number;
  to: number;
  code: string;
  kind: 'exact' | 'prefix' | 'typo';
  /** for typo spans: the neighbouring codes that exist */
  found: Set<string>;
}

/** What one query matched, kept to compute highlight ranges for the returned page only. */
interface QueryMatchers {
  words: Set<string>;
  prefixes: string[];
  spans: CodeSpan[];
}

export class EmbeddedSearchIndex implements SearchIndex {
  private base: BaseDocs = emptyBase();
  private baseSeg: Segment = { words: Vocab.empty(), codes: Vocab.empty() };
  private delta = new DeltaDocs();
  /**
   * The delta's segments, oldest first, each over a range [from, to) of `delta`: a batch of changes gets a segment of
   * its own (built at its first search, in time proportional to the batch), and neighbours of similar size merge, so
   * a bulk import keeps O(log n) segments without rebuilding the base.
   */
  private deltaSegs: { from: number; to: number; seg: Segment }[] = [];
  private compactTimer: NodeJS.Timeout | null = null;
  private brandNames: string[] = [];
  private brandIds = new Map<string, number>();
  private categoryNames: string[] = [];
  private categoryIds = new Map<string, number>();
  /** per document: alive flag, brand and category index (capacity may exceed the count) */
  private alive = new Uint8Array(0);
  private brandOf = new Uint32Array(0);
  private categoryOf = new Uint32Array(0);
  /** words in each product's name (capped at 255): shorter names rank first among equals */
  private nameWords = new Uint8Array(0);
  private brandTokens: string[][] = [];
  private categoryTokens: string[][] = [];
  private live = 0;
  /** hash table over base.id (lookupIn): a base product's document */
  private baseIdTable = buildTable(StringColumn.from([]));
  /** the latest delta document of each product changed since the base */
  private deltaIds = new Map<string, number>();
  private readonly builder = new IndexBuilder();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** The full merge under way (one at a time), and how to stop its process. */
  private merging: Promise<void> | null = null;
  private mergeAbort: AbortController | null = null;
  private mergeRuns = 0;
  /** Bumped when a rebuild replaces the base: a merge started before it is thrown away. */
  private generation = 0;
  /** Set while a merged base is loaded in place of the old: searches wait for it rather than see half an index. */
  private loading: Promise<void> | null = null;
  // query scratch, reset through `touched`
  private mask = new Uint16Array(0);
  private score = new Int32Array(0);
  private best = new Int32Array(0);
  private stamp = new Uint32Array(0);
  private tier = new Uint8Array(0);
  private touched = new Int32Array(0);
  private stampCounter = 0;

  private constructor(private readonly dir: string) {}

  /** Opens the index persisted in `dir` (snapshot + journal), or an empty one. */
  static async open(dir: string): Promise<EmbeddedSearchIndex> {
    await mkdir(dir, { recursive: true });
    // A merge or a snapshot write cut short by a crash leaves its file under a name of its own.
    for (const f of await readdir(dir)) if (f === MERGED_FILE || f.includes('.tmp-')) await rm(path.join(dir, f), { force: true });
    const index = new EmbeddedSearchIndex(dir);
    const snap = await readSnapshot(path.join(dir, SNAPSHOT_FILE));
    if (snap && (snap.meta as { layout?: number }).layout !== LAYOUT) return index; // older engine: rebuild
    if (snap) index.loadSnapshot(snap);
    const replayed = await index.replayJournal();
    if (replayed > 0 && index.delta.length >= COMPACT_AFTER) {
      // The journal keeps every change: if the merge fails, the index still opens whole, merged another time.
      await index.fullMerge().catch((err: unknown) => console.error('embedded search: merging the index at start failed', err));
    }
    return index;
  }

  /**
   * In the merge process: the index as the snapshot and the journal's first `journalEnd` bytes have it (what the
   * catalog held when it asked for the merge), for writeMerged.
   */
  static async openForMerge(dir: string, journalEnd: number): Promise<EmbeddedSearchIndex> {
    const index = new EmbeddedSearchIndex(dir);
    const snap = await readSnapshot(path.join(dir, SNAPSHOT_FILE));
    if (snap && (snap.meta as { layout?: number }).layout === LAYOUT) index.loadSnapshot(snap);
    if (journalEnd > 0) await index.replayJournal(journalEnd);
    return index;
  }

  /**
   * Writes the live documents as one new base (renumbered densely, one segment) to the snapshot `file`: the full
   * merge, run in this thread (the merge process has nothing else to do).
   */
  async writeMerged(file: string): Promise<{ documents: number; merged: number }> {
    const baseN = this.base.n;
    const merged = this.delta.length;
    const total = baseN + merged;
    // Only what the merge reads is kept from here on: each part goes once used (see compact).
    this.deltaIds = new Map();
    this.baseIdTable = buildTable(StringColumn.from([]));
    // The changed documents' segments, in slices: their documents are objects only while a slice is indexed.
    const segments: SegmentParts[] = [segmentParts(this.baseSeg)];
    for (let from = 0; from < merged; from += SEGMENT_MERGE_CAP) {
      segments.push(buildSegmentParts(this.delta.slice(from, from + SEGMENT_MERGE_CAP), baseN + from));
    }
    const base = {} as DocColumns;
    const delta = {} as DocColumns;
    for (const f of DOC_FIELDS) {
      base[f] = columnParts(this.base[f]);
      delta[f] = columnParts(this.delta.column(f));
    }
    this.base = emptyBase();
    this.baseSeg = { words: Vocab.empty(), codes: Vocab.empty() };
    this.delta = new DeltaDocs();
    collectGarbage();
    const out = compact(
      {
        base,
        baseN,
        delta,
        segments,
        alive: this.alive.subarray(0, total),
        brandOf: this.brandOf.subarray(0, total),
        categoryOf: this.categoryOf.subarray(0, total),
        nameWords: this.nameWords.subarray(0, total),
      },
      collectGarbage,
    );
    const meta = { layout: LAYOUT, n: out.n, brandNames: this.brandNames, categoryNames: this.categoryNames };
    await writeSnapshot(file, meta, snapshotValues(out.columns, out, out.segment));
    return { documents: out.n, merged };
  }

  /** Counts for logs and the bench. */
  stats(): { documents: number; words: number; codes: number; postings: number; delta: number; deltaSegments: number; builderThreadJobs: number; mergeRuns: number } {
    return {
      documents: this.live,
      words: this.baseSeg.words.size,
      codes: this.baseSeg.codes.size,
      postings: this.baseSeg.words.docs.length + this.baseSeg.codes.docs.length,
      delta: this.delta.length,
      deltaSegments: this.deltaSegs.length,
      builderThreadJobs: this.builder.threadJobs,
      mergeRuns: this.mergeRuns,
    };
  }

  // ---------------------------------------------------------------- SearchIndex

  async search(query: string, opts: SearchOptions): Promise<{ hits: SearchHit[]; total: number }> {
    if (this.loading) await this.loading;
    return this.searchSync(query, opts);
  }

  async upsert(products: Product[]): Promise<void> {
    if (products.length === 0) return;
    const docs = products.map(toSearchDoc);
    await this.enqueue(async () => {
      await this.addBatch(docs);
      await appendFile(this.journalPath, JSON.stringify({ u: docs }) + '\n');
      this.scheduleCompaction();
    });
  }

  /**
   * A batch of changed documents with a segment of their own, built (in the builder thread when large) before the
   * batch shows: until then searches answer from the documents as they were.
   */
  private async addBatch(docs: SearchDoc[]): Promise<void> {
    this.segments();
    const first = this.base.n + this.delta.length;
    const parts = await this.builder.build(docs, first);
    this.applyUpsert(docs);
    this.deltaSegs.push({ from: first - this.base.n, to: this.delta.length, seg: toSegment(parts) });
    await this.mergeDeltaSegments();
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.enqueue(async () => {
      this.applyRemove(ids);
      await appendFile(this.journalPath, JSON.stringify({ r: ids }) + '\n');
    });
  }

  async rebuild(source: AsyncIterable<Product[]>): Promise<void> {
    const docs: SearchDoc[] = [];
    for await (const batch of source) for (const p of batch) docs.push(toSearchDoc(p));
    await this.enqueue(async () => {
      this.generation++;
      this.buildBase(dedupeById(docs));
      await this.persist();
    });
  }

  async size(): Promise<number> {
    if (this.loading) await this.loading;
    return this.live;
  }

  async ready(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.compactTimer) clearTimeout(this.compactTimer);
    this.mergeAbort?.abort();
    await this.merging?.catch(() => undefined);
    await this.queue;
    await this.builder.close();
  }

  /** The full merge now, whatever the size of the delta (an operator's command, tests); resolves when it is in. */
  async compact(): Promise<void> {
    if (this.compactTimer) clearTimeout(this.compactTimer);
    await this.fullMerge();
  }

  /** A full merge once the delta is large and writes have paused (see COMPACT_IDLE_MS). */
  private scheduleCompaction(): void {
    if (this.delta.length < COMPACT_AFTER || this.closed) return;
    if (this.compactTimer) clearTimeout(this.compactTimer);
    this.compactTimer = setTimeout(() => {
      this.compactTimer = null;
      if (this.closed || this.delta.length < COMPACT_AFTER) return;
      void this.fullMerge().catch((err: unknown) => {
        if (this.closed) return;
        // The journal still holds every change: nothing is lost; the index answers from its segments meanwhile.
        console.error(`embedded search: merging the index failed; trying again in ${MERGE_RETRY_MS / 1000} s`, err);
        this.compactTimer = setTimeout(() => this.scheduleCompaction(), MERGE_RETRY_MS - COMPACT_IDLE_MS);
        this.compactTimer.unref();
      });
    }, COMPACT_IDLE_MS);
    this.compactTimer.unref();
  }

  /** The full merge (see merge-process.ts); one at a time: a second call joins the one under way. */
  private fullMerge(): Promise<void> {
    this.merging ??= this.runFullMerge().finally(() => {
      this.merging = null;
      this.mergeAbort = null;
    });
    return this.merging;
  }

  private async runFullMerge(): Promise<void> {
    const target = path.join(this.dir, MERGED_FILE);
    // What the merge covers: the snapshot on disk and the journal so far (together, what this index holds now).
    const from = await this.enqueue(async () => ({ journalEnd: await fileSize(this.journalPath), generation: this.generation }));
    if (from.journalEnd === 0 || this.closed) return;
    this.mergeAbort = new AbortController();
    const result = await runMergeProcess({ dir: this.dir, journalEnd: from.journalEnd, target }, this.mergeAbort.signal);
    await this.enqueue(() => this.takeMerged(target, from));
    this.mergeRuns++;
    console.info(`embedded search: merged ${result.merged} changed documents into a base of ${result.documents} in ${result.ms} ms`);
    this.scheduleCompaction(); // writes made during the merge may already be many
  }

  /**
   * In the write queue: the merged snapshot replaces the old one, the journal keeps only what came after the merge's
   * point, and this index drops what it held before loading the new base (one index in memory at a time, not two),
   * then replays that rest. Searches wait meanwhile (well under a second at 750,000 products).
   */
  private async takeMerged(target: string, from: { journalEnd: number; generation: number }): Promise<void> {
    if (from.generation !== this.generation || this.closed) {
      await rm(target, { force: true }); // a rebuild came in between: the merge is of an index that is gone
      return;
    }
    const rest = await readFrom(this.journalPath, from.journalEnd);
    // A crash between these two steps leaves the new snapshot and the whole journal: replaying it is harmless, every
    // entry puts a product where it already is.
    await rename(target, path.join(this.dir, SNAPSHOT_FILE));
    await replaceFile(this.journalPath, rest);
    let loaded!: () => void;
    this.loading = new Promise((resolve) => (loaded = resolve));
    try {
      this.buildBase([]);
      collectGarbage();
      const snap = await readSnapshot(path.join(this.dir, SNAPSHOT_FILE));
      if (snap) this.loadSnapshot(snap);
      for (const entry of journalEntries(rest.toString('utf8'))) {
        if (entry.u) await this.addBatch(entry.u);
        if (entry.r) this.applyRemove(entry.r);
      }
    } catch (err) {
      // The files on disk are whole (the next start opens them); this process cannot answer from a half-loaded index.
      this.closed = true;
      console.error('embedded search: loading the merged index failed; this catalog reports not ready until restarted', err);
      throw err;
    } finally {
      this.loading = null;
      loaded();
    }
  }

  // ---------------------------------------------------------------- query

  private searchSync(query: string, opts: SearchOptions): { hits: SearchHit[]; total: number } {
    const { tokens } = parseQuery(query);
    if (tokens.length === 0 || this.live === 0) return { hits: [], total: 0 };
    const brandFilter = opts.brandSlug ? this.slugFilter(this.brandNames, opts.brandSlug) : null;
    const categoryFilter = opts.categorySlug ? this.slugFilter(this.categoryNames, opts.categorySlug) : null;
    if (brandFilter === false || categoryFilter === false) return { hits: [], total: 0 };
    const segs = this.segments();
    const n = tokens.length;
    const matchers: QueryMatchers = { words: new Set(), prefixes: [], spans: [] };
    const allWords = new Set<string>();

    // 1. Whole part numbers / SKUs hidden in spans of words ("600 211 1231", "cat 1r0750 filter").
    const spans = this.findCodeSpans(tokens, segs);
    matchers.spans = spans;
    const spanDocs = spans.map((span) => this.spanDocs(span, segs, brandFilter, categoryFilter));

    // 2. Each word: exact, prefix (last word, as typed), typos (words without digits).
    const sources: TermSource[][] = tokens.map((t, ti) => this.expandToken(t, ti === n - 1, segs, matchers, allWords));
    const cost = tokens.map((_, ti) => {
      let c = 0;
      for (const src of sources[ti]!) c += src.vocab.start[src.to]! - src.vocab.start[src.from]!;
      spans.forEach((span, si) => {
        if (ti >= span.from && ti <= span.to) c += spanDocs[si]!.length;
      });
      return c;
    });

    // 3. Score. First the products matching every word, rarest word first (later words only
    //    look at the survivors); if none match them all, the products matching the most words.
    this.ensureScratch();
    const ctx: ScoreContext = { tokens, sources, spans, spanDocs, brandFilter, categoryFilter, nt: 0 };
    const order = tokens.map((_, i) => i).sort((a, b) => cost[a]! - cost[b]! || a - b);
    let result = this.matchAll(ctx, order);
    if (result.length === 0) {
      this.resetTouched(ctx);
      result = this.matchMost(ctx);
    } else {
      // An exact part-number match always shows, even when other words of the query miss it.
      const extra: number[] = [];
      spans.forEach((span, si) => {
        if (span.kind !== 'exact') return;
        for (const d of spanDocs[si]!) {
          if (this.mask[d] !== 0) continue;
          for (let ti = span.from; ti <= span.to; ti++) this.visitFresh(ctx, d, ti, 1000);
          this.tier[d] = tierOf(span);
          extra.push(d);
        }
      });
      if (extra.length) result = Int32Array.from([...result, ...extra]);
    }

    // 4. Rank: code tier, then score (+ brand or category named in full), then shorter names.
    const brandFull = this.fullyNamed(this.brandNames, allWords, matchers.prefixes, 'brand');
    const categoryFull = this.fullyNamed(this.categoryNames, allWords, matchers.prefixes, 'category');
    const allowed = opts.onlyIds ? this.allowedDocs(opts.onlyIds) : null;
    const keys = new Float64Array(result.length);
    let total = 0;
    const { tier, score, mask, brandOf, categoryOf, nameWords } = this;
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
    ctx.nt = 0;
    this.lastFreshStamp = 0;
    const top = topKeys(keys.subarray(0, total), Math.min(total, opts.offset + opts.limit));
    const hits: SearchHit[] = [];
    for (let i = opts.offset; i < top.length; i++) {
      const d = DOC_SPACE - 1 - (top[i]! % DOC_SPACE);
      const doc = this.docAt(d);
      hits.push({ id: doc.id, matches: matchesFor(doc, matchers) });
    }
    return { hits, total };
  }

  /** Products matching every word; empty if there are none. */
  private matchAll(ctx: ScoreContext, order: number[]): Int32Array {
    const { mask } = this;
    const first = order[0]!;
    this.visitEverything(ctx, first);
    if (order.length === 1) return this.touched.subarray(0, ctx.nt);
    let cand = Int32Array.from(this.touched.subarray(0, ctx.nt)).sort();
    for (let k = 1; k < order.length && cand.length > 0; k++) {
      const ti = order[k]!;
      const bit = 1 << ti;
      const st = ++this.stampCounter;
      for (const src of ctx.sources[ti]!) {
        const { docs, fields, start } = src.vocab;
        for (let term = src.from; term < src.to; term++) {
          const base = baseOf(src, term);
          const a = start[term]!;
          const e = start[term + 1]!;
          if (e - a > cand.length * 8) {
            // Long posting list, few survivors: gallop through the list for each survivor.
            let p = a;
            for (let i = 0; i < cand.length && p < e; i++) {
              const c = cand[i]!;
              if (docs[p]! < c) {
                let step = 1;
                let lo = p;
                let hi = p + 1;
                while (hi < e && docs[hi]! < c) {
                  lo = hi;
                  step *= 2;
                  hi = lo + step;
                }
                if (hi > e) hi = e;
                while (lo < hi) {
                  const mid = (lo + hi) >>> 1;
                  if (docs[mid]! < c) lo = mid + 1;
                  else hi = mid;
                }
                p = lo;
              }
              if (p < e && docs[p] === c) this.visitStamped(c, bit, st, base * FIELD_WEIGHT[fields[p]!]!);
            }
          } else {
            for (let p = a; p < e; p++) {
              const d = docs[p]!;
              if (mask[d] !== 0) this.visitStamped(d, bit, st, base * FIELD_WEIGHT[fields[p]!]!);
            }
          }
        }
      }
      ctx.spans.forEach((span, si) => {
        if (ti < span.from || ti > span.to) return;
        const t = tierOf(span);
        for (const d of ctx.spanDocs[si]!) {
          if (mask[d] === 0) continue;
          this.visitStamped(d, bit, st, 1000);
          if (this.tier[d]! < t) this.tier[d] = t;
        }
      });
      // Keep the survivors; the others drop out (their scratch is cleared at the end).
      let w = 0;
      for (let i = 0; i < cand.length; i++) {
        const d = cand[i]!;
        if (mask[d]! & bit) cand[w++] = d;
        else {
          mask[d] = 0;
          this.score[d] = 0;
          this.tier[d] = 0;
        }
      }
      cand = cand.subarray(0, w);
    }
    return cand;
  }

  /** Products matching the largest number of the words (when no product matches them all). */
  private matchMost(ctx: ScoreContext): Int32Array {
    for (let ti = 0; ti < ctx.tokens.length; ti++) this.visitEverything(ctx, ti);
    const { mask, touched, tier } = this;
    let maxCount = 0;
    for (let i = 0; i < ctx.nt; i++) maxCount = Math.max(maxCount, popcount(mask[touched[i]!]!));
    const out = new Int32Array(ctx.nt);
    let w = 0;
    for (let i = 0; i < ctx.nt; i++) {
      const d = touched[i]!;
      if (popcount(mask[d]!) === maxCount || isExactTier(tier[d]!)) out[w++] = d;
      else {
        mask[d] = 0;
        this.score[d] = 0;
        tier[d] = 0;
      }
    }
    return out.subarray(0, w);
  }

  /** Every product matching word `ti` (through any of its terms or code spans) gets its bit. */
  private visitEverything(ctx: ScoreContext, ti: number): void {
    const { alive, brandOf, categoryOf, stamp, mask, best, score, touched } = this;
    const { brandFilter, categoryFilter } = ctx;
    const bit = 1 << ti;
    const st = ++this.stampCounter;
    this.lastFreshToken = ti;
    this.lastFreshStamp = st;
    let nt = ctx.nt;
    // The hot loop of a broad query (a common word over 500,000 products): kept flat on purpose.
    for (const src of ctx.sources[ti]!) {
      const { docs, fields, start } = src.vocab;
      for (let term = src.from; term < src.to; term++) {
        const base = baseOf(src, term);
        for (let p = start[term]!, e = start[term + 1]!; p < e; p++) {
          const d = docs[p]!;
          if (alive[d] === 0) continue;
          if (brandFilter !== null && brandFilter[brandOf[d]!] === 0) continue;
          if (categoryFilter !== null && categoryFilter[categoryOf[d]!] === 0) continue;
          const c = base * FIELD_WEIGHT[fields[p]!]!;
          if (stamp[d] !== st) {
            if (mask[d] === 0) touched[nt++] = d;
            stamp[d] = st;
            mask[d]! |= bit;
            best[d] = c;
            score[d]! += c;
          } else if (c > best[d]!) {
            score[d]! += c - best[d]!;
            best[d] = c;
          }
        }
      }
    }
    ctx.nt = nt;
    ctx.spans.forEach((span, si) => {
      if (ti < span.from || ti > span.to) return;
      const t = tierOf(span);
      for (const d of ctx.spanDocs[si]!) {
        this.visitFresh(ctx, d, ti, 1000);
        if (this.tier[d]! < t) this.tier[d] = t;
      }
    });
  }

  private lastFreshToken = -1;
  private lastFreshStamp = 0;

  /** Visit that may add a new product to the touched list. */
  private visitFresh(ctx: ScoreContext, d: number, ti: number, c: number): void {
    if (this.lastFreshToken !== ti || this.lastFreshStamp === 0) {
      this.lastFreshToken = ti;
      this.lastFreshStamp = ++this.stampCounter;
    }
    if (this.mask[d] === 0 && this.stamp[d] !== this.lastFreshStamp) this.touched[ctx.nt++] = d;
    this.visitStamped(d, 1 << ti, this.lastFreshStamp, c);
  }

  /** Word bit and best contribution per product and word: a word counts once, by its best match. */
  private visitStamped(d: number, bit: number, st: number, c: number): void {
    if (this.stamp[d] !== st) {
      this.stamp[d] = st;
      this.mask[d]! |= bit;
      this.best[d] = c;
      this.score[d]! += c;
    } else if (c > this.best[d]!) {
      this.score[d]! += c - this.best[d]!;
      this.best[d] = c;
    }
  }

  private resetTouched(ctx: ScoreContext): void {
    const { touched, mask, score, tier } = this;
    for (let i = 0; i < ctx.nt; i++) {
      const d = touched[i]!;
      mask[d] = 0;
      score[d] = 0;
      tier[d] = 0;
    }
    ctx.nt = 0;
    this.lastFreshStamp = 0;
  }

  private spanDocs(span: CodeSpan, segs: Segment[], brandFilter: Uint8Array | null, categoryFilter: Uint8Array | null): number[] {
    const out: number[] = [];
    const codes = span.kind === 'typo' ? [...span.found] : [span.code];
    const { alive, brandOf, categoryOf } = this;
    for (const seg of segs) {
      for (const code of codes) {
        let from: number;
        let to: number;
        if (span.kind === 'prefix') [from, to] = seg.codes.prefixRange(code);
        else {
          from = seg.codes.lookup(code);
          to = from + 1;
          if (from < 0) continue;
        }
        const { docs, fields, start } = seg.codes;
        for (let p = start[from]!, e = start[to]!; p < e; p++) {
          if ((fields[p]! & CODE_FIELDS) === 0) continue;
          const d = docs[p]!;
          if (!alive[d] || (brandFilter && !brandFilter[brandOf[d]!]) || (categoryFilter && !categoryFilter[categoryOf[d]!])) continue;
          out.push(d);
        }
      }
    }
    return out;
  }

  /** Which brand (or category) names the query's words name in full ("komatsu", "fuel filters"). */
  private fullyNamed(names: string[], words: Set<string>, prefixes: string[], kind: 'brand' | 'category'): Uint8Array {
    const cache = kind === 'brand' ? this.brandTokens : this.categoryTokens;
    const out = new Uint8Array(names.length);
    for (let i = 0; i < names.length; i++) {
      let toks = cache[i];
      if (!toks) cache[i] = toks = tokenize(names[i]!);
      if (toks.length === 0) continue;
      out[i] = toks.every((t) => words.has(t) || prefixes.some((p) => t.startsWith(p))) ? 1 : 0;
    }
    return out;
  }

  private findCodeSpans(tokens: string[], segs: Segment[]): CodeSpan[] {
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
    return spans;
  }

  private expandToken(token: string, isLast: boolean, segs: Segment[], matchers: QueryMatchers, allWords: Set<string>): TermSource[] {
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

  private slugFilter(names: string[], slug: string): Uint8Array | false {
    const allowed = new Uint8Array(names.length);
    let any = false;
    for (let i = 0; i < names.length; i++) {
      if (slugify(names[i]!) === slug) {
        allowed[i] = 1;
        any = true;
      }
    }
    return any ? allowed : false;
  }

  /**
   * Every segment, base first. Batches get their segment as they are written (upsert); only documents replayed from
   * the journal at start are covered here, at the first search.
   */
  private segments(): Segment[] {
    if (this.delta.length === 0) return [this.baseSeg];
    const covered = this.deltaSegs.at(-1)?.to ?? 0;
    if (covered < this.delta.length) {
      const seg = toSegment(buildSegmentParts(this.delta.slice(covered), this.base.n + covered));
      this.deltaSegs.push({ from: covered, to: this.delta.length, seg });
    }
    return [this.baseSeg, ...this.deltaSegs.map((s) => s.seg)];
  }

  /**
   * Merges the newest two delta segments while the newer is at least half the older (a binary counter, up to
   * SEGMENT_MERGE_CAP documents): O(log n) segments. The merge joins their sorted postings (no document is tokenized
   * again), leaving out documents replaced since, in the builder thread when large. Runs in the write queue, so no
   * write changes the segments meanwhile; searches use the two old ones until the merged one is in.
   */
  private async mergeDeltaSegments(): Promise<void> {
    for (;;) {
      const k = this.deltaSegs.length;
      if (k < 2) return;
      const older = this.deltaSegs[k - 2]!;
      const newer = this.deltaSegs[k - 1]!;
      if ((newer.to - newer.from) * 2 < older.to - older.from || newer.to - older.from > SEGMENT_MERGE_CAP) return;
      const lo = this.base.n + older.from;
      const remap = new Int32Array(newer.to - older.from);
      for (let i = 0; i < remap.length; i++) remap[i] = this.alive[lo + i] ? lo + i : -1;
      let parts: SegmentParts;
      try {
        parts = await this.builder.merge([segmentParts(older.seg, true), segmentParts(newer.seg, true)], remap, lo);
      } catch (err) {
        // A merge only saves searches some work: without it the index is whole, with one more segment.
        console.error('embedded search: merging two segments failed; keeping them as they are', err);
        return;
      }
      this.deltaSegs.splice(k - 2, 2, { from: older.from, to: newer.to, seg: toSegment(parts) });
    }
  }

  private ensureScratch(): void {
    const n = this.base.n + this.delta.length;
    if (this.mask.length >= n) return;
    const cap = Math.max(1024, Math.ceil(n * 1.25));
    this.mask = new Uint16Array(cap);
    this.score = new Int32Array(cap);
    this.best = new Int32Array(cap);
    this.stamp = new Uint32Array(cap);
    this.tier = new Uint8Array(cap);
    this.touched = new Int32Array(cap);
  }

  /**
   * The documents of a set of product ids, as a byte per document. Kept per set (the store hands out one set per
   * machine until the catalogue changes) for as long as the documents keep their numbers.
   */
  private readonly allowedCache = new WeakMap<Set<string>, { base: unknown; n: number; docs: Uint8Array }>();
  private allowedDocs(ids: Set<string>): Uint8Array {
    const n = this.base.n + this.delta.length;
    const hit = this.allowedCache.get(ids);
    if (hit && hit.base === this.base && hit.n === n) return hit.docs;
    const docs = new Uint8Array(n);
    for (const id of ids) {
      const d = this.docOf(id);
      if (d !== undefined) docs[d] = 1;
    }
    this.allowedCache.set(ids, { base: this.base, n, docs });
    return docs;
  }

  private docAt(d: number): SearchDoc {
    const b = this.base;
    if (d >= b.n) return this.delta.get(d - b.n);
    return {
      id: b.id.get(d),
      name: b.name.get(d),
      partNumber: b.partNumber.get(d),
      sku: b.sku.get(d),
      brandName: b.brandName.get(d),
      category: b.category.get(d),
      extra: b.extra.get(d),
    };
  }

  // ---------------------------------------------------------------- changes

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private get journalPath(): string {
    return path.join(this.dir, JOURNAL_FILE);
  }

  /** The product's current document (alive or not), or undefined. */
  private docOf(id: string): number | undefined {
    const d = this.deltaIds.get(id);
    if (d !== undefined) return d;
    const b = lookupIn(this.base.id, this.baseIdTable, id);
    return b < 0 ? undefined : b;
  }

  private growDocArrays(n: number): void {
    if (this.alive.length >= n) return;
    const cap = Math.max(1024, Math.ceil(n * 1.25));
    const grow = <T extends Uint8Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const next = make(cap);
      next.set(a);
      return next;
    };
    this.alive = grow(this.alive, (c) => new Uint8Array(c));
    this.brandOf = grow(this.brandOf, (c) => new Uint32Array(c));
    this.categoryOf = grow(this.categoryOf, (c) => new Uint32Array(c));
    this.nameWords = grow(this.nameWords, (c) => new Uint8Array(c));
  }

  private intern(names: string[], ids: Map<string, number>, name: string): number {
    let id = ids.get(name);
    if (id === undefined) {
      id = names.length;
      names.push(name);
      ids.set(name, id);
    }
    return id;
  }

  private applyUpsert(docs: SearchDoc[]): void {
    for (const doc of docs) {
      const old = this.docOf(doc.id);
      if (old !== undefined && this.alive[old]) {
        this.alive[old] = 0;
        this.live--;
      }
      const d = this.base.n + this.delta.length;
      this.delta.push(doc);
      this.growDocArrays(d + 1);
      this.alive[d] = 1;
      this.brandOf[d] = this.intern(this.brandNames, this.brandIds, doc.brandName);
      this.categoryOf[d] = this.intern(this.categoryNames, this.categoryIds, doc.category);
      this.nameWords[d] = Math.min(255, countWords(doc.name));
      this.live++;
      this.deltaIds.set(doc.id, d);
    }
  }

  private applyRemove(ids: string[]): void {
    for (const id of ids) {
      const d = this.docOf(id);
      if (d === undefined) continue;
      if (this.alive[d]) {
        this.alive[d] = 0;
        this.live--;
      }
      this.deltaIds.delete(id);
    }
  }

  /**
   * Applies the journal (up to `end` bytes; all of it at start) to the index, a line at a time. At start a line torn
   * by a crash mid-write is cut off (the product is sent again by its next change or a reindex), so the next entry
   * does not join it.
   */
  private async replayJournal(end?: number): Promise<number> {
    if (end === undefined) await cutTornTail(this.journalPath);
    let ops = 0;
    for await (const entry of readJournal(this.journalPath, end)) {
      if (entry.u) this.applyUpsert(entry.u);
      if (entry.r) this.applyRemove(entry.r);
      ops++;
    }
    return ops;
  }

  private buildBase(docs: SearchDoc[]): void {
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
      brandOf[d] = this.intern(brandNames, brandIds, doc.brandName);
      categoryOf[d] = this.intern(categoryNames, categoryIds, doc.category);
      nameWords[d] = Math.min(255, indexDoc(words, codes, d, doc));
    }
    const col = (f: keyof SearchDoc) => StringColumn.from(docs.map((doc) => doc[f]));
    this.base = {
      n,
      id: col('id'),
      name: col('name'),
      partNumber: col('partNumber'),
      sku: col('sku'),
      brandName: col('brandName'),
      category: col('category'),
      extra: col('extra'),
    };
    this.baseSeg = { words: words.build(), codes: codes.build() };
    this.delta = new DeltaDocs();
    this.deltaSegs = [];
    this.brandNames = brandNames;
    this.brandIds = brandIds;
    this.categoryNames = categoryNames;
    this.categoryIds = categoryIds;
    this.alive = alive;
    this.brandOf = brandOf;
    this.categoryOf = categoryOf;
    this.nameWords = nameWords;
    this.brandTokens = [];
    this.categoryTokens = [];
    this.live = n;
    this.baseIdTable = buildTable(this.base.id);
    this.deltaIds = new Map();
  }

  private async persist(): Promise<void> {
    const b = this.base;
    const columns = Object.fromEntries(DOC_FIELDS.map((f) => [f, columnParts(b[f])])) as DocColumns;
    await writeSnapshot(
      path.join(this.dir, SNAPSHOT_FILE),
      { layout: LAYOUT, n: b.n, brandNames: this.brandNames, categoryNames: this.categoryNames },
      snapshotValues(
        columns,
        { brandOf: this.brandOf.subarray(0, b.n), categoryOf: this.categoryOf.subarray(0, b.n), nameWords: this.nameWords.subarray(0, b.n) },
        segmentParts(this.baseSeg),
      ),
    );
    // The snapshot holds everything the journal said: start a new one.
    await writeFile(this.journalPath, '');
  }

  private loadSnapshot(snap: LoadedSnapshot): void {
    const meta = snap.meta as { n: number; brandNames: string[]; categoryNames: string[] };
    const n = meta.n;
    this.base = {
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
    this.baseSeg = { words: vocab('words'), codes: vocab('codes') };
    this.brandNames = meta.brandNames;
    this.brandIds = new Map(meta.brandNames.map((name, i) => [name, i]));
    this.categoryNames = meta.categoryNames;
    this.categoryIds = new Map(meta.categoryNames.map((name, i) => [name, i]));
    const cap = Math.max(1024, n);
    this.alive = new Uint8Array(cap).fill(1, 0, n);
    this.brandOf = new Uint32Array(cap);
    this.brandOf.set(snap.get<Uint32Array>('brandOf'));
    this.categoryOf = new Uint32Array(cap);
    this.categoryOf.set(snap.get<Uint32Array>('categoryOf'));
    this.nameWords = new Uint8Array(cap);
    this.nameWords.set(snap.get<Uint8Array>('nameWords'));
    this.brandTokens = [];
    this.categoryTokens = [];
    this.live = n;
    this.delta = new DeltaDocs();
    this.deltaSegs = [];
    this.baseIdTable = buildTable(this.base.id);
    this.deltaIds = new Map();
  }
}

const toSegment = (p: SegmentParts): Segment => ({ words: toVocab(p.words), codes: toVocab(p.codes) });
const segmentParts = (s: Segment, copy = false): SegmentParts => ({ words: vocabParts(s.words, copy), codes: vocabParts(s.codes, copy) });

function emptyBase(): BaseDocs {
  const e = StringColumn.from([]);
  return { n: 0, id: e, name: e, partNumber: e, sku: e, brandName: e, category: e, extra: e };
}

function hasCodePosting(vocab: Vocab, term: number): boolean {
  if (term < 0) return false;
  for (let p = vocab.start[term]!, e = vocab.start[term + 1]!; p < e; p++) if (vocab.fields[p]! & CODE_FIELDS) return true;
  return false;
}

function dedupeById(docs: SearchDoc[]): SearchDoc[] {
  const last = new Map<string, number>();
  docs.forEach((d, i) => last.set(d.id, i));
  return last.size === docs.length ? docs : docs.filter((d, i) => last.get(d.id) === i);
}

function countWords(text: string): number {
  return tokenize(text).length;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x5555;
  x = (x & 0x3333) + ((x >>> 2) & 0x3333);
  x = (x + (x >>> 4)) & 0x0f0f;
  return (x + (x >>> 8)) & 0x1f;
}

/** The k largest keys, largest first. */
function topKeys(keys: Float64Array, k: number): Float64Array {
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

const WORD_FIELDS = ['name', 'brandName', 'category'] as const;
const CODE_FIELD_NAMES = ['partNumber', 'sku'] as const;

function matchesFor(doc: SearchDoc, m: QueryMatchers): SearchMatch[] {
  const out: SearchMatch[] = [];
  const wm = { words: m.words, prefixes: m.prefixes };
  for (const field of WORD_FIELDS) {
    const ranges = highlightWords(doc[field], wm);
    if (ranges.length) out.push({ field, ranges });
  }
  for (const field of CODE_FIELD_NAMES) {
    const text = doc[field];
    const ranges: Range[] = [...highlightWords(text, wm)];
    if (m.spans.length) {
      const code = normalizeCode(text);
      for (const span of m.spans) {
        if (span.kind === 'exact' && code === span.code) ranges.push(...highlightCode(text));
        else if (span.kind === 'typo' && span.found.has(code)) ranges.push(...highlightCode(text));
        else if (span.kind === 'prefix' && code.startsWith(span.code)) ranges.push(...highlightCode(text, span.code.length));
      }
    }
    if (ranges.length) out.push({ field, ranges: mergeRanges(ranges) });
  }
  return out;
}
