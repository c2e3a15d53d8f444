import type { Product } from '@forgeline/contracts/products';
import type { SearchHit, SearchIndex, SearchOptions } from '../../ports.ts';

/** The embedded, part-number aware search engine (work in progress: a placeholder so stores.ts compiles). */
export class EmbeddedSearchIndex implements SearchIndex {
  private readonly docs = new Map<string, Product>();
  private constructor(readonly dir: string) {}

  static async open(dir: string): Promise<EmbeddedSearchIndex> {
    return new EmbeddedSearchIndex(dir);
  }

  async search(query: string, opts: SearchOptions): Promise<{ hits: SearchHit[]; total: number }> {
    const q = query.trim().toLowerCase();
    const all = [...this.docs.values()].filter((p) => q && p.name.toLowerCase().includes(q));
    return { hits: all.slice(opts.offset, opts.offset + opts.limit).map((p) => ({ id: p.id, matches: [] })), total: all.length };
  }
  async upsert(products: Product[]): Promise<void> {
    for (const p of products) this.docs.set(p.id, p);
  }
  async remove(ids: string[]): Promise<void> {
    for (const id of ids) this.docs.delete(id);
  }
  async rebuild(source: AsyncIterable<Product[]>): Promise<void> {
    this.docs.clear();
    for await (const batch of source) await this.upsert(batch);
  }
  async size(): Promise<number> {
    return this.docs.size;
  }
  async ready(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {}
}
