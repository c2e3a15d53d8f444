/**
 * A part's history and fitment in search (#17) at 500,000 parts (BENCH_HISTORY_PRODUCTS to change), on the shared
 * seeded catalogue (data/bench-500k, which carries ~5 % superseded parts, ~30 % cross-referenced, ~85 % with fitment):
 *
 *   1. recall@1 and recall@5 per query kind, through the catalog's own search path in this process (the store's
 *      history lookup merged with the embedded engine's hits, narrowed to a machine where one is chosen): the history
 *      set (services/catalog/src/seed/history-relevance-set.ts) beside the search issue's set, so the existing kinds
 *      show they are not lower (goal: >= 0.97 for each kind);
 *   2. in-process latency of that path per query, p50/p95/p99 (goal: p95 <= 10 ms);
 *   3. through the gateway at 50 connections, every request distinct: history searches, searches with a machine
 *      chosen, and fitment-filtered category pages (a real part's category, make and model, a random page among the
 *      first five), beside a floor route (/healthz) in the same run.
 */
import os from 'node:os';
import path from 'node:path';
import { slugify } from '@forgeline/contracts/slug';
import { EmbeddedSearchIndex } from '../../services/catalog/src/adapters/embedded-search/embedded-search-index.ts';
import { SqliteProductRepository } from '../../services/catalog/src/adapters/sqlite/sqlite-product-repository.ts';
import { machineQuery } from '../../services/catalog/src/domain/part-history.ts';
import { mergeHistoryHits } from '../../services/catalog/src/domain/search/history-search.ts';
import { generateProducts } from '../../services/catalog/src/seed/generate.ts';
import { buildHistoryRelevanceSet } from '../../services/catalog/src/seed/history-relevance-set.ts';
import { buildRelevanceSet, recall } from '../../services/catalog/src/seed/relevance-set.ts';
import { catalogPaths } from '../../services/catalog/src/stores.ts';
import { startStack } from '../lib/stack.ts';
import { benchCatalogue } from './lib/bench-catalogue.ts';
import { runLoad } from './lib/load.ts';
import { fmt, percentile } from './lib/stats.ts';

const products = Number(process.env.BENCH_HISTORY_PRODUCTS ?? 500_000);
const seconds = Number(process.env.BENCH_HISTORY_SECONDS ?? 10);
const connections = Number(process.env.BENCH_HISTORY_CONNECTIONS ?? 50);
const { dataDir, ensureSeeded } = benchCatalogue(products);
await ensureSeeded();

interface Labelled {
  q: string;
  kind: string;
  accept: string[];
  machine?: { make: string; model: string; serial?: string };
}

console.log(`Building the labelled queries from the ${products.toLocaleString('en-US')} seeded parts...`);
const all = [...generateProducts({ count: products })];
const historySet: Labelled[] = buildHistoryRelevanceSet(all, { targets: 150 });
const baseSet: Labelled[] = buildRelevanceSet(all, { targets: 80 });
const fitting = all.filter((p) => p.fits?.length).map((p) => ({ category: slugify(p.category), fit: p.fits![0]! }));
all.length = 0;

// ---- 1 and 2: in process
const paths = catalogPaths(dataDir);
const repo = SqliteProductRepository.open(paths.sqlite);
const index = await EmbeddedSearchIndex.open(paths.searchDir);

async function top5(q: Labelled): Promise<{ ids: string[]; ms: number }> {
  const started = performance.now();
  const machine = q.machine ? machineQuery(q.machine) : null;
  const narrowing = machine ? { machine, onlyIds: await repo.idsFitting(machine) } : {};
  const page = await mergeHistoryHits(repo, q.q, narrowing, { limit: 5, offset: 0 }, async (w) => {
    const r = await index.search(q.q, { ...w, ...narrowing });
    return { items: await repo.getSummaries(r.hits.map((h) => h.id)), total: r.total };
  });
  return { ids: page.items.map((p) => p.id), ms: performance.now() - started };
}

