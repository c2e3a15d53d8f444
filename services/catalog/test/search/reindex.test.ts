import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@forgeline/test-support/net';
import { EmbeddedSearchIndex } from '../../src/adapters/embedded-search/embedded-search-index.ts';
import { SqliteProductRepository } from '../../src/adapters/sqlite/sqlite-product-repository.ts';
import { reindex } from '../../src/cli/reindex.ts';
import { fixtureProducts } from './fixtures.ts';

describe('npm run reindex', () => {
  const tmp = tempDir('forgeline-reindex-');
  afterAll(() => tmp.remove());

  it('rebuilds the search index from every product in storage', async () => {
    const repo = SqliteProductRepository.open(`${tmp.dir}/catalog.sqlite`);
    await repo.upsertMany(fixtureProducts());
    const search = await EmbeddedSearchIndex.open(`${tmp.dir}/catalog-search`);
    await search.upsert([{ ...fixtureProducts()[0]!, id: 'stale', sku: 'OLD-1', partNumber: 'ZZ-999999', name: 'Stale entry' }]);

    const result = await reindex(repo, search);

    expect(result.products).toBe(fixtureProducts().length);
    expect(await search.size()).toBe(fixtureProducts().length);
    expect((await search.search('ZZ999999', { limit: 5, offset: 0 })).hits).toEqual([]);
    expect((await search.search('600 211 1231', { limit: 5, offset: 0 })).hits[0]?.id).toBe('p-kom-1231');
    await search.close();
    await repo.close();
  });
});
