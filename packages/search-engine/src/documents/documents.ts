/**
 * The documents the index holds, by number: the base (string columns, from a snapshot or a rebuild) then the delta
 * (documents changed since, in the order they came), with a few bytes per document that matching and ranking read
 * in their hot loops (alive, brand, category, words in the name). A changed document gets a new number; its old one
 * is marked dead until the next full merge renumbers them densely.
 */
import { tokenize } from '../text/normalize.ts';
import { DeltaDocs } from './delta-docs.ts';
import type { SearchDoc } from './search-doc.ts';
import { StringColumn } from './string-column.ts';
import { buildTable, lookupIn } from '../segments/vocab.ts';

export interface BaseDocs {
  n: number;
  id: StringColumn;
  name: StringColumn;
  partNumber: StringColumn;
  sku: StringColumn;
  brandName: StringColumn;
  category: StringColumn;
  extra: StringColumn;
}

export function emptyBase(): BaseDocs {
  const e = StringColumn.from([]);
  return { n: 0, id: e, name: e, partNumber: e, sku: e, brandName: e, category: e, extra: e };
}

/** A name's number in `names`, added at the end when new. */
export function intern(names: string[], ids: Map<string, number>, name: string): number {
  let id = ids.get(name);
  if (id === undefined) {
    id = names.length;
    names.push(name);
    ids.set(name, id);
  }
  return id;
}

export class Documents {
  base: BaseDocs = emptyBase();
  delta = new DeltaDocs();
  brandNames: string[] = [];
  brandIds = new Map<string, number>();
  categoryNames: string[] = [];
  categoryIds = new Map<string, number>();
  /** per document: alive flag, brand and category index (capacity may exceed the count) */
  alive = new Uint8Array(0);
  brandOf = new Uint32Array(0);
  categoryOf = new Uint32Array(0);
  /** words in each product's name (capped at 255): shorter names rank first among equals */
  nameWords = new Uint8Array(0);
  /** each brand's (category's) name as words, filled as ranking first needs them */
  brandTokens: string[][] = [];
  categoryTokens: string[][] = [];
  live = 0;
  /** hash table over base.id (lookupIn): a base product's document */
  baseIdTable = buildTable(StringColumn.from([]));
  /** the latest delta document of each product changed since the base */
  deltaIds = new Map<string, number>();

  /** The product's current document (alive or not), or undefined. */
  docOf(id: string): number | undefined {
    const d = this.deltaIds.get(id);
    if (d !== undefined) return d;
    const b = lookupIn(this.base.id, this.baseIdTable, id);
    return b < 0 ? undefined : b;
  }

  docAt(d: number): SearchDoc {
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

  applyUpsert(docs: SearchDoc[]): void {
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
      this.brandOf[d] = intern(this.brandNames, this.brandIds, doc.brandName);
      this.categoryOf[d] = intern(this.categoryNames, this.categoryIds, doc.category);
      this.nameWords[d] = Math.min(255, countWords(doc.name));
      this.live++;
      this.deltaIds.set(doc.id, d);
    }
  }

  applyRemove(ids: string[]): void {
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
   * The documents of a set of product ids, as a byte per document. Kept per set (the store hands out one set per
   * machine until the catalogue changes) for as long as the documents keep their numbers.
   */
  private readonly allowedCache = new WeakMap<Set<string>, { base: unknown; n: number; docs: Uint8Array }>();
  allowedDocs(ids: Set<string>): Uint8Array {
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
}

function countWords(text: string): number {
  return tokenize(text).length;
}
