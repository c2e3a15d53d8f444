/**
 * Search analytics' cost to search (issue 36) at 500,000 parts (BENCH_ANALYTICS_PRODUCTS to change), on the shared seeded
 * catalogue: the header search through the gateway at 50 connections (BENCH_ANALYTICS_CONNECTIONS), every request
 * distinct (a relevance query and an ignored `r`, so neither the edge cache nor the catalog's ready-made answers
 * answer it), gzip asked for as a browser does, without analytics and with two kinds of it:
 *
 * - `paced`: each connection a browser as the storefront batches (web/src/lib/search-analytics.ts): its events in one
 *   POST /api/search/events every 3 s (50 events: 25 searches and what was opened);
 * - `per search`: the worst case, every search from a different visitor's page: one POST (a search and an open) per
 *   search, at the rate the searches of the run before were answered, on as many connections again.
 *
 * Alternated off, paced, per search, three times, so the machine's drift falls on all. The goal: search p95 and
 * throughput within 5 % of analytics off.
 */
import path from 'node:path';
import { generateProducts } from '../../services/catalog/src/seed/generate.ts';
import { buildRelevanceSet } from '../../services/catalog/src/seed/relevance-set.ts';
import { catalogPaths } from '../../services/catalog/src/stores.ts';
import { startStack } from '../lib/stack.ts';
import { benchCatalogue } from './lib/bench-catalogue.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { fmt, machineLoad } from './lib/stats.ts';

const products = Number(process.env.BENCH_ANALYTICS_PRODUCTS ?? 500_000);
const seconds = Number(process.env.BENCH_ANALYTICS_SECONDS ?? 15);
const connections = Number(process.env.BENCH_ANALYTICS_CONNECTIONS ?? 50);
const { dataDir, ensureSeeded } = benchCatalogue(products);
await ensureSeeded();

// Queries a buyer types: the relevance set of the catalogue's first 20,000 parts (numbers, words, typos).
const queries = buildRelevanceSet([...generateProducts({ count: 20_000 })], { targets: 80 }).map((q) => q.q);
let n = 0;
const nextSearch = () => {
  const q = queries[n % queries.length]!;
  n++;
  return `/api/products?search=${encodeURIComponent(q)}&limit=10&r=${n}`;
};
const visitors = Array.from({ length: 500 }, (_, i) => `bench-visitor-${String(i).padStart(6, '0')}`);
let e = 0;
/** A page's batch: `searches` searches, each with an open. */
const nextEvents = (searches: number) => () => {
  const events: unknown[] = [];
  for (let k = 0; k < searches; k++) {
    const q = queries[e % queries.length]!;
    e++;
    events.push({ type: 'search', query: q, hits: e % 7, page: 'header' }, { type: 'open', query: q, productId: `p-${e % 1000}`, page: 'header' });
  }
  return JSON.stringify({ visitor: visitors[e % visitors.length], events });
};

const stack = await startStack({
  dataDir,
  port: 0,
  quiet: true,
  // The events' limit is per address: the bench is one address for 500 visitors.
  env: { LOG_LEVEL: 'warn', RATE_LIMIT_MULTIPLIER: '1000', SEARCH_EVENTS_PER_MINUTE: '100000000' },
});
const headers = { 'accept-encoding': 'gzip, br' };
type Mode = 'off' | 'paced' | 'per search';
type Row = { mode: Mode; search: LoadResult; events?: LoadResult };
const rows: Row[] = [];
try {
  // Warm: the index, the pages the searches read, the JIT.
  await runLoad({ url: stack.url, connections, seconds: 5, nextPath: nextSearch, headers });
  let rate = 0;
  for (let round = 0; round < 3; round++) {
    for (const mode of ['off', 'paced', 'per search'] as const) {
      if (mode === 'off') {
        const search = await runLoad({ url: stack.url, connections, seconds, nextPath: nextSearch, headers });
        rate = search.rps;
        rows.push({ mode, search });
        continue;
      }
      const paced = mode === 'paced';
      const [search, events] = await Promise.all([
        runLoad({ url: stack.url, connections, seconds, nextPath: nextSearch, headers }),
        runLoad({
          url: stack.url,
          connections: paced ? 5 : connections,
          seconds,
          nextPath: () => '/api/search/events',
          method: 'POST',
          nextBody: nextEvents(paced ? 25 : 1),
          headers: { 'content-type': 'application/json' },
          overallRate: paced ? Math.max(1, Math.round(connections / 3)) : Math.max(1, Math.round(rate)),
        }),
      ]);
      rows.push({ mode, search, events });
    }
  }
} finally {
  await stack.stop();
}

console.log(`Search with analytics off and on, ${products.toLocaleString('en-US')} parts, ${connections} connections, ${seconds} s a run, load ${machineLoad()}\n`);
console.log('| analytics | searches | req/s | p50 ms | p95 ms | p99 ms | non-200 | event POSTs (202) | events p95 ms |');
console.log('|---|---:|---:|---:|---:|---:|---|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.mode} | ${r.search.requests.toLocaleString('en-US')} | ${fmt(r.search.rps, 0)} | ${fmt(r.search.p50)} | ${fmt(r.search.p95)} | ${fmt(r.search.p99)} | ${r.search.bad} | ${r.events ? `${r.events.requests.toLocaleString('en-US')} (${r.events.bad})` : '-'} | ${r.events ? fmt(r.events.p95) : '-'} |`,
  );
}
const median = (mode: Mode, f: (r: LoadResult) => number) => {
  const xs = rows.filter((r) => r.mode === mode).map((r) => f(r.search)).sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)]!;
};
for (const mode of ['paced', 'per search'] as const) {
  console.log(
    `\nAnalytics ${mode}, medians of three: search p95 ${fmt((median(mode, (r) => r.p95) / median('off', (r) => r.p95) - 1) * 100)} % and throughput ${fmt((median(mode, (r) => r.rps) / median('off', (r) => r.rps) - 1) * 100)} % against off (goal: within 5 %).`,
  );
}
console.log(`Counts written to ${path.relative(process.cwd(), path.join(dataDir, path.basename(catalogPaths(dataDir).insights)))}.`);
