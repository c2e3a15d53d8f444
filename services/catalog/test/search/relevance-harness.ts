import type { Product } from '@forgeline/contracts/products';
import type { SearchIndex } from '../../src/ports.ts';
import { generateProducts } from '../../src/seed/generate.ts';
import { buildRelevanceSet, recall, type RelevanceQuery } from '../../src/seed/relevance-set.ts';

/** Products the relevance tests index: the start of the seeded catalogue (same as `npm run seed`). */
export const RELEVANCE_PRODUCTS = 20_000;

export function relevanceCatalogue(count = RELEVANCE_PRODUCTS): { products: Product[]; set: RelevanceQuery[] } {
  const products = [...generateProducts({ count })];
  return { products, set: buildRelevanceSet(products, { targets: 80 }) };
}

export interface RelevanceReport {
  queries: number;
  recallAt1: number;
  recallAt5: number;
  byKind: Record<string, number>;
  misses: string[];
}

export async function measureRelevance(index: SearchIndex, set: RelevanceQuery[]): Promise<RelevanceReport> {
  const results: string[][] = [];
  for (const q of set) results.push((await index.search(q.q, { limit: 5, offset: 0 })).hits.map((h) => h.id));
  const r5 = recall(set, results, 5);
  return {
    queries: set.length,
    recallAt1: recall(set, results, 1).overall,
    recallAt5: r5.overall,
    byKind: r5.byKind,
    misses: r5.misses.map((m) => `${m.kind}: ${m.q}`),
  };
}

export function printReport(name: string, r: RelevanceReport): void {
  const kinds = Object.entries(r.byKind)
    .map(([k, v]) => `${k} ${v.toFixed(3)}`)
    .join(', ');
  console.log(
    `[search relevance] ${name}: ${r.queries} queries, recall@1 ${r.recallAt1.toFixed(3)}, recall@5 ${r.recallAt5.toFixed(3)} (${kinds})` +
      (r.misses.length ? `\n  misses: ${r.misses.slice(0, 20).join(' | ')}` : ''),
  );
}
