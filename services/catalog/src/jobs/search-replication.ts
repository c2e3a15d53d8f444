import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Product } from '@forgeline/contracts/products';
import type { Logger } from '@forgeline/service-kit/logger';
import type { CatalogChange, CatalogChangeFeed, ChangeFeedEntry, ChangeFeedPosition, ProductRepository, SearchIndex } from '../ports.ts';

/**
 * Keeps this replica's embedded search index in step with every other replica's writes over the storage they share.
 *
 * Writes go through `index` (this replica's index, then an announcement on the change feed naming the parts); the
 * follower reads the feed from this replica's own position and applies the others' changes by reading those parts
 * from storage. A gap in the feed's numbers (entries trimmed while this replica was behind or stopped, or a Redis
 * that came back empty) makes it rebuild the index from storage instead. The position lives in a file beside the
 * index, so a restarted replica replays what it missed; until it has, it is not ready.
 */

/** Entries read per request while catching up, and per wake-up while following. */
const CATCH_UP_BATCH = 200;
const FOLLOW_BATCH = 100;
/** A blocked read returns after this long without news (then blocks again): bounds how long a stop waits. */
const FOLLOW_BLOCK_MS = 2_000;
/** Between attempts while Redis or storage fails. */
const RETRY_MS = 500;
/** Products per storage read when applying changes or rebuilding. */
const READ_BATCH = 1000;
/** Announced by no one in particular: every replica applies it, the one that wrote it too. */
const ANYONE = '';

export interface SearchReplicationDeps {
  repo: ProductRepository;
  /** This replica's own index (the embedded engine). */
  search: SearchIndex;
  feed: CatalogChangeFeed;
  /** Where this replica's position in the feed is kept (beside its index). */
  positionFile: string;
  logger: Logger;
}

export class SearchReplication {
  /** Names this process's announcements, so that it skips them (it applied them as it wrote). */
  readonly self = randomUUID();
  /** The index the app reads and writes: writes are announced to the other replicas. */
  readonly index: SearchIndex;
  private position: ChangeFeedPosition | null = null;
  /** Why the next turn rebuilds (null: it replays). */
  private mustRebuild: string | null = null;
  private rebuilding = false;
  /** Bumped when a rebuild starts and ends: a local write that saw it change overlapped one. */
  private rebuildTurn = 0;
  /** This replica's writes on their way into its index (the follower lets them land before it reads storage). */
  private readonly landing = new Set<Promise<unknown>>();
  private readonly appliedListeners: (() => void)[] = [];
  private caughtUp = false;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private readonly log: Logger;

  constructor(private readonly deps: SearchReplicationDeps) {
    this.log = deps.logger.child({ replication: 'search' });
    const { search } = deps;
    this.index = {
      search: (query, opts) => search.search(query, opts),
      upsert: (products) => this.writeHere(() => search.upsert(products), { upserted: products.map((p) => ({ id: p.id, sku: p.sku })), removed: [] }),
      remove: (ids) => this.writeHere(() => search.remove(ids), { upserted: [], removed: ids }),
      holdMerges: search.holdMerges ? () => search.holdMerges!() : undefined,
      rebuild: (source) => search.rebuild(source),
      size: () => search.size(),
      ready: () => search.ready(),
      close: () => search.close(),
    };
  }

  /** How many feed entries this replica has not applied yet (-1 before it knows its position). */
  async lag(): Promise<number> {
    if (!this.position) return -1;
    const head = await this.deps.feed.head();
    return Math.max(0, head.n - this.position.n);
  }

  /** True once the index has caught up with the feed at start (or Redis could not be reached, so it serves what it has). */
  isCaughtUp(): boolean {
    return this.caughtUp;
  }

  /** Runs after other replicas' changes are applied here (the response cache must forget its search answers). */
  onApplied(listener: () => void): void {
    this.appliedListeners.push(listener);
  }

