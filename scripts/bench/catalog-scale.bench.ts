/**
 * The catalogue at scale (issue 33's table): for each size in BENCH_SCALE_SIZES (default 500000; add 2000000 for the
 * opt-in run: `BENCH_SCALE_SIZES=500000,2000000 npm run bench -- catalog-scale`, about 25 minutes once seeded), from
 * one run, on the shared bench catalogues (data/bench-<N>, seeded once and reused):
 *
 *   - the seed: time and the write pace of its first and last tenth (kept from when the folder was seeded);
 *   - the catalog's cold start to ready (its search index opened from the snapshot, not rebuilt) and its RSS at rest;
 *   - search through the gateway at 50 connections, every request distinct: part numbers, two words + brand, and a
 *     common word alone (distinct by an ignored parameter, so neither cache answers), each kind alone and mixed;
 *   - a common word alone, one request at a time, uncached: the median and worst of 20 per word;
 *   - reads at 50 connections: any product, any gallery page, any category page, any category + brand page;
 *   - the sitemap: every file fetched, URLs and bytes counted, every part present once, the gateway's RSS after.
 *
 * BENCH_SCALE_SECONDS (default 10) per load; BENCH_SCALE_CONNECTIONS (default 50).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import type { Subcategory } from '@forgeline/contracts/products';
import { DEFAULT_SEED } from '../../services/catalog/src/seed/generate.ts';
import { stableUuid } from '../../services/catalog/src/domain/stable-uuid.ts';
import { freePort } from '@forgeline/test-support/net';
import { spawnTs, startStack, type Stack } from '../lib/stack.ts';
import { benchCatalogue, listTotals } from './lib/bench-catalogue.ts';
import { runLoad } from './lib/load.ts';
import { fmt, machineLoad, percentile } from './lib/stats.ts';

const sizes = (process.env.BENCH_SCALE_SIZES ?? '500000').split(',').map(Number);
const seconds = Number(process.env.BENCH_SCALE_SECONDS ?? 10);
const connections = Number(process.env.BENCH_SCALE_CONNECTIONS ?? 50);
const COMMON_WORDS = ['filter', 'seal kit', 'filter kit', 'caterpillar filter', 'bearing', 'pump'];

const randInt = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(xs: T[]): T => xs[randInt(xs.length)]!;

/** Resident and peak resident memory of a process, in MB. */
function rss(pid: number | undefined): { now: number; peak: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1]) / 1000;
    return { now: Math.round(kb('VmRSS')), peak: Math.round(kb('VmHWM')) };
  } catch {
    return { now: NaN, peak: NaN };
  }
}

