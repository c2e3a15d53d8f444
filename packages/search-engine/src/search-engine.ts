/**
 * The search engine: part-number aware and typo tolerant, in the calling process, persisted under one folder. This
 * class is its front door; the work is done by one module per stage (docs/architecture.md, "The search engine"):
 *
 * - query/: a query's words become vocabulary terms (exact, prefix, typos) and part-number spans;
 * - matching/: the documents those reach, with a bit per word and a score (candidate matching);
 * - ranking/: code tier, score and name length packed into keys; the page's highlight ranges;
 * - documents/ and segments/: documents in string columns and typed arrays; two sorted vocabularies with compressed
 *   postings per segment (words: no digits, typo tolerant; codes: anything with a digit plus each whole normalised
 *   part number and SKU), a base segment plus delta segments for documents changed since;
 * - persistence/: the base's binary snapshot, the append-only journal of changes since (replayed at start), and the
 *   full merge into a new snapshot when the delta grows (compaction, by a process of its own: merge-process.ts).
 *
 * Changes go through one write queue, in order; searches read whatever the queue has finished.
 */
import { appendFile, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Documents } from './documents/documents.ts';
import type { SearchDoc } from './documents/search-doc.ts';
import { CandidateMatcher, nameFilter, type ScoreContext } from './matching/candidate-matcher.ts';
import { buildBase, JOURNAL_FILE, LAYOUT, loadSnapshot, MERGED_FILE, persist, replayJournal, SNAPSHOT_FILE } from './persistence/base.ts';
import { COMPACT_AFTER, Compaction } from './persistence/compaction.ts';
import { readSnapshot } from './persistence/snapshot.ts';
import { expandToken, findCodeSpans, type QueryMatchers, type TermSource } from './query/parse-query.ts';
import { findSynonymSpans, type SynonymTable } from './query/synonyms.ts';
import { matchesFor, type FieldMatch } from './ranking/match-ranges.ts';
import { docOfKey, fullyNamed, rankTop } from './ranking/rank.ts';
import { CodeInfixIndex } from './segments/code-infix.ts';
import { Segments } from './segments/segments.ts';
import { parseQuery } from './text/normalize.ts';

export type { SearchDoc } from './documents/search-doc.ts';
export type { FieldMatch } from './ranking/match-ranges.ts';
export { compileSynonyms, type SynonymSet, type SynonymTable } from './query/synonyms.ts';

export interface EngineHit {
  id: string;
  matches: FieldMatch[];
}

export interface EngineSearchOptions {
  limit: number;
  offset: number;
  /** Only documents whose brand (category) name this accepts; none when it accepts no name. */
  brand?: (brandName: string) => boolean;
  category?: (category: string) => boolean;
  /** Only these document ids. */
  onlyIds?: Set<string>;
  /** Words and phrases that also find others (compileSynonyms). */
  synonyms?: SynonymTable;
}

/** How an index is opened: defaults for every use but tests. */
export interface EngineOptions {
  /** Changed documents that make a merge run even while a bulk write holds merges off (HELD_MERGE_AFTER). */
  heldMergeAfter?: number;
}

export class SearchEngine {
  private readonly docs = new Documents();
  private readonly segs = new Segments();
  private readonly state = { docs: this.docs, segs: this.segs };
  private readonly matcher = new CandidateMatcher(this.docs);
  private readonly compaction: Compaction;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Bumped when a rebuild replaces the base: a merge started before it is thrown away. */
  private generation = 0;
  /** Set while a merged base is loaded in place of the old: searches wait for it rather than see half an index. */
  private loading: Promise<void> | null = null;

  private constructor(
    private readonly dir: string,
    opts: EngineOptions,
  ) {
    this.compaction = new Compaction({
      dir,
      state: this.state,
      isClosed: () => this.closed,
      generation: () => this.generation,
      enqueue: (fn) => this.enqueue(fn),
      setLoading: (loading) => {
        this.loading = loading;
      },
      fail: () => {
        this.closed = true;
      },
    }, opts.heldMergeAfter);
  }

  /** Opens the index persisted in `dir` (snapshot + journal), or an empty one. */
  static async open(dir: string, opts: EngineOptions = {}): Promise<SearchEngine> {
    await mkdir(dir, { recursive: true });
    // A merge or a snapshot write cut short by a crash leaves its file under a name of its own.
    for (const f of await readdir(dir)) if (f === MERGED_FILE || f.includes('.tmp-')) await rm(path.join(dir, f), { force: true });
    const index = new SearchEngine(dir, opts);
    const snap = await readSnapshot(path.join(dir, SNAPSHOT_FILE));
    if (snap && (snap.meta as { layout?: number }).layout !== LAYOUT) return index; // older engine: rebuild
    if (snap) loadSnapshot(index.state, snap);
    const replayed = await replayJournal(index.docs, dir);
    if (replayed > 0 && index.docs.delta.length >= COMPACT_AFTER) {
      // The journal keeps every change: if the merge fails, the index still opens whole, merged another time.
      await index.compaction.fullMerge().catch((err: unknown) => console.error('embedded search: merging the index at start failed', err));
    }
    return index;
  }

  /** Counts for logs and the bench. */
  stats(): { documents: number; words: number; codes: number; postings: number; infixBytes: number; delta: number; deltaSegments: number; builderThreadJobs: number; mergeRuns: number; mergeWaiting: boolean } {
    const base = this.segs.base;
    return {
      documents: this.docs.live,
      infixBytes: base.codes.size ? CodeInfixIndex.of(base.codes).bytes : 0,
      words: base.words.size,
      codes: base.codes.size,
      postings: base.words.docs.length + base.codes.docs.length,
      delta: this.docs.delta.length,
      deltaSegments: this.segs.delta.length,
      builderThreadJobs: this.segs.builder.threadJobs,
      mergeRuns: this.compaction.runs,
      mergeWaiting: this.compaction.waiting(),
    };
  }

