/**
 * The catalog's SearchIndex on the embedded engine (@forgeline/search-engine): products become the engine's
 * documents (to-search-doc.ts), a brand or category slug becomes a filter on names. The engine does the rest, in this
 * process, persisted under the folder it is given.
 */
import type { Product } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import { compileSynonyms, SearchEngine, type SearchDoc, type SynonymTable } from '@forgeline/search-engine/search-engine';
import type { SearchHit, SearchIndex, SearchOptions, SearchSynonyms } from '../../ports.ts';
import { toSearchDoc } from './to-search-doc.ts';

export class EmbeddedSearchIndex implements SearchIndex {
  /** The staff's synonym sets compiled for the engine, once per version of them. */
  private synonyms: { version: string; table: SynonymTable } | null = null;

  private constructor(private readonly engine: SearchEngine) {}

  private synonymTable(s: SearchSynonyms | undefined): SynonymTable | undefined {
    if (!s) return undefined;
    if (this.synonyms?.version !== s.version) this.synonyms = { version: s.version, table: compileSynonyms(s.sets) };
    return this.synonyms.table;
  }

  /** Opens the index persisted in `dir` (snapshot + journal), or an empty one. */
  static async open(dir: string): Promise<EmbeddedSearchIndex> {
    return new EmbeddedSearchIndex(await SearchEngine.open(dir));
  }

  search(query: string, opts: SearchOptions): Promise<{ hits: SearchHit[]; total: number }> {
    const { brandSlug, categorySlug } = opts;
    return this.engine.search(query, {
      limit: opts.limit,
      offset: opts.offset,
      brand: brandSlug ? (name) => slugify(name) === brandSlug : undefined,
      category: categorySlug ? (name) => slugify(name) === categorySlug : undefined,
      onlyIds: opts.onlyIds,
      synonyms: this.synonymTable(opts.synonyms),
    });
  }

  upsert(products: Product[]): Promise<void> {
    return this.engine.upsert(products.map(toSearchDoc));
  }

  remove(ids: string[]): Promise<void> {
    return this.engine.remove(ids);
  }

  holdMerges(): () => void {
    return this.engine.holdMerges();
  }

  rebuild(source: AsyncIterable<Product[]>): Promise<void> {
    return this.engine.rebuild(documentsOf(source));
  }

  size(): Promise<number> {
    return this.engine.size();
  }

  ready(): Promise<boolean> {
    return this.engine.ready();
  }

  close(): Promise<void> {
    return this.engine.close();
  }

  /** The full merge now, whatever the size of the delta (an operator's command, tests); resolves when it is in. */
  compact(): Promise<void> {
    return this.engine.compact();
  }

  /** Counts for logs and the bench. */
  stats(): ReturnType<SearchEngine['stats']> {
    return this.engine.stats();
  }
}

async function* documentsOf(source: AsyncIterable<Product[]>): AsyncIterable<SearchDoc[]> {
  for await (const batch of source) yield batch.map(toSearchDoc);
}
