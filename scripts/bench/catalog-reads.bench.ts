/**
 * Catalogue reads through the gateway at 500,000 products: a category page, a category + brand
 * page, a brand page, gallery pages and product pages, each for 10 s at 50 connections
 * (BENCH_CATALOG_SECONDS / _CONNECTIONS / _PRODUCTS to change). Every request asks for a
 * different page or product, so no single cached row answers them all. Prints p50/p95/p99 and
 * requests per second as a markdown table; the goal is p95 under 20 ms on a two-core machine.
 * Two diagnostic tables follow: the same reads straight to the catalog (what the gateway costs)
 * and over one connection (service time without queueing).
 *
 * The catalogue is seeded once into data/bench-500k by `cli/seed.ts` (timed; the time is kept in
 * seed-timing.json and printed on later runs) and reused.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Subcategory } from '@forgeline/contracts/products';
import { DEFAULT_SEED } from '../../services/catalog/src/seed/generate.ts';
import { stableUuid } from '../../services/catalog/src/domain/stable-uuid.ts';
import { startStack } from '../lib/stack.ts';
import { benchCatalogue, listTotals } from './lib/bench-catalogue.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { fmt, machineLoad } from './lib/stats.ts';

const products = Number(process.env.BENCH_CATALOG_PRODUCTS ?? 500_000);
const seconds = Number(process.env.BENCH_CATALOG_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CATALOG_CONNECTIONS ?? 50);
/** Also measure each read over one connection (its service time without queueing); 0 to skip. */
const baselineSeconds = Number(process.env.BENCH_CATALOG_BASELINE_SECONDS ?? 5);
/** Also measure each read straight against the catalog (no gateway) at full concurrency; 0 to skip. */
const directSeconds = Number(process.env.BENCH_CATALOG_DIRECT_SECONDS ?? 5);
/** Unmeasured load per read before measuring, so a cold page cache does not count as latency. */
const warmupSeconds = Number(process.env.BENCH_CATALOG_WARMUP_SECONDS ?? 3);
/** Pages a visitor plausibly reaches by clicking: 1 to this (deep pages get their own row). */
const SHALLOW_PAGES = 20;
const { dataDir, ensureSeeded } = benchCatalogue(products);

const randInt = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(xs: T[]): T => xs[randInt(xs.length)]!;

interface Scenario {
  name: string;
  note: string;
  nextPath: () => string;
  headers?: Record<string, string>;
}

interface Row extends Omit<LoadResult, 'latencies'> {
  scenario: Scenario;
  example: string;
}

async function measure(base: string, scenario: Scenario, connections: number, seconds: number): Promise<Row> {
  const example = scenario.nextPath();
  const { latencies: _, ...load } = await runLoad({ url: base, connections, seconds, nextPath: scenario.nextPath, headers: scenario.headers });
  return { scenario, example, ...load };
}