  /** Starts following in the background; isCaughtUp() turns true when the start-up catch-up is done. */
  async start(): Promise<void> {
    this.position = await this.readPosition();
    const [indexed, stored] = await Promise.all([this.deps.search.size(), this.deps.repo.count()]);
    if (!this.position) this.mustRebuild = 'no feed position saved with this index';
    else if (indexed === 0 && stored > 0) this.mustRebuild = 'the index is empty';
    this.log.info({ position: this.position, indexed, stored, rebuild: this.mustRebuild }, 'search replication starting');
    this.loop = this.follow();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.deps.feed.close();
    await this.loop;
  }

  private async writeHere(write: () => Promise<void>, change: CatalogChange): Promise<void> {
    const turn = this.rebuildTurn;
    const during = this.rebuilding;
    const landing = write();
    this.landing.add(landing);
    try {
      await landing;
    } finally {
      this.landing.delete(landing);
      // A write that met a rebuild may have been overwritten by it: this replica must apply it again from storage too.
      const overlapped = during || this.rebuilding || turn !== this.rebuildTurn;
      this.deps.feed.announce(change, overlapped ? ANYONE : this.self);
    }
  }

  private async follow(): Promise<void> {
    let following = false; // false: catching up (reads that also check the feed's count)
    let failing = false;
    while (!this.stopped) {
      try {
        if (this.mustRebuild) {
          await this.rebuildFromStorage(this.mustRebuild);
          following = false;
        } else if (!following) {
          const { entries, n } = await this.deps.feed.readAfter(this.position!, CATCH_UP_BATCH);
          if (!(await this.apply(entries))) continue;
          if (entries.length < CATCH_UP_BATCH) {
            if (n !== this.position!.n) {
              this.mustRebuild = `the feed counts ${n} entries, this replica has read to ${this.position!.n}`;
              continue;
            }
            following = true;
            this.markCaughtUp('caught up with the change feed');
          }
        } else {
          await this.apply(await this.deps.feed.waitAfter(this.position!, FOLLOW_BATCH, FOLLOW_BLOCK_MS));
        }
        if (failing) this.log.info('search replication going again');
        failing = false;
      } catch (err) {
        if (this.stopped) break;
        following = false; // after any failure, check the count again: entries may have been lost meanwhile
        if (!failing) this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'search replication paused; retrying (search answers from this replica\'s index meanwhile)');
        failing = true;
        if (!this.caughtUp) {
          await this.startWithoutFeed().catch((e: unknown) => this.log.error({ err: e }, 'could not rebuild the search index from storage'));
        }
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, RETRY_MS).unref();
        });
      }
    }
    await this.savePosition().catch(() => undefined);
  }

  /** Redis is out of reach at start: serve from the index as it is (rebuilt from storage if empty), and resync later. */
  private async startWithoutFeed(): Promise<void> {
    if ((await this.deps.search.size()) === 0 && (await this.deps.repo.count()) > 0) {
      this.log.warn('rebuilding the search index from storage without the change feed');
      await this.rebuildIndex();
      // Storage as it is now covers everything up to the saved position: replaying from there is enough later.
      if (this.position) this.mustRebuild = null;
    }
    this.markCaughtUp('ready without the change feed; will catch up when Redis is back');
  }

  private markCaughtUp(message: string): void {
    if (this.caughtUp) return;
    this.caughtUp = true;
    this.log.info({ position: this.position }, message);
  }

  /** Applies entries in order; false when a gap or a resync request means a rebuild must come first. */
  private async apply(entries: ChangeFeedEntry[]): Promise<boolean> {
    if (entries.length === 0) return true;
    const upserted = new Map<string, string>();
    const removed = new Set<string>();
    let ok = true;
    let last = this.position!;
    for (const entry of entries) {
      if (entry.n !== last.n + 1) {
        this.mustRebuild = `change feed entries ${last.n + 1}–${entry.n - 1} are gone (trimmed, or Redis lost them)`;
        ok = false;
        break;
      }
      last = { id: entry.id, n: entry.n };
      if (entry.by === this.self) continue;
      if (entry.change.resync) {
        this.mustRebuild = 'a replica lost changes it could not announce';
        ok = false;
        break;
      }
      for (const p of entry.change.upserted) upserted.set(p.id, p.sku);
      for (const id of entry.change.removed) removed.add(id);
    }
    if (!ok) return false;
    if (upserted.size + removed.size > 0) {
      await this.applyFromStorage(upserted, removed);
      for (const listener of this.appliedListeners) listener();
    }
    this.position = last;
    await this.savePosition();
    return true;
  }

  /** Reads the named parts as storage has them now and sets them in the index: live ones in, the rest out. */
  private async applyFromStorage(upserted: Map<string, string>, removed: Set<string>): Promise<void> {
    // This replica's own writes land first, so none overwrites what is read from storage after it.
    await Promise.allSettled([...this.landing]);
    const { repo, search } = this.deps;
    const put: Product[] = [];
    const drop: string[] = [];
    const pairs = [...upserted];
    for (let i = 0; i < pairs.length; i += READ_BATCH) {
      const slice = pairs.slice(i, i + READ_BATCH);
      const stored = await repo.getBySkus(slice.map(([, sku]) => sku));
      for (const [id, sku] of slice) {
        const part = stored.get(sku);
        if (part?.active) put.push(part.product);
        else drop.push(part?.product.id ?? id);
      }
    }
    const ids = [...removed].filter((id) => !upserted.has(id));
    for (let i = 0; i < ids.length; i += READ_BATCH) {
      const slice = ids.slice(i, i + READ_BATCH);
      const live = new Set((await repo.getSummaries(slice)).map((s) => s.id));
      for (const id of slice) {
        if (!live.has(id)) drop.push(id);
        else {
          // Taken out, then back since (rare): read it whole.
          const product = await repo.getById(id);
          if (product) put.push(product);
        }
      }
    }
    for (let i = 0; i < put.length; i += READ_BATCH) await search.upsert(put.slice(i, i + READ_BATCH));
    await search.remove(drop);
  }

  /** The whole index again from storage, then the feed from where it stood before storage was read. */
  private async rebuildFromStorage(reason: string): Promise<void> {
    const started = Date.now();
    this.log.warn({ reason }, 'rebuilding the search index from storage');
    // Taken first: changes made while storage is read come after it and are applied again, which is harmless.
    const head = await this.deps.feed.head();
    await this.rebuildIndex();
    this.position = head;
    this.mustRebuild = null;
    await this.savePosition();
    for (const listener of this.appliedListeners) listener();
    this.log.info({ documents: await this.deps.search.size(), ms: Date.now() - started, position: head }, 'search index rebuilt from storage');
  }

  private async rebuildIndex(): Promise<void> {
    this.rebuilding = true;
    this.rebuildTurn++;
    try {
      await this.deps.search.rebuild(this.deps.repo.scan(READ_BATCH));
    } finally {
      this.rebuilding = false;
      this.rebuildTurn++;
    }
  }

  private async readPosition(): Promise<ChangeFeedPosition | null> {
    try {
      const saved = JSON.parse(await readFile(this.deps.positionFile, 'utf8')) as Partial<ChangeFeedPosition>;
      return typeof saved.id === 'string' && Number.isInteger(saved.n) ? { id: saved.id, n: saved.n! } : null;
    } catch {
      return null; // none yet, or torn: a rebuild finds the way again
    }
  }

  private async savePosition(): Promise<void> {
    if (!this.position) return;
    const file = this.deps.positionFile;
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside and renamed, so a stop mid-write leaves the old position (replayed again: harmless).
    await writeFile(`${file}.tmp`, JSON.stringify(this.position));
    await rename(`${file}.tmp`, file);
  }
}
