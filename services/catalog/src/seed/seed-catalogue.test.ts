import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '@forgeline/test-support/net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedSearchIndex } from '../adapters/embedded-search/embedded-search-index.ts';
import { catalogPaths, openStores, type Stores } from '../stores.ts';
import { parseSeedArgs } from '../cli/seed.ts';
import { seedCatalogue } from './seed-catalogue.ts';

describe('seedCatalogue on the embedded stores', () => {
  const tmp = tempDir('forgeline-seed-');
  let stores: Stores;
  beforeAll(async () => {
    stores = await openStores({ DATA_DIR: tmp.dir, MONGO_URL: undefined, MEILI_URL: undefined, MEILI_MASTER_KEY: undefined, MEILI_INDEX: 'products' });
  });
  afterAll(async () => {
    await stores?.close();
    tmp.remove();
  });

  it('writes products and testimonials, indexes them, and is idempotent when run again', async () => {
    const result = await seedCatalogue({ repo: stores.repo, search: stores.search, count: 1_200, batchSize: 500 });
    expect(result.products).toBe(1_200);
    expect(await stores.repo.count()).toBe(1_200);
    expect(await stores.search.size()).toBe(1_200);
    expect((await stores.repo.listTestimonials({ featured: true })).length).toBeGreaterThanOrEqual(12);

    const [first] = (await stores.repo.listAll({ limit: 1, offset: 0 })).items;
    const hit = await stores.search.search(first!.partNumber, { limit: 5, offset: 0 });
    expect(hit.hits.map((h) => h.id)).toContain(first!.id);

    await seedCatalogue({ repo: stores.repo, search: stores.search, count: 1_200 });
    expect(await stores.repo.count()).toBe(1_200);
  });

  it('refuses a count outside 0 to 2,000,000', async () => {
    await expect(seedCatalogue({ repo: stores.repo, search: stores.search, count: 2_000_001 })).rejects.toThrow(/2000000/);
  });
});

describe('seedCatalogue into an empty catalogue (the store loads it in one go)', () => {
  const tmp = tempDir('forgeline-seed-empty-');
  afterAll(() => tmp.remove());

  it('indexes the parts as they are written into the same search index a rebuild from the store makes', async () => {
    const stores = await openStores({ DATA_DIR: tmp.dir, MONGO_URL: undefined, MEILI_URL: undefined, MEILI_MASTER_KEY: undefined, MEILI_INDEX: 'products' });
    const rebuilt = await EmbeddedSearchIndex.open(path.join(tmp.dir, 'rebuilt-search'));
    try {
      const result = await seedCatalogue({ repo: stores.repo, search: stores.search, count: 2_000, batchSize: 300 });
      expect(result.products).toBe(2_000);
      expect(await stores.repo.count()).toBe(2_000);
      expect(await stores.search.size()).toBe(2_000);
      await rebuilt.rebuild(stores.repo.scan(500));
    } finally {
      await rebuilt.close();
      await stores.close();
    }
    const file = (dir: string) => readFileSync(path.join(dir, 'search-index.bin'));
    expect(file(catalogPaths(tmp.dir).searchDir).equals(file(path.join(tmp.dir, 'rebuilt-search')))).toBe(true);
  });
});

describe('seed-cli arguments', () => {
  it('reads --products, --seed and --if-empty', () => {
    expect(parseSeedArgs(['--products', '20000'])).toEqual({ products: 20_000, seed: 2017, ifEmpty: false });
    expect(parseSeedArgs(['--products', '500_000', '--seed', '9', '--if-empty'])).toEqual({ products: 500_000, seed: 9, ifEmpty: true });
  });

  it('names the bad argument', () => {
    expect(parseSeedArgs([])).toEqual({ error: '--products is required' });
    expect(parseSeedArgs(['--products', 'ten'])).toMatchObject({ error: expect.stringContaining('whole number') });
    expect(parseSeedArgs(['--products', '0'])).toMatchObject({ error: expect.stringContaining('from 1 to 2,000,000') });
    expect(parseSeedArgs(['--products', '2000001'])).toMatchObject({ error: expect.stringContaining('from 1 to 2,000,000') });
    expect(parseSeedArgs(['--products', '5', '--bogus'])).toMatchObject({ error: expect.stringContaining('bogus') });
  });
});
