/**
 * Deep pages at the cost of the first: a list sorted by (name, id) keeps every ANCHOR_STRIDE-th key as an anchor, read
 * once per list and catalogue version. A page at any offset starts from the anchor at or before it and walks fewer
 * than ANCHOR_STRIDE index entries past it: O(log n + stride) wherever it is, instead of walking `offset` entries.
 * A write makes a new version and the anchors are read again when a deep page is next asked for.
 */
export const ANCHOR_STRIDE = 256;

/** A list's sort key. */
export interface SortKey {
  name: string;
  id: string;
}

/** Where a page starts: from `anchor` (inclusive), `skip` entries on. */
export interface PageStart {
  anchor: SortKey;
  skip: number;
}

/** Lists whose anchors are kept at once (categories, brands, category+brand pairs, the gallery). */
const MAX_LISTS = 4_000;

export class PageAnchors<V = unknown> {
  private version: V | undefined;
  private readonly lists = new Map<string, SortKey[] | Promise<SortKey[]>>();

  /** Anchors of every list of this version; a different version drops them all. */
  private forVersion(version: V) {
    if (version !== this.version) {
      this.lists.clear();
      this.version = version;
    }
  }

  private remember(listKey: string, anchors: SortKey[] | Promise<SortKey[]>) {
    this.lists.set(listKey, anchors);
    if (this.lists.size > MAX_LISTS) this.lists.delete(this.lists.keys().next().value!);
  }

  /** Synchronous stores (SQLite): null for a page near the start, which is cheapest walked from the list's first key. */
  startSync(version: V, listKey: string, offset: number, read: () => SortKey[]): PageStart | null {
    if (offset < ANCHOR_STRIDE) return null;
    this.forVersion(version);
    let anchors = this.lists.get(listKey) as SortKey[] | undefined;
    if (!anchors) {
      anchors = read();
      this.remember(listKey, anchors);
    }
    return at(anchors, offset);
  }

  /** Asynchronous stores (MongoDB): one read of a list's anchors is shared by the requests that wait for it. */
  async start(version: V, listKey: string, offset: number, read: () => Promise<SortKey[]>): Promise<PageStart | null> {
    if (offset < ANCHOR_STRIDE) return null;
    this.forVersion(version);
    let anchors = this.lists.get(listKey);
    if (!anchors) {
      const reading = read();
      this.remember(listKey, reading);
      reading.then(
        (value) => this.lists.get(listKey) === reading && this.lists.set(listKey, value),
        () => this.lists.get(listKey) === reading && this.lists.delete(listKey),
      );
      anchors = reading;
    }
    return at(await anchors, offset);
  }

  clear() {
    this.lists.clear();
    this.version = undefined;
  }
}

function at(anchors: SortKey[], offset: number): PageStart | null {
  const i = Math.min(Math.floor(offset / ANCHOR_STRIDE), anchors.length - 1);
  if (i <= 0) return null;
  return { anchor: anchors[i]!, skip: offset - i * ANCHOR_STRIDE };
}
