import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@forgeline/test-support/net';
import { EmbeddedSearchIndex } from '../../src/adapters/embedded-search/embedded-search-index.ts';
import type { Product } from '@forgeline/contracts/products';
import { recall, type RelevanceQuery } from '../../src/seed/relevance-set.ts';
import { batches } from './fixtures.ts';
import { RELEVANCE_PRODUCTS, measureRelevance, printReport, relevanceCatalogue } from './relevance-harness.ts';

describe(`relevance set on the embedded engine (${RELEVANCE_PRODUCTS.toLocaleString('en-US')} seeded products)`, () => {
  const tmp = tempDir('forgeline-relevance-');
  let index: EmbeddedSearchIndex;
  let set: RelevanceQuery[];
  let products: Product[];

  beforeAll(async () => {
    const catalogue = relevanceCatalogue();
    set = catalogue.set;
    products = catalogue.products;
    index = await EmbeddedSearchIndex.open(tmp.dir);
    await index.rebuild(batches(catalogue.products, 5000));
  }, 120_000);
  afterAll(async () => {
    await index?.close();
    tmp.remove();
  });

  it('has at least 500 labelled queries of every kind', () => {
    expect(set.length).toBeGreaterThanOrEqual(500);
    const kinds = new Set(set.map((q) => q.kind));
    expect([...kinds].sort()).toEqual(
      ['brand-type', 'brand-typo', 'exact-number', 'number-typo', 'prefix', 'separators', 'sku', 'two-typos', 'word-typo', 'words-and-number'].sort(),
    );
  });

  it('finds the labelled product in the first 5 results for at least 97% of queries', async () => {
    const report = await measureRelevance(index, set);
    printReport('embedded', report);
    expect(report.recallAt5).toBeGreaterThanOrEqual(0.97);
    // Every exact part number, with or without its separators, is the first result.
    expect(report.byKind['exact-number']).toBe(1);
    expect(report.byKind.separators).toBe(1);
  }, 120_000);

  it('a synonym set (#36): a word the catalogue never uses finds the parts named with its synonym, first 5 for 95 %', async () => {
    // 100 name words of 5+ letters, each given a synonym no part is named with (the word backwards, "retlif" for
    // "filter"); the query is a brand and the synonym; right answers: that brand's parts named with the word.
    const words = new Map<string, Product[]>();
    for (const p of products) for (const w of p.name.toLowerCase().split(/[^a-z]+/)) if (w.length >= 5) words.set(`${p.brandName}|${w}`, [...(words.get(`${p.brandName}|${w}`) ?? []), p]);
    const picked = [...words.entries()].filter(([k]) => k.split('|')[1]!.split('').reverse().join('') !== k.split('|')[1]).slice(0, 2000).filter((_, i) => i % 20 === 0).slice(0, 100);
    const sets = picked.map(([k]) => ({ words: [k.split('|')[1]!, k.split('|')[1]!.split('').reverse().join('')], mode: 'both' as const }));
    const synonyms = { version: 'relevance', sets };
    const queries = picked.map(([k, parts]) => ({ q: `${k.split('|')[0]!.toLowerCase()} ${k.split('|')[1]!.split('').reverse().join('')}`, kind: 'synonym', accept: parts.map((p) => p.id) }));
    const run = async (withSynonyms: boolean) => {
      const results: string[][] = [];
      for (const q of queries) results.push((await index.search(q.q, { limit: 5, offset: 0, ...(withSynonyms ? { synonyms } : {}) })).hits.map((h) => h.id));
      return recall(queries, results, 5).overall;
    };
    const withSet = await run(true);
    const without = await run(false);
    console.log(`[search relevance] synonyms: ${queries.length} queries, recall@5 ${withSet.toFixed(3)} with the sets, ${without.toFixed(3)} without`);
    expect(queries.length).toBe(100);
    expect(withSet).toBeGreaterThanOrEqual(0.95);
    expect(without).toBeLessThan(0.5);
  }, 120_000);
});
