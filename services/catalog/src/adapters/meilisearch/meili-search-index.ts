import type { Product } from '@forgeline/contracts/products';
import type { SearchHit, SearchIndex, SearchOptions } from '../../ports.ts';

/** Meilisearch adapter (work in progress: a placeholder so stores.ts compiles). */
export class MeiliSearchIndex implements SearchIndex {
  private constructor(readonly opts: { url: string; apiKey?: string; indexName: string }) {}

  static async connect(opts: { url: string; apiKey?: string; indexName: string }): Promise<MeiliSearchIndex> {
    return new MeiliSearchIndex(opts);
  }

  async search(_query: string, _opts: SearchOptions): Promise<{ hits: SearchHit[]; total: number }> {
    return { hits: [], total: 0 };
  }
  async upsert(_products: Product[]): Promise<void> {}
  async remove(_ids: string[]): Promise<void> {}
  async rebuild(source: AsyncIterable<Product[]>): Promise<void> {
    for await (const _batch of source) void _batch;
  }
  async size(): Promise<number> {
    return 0;
  }
  async ready(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {}
}
