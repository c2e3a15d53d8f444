import { DOC_FIELDS, type DocField, type SearchDoc } from './search-doc.ts';
import { StringColumn } from './string-column.ts';

const CHUNK_BITS = 10;
/** Documents per sealed chunk. */
const CHUNK = 1 << CHUNK_BITS;

type Columns = Record<DocField, StringColumn>;

/**
 * The documents changed since the base, in the order they came: every CHUNK of them sealed into string columns (a
 * StringColumn per field), the newest few as objects. A bulk import leaves hundreds of thousands here until the full
 * merge: as objects (seven strings and an object each) a 500,000-row import grew the catalog's heap by 420 MB; sealed
 * they take the text and four bytes per field each.
 */
export class DeltaDocs {
  private readonly sealed: Columns[] = [];
  private tail: SearchDoc[] = [];

  get length(): number {
    return this.sealed.length * CHUNK + this.tail.length;
  }

  push(doc: SearchDoc): void {
    this.tail.push(doc);
    if (this.tail.length === CHUNK) {
      const docs = this.tail;
      this.sealed.push(Object.fromEntries(DOC_FIELDS.map((f) => [f, StringColumn.from(docs.map((d) => d[f]))])) as Columns);
      this.tail = [];
    }
  }

  /** Document i (0 is the oldest). */
  get(i: number): SearchDoc {
    const c = i >> CHUNK_BITS;
    if (c >= this.sealed.length) return this.tail[i - this.sealed.length * CHUNK]!;
    const cols = this.sealed[c]!;
    const j = i & (CHUNK - 1);
    return {
      id: cols.id.get(j),
      name: cols.name.get(j),
      partNumber: cols.partNumber.get(j),
      sku: cols.sku.get(j),
      brandName: cols.brandName.get(j),
      category: cols.category.get(j),
      extra: cols.extra.get(j),
    };
  }

  /** Documents [from, to), as objects (to build a segment over them). */
  slice(from: number, to = this.length): SearchDoc[] {
    const out: SearchDoc[] = [];
    for (let i = from; i < Math.min(to, this.length); i++) out.push(this.get(i));
    return out;
  }

  /** One field of every document, as one column (the full merge's input). */
  column(f: DocField): StringColumn {
    const values: string[] = [];
    for (const cols of this.sealed) for (let j = 0; j < CHUNK; j++) values.push(cols[f].get(j));
    for (const d of this.tail) values.push(d[f]);
    return StringColumn.from(values);
  }
}