/** The catalog alone, as `npm start` starts it: spawn to /readyz, and its memory once it has settled. */
async function coldStart(dataDir: string): Promise<{ seconds: number; rssMb: number; documents?: number }> {
  const port = await freePort();
  const token = fs.readFileSync(path.join(dataDir, '.service-token'), 'utf8').trim();
  const started = performance.now();
  const child = spawnTs('services/catalog/src/main.ts', [], { ...process.env, DATA_DIR: dataDir, PORT: String(port), SERVICE_TOKEN: token, LOG_LEVEL: 'warn' });
  child.stdout?.resume();
  child.stderr?.resume();
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the catalog exited with ${child.exitCode} before it was ready`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const secs = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 5_000)); // at rest: background work of the start (the code filter) done
    return { seconds: secs, rssMb: rss(child.pid).now };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

/** Queries from the catalogue itself: part numbers and two name words + brand of parts spread over the whole table. */
function queriesFrom(dataDir: string, products: number): { partNumbers: string[]; wordsBrand: string[] } {
  const db = new Database(path.join(dataDir, 'catalog.sqlite'), { readonly: true });
  try {
    const every = Math.max(1, Math.floor(products / 20_000));
    const rows = db.prepare(`SELECT part_number AS pn, name, brand_name AS brand FROM products WHERE rowid % ${every} = 3 LIMIT 20000`).all() as {
      pn: string;
      name: string;
      brand: string;
    }[];
    const partNumbers = rows.map((r) => r.pn);
    const wordsBrand = new Set<string>();
    for (const r of rows) {
      const ws = r.name.replace(r.brand, '').replace(r.pn, '').toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 2);
      if (ws.length < 2) continue;
      const i = randInt(ws.length - 1);
      wordsBrand.add(`${ws[i]} ${ws[i + 1]} ${r.brand.toLowerCase()}`);
    }
    return { partNumbers, wordsBrand: [...wordsBrand] };
  } finally {
    db.close();
  }
}

interface SizeResult {
  products: number;
  seed: string;
  coldStart: number;
  rssAtRest: number;
  rssAfter: number;
  rssPeak: number;
  search: Record<string, { rps: number; p50: number; p95: number; bad: string }>;
  common: Record<string, { total: number; p50: number; max: number }>;
  reads: Record<string, { rps: number; p50: number; p95: number; bad: string }>;
  sitemap: { files: number; urls: number; unique: number; maxUrls: number; maxMb: number; seconds: number; gatewayRss: number; complete: boolean };
}

async function searchLoads(stack: Stack, q: { partNumbers: string[]; wordsBrand: string[] }): Promise<SizeResult['search']> {
  let n = 0;
  // Every request distinct: `v` is ignored by the search but not by either cache, so each runs the search.
  const url = (text: string) => `/api/products?search=${encodeURIComponent(text)}&limit=10&v=${n++}`;
  const kinds: Record<string, () => string> = {
    'part numbers': () => url(pick(q.partNumbers)),
    'two words + brand': () => url(pick(q.wordsBrand)),
    'a common word alone': () => url(pick(COMMON_WORDS)),
    'mixed (⅓ each)': () => url(n % 3 === 0 ? pick(q.partNumbers) : n % 3 === 1 ? pick(q.wordsBrand) : pick(COMMON_WORDS)),
  };
  const out: SizeResult['search'] = {};
  for (const [name, next] of Object.entries(kinds)) {
    await runLoad({ url: stack.url, connections: 10, seconds: 2, nextPath: next }); // warm-up
    const r = await runLoad({ url: stack.url, connections, seconds, nextPath: next });
    out[name] = { rps: r.rps, p50: r.p50, p95: r.p95, bad: r.bad };
  }
  return out;
}

async function commonWordAlone(stack: Stack): Promise<SizeResult['common']> {
  const out: SizeResult['common'] = {};
  let n = 0;
  for (const word of COMMON_WORDS) {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < 21; i++) {
      const t = performance.now();
      const res = await fetch(`${stack.url}/api/products?search=${encodeURIComponent(word)}&limit=10&v=one-${n++}`, { headers: { 'accept-encoding': 'gzip' } });
      const body = (await res.json()) as { pagination: { totalCount: number } };
      if (i > 0) times.push(performance.now() - t); // the first warms the code paths
      total = body.pagination.totalCount;
    }
    times.sort((a, b) => a - b);
    out[word] = { total, p50: percentile(times, 50), max: times[times.length - 1]! };
  }
  return out;
}

async function readLoads(stack: Stack, products: number): Promise<SizeResult['reads']> {
  const subs = (await (await fetch(`${stack.url}/api/subcategories`)).json()) as Subcategory[];
  const { categories } = listTotals(subs);
  const anyPage = (total: number, per: number) => randInt(Math.max(1, Math.ceil(total / per)));
  const kinds: Record<string, () => string> = {
    'any product': () => `/api/products/${stableUuid(`forgeline-product:${DEFAULT_SEED}:${randInt(products)}`)}`,
    'any gallery page': () => `/api/catalog/products?limit=48&offset=${anyPage(products, 48) * 48}`,
    'any category page': () => {
      const [slug, total] = pick(categories);
      return `/api/products?category=${slug}&limit=75&offset=${anyPage(total, 75) * 75}`;
    },
    'any category + brand page': () => {
      const s = pick(subs);
      return `/api/products?category=${s.categorySlug}&brand=${s.brandSlug}&limit=75&offset=${anyPage(s.productCount, 75) * 75}`;
    },
  };
  const out: SizeResult['reads'] = {};
  for (const [name, next] of Object.entries(kinds)) {
    await runLoad({ url: stack.url, connections: 10, seconds: 2, nextPath: next });
    const r = await runLoad({ url: stack.url, connections, seconds, nextPath: next });
    out[name] = { rps: r.rps, p50: r.p50, p95: r.p95, bad: r.bad };
  }
  return out;
}

async function sitemap(stack: Stack, products: number): Promise<SizeResult['sitemap']> {
  const started = performance.now();
  const get = async (u: string) => {
    const res = await fetch(u, { headers: { 'accept-encoding': 'identity' } });
    if (!res.ok) throw new Error(`${u} answered ${res.status}`);
    const buf = Buffer.from(await res.arrayBuffer());
    return buf[0] === 0x1f && buf[1] === 0x8b ? gunzipSync(buf) : buf;
  };
  const index = (await get(`${stack.url}/sitemap.xml`)).toString('utf8');
  const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  const seen = new Set<string>();
  let urls = 0;
  let maxUrls = 0;
  let maxBytes = 0;
  for (const file of files) {
    const xml = await get(`${stack.url}${file}`);
    maxBytes = Math.max(maxBytes, xml.length);
    const locs = [...xml.toString('utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    maxUrls = Math.max(maxUrls, locs.length);
    urls += locs.length;
    if (file.startsWith('/sitemap-products-')) for (const l of locs) seen.add(l);
  }
  const gatewayPid = stack.processes().find((p) => p.name === 'gateway')?.pid;
  return {
    files: files.length,
    urls,
    unique: seen.size,
    maxUrls,
    maxMb: maxBytes / 1e6,
    seconds: (performance.now() - started) / 1000,
    gatewayRss: rss(gatewayPid).now,
    complete: seen.size === products,
  };
}

async function measureSize(products: number): Promise<SizeResult> {
  const bench = benchCatalogue(products);
  const seed = await bench.ensureSeeded();
  const tenth = seed.progress && seed.progress.length >= 10 ? seed.progress : null;
  const pace = (list: { recentPerSecond: number }[]) => Math.round(list.reduce((s, p) => s + p.recentPerSecond, 0) / list.length);
  const seedText =
    `${fmt(seed.seconds, 0)} s` +
    (tenth ? `; ${pace(tenth.slice(0, Math.ceil(tenth.length / 10))).toLocaleString('en-US')} → ${pace(tenth.slice(-Math.ceil(tenth.length / 10))).toLocaleString('en-US')} parts/s first → last tenth` : '') +
    (seed.cached ? ` (seeded ${seed.at.slice(0, 16)})` : '');
  console.error(`  ${products.toLocaleString('en-US')}: cold start...`);
  // A first start opens the index (or builds it, if the folder has none yet); the measured one is the usual start.
  {
    const first = await startStack({ dataDir: bench.dataDir, port: 0, quiet: true, env: { LOG_LEVEL: 'warn' } });
    await first.stop();
  }
  const cold = await coldStart(bench.dataDir);
  const queries = queriesFrom(bench.dataDir, products);
  const stack = await startStack({ dataDir: bench.dataDir, port: 0, quiet: true, env: { LOG_LEVEL: 'warn' } });
  try {
    const catalogPid = stack.processes().find((p) => p.name === 'catalog')?.pid;
    // The OS file cache warm, as on a server that has been up: read the database once.
    for (const file of fs.readdirSync(bench.dataDir).filter((f) => f.startsWith('catalog.sqlite'))) {
      const fd = fs.openSync(path.join(bench.dataDir, file), 'r');
      const buf = Buffer.allocUnsafe(8 << 20);
      while (fs.readSync(fd, buf, 0, buf.length, null) > 0);
      fs.closeSync(fd);
    }
    console.error(`  ${products.toLocaleString('en-US')}: search...`);
    const common = await commonWordAlone(stack);
    const search = await searchLoads(stack, queries);
    console.error(`  ${products.toLocaleString('en-US')}: reads...`);
    const reads = await readLoads(stack, products);
    console.error(`  ${products.toLocaleString('en-US')}: sitemap...`);
    const map = await sitemap(stack, products).catch((err: unknown) => {
      console.error(`  sitemap failed: ${String(err)}`);
      return { files: 0, urls: 0, unique: 0, maxUrls: 0, maxMb: 0, seconds: NaN, gatewayRss: NaN, complete: false };
    });
    const peak = rss(catalogPid).peak;
    await new Promise((r) => setTimeout(r, 30_000)); // at rest again: V8 gives back what the loads' garbage took
    const after = { now: rss(catalogPid).now, peak };
    return { products, seed: seedText, coldStart: cold.seconds, rssAtRest: cold.rssMb, rssAfter: after.now, rssPeak: after.peak, search, common, reads, sitemap: map };
  } finally {
    await stack.stop();
  }
}

const loadBefore = machineLoad();
const results: SizeResult[] = [];
for (const size of sizes) results.push(await measureSize(size));

const cols = results.map((r) => r.products.toLocaleString('en-US'));
const lines = [`| measure | goal | ${cols.join(' | ')} |`, `|---|---|${cols.map(() => '---:').join('|')}|`];
const row = (measure: string, goal: string, cell: (r: SizeResult) => string) => lines.push(`| ${measure} | ${goal} | ${results.map(cell).join(' | ')} |`);
const lat = (x: { rps: number; p50: number; p95: number; bad: string }) =>
  `p95 ${fmt(x.p95)} ms (p50 ${fmt(x.p50)}, ${fmt(x.rps, 0)}/s${x.bad === 'none' ? '' : `, non-200: ${x.bad}`})`;
row('seed', '< 10 min; pace falls < ⅓', (r) => r.seed);
row('catalog cold start to ready', '< 15 s', (r) => `${fmt(r.coldStart)} s`);
row('catalog RSS at rest: after start; 30 s after the loads (peak under load)', '< 1.5 GB', (r) => `${r.rssAtRest} MB; ${r.rssAfter} MB (${r.rssPeak})`);
for (const kind of Object.keys(results[0]!.search)) row(`search via the gateway, ${connections} conn.: ${kind}`, 'p95 ≤ 15 ms', (r) => lat(r.search[kind]!));
for (const word of COMMON_WORDS) row(`"${word}" alone, one request, uncached`, '≤ 5 ms', (r) => `${fmt(r.common[word]!.p50)} ms (max ${fmt(r.common[word]!.max)}; ${r.common[word]!.total.toLocaleString('en-US')} match)`);
for (const kind of Object.keys(results[0]!.reads)) row(`${kind}, ${connections} conn.`, 'p95 < 50 ms', (r) => lat(r.reads[kind]!));
row(
  'sitemap: files, URLs (products once each), largest file',
  '< 50,000 URLs, < 50 MB a file',
  (r) =>
    `${r.sitemap.files} files, ${r.sitemap.urls.toLocaleString('en-US')} URLs, ${r.sitemap.complete ? 'all' : `**${r.sitemap.unique.toLocaleString('en-US')}**`} parts; ≤ ${r.sitemap.maxUrls.toLocaleString('en-US')} URLs, ${fmt(r.sitemap.maxMb)} MB; ${fmt(r.sitemap.seconds)} s; gateway ${r.sitemap.gatewayRss} MB`,
);
console.log(`\n${lines.join('\n')}\n`);
console.log(`Every request distinct, ${seconds} s per load. Machine: ${os.cpus().length} cores; load average ${loadBefore} before, ${machineLoad()} after.`);
process.exit(results.some((r) => !r.sitemap.complete || Object.values({ ...r.search, ...r.reads }).some((x) => x.bad !== 'none')) ? 1 : 0);