const measured = new Map<string, { results: string[][]; ms: number[] }>();
for (const [name, set] of [
  ['history', historySet],
  ['search issue', baseSet],
] as const) {
  for (let i = 0; i < Math.min(50, set.length); i++) await top5(set[i]!); // warm up
  const results: string[][] = [];
  const ms: number[] = [];
  for (const q of set) {
    const r = await top5(q);
    results.push(r.ids);
    ms.push(r.ms);
  }
  measured.set(name, { results, ms });
}
await index.close();
await repo.close();

console.log(`\n### Recall per query kind (${products.toLocaleString('en-US')} parts, the catalog's search path in process)\n`);
console.log('| set | kind | queries | recall@1 | recall@5 |');
console.log('|---|---|---:|---:|---:|');
for (const [name, set] of [
  ['history', historySet],
  ['search issue', baseSet],
] as const) {
  const { results } = measured.get(name)!;
  const r1 = recall(set, results, 1);
  const r5 = recall(set, results, 5);
  const counts = new Map<string, number>();
  for (const q of set) counts.set(q.kind, (counts.get(q.kind) ?? 0) + 1);
  for (const kind of Object.keys(r5.byKind)) {
    console.log(`| ${name} | ${kind} | ${counts.get(kind)} | ${fmt(r1.byKind[kind]!, 3)} | ${fmt(r5.byKind[kind]!, 3)} |`);
  }
  console.log(`| ${name} | **all** | ${set.length} | ${fmt(r1.overall, 3)} | ${fmt(r5.overall, 3)} |`);
  if (r5.misses.length) console.log(`\n_${name} misses: ${r5.misses.slice(0, 10).map((m) => `${m.kind}: ${m.q}`).join(' | ')}_\n`);
}

console.log('\n### In-process latency of the search path (history lookup + engine + hydration), one query at a time\n');
console.log('| queries | n | p50 ms | p95 ms | p99 ms | max ms |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const name of ['history', 'search issue']) {
  const ms = [...measured.get(name)!.ms].sort((a, b) => a - b);
  console.log(`| ${name} | ${ms.length} | ${fmt(percentile(ms, 50), 2)} | ${fmt(percentile(ms, 95), 2)} | ${fmt(percentile(ms, 99), 2)} | ${fmt(ms.at(-1)!, 2)} |`);
}

// ---- 3: through the gateway
const stack = await startStack({ dataDir, port: 0, quiet: true, env: { LOG_LEVEL: 'warn' } });
try {
  let n = 0;
  const cycle = <T>(xs: T[]) => () => xs[n++ % xs.length]!;
  const nextHistory = cycle(historySet.filter((q) => !q.machine));
  const nextFitted = cycle(historySet.filter((q) => q.machine));
  const rand = (k: number) => Math.floor(Math.random() * k);
  const machineParams = (m: { make: string; model: string; serial?: string }) =>
    `&make=${encodeURIComponent(m.make)}&model=${encodeURIComponent(m.model)}${m.serial ? `&serial=${encodeURIComponent(m.serial)}` : ''}`;
  const scenarios: [string, () => string][] = [
    ['floor: /healthz', () => '/healthz'],
    ['history search (old numbers, cross-references; distinct queries)', () => `/api/products?search=${encodeURIComponent(nextHistory().q)}&limit=8&r=${n}`],
    ['search with a machine chosen', () => {
      const q = nextFitted();
      return `/api/products?search=${encodeURIComponent(q.q)}&limit=8${machineParams(q.machine!)}&r=${n}`;
    }],
    ['fitment-filtered category page (pages 1-5)', () => {
      const f = fitting[rand(fitting.length)]!;
      return `/api/products?category=${f.category}&limit=24&offset=${24 * rand(5)}${machineParams({ make: f.fit.make, model: f.fit.model })}`;
    }],
  ];
  console.log(`\n### Through the gateway: ${connections} connections, ${seconds} s each, every request distinct (${os.cpus().length} cores)\n`);
  console.log('| route | requests | req/s | p50 ms | p95 ms | p99 ms | non-200 |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const [name, nextPath] of scenarios) {
    await runLoad({ url: stack.url, connections, seconds: 2, nextPath }); // warm up
    const r = await runLoad({ url: stack.url, connections, seconds, nextPath });
    console.log(`| ${name} | ${r.requests.toLocaleString('en-US')} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${r.bad} |`);
  }
} finally {
  await stack.stop();
}
