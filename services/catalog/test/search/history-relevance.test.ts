import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '@forgeline/test-support/net';
import { EmbeddedSearchIndex } from '../../src/adapters/embedded-search/embedded-search-index.ts';
import { SqliteProductRepository } from '../../src/adapters/sqlite/sqlite-product-repository.ts';
import { machineQuery } from '../../src/domain/part-history.ts';
import { mergeHistoryHits } from '../../src/domain/search/history-search.ts';
import { buildHistoryRelevanceSet, type HistoryRelevanceQuery } from '../../src/seed/history-relevance-set.ts';
import { buildInfixRelevanceSet, type InfixRelevanceQuery } from '../../src/seed/infix-relevance-set.ts';
import { recall } from '../../src/seed/relevance-set.ts';
import { batches } from './fixtures.ts';
import { RELEVANCE_PRODUCTS, relevanceCatalogue } from './relevance-harness.ts';

/**
 * The history and fitment queries (#17) through the catalog's own search path: the store's history lookup merged
 * with the engine's hits, narrowed to a machine where one is chosen, on the seeded catalogue. The same domain code
 * serves Meilisearch (its adapter suite runs where Docker is).
 */
describe(`history and fitment relevance on the embedded engine (${RELEVANCE_PRODUCTS.toLocaleString('en-US')} seeded products)`, () => {
  const tmp = tempDir('forgeline-history-relevance-');
  let index: EmbeddedSearchIndex;
  let repo: SqliteProductRepository;
  let set: HistoryRelevanceQuery[];
  let infixSet: InfixRelevanceQuery[];

  beforeAll(async () => {
    const { products } = relevanceCatalogue();
    set = buildHistoryRelevanceSet(products, { targets: 80 });
    infixSet = buildInfixRelevanceSet(products, { targets: 500 });
    repo = SqliteProductRepository.open(path.join(tmp.dir, 'catalog.sqlite'), { cacheMb: 64, mmapMb: 0 });
    for await (const batch of batches(products, 5000)) await repo.upsertMany(batch);
    index = await EmbeddedSearchIndex.open(path.join(tmp.dir, 'search'));
    await index.rebuild(batches(products, 5000));
  }, 180_000);
  afterAll(async () => {
    await index?.close();
    await repo?.close();
    tmp.remove();
  });

  async function top5(q: Pick<HistoryRelevanceQuery, 'q' | 'machine'>): Promise<string[]> {
    const machine = q.machine ? machineQuery(q.machine) : null;
    const narrowing = machine ? { machine, onlyIds: await repo.idsFitting(machine) } : {};
    const page = await mergeHistoryHits(repo, q.q, narrowing, { limit: 5, offset: 0 }, async (w) => {
      const r = await index.search(q.q, { ...w, ...narrowing });
      return { items: await repo.getSummaries(r.hits.map((h) => h.id)), total: r.total };
    });
    return page.items.map((p) => p.id);
  }

  it('has queries of every kind', () => {
    const kinds = new Set(set.map((q) => q.kind));
    expect([...kinds].sort()).toEqual(
      ['chain', 'cross-reference', 'cross-reference-typo', 'cross-reference-with-maker', 'fitment', 'legacy-number', 'superseded', 'superseded-separators', 'superseded-typo'].sort(),
    );
    expect(set.length).toBeGreaterThanOrEqual(400);
  });

  it('finds today\'s part in the first 5 results for at least 97% of the queries of each kind, and first for exact old numbers', async () => {
    const results: string[][] = [];
    for (const q of set) results.push(await top5(q));
    const r5 = recall(set, results, 5);
    const r1 = recall(set, results, 1);
    const kinds = Object.entries(r5.byKind)
      .map(([k, v]) => `${k} ${v.toFixed(3)}`)
      .join(', ');
    console.log(`[search relevance] history: ${set.length} queries, recall@1 ${r1.overall.toFixed(3)}, recall@5 ${r5.overall.toFixed(3)} (${kinds})` +
      (r5.misses.length ? `\n  misses: ${r5.misses.slice(0, 15).map((m) => `${m.kind}: ${m.q}`).join(' | ')}` : ''));
    for (const [kind, value] of Object.entries(r5.byKind)) expect(value, kind).toBeGreaterThanOrEqual(0.97);
    // An exact older number is answered by today's part first.
    expect(r1.byKind.superseded).toBe(1);
    expect(r1.byKind.chain).toBe(1);
    expect(r1.byKind['superseded-separators']).toBe(1);
  }, 180_000);

  it('finds a part by the last 4 to 6 characters of any of its numbers, with or without separators, in the first 5 for 95% (#36)', async () => {
    expect(infixSet.length).toBe(500);
    expect(new Set(infixSet.map((q) => q.kind))).toEqual(new Set(['infix', 'infix-separators']));
    const results: string[][] = [];
    for (const q of infixSet) results.push(await top5(q));
    const r5 = recall(infixSet, results, 5);
    const kinds = Object.entries(r5.byKind)
      .map(([k, v]) => `${k} ${v.toFixed(3)}`)
      .join(', ');
    const ambiguous = infixSet.filter((q) => q.accept.length > 1).length;
    console.log(`[search relevance] infix: ${infixSet.length} queries (${ambiguous} held by more than one part), recall@5 ${r5.overall.toFixed(3)} (${kinds})` +
      (r5.misses.length ? `\n  misses: ${r5.misses.slice(0, 15).map((m) => `${m.kind}: ${m.q}`).join(' | ')}` : ''));
    expect(r5.overall).toBeGreaterThanOrEqual(0.95);
    for (const [kind, value] of Object.entries(r5.byKind)) expect(value, kind).toBeGreaterThanOrEqual(0.95);
  }, 180_000);
});
