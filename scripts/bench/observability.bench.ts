/**
 * What the metrics cost search (issue 37) at 500,000 parts (BENCH_OBS_PRODUCTS), on the shared seeded catalogue: the
 * header search through the gateway at 50 connections (BENCH_OBS_CONNECTIONS), every request distinct (an ignored
 * `r`, so no cache answers), gzip, with RED on (as shipped) and off (METRICS=off), a stack each, alternated three
 * times so the machine's drift falls on both; Prometheus scraping every process every 15 s is mimicked by a scrape
 * of the gateway's and the catalog's /metrics each second. The goal: < 5 % on p95 and throughput.
 */
import { generateProducts } from '../../services/catalog/src/seed/generate.ts';
import { buildRelevanceSet } from '../../services/catalog/src/seed/relevance-set.ts';
import { startStack } from '../lib/stack.ts';
import { benchCatalogue } from './lib/bench-catalogue.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { fmt, machineLoad } from './lib/stats.ts';

const products = Number(process.env.BENCH_OBS_PRODUCTS ?? 500_000);
const seconds = Number(process.env.BENCH_OBS_SECONDS ?? 15);
const connections = Number(process.env.BENCH_OBS_CONNECTIONS ?? 50);
const { dataDir, ensureSeeded } = benchCatalogue(products);
await ensureSeeded();

const queries = buildRelevanceSet([...generateProducts({ count: 20_000 })], { targets: 80 }).map((q) => q.q);
let n = 0;
const nextSearch = () => `/api/products?search=${encodeURIComponent(queries[n++ % queries.length]!)}&limit=10&r=${n}`;
const headers = { 'accept-encoding': 'gzip, br' };

type Mode = 'on' | 'off';
const rows: { mode: Mode; load: LoadResult }[] = [];
for (let round = 0; round < 3; round++) {
  for (const mode of (round % 2 === 0 ? ['off', 'on'] : ['on', 'off']) as Mode[]) {
    const stack = await startStack({ dataDir, port: 0, quiet: true, env: { LOG_LEVEL: 'warn', ...(mode === 'off' ? { METRICS: 'off' } : {}) } });
    const scraping = setInterval(() => {
      for (const url of [stack.metricsUrl, stack.serviceUrls.catalog!]) void fetch(`${url}/metrics`).then((r) => r.arrayBuffer()).catch(() => undefined);
    }, 1_000);
    try {
      await runLoad({ url: stack.url, connections, seconds: 5, nextPath: nextSearch, headers }); // warm
      rows.push({ mode, load: await runLoad({ url: stack.url, connections, seconds, nextPath: nextSearch, headers }) });
    } finally {
      clearInterval(scraping);
      await stack.stop();
    }
  }
}

console.log(`Search with metrics on and off, ${products.toLocaleString('en-US')} parts, ${connections} connections, ${seconds} s a run, load ${machineLoad()}\n`);
console.log('| metrics | searches | req/s | p50 ms | p95 ms | p99 ms | non-200 |');
console.log('|---|---:|---:|---:|---:|---:|---|');
for (const r of rows) console.log(`| ${r.mode} | ${r.load.requests.toLocaleString('en-US')} | ${fmt(r.load.rps, 0)} | ${fmt(r.load.p50)} | ${fmt(r.load.p95)} | ${fmt(r.load.p99)} | ${r.load.bad} |`);
const median = (mode: Mode, f: (l: LoadResult) => number) => {
  const xs = rows.filter((r) => r.mode === mode).map((r) => f(r.load)).sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)]!;
};
console.log(
  `\nMetrics on, medians of three: p95 ${fmt((median('on', (l) => l.p95) / median('off', (l) => l.p95) - 1) * 100)} %, throughput ${fmt((median('on', (l) => l.rps) / median('off', (l) => l.rps) - 1) * 100)} % against off (goal: within 5 %).`,
);
