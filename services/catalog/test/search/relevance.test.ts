import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@forgeline/test-support/net';
import { EmbeddedSearchIndex } from '../../src/adapters/embedded-search/embedded-search-index.ts';
import type { RelevanceQuery } from '../../src/seed/relevance-set.ts';
import { batches } from './fixtures.ts';
import { RELEVANCE_PRODUCTS, measureRelevance, printReport, relevanceCatalogue } from './relevance-harness.ts';

describe(`relevance set on the embedded engine (${RELEVANCE_PRODUCTS.toLocaleString('en-US')} seeded products)`, () => {
  const tmp = tempDir('forgeline-relevance-');
  let index: EmbeddedSearchIndex;
  let set: RelevanceQuery[];

  beforeAll(async () => {
    const catalogue = relevanceCatalogue();
    set = catalogue.set;
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
});