const seed = await ensureSeeded();
const stack = await startStack({ dataDir, port: 0, quiet: true, env: { LOG_LEVEL: 'warn' } });
let failed = false;
try {
  const subs = (await (await fetch(`${stack.url}/api/subcategories`)).json()) as Subcategory[];
  if (!Array.isArray(subs) || subs.length === 0) throw new Error('the catalogue has no subcategories');
  const { categories: categoryList, brands: brandList } = listTotals(subs);
  const page = (total: number, perPage: number, maxPage = SHALLOW_PAGES) => 1 + randInt(Math.max(1, Math.min(maxPage, Math.ceil(total / perPage))));

  const scenarios: Scenario[] = [
    {
      name: 'category page',
      note: `/api/products?category=…&limit=75, any of ${categoryList.length} categories, pages 1-${SHALLOW_PAGES}`,
      nextPath: () => {
        const [slug, total] = pick(categoryList);
        return `/api/products?category=${slug}&limit=75&offset=${(page(total, 75) - 1) * 75}`;
      },
    },
    {
      name: 'category + brand page',
      note: `/api/products?category=…&brand=…&limit=75, any of ${subs.length} pairs, pages 1-${SHALLOW_PAGES}`,
      nextPath: () => {
        const s = pick(subs);
        return `/api/products?category=${s.categorySlug}&brand=${s.brandSlug}&limit=75&offset=${(page(s.productCount, 75) - 1) * 75}`;
      },
    },
    {
      name: 'brand page',
      note: `/api/brands/…/products?page=…&limit=75, any of ${brandList.length} brands, pages 1-${SHALLOW_PAGES}`,
      nextPath: () => {
        const [slug, total] = pick(brandList);
        return `/api/brands/${slug}/products?page=${page(total, 75)}&limit=75`;
      },
    },
    {
      name: 'gallery page',
      note: `/api/catalog/products?limit=48&offset=…, pages 1-${SHALLOW_PAGES}`,
      nextPath: () => `/api/catalog/products?limit=48&offset=${(page(products, 48) - 1) * 48}`,
    },
    {
      name: 'gallery, any page',
      note: `as above, any of ${Math.ceil(products / 48).toLocaleString('en-US')} pages (the page-number box allows it)`,
      nextPath: () => `/api/catalog/products?limit=48&offset=${(page(products, 48, Infinity) - 1) * 48}`,
    },
    {
      name: 'category + brand, any page',
      note: `as the category + brand row, any page of the pair (deep pages start from the list's anchors)`,
      nextPath: () => {
        const s = pick(subs);
        return `/api/products?category=${s.categorySlug}&brand=${s.brandSlug}&limit=75&offset=${(page(s.productCount, 75, Infinity) - 1) * 75}`;
      },
    },
    {
      name: 'category, any page',
      note: 'as the category row, any page',
      nextPath: () => {
        const [slug, total] = pick(categoryList);
        return `/api/products?category=${slug}&limit=75&offset=${(page(total, 75, Infinity) - 1) * 75}`;
      },
    },
    {
      name: 'brand, any page',
      note: 'as the brand row, any page',
      nextPath: () => {
        const [slug, total] = pick(brandList);
        return `/api/brands/${slug}/products?page=${page(total, 75, Infinity)}&limit=75`;
      },
    },
    {
      name: 'subcategories, uncached',
      note: '/api/subcategories with Cache-Control: no-cache, as a reload: the gateway asks the catalog every time (If-None-Match) and sends its kept body on the 304',
      nextPath: () => '/api/subcategories',
      headers: { 'cache-control': 'no-cache', 'accept-encoding': 'gzip' },
    },
    {
      name: 'floor: /healthz',
      note: "the gateway's own cheapest answer, in the same run: what any route costs at the least",
      nextPath: () => '/healthz',
    },
    {
      name: 'product page',
      note: `/api/products/{id}, any of the ${products.toLocaleString('en-US')} products`,
      nextPath: () => `/api/products/${stableUuid(`forgeline-product:${DEFAULT_SEED}:${randInt(products)}`)}`,
    },
  ];

  // Sanity: every scenario answers 200 before it is measured.
  for (const s of scenarios) {
    const p = s.nextPath();
    const r = await fetch(stack.url + p);
    if (!r.ok) throw new Error(`${s.name}: ${p} answered ${r.status}: ${await r.text()}`);
  }

  // Warm up: read the database file once (the OS page cache), then run each read unmeasured.
  const started = performance.now();
  for (const file of fs.readdirSync(dataDir).filter((f) => f.startsWith('catalog.sqlite'))) {
    const fd = fs.openSync(path.join(dataDir, file), 'r');
    const buf = Buffer.allocUnsafe(8 << 20);
    while (fs.readSync(fd, buf, 0, buf.length, null) > 0);
    fs.closeSync(fd);
  }
  if (warmupSeconds > 0) for (const s of scenarios) await measure(stack.url, s, 10, warmupSeconds);
  console.log(`(warm-up took ${fmt((performance.now() - started) / 1000)} s)`);

  const loadBefore = machineLoad();
  const rows: Row[] = [];
  for (const s of scenarios) rows.push(await measure(stack.url, s, connections, seconds));
  const baseline: Row[] = [];
  if (baselineSeconds > 0) for (const s of scenarios) baseline.push(await measure(stack.url, s, 1, baselineSeconds));
  const direct: Row[] = [];
  const catalogUrl = stack.serviceUrls.catalog;
  if (directSeconds > 0 && catalogUrl) for (const s of scenarios) direct.push(await measure(catalogUrl, s, connections, directSeconds));
  const loadAfter = machineLoad();
  await new Promise((r) => setTimeout(r, 1_000)); // let the last in-flight requests finish before the stack stops

  console.log(
    `\nSeed: ${products.toLocaleString('en-US')} products in ${fmt(seed.seconds)} s` +
      (seed.writeSeconds !== undefined ? ` (write ${fmt(seed.writeSeconds)} s, search index ${fmt(seed.indexSeconds ?? NaN)} s)` : '') +
      `${seed.cached ? `, measured ${seed.at} (cached catalogue reused)` : ''}.\n`,
  );
  const table = (title: string, list: Row[]) => {
    console.log(`${title}\n`);
    console.log('| read | requests | req/s | p50 ms | p95 ms | p99 ms | max ms | non-200 | what is asked |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---|---|');
    for (const r of list) {
      console.log(
        `| ${r.scenario.name} | ${r.requests.toLocaleString('en-US')} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${fmt(r.max)} | ${r.bad} | ${r.scenario.note} |`,
      );
      if (r.bad !== 'none') failed = true;
    }
    console.log('');
  };
  table(`GET through the gateway, ${connections} connections, ${seconds} s each; SQLite + embedded search (goal: p95 < 20 ms)`, rows);
  if (direct.length) table(`The same reads straight to the catalog (no gateway), ${connections} connections, ${directSeconds} s each`, direct);
  if (baseline.length) table(`The same reads over 1 connection, ${baselineSeconds} s each (service time without queueing)`, baseline);
  console.log(`Machine: ${os.cpus().length} cores, load average (1/5/15 min) ${loadBefore} before, ${loadAfter} after: figures taken on a busy machine are upper bounds.`);
} finally {
  await stack.stop();
}
process.exit(failed ? 1 : 0);
