/**
 * Compaction: when the delta has grown (COMPACT_AFTER changed documents) and writes pause, the full merge runs in a
 * process of its own (merge-process.ts) over what is on disk, and its snapshot then replaces the base in memory and
 * on disk, with the journal's later entries replayed on top. One merge at a time; a failed one is tried again later
 * (the journal keeps every change meanwhile: nothing is lost).
 */
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { buildBase, JOURNAL_FILE, loadSnapshot, MERGED_FILE, SNAPSHOT_FILE, type IndexState } from './base.ts';
import { collectGarbage } from './collect-garbage.ts';
import { fileSize, journalEntries, readFrom, replaceFile } from './journal.ts';
import { runMergeProcess } from './merge-process.ts';
import { readSnapshot } from './snapshot.ts';

/** Merge the delta into a new snapshot once this many products changed since the last one, when writes pause. */
export const COMPACT_AFTER = 5000;
/**
 * A full merge (a process of its own for tens of seconds at 750,000 products; loading its result holds searches for
 * a moment) waits for the writes to pause this long. A bulk import also holds merges off while it runs (hold()): at
 * 2,000,000 parts its batches come ~10 s apart, and three full merges ran during a 200,000-row import.
 */
const COMPACT_IDLE_MS = 10_000;
/**
 * While a bulk write holds merges off (hold()), a merge still runs once this many changed documents wait in the delta:
 * the delta is a second copy of what it holds, in memory. A 2,000,000-row import without it took the catalog from
 * 1.2 GB towards 3 GB (~0.9 kB a changed part); with it, a merge every few minutes of a long import.
 */
export const HELD_MERGE_AFTER = 250_000;
/** After a failed full merge, the next try (the journal keeps every change meanwhile: nothing is lost). */
const MERGE_RETRY_MS = 60_000;

/** What compaction needs of the index it compacts. */
export interface CompactionHost {
  readonly dir: string;
  readonly state: IndexState;
  isClosed(): boolean;
  /** Bumped when a rebuild replaces the base: a merge started before it is thrown away. */
  generation(): number;
  /** Runs `fn` in the index's write queue. */
  enqueue<T>(fn: () => Promise<T>): Promise<T>;
  /** Searches wait for `loading` while set (a merged base replacing the old). */
  setLoading(loading: Promise<void> | null): void;
  /** Loading the merged base failed: the index can no longer answer and reports not ready. */
  fail(): void;
}

export class Compaction {
  private timer: NodeJS.Timeout | null = null;
  /** The full merge under way (one at a time), and how to stop its process. */
  private merging: Promise<void> | null = null;
  private mergeAbort: AbortController | null = null;
  /** Bulk writes under way (hold()): no full merge starts until the last is released. */
  private holds = 0;
  runs = 0;

  constructor(
    private readonly host: CompactionHost,
    /** HELD_MERGE_AFTER, smaller in tests. */
    private readonly heldMergeAfter = HELD_MERGE_AFTER,
  ) {}

  /** A full merge once the delta is large and writes have paused (see COMPACT_IDLE_MS). */
  schedule(): void {
    const { host } = this;
    if (host.state.docs.delta.length < COMPACT_AFTER || host.isClosed()) return;
    if (this.holds > 0) {
      // Held: only a delta grown too large for memory is merged, at once (the writes will not pause).
      if (host.state.docs.delta.length >= this.heldMergeAfter && !this.merging) this.mergeInBackground();
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.holds > 0 || host.isClosed() || host.state.docs.delta.length < COMPACT_AFTER) return;
      this.mergeInBackground();
    }, COMPACT_IDLE_MS);
    this.timer.unref();
  }

  private mergeInBackground(): void {
    const { host } = this;
    void this.fullMerge().catch((err: unknown) => {
      if (host.isClosed()) return;
      // The journal still holds every change: nothing is lost; the index answers from its segments meanwhile.
      console.error(`embedded search: merging the index failed; trying again in ${MERGE_RETRY_MS / 1000} s`, err);
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = null;
        this.schedule();
      }, MERGE_RETRY_MS - COMPACT_IDLE_MS);
      this.timer.unref();
    });
  }

  /**
   * A bulk write starts: no full merge starts until the returned release is called (a merge already under way goes
   * on). The release schedules the merge its writes made due, as after any write. Calling it again does nothing.
   */
  hold(): () => void {
    this.holds++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.schedule();
    };
  }

  /** A full merge waits for writes to pause (its timer is set). */
  waiting(): boolean {
    return this.timer !== null;
  }

  /** The full merge now, whatever the size of the delta; resolves when it is in. */
  now(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    return this.fullMerge();
  }

  /** Stops waiting and stops a merge under way (the index is closing). */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.mergeAbort?.abort();
    await this.merging?.catch(() => undefined);
  }

  /** The full merge (see merge-process.ts); one at a time: a second call joins the one under way. */
  fullMerge(): Promise<void> {
    this.merging ??= this.runFullMerge().finally(() => {
      this.merging = null;
      this.mergeAbort = null;
    });
    return this.merging;
  }

  private async runFullMerge(): Promise<void> {
    const { host } = this;
    const target = path.join(host.dir, MERGED_FILE);
    // What the merge covers: the snapshot on disk and the journal so far (together, what this index holds now).
    const from = await host.enqueue(async () => ({ journalEnd: await fileSize(path.join(host.dir, JOURNAL_FILE)), generation: host.generation() }));
    if (from.journalEnd === 0 || host.isClosed()) return;
    this.mergeAbort = new AbortController();
    const result = await runMergeProcess({ dir: host.dir, journalEnd: from.journalEnd, target }, this.mergeAbort.signal);
    await host.enqueue(() => this.takeMerged(target, from));
    this.runs++;
    console.info(`embedded search: merged ${result.merged} changed documents into a base of ${result.documents} in ${result.ms} ms`);
    this.schedule(); // writes made during the merge may already be many
  }

  /**
   * In the write queue: the merged snapshot replaces the old one, the journal keeps only what came after the merge's
   * point, and this index drops what it held before loading the new base (one index in memory at a time, not two),
   * then replays that rest. Searches wait meanwhile (well under a second at 750,000 products).
   */
  private async takeMerged(target: string, from: { journalEnd: number; generation: number }): Promise<void> {
    const { host } = this;
    const { state } = host;
    const journal = path.join(host.dir, JOURNAL_FILE);
    if (from.generation !== host.generation() || host.isClosed()) {
      await rm(target, { force: true }); // a rebuild came in between: the merge is of an index that is gone
      return;
    }
    const rest = await readFrom(journal, from.journalEnd);
    // A crash between these two steps leaves the new snapshot and the whole journal: replaying it is harmless, every
    // entry puts a product where it already is.
    await rename(target, path.join(host.dir, SNAPSHOT_FILE));
    await replaceFile(journal, rest);
    let loaded!: () => void;
    host.setLoading(new Promise((resolve) => (loaded = resolve)));
    try {
      buildBase(state, []);
      collectGarbage();
      const snap = await readSnapshot(path.join(host.dir, SNAPSHOT_FILE));
      if (snap) loadSnapshot(state, snap);
      for (const entry of journalEntries(rest.toString('utf8'))) {
        if (entry.u) await state.segs.addBatch(state.docs, entry.u);
        if (entry.r) state.docs.applyRemove(entry.r);
      }
    } catch (err) {
      // The files on disk are whole (the next start opens them); this process cannot answer from a half-loaded index.
      host.fail();
      console.error('embedded search: loading the merged index failed; this catalog reports not ready until restarted', err);
      throw err;
    } finally {
      host.setLoading(null);
      loaded();
    }
  }
}