  async search(query: string, opts: EngineSearchOptions): Promise<{ hits: EngineHit[]; total: number }> {
    if (this.loading) await this.loading;
    return this.searchSync(query, opts);
  }

  /**
   * A bulk write (a catalogue import) starts: the full merge waits until the returned release is called, however far
   * apart its batches come, except each time HELD_MERGE_AFTER changed documents wait in memory (compaction.ts).
   */
  holdMerges(): () => void {
    return this.compaction.hold();
  }

  async upsert(docs: SearchDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await this.enqueue(async () => {
      await this.segs.addBatch(this.docs, docs);
      await appendFile(this.journalPath, JSON.stringify({ u: docs }) + '\n');
      this.compaction.schedule();
    });
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.enqueue(async () => {
      this.docs.applyRemove(ids);
      await appendFile(this.journalPath, JSON.stringify({ r: ids }) + '\n');
    });
  }

  /** Drops everything and indexes every document of `source` (the last of an id wins). */
  async rebuild(source: AsyncIterable<readonly SearchDoc[]>): Promise<void> {
    const docs: SearchDoc[] = [];
    for await (const batch of source) for (const d of batch) docs.push(d);
    await this.enqueue(async () => {
      this.generation++;
      buildBase(this.state, dedupeById(docs));
      await persist(this.state, this.dir);
    });
  }

  async size(): Promise<number> {
    if (this.loading) await this.loading;
    return this.docs.live;
  }

  async ready(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.compaction.stop();
    await this.queue;
    await this.segs.builder.close();
  }

  /** The full merge now, whatever the size of the delta (an operator's command, tests); resolves when it is in. */
  async compact(): Promise<void> {
    await this.compaction.now();
  }

  /** The stages in turn: parse the query, match candidates, rank them, read the page asked for. */
  private searchSync(query: string, opts: EngineSearchOptions): { hits: EngineHit[]; total: number } {
    const { tokens } = parseQuery(query);
    const { docs, matcher } = this;
    if (tokens.length === 0 || docs.live === 0) return { hits: [], total: 0 };
    const brandFilter = opts.brand ? nameFilter(docs.brandNames, opts.brand) : null;
    const categoryFilter = opts.category ? nameFilter(docs.categoryNames, opts.category) : null;
    if (brandFilter === false || categoryFilter === false) return { hits: [], total: 0 };
    const segs = this.segs.all(docs);
    const n = tokens.length;
    const matchers: QueryMatchers = { words: new Set(), prefixes: [], spans: [] };
    const allWords = new Set<string>();

    // 1. Whole part numbers / SKUs hidden in spans of words ("600 211 1231", "cat 1r0750 filter").
    const spans = findCodeSpans(tokens, segs);
    matchers.spans = spans;
    const spanDocs = spans.map((span) => matcher.spanDocs(span, segs, brandFilter, categoryFilter));
    if (opts.synonyms?.size) {
      // Words that also find others: spans like a number's, reaching the documents of each alternative.
      const { alive, brandOf, categoryOf } = docs;
      const accept = (d: number) => alive[d] === 1 && (!brandFilter || brandFilter[brandOf[d]!] === 1) && (!categoryFilter || categoryFilter[categoryOf[d]!] === 1);
      const synonyms = findSynonymSpans(tokens, opts.synonyms, segs, accept, matchers.words);
      spans.push(...synonyms.spans);
      spanDocs.push(...synonyms.docs);
    }

    // 2. Each word: exact, prefix (last word, as typed), typos (words without digits).
    const sources: TermSource[][] = tokens.map((t, ti) => expandToken(t, ti === n - 1, segs, matchers, allWords));
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
    matcher.ensureScratch();
    const ctx: ScoreContext = { tokens, sources, spans, spanDocs, brandFilter, categoryFilter, nt: 0 };
    const order = tokens.map((_, i) => i).sort((a, b) => cost[a]! - cost[b]! || a - b);
    let result = matcher.matchAll(ctx, order);
    if (result.length === 0) {
      matcher.resetTouched(ctx);
      result = matcher.matchMost(ctx);
    } else {
      // An exact part-number match always shows, even when other words of the query miss it.
      const extra = matcher.exactSpanExtras(ctx);
      if (extra.length) result = Int32Array.from([...result, ...extra]);
    }

    // 4. Rank: code tier, then score (+ brand or category named in full), then shorter names.
    const brandFull = fullyNamed(docs.brandNames, docs.brandTokens, allWords, matchers.prefixes);
    const categoryFull = fullyNamed(docs.categoryNames, docs.categoryTokens, allWords, matchers.prefixes);
    const allowed = opts.onlyIds ? docs.allowedDocs(opts.onlyIds) : null;
    const { top, total } = rankTop(result, matcher, docs, brandFull, categoryFull, allowed, opts.offset + opts.limit, spans.length > 0);
    matcher.finish(ctx);
    const hits: EngineHit[] = [];
    for (let i = opts.offset; i < top.length; i++) {
      const doc = docs.docAt(docOfKey(top[i]!));
      hits.push({ id: doc.id, matches: matchesFor(doc, matchers) });
    }
    return { hits, total };
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private get journalPath(): string {
    return path.join(this.dir, JOURNAL_FILE);
  }
}

function dedupeById(docs: SearchDoc[]): SearchDoc[] {
  const last = new Map<string, number>();
  docs.forEach((d, i) => last.set(d.id, i));
  return last.size === docs.length ? docs : docs.filter((d, i) => last.get(d.id) === i);
}
