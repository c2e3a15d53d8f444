/**
 * Product search at 500,000 products (BENCH_SEARCH_PRODUCTS to change), side by side on the same
 * data and the same labelled queries (the relevance set, services/catalog/src/seed/relevance-set.ts):
 *
 *   - the embedded engine (packages/search-engine, through the catalog's adapter services/catalog/src/adapters/embedded-search),
 *   - MiniSearch (prefix + fuzzy 0.2), Orama (tolerance 1),
 *   - a plain SQL LIKE scan on better-sqlite3 (every word must appear in some field) as the naive baseline.
 *
 * Each engine runs in its own child process (honest resident memory): build time, RSS after a
 * garbage collection, recall@1 and recall@5, p50/p95/p99 latency in process. Slow engines get a time
 * budget for their queries (BENCH_SEARCH_QUERY_SECONDS, default 90 s); the queries are interleaved by
 * kind so a partial run still covers every kind, and the table says how many ran.
 *
 * Then the header search through the gateway (startStack on data/bench-500k, seeded once and shared
 * with catalog-reads.bench.ts) at 50 connections for BENCH_SEARCH_SECONDS (default 15 s), cycling
 * through the relevance queries: p50/p95/p99, requests per second, and the catalog process's RSS;
 * as shipped and with its caches off (BENCH_SEARCH_SETUPS=1,3 picks rows).
 *
 * The embedded engine also answers the infix set (#36: the last 4 to 6 characters of 500 random part numbers and SKUs,
 * with and without separators; services/catalog/src/seed/infix-relevance-set.ts): recall@5 and latency, the bytes of
 * its piece index, and its snapshot's size on disk.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createInterface } from 'node:readline';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Product } from '@forgeline/contracts/products';
import { generateProducts } from '../../services/catalog/src/seed/generate.ts';
import { buildRelevanceSet, recall, type RelevanceQuery } from '../../services/catalog/src/seed/relevance-set.ts';
import { buildInfixRelevanceSet, type InfixRelevanceQuery } from '../../services/catalog/src/seed/infix-relevance-set.ts';
import { runLoad } from './lib/load.ts';
import { percentile } from './lib/stats.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const products = Number(process.env.BENCH_SEARCH_PRODUCTS ?? 500_000);
const querySeconds = Number(process.env.BENCH_SEARCH_QUERY_SECONDS ?? 90);
const gatewaySeconds = Number(process.env.BENCH_SEARCH_SECONDS ?? 15);
const connections = Number(process.env.BENCH_SEARCH_CONNECTIONS ?? 50);
const label = products % 1000 === 0 ? `${products / 1000}k` : String(products);
const cacheDir = path.join(repoRoot, 'data', 'bench-search');
const productsFile = path.join(cacheDir, `products-${label}.ndjson`);
const queriesFile = path.join(cacheDir, `relevance-${label}.json`);
const infixFile = path.join(cacheDir, `infix-${label}.json`);

const ENGINES = ['embedded', 'minisearch', 'orama', 'sqlite-like'] as const;
type Engine = (typeof ENGINES)[number];

/** The fields every engine indexes (the rest of a product does not take part in search). */
type SlimProduct = Pick<Product, 'id' | 'name' | 'partNumber' | 'sku' | 'brandName' | 'brand' | 'category' | 'tags' | 'make'>;

interface EngineResult {
  engine: Engine;
  buildMs: number;
  rssMb: number;
  heapMb: number;
  reopenMs?: number;
  reopenRssMb?: number;
  queriesRun: number;
  queriesTotal: number;
  recallAt1: number;
  recallAt5: number;
  p50: number;
  p95: number;
  p99: number;
  note?: string;
  /** The embedded engine: its snapshot folder's bytes, its piece index's bytes, and the infix set's answers. */
  diskMb?: number;
  infixIndexMb?: number;
  infix?: { queries: number; recallAt5: number; p50: number; p95: number };
}

const mb = (bytes: number) => Math.round(bytes / 1e6);
const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

// ------------------------------------------------------------------ data (parent, cached)

async function ensureData(): Promise<RelevanceQuery[]> {
  if (fs.existsSync(productsFile) && fs.existsSync(queriesFile)) {
    if (!fs.existsSync(infixFile)) {
      const slim: Product[] = [];
      for await (const batch of readProducts()) slim.push(...batch);
      fs.writeFileSync(infixFile, JSON.stringify(buildInfixRelevanceSet(slim, { targets: 500 })));
    }
    return JSON.parse(fs.readFileSync(queriesFile, 'utf8')) as RelevanceQuery[];
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  console.log(`Generating ${products.toLocaleString('en-US')} products and the relevance set into ${path.relative(repoRoot, cacheDir)} (once)...`);
  const slim: SlimProduct[] = [];
  const out = fs.createWriteStream(`${productsFile}.tmp`);
  for (const p of generateProducts({ count: products })) {
    const s: SlimProduct = { id: p.id, name: p.name, partNumber: p.partNumber, sku: p.sku, brandName: p.brandName, brand: p.brand, category: p.category, tags: p.tags, make: p.make };
    slim.push(s);
    if (!out.write(`${JSON.stringify(s)}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  fs.renameSync(`${productsFile}.tmp`, productsFile);
  const set = buildRelevanceSet(slim as Product[], { targets: 80 });
  fs.writeFileSync(queriesFile, JSON.stringify(set));
  fs.writeFileSync(infixFile, JSON.stringify(buildInfixRelevanceSet(slim as Product[], { targets: 500 })));
  return set;
}

/** Queries interleaved by kind, so a run cut short by its time budget still covers every kind. */
function interleave(set: RelevanceQuery[]): RelevanceQuery[] {
  const byKind = new Map<string, RelevanceQuery[]>();
  for (const q of set) byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), q]);
  const lists = [...byKind.values()];
  const out: RelevanceQuery[] = [];
  for (let i = 0; out.length < set.length; i++) for (const l of lists) if (i < l.length) out.push(l[i]!);
  return out;
}

async function* readProducts(batchSize = 5000): AsyncIterable<Product[]> {
  const rl = createInterface({ input: fs.createReadStream(productsFile), crlfDelay: Infinity });
  let batch: Product[] = [];
  for await (const line of rl) {
    if (!line) continue;
    const s = JSON.parse(line) as SlimProduct;
    batch.push({ ...s, description: '', imageUrl: '', inStock: true, slug: '', price: 0, images: [], availability: '', specifications: {}, weight: '', dimensions: '', createdAt: '' });
    if (batch.length === batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

// ------------------------------------------------------------------ child: one engine

interface Searcher {
  search(q: string): Promise<string[]> | string[];
  /** For the embedded engine: close and reopen from its snapshot. */
  reopen?(): Promise<number>;
  /** For the embedded engine: bytes of its piece index. */
  infixBytes?(): number;
}

async function buildEngine(engine: Engine, tmp: string): Promise<Searcher> {
  switch (engine) {
    case 'embedded': {
      const { EmbeddedSearchIndex } = await import('../../services/catalog/src/adapters/embedded-search/embedded-search-index.ts');
      let index = await EmbeddedSearchIndex.open(tmp);
      await index.rebuild(readProducts());
      return {
        search: async (q) => (await index.search(q, { limit: 5, offset: 0 })).hits.map((h) => h.id),
        infixBytes: () => index.stats().infixBytes,
        reopen: async () => {
          await index.close();
          const started = performance.now();
          index = await EmbeddedSearchIndex.open(tmp);
          return performance.now() - started;
        },
      };
    }
    case 'minisearch': {
      const { default: MiniSearch } = await import('minisearch');
      const ms = new MiniSearch<SlimProduct>({
        fields: ['name', 'partNumber', 'sku', 'brandName', 'category', 'tags'],
        extractField: (doc, field) => {
          const v = (doc as unknown as Record<string, unknown>)[field];
          return Array.isArray(v) ? v.join(' ') : (v as string);
        },
        searchOptions: { prefix: true, fuzzy: 0.2 },
      });
      for await (const batch of readProducts()) ms.addAll(batch);
      return { search: (q) => ms.search(q).slice(0, 5).map((r) => String(r.id)) };
    }
    case 'orama': {
      const { create, insertMultiple, search } = await import('@orama/orama');
      const db = create({
        schema: { name: 'string', partNumber: 'string', sku: 'string', brandName: 'string', category: 'string', tags: 'string[]' } as const,
      });
      for await (const batch of readProducts()) {
        await insertMultiple(
          db,
          batch.map((p) => ({ id: p.id, name: p.name, partNumber: p.partNumber, sku: p.sku, brandName: p.brandName, category: p.category, tags: p.tags })),
          5000,
        );
      }
      return {
        search: async (q) => {
          const r = await search(db, { term: q, tolerance: 1, limit: 5 });
          return r.hits.map((h) => String(h.id));
        },
      };
    }
    case 'sqlite-like': {
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(path.join(tmp, 'like.sqlite'));
      db.pragma('journal_mode = WAL');
      db.exec('CREATE TABLE p (id TEXT PRIMARY KEY, name TEXT, partNumber TEXT, sku TEXT, brandName TEXT, category TEXT, tags TEXT)');
      const insert = db.prepare('INSERT INTO p VALUES (?, ?, ?, ?, ?, ?, ?)');
      const many = db.transaction((rows: Product[]) => {
        for (const r of rows) insert.run(r.id, r.name, r.partNumber, r.sku, r.brandName, r.category, r.tags.join(' '));
      });
      for await (const batch of readProducts()) many(batch);
      const cache = new Map<number, { all: (...args: string[]) => unknown[] }>();
      return {
        search: (q) => {
          const words = q.split(/\s+/).filter(Boolean).slice(0, 10);
          if (words.length === 0) return [];
          let stmt = cache.get(words.length);
          if (!stmt) {
            const clause = '(name LIKE ? OR partNumber LIKE ? OR sku LIKE ? OR brandName LIKE ? OR category LIKE ? OR tags LIKE ?)';
            stmt = db.prepare<string[]>(`SELECT id FROM p WHERE ${words.map(() => clause).join(' AND ')} LIMIT 5`);
            cache.set(words.length, stmt);
          }
          const args: string[] = words.flatMap((w) => Array<string>(6).fill(`%${w.replace(/[%_]/g, '')}%`));
          return (stmt.all(...args) as Array<{ id: string }>).map((r) => r.id);
        },
      };
    }
  }
}

async function runChild(engine: Engine): Promise<void> {
  const set = interleave(JSON.parse(fs.readFileSync(queriesFile, 'utf8')) as RelevanceQuery[]);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `search-bench-${engine}-`));
  const gc = (globalThis as { gc?: () => void }).gc;
  try {
    const started = performance.now();
    const searcher = await buildEngine(engine, tmp);
    const buildMs = performance.now() - started;
    gc?.();
    gc?.();
    const mem = process.memoryUsage();
    const result: Partial<EngineResult> = { engine, buildMs, rssMb: mb(mem.rss), heapMb: mb(mem.heapUsed) };
    if (searcher.reopen) {
      result.reopenMs = await searcher.reopen();
      gc?.();
      gc?.();
      result.reopenRssMb = mb(process.memoryUsage().rss);
    }
    // Warm up (JIT) for the same time for every engine: up to one pass or 10 s, then time every
    // query once, within the budget.
    const warmUntil = performance.now() + 10_000;
    for (const q of set) {
      await searcher.search(q.q);
      if (performance.now() > warmUntil) break;
    }
    const latencies: number[] = [];
    const results: string[][] = [];
    const deadline = performance.now() + querySeconds * 1000;
    for (const q of set) {
      const t = performance.now();
      const ids = await searcher.search(q.q);
      latencies.push(performance.now() - t);
      results.push(ids);
      if (performance.now() > deadline) break;
    }
    const ran = set.slice(0, results.length);
    latencies.sort((a, b) => a - b);
    Object.assign(result, {
      queriesRun: results.length,
      queriesTotal: set.length,
      recallAt1: recall(ran, results, 1).overall,
      recallAt5: recall(ran, results, 5).overall,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
    });
    if (searcher.infixBytes) {
      result.infixIndexMb = mb(searcher.infixBytes());
      result.diskMb = mb(fs.readdirSync(tmp).reduce((n, f) => n + fs.statSync(path.join(tmp, f)).size, 0));
      const infixSet = JSON.parse(fs.readFileSync(infixFile, 'utf8')) as InfixRelevanceQuery[];
      const times: number[] = [];
      const found: string[][] = [];
      for (const q of infixSet) {
        const t = performance.now();
        found.push(await searcher.search(q.q));
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      result.infix = { queries: infixSet.length, recallAt5: recall(infixSet, found, 5).overall, p50: percentile(times, 50), p95: percentile(times, 95) };
    }
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function runEngineInChild(engine: Engine): EngineResult {
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=6144', '--import', 'tsx', fileURLToPath(import.meta.url), '--child', engine], {
    cwd: repoRoot,
    env: process.env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) {
    return { engine, buildMs: NaN, rssMb: NaN, heapMb: NaN, queriesRun: 0, queriesTotal: 0, recallAt1: NaN, recallAt5: NaN, p50: NaN, p95: NaN, p99: NaN, note: `failed (exit ${r.status ?? r.signal})` };
  }
  return JSON.parse(line.slice('RESULT '.length)) as EngineResult;
}

// ------------------------------------------------------------------ through the gateway

const gatewayDataDir = path.join(repoRoot, 'data', `bench-${label}`);

/** Seeds data/bench-<label> once with cli/seed.ts, in the format catalog-reads.bench.ts also reuses. */
async function ensureSeeded(): Promise<void> {
  const timingFile = path.join(gatewayDataDir, 'seed-timing.json');
  if (fs.existsSync(timingFile) && (JSON.parse(fs.readFileSync(timingFile, 'utf8')) as { products: number }).products === products) return;
  fs.rmSync(gatewayDataDir, { recursive: true, force: true });
  fs.mkdirSync(gatewayDataDir, { recursive: true });
  console.log(`Seeding ${products.toLocaleString('en-US')} products into ${path.relative(repoRoot, gatewayDataDir)} (once)...`);
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/catalog/src/cli/seed.ts', '--products', String(products)], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: gatewayDataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`cli/seed.ts exited with ${code}`);
  fs.writeFileSync(timingFile, JSON.stringify({ products, seconds: (performance.now() - started) / 1000, at: new Date().toISOString() }, null, 2));
}

/** Resident memory of the catalog process serving `dataDir` on `port` (found through /proc), in MB. */
function catalogRssMb(dataDir: string, port: string): number {
  try {
    for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (!cmd.includes('services/catalog/src/main.ts')) continue;
        const env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        if (!env.includes(`DATA_DIR=${dataDir}`) || !env.includes(`PORT=${port}`)) continue;
        const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
        if (kb) return Math.round(kb / 1000);
      } catch {
        // a process that ended while we looked
      }
    }
  } catch {
    // no /proc (not Linux)
  }
  return NaN;
}

async function waitForIndex(url: string, probe: RelevanceQuery): Promise<boolean> {
  const readyBy = Date.now() + 15 * 60_000;
  for (let waited = false; ; waited = true) {
    const check = await fetch(`${url}/api/products?search=${encodeURIComponent(probe.q)}&limit=10`);
    if (!check.ok) throw new Error(`header search answered ${check.status}: ${await check.text()}`);
    const body = (await check.json()) as { products: Array<{ id: string }> };
    if (body.products.some((p) => p.id === probe.productId)) return waited;
    if (Date.now() > readyBy) throw new Error('the search index was not ready after 15 minutes');
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/**
 * The header search through the gateway, as shipped (the gateway's edge cache and the catalog's
 * response cache on: a query asked again within seconds is answered from memory), then with each
 * cache turned off, down to every request running the search and the store lookup.
 */
const GATEWAY_SETUPS: Array<{ label: string; env: Record<string, string> }> = [
  { label: 'as shipped: edge cache + catalog response cache', env: {} },
  { label: 'catalog response cache only (EDGE_CACHE_MB=0)', env: { EDGE_CACHE_MB: '0' } },
  { label: 'no cache: every request searches (also RESPONSE_CACHE_MB=0)', env: { EDGE_CACHE_MB: '0', RESPONSE_CACHE_MB: '0' } },
];

async function throughGateway(set: RelevanceQuery[]): Promise<string> {
  await ensureSeeded();
  const { startStack } = await import('../lib/stack.ts');
  const start = (env: Record<string, string> = {}) => startStack({ dataDir: gatewayDataDir, port: 0, quiet: true, env: { LOG_LEVEL: 'warn', ...env } });
  const probe = set.find((q) => q.kind === 'exact-number')!;
  // The catalog rebuilds its index at start when it is missing or from an older engine. Wait for
  // it once, so every measured process is the usual one: started from its snapshot.
  const first = await start();
  try {
    await waitForIndex(first.url, probe);
  } finally {
    await first.stop();
  }
  const paths = set.map((q) => `/api/products?search=${encodeURIComponent(q.q)}&limit=10`);
  const rows = [
    `| header search through the gateway, ${set.length} relevance queries in turn | connections | requests | req/s | p50 ms | p95 ms | p99 ms | catalog RSS MB | non-200 |`,
    `|---|---:|---:|---:|---:|---:|---:|---:|---|`,
  ];
  for (const setup of GATEWAY_SETUPS.filter((_, i) => process.env.BENCH_SEARCH_SETUPS === undefined || process.env.BENCH_SEARCH_SETUPS.split(',').includes(String(i + 1)))) {
    const stack = await start(setup.env);
    try {
      await waitForIndex(stack.url, probe);
      for (const p of paths.slice(0, 50)) await (await fetch(`${stack.url}${p}`)).arrayBuffer(); // warm-up
      let i = 0;
      const load = await runLoad({ url: stack.url, connections, seconds: gatewaySeconds, nextPath: () => paths[i++ % paths.length]! });
      const rss = catalogRssMb(stack.dataDir, new URL(stack.serviceUrls.catalog ?? 'http://x:0').port);
      rows.push(`| ${setup.label} | ${connections} | ${load.requests} | ${fmt(load.rps, 0)} | ${fmt(load.p50, 1)} | ${fmt(load.p95, 1)} | ${fmt(load.p99, 1)} | ${rss} | ${load.bad} |`);
    } finally {
      await stack.stop();
    }
  }
  return rows.join('\n');
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) return runChild(process.argv[childAt + 1] as Engine);

  const set = await ensureData();
  const only = (process.env.BENCH_SEARCH_ENGINES ?? ENGINES.join(',')).split(',') as Engine[];
  console.log(`Search at ${products.toLocaleString('en-US')} products, ${set.length} labelled queries, ${os.cpus().length} cores, Node ${process.version}\n`);
  const rows: EngineResult[] = [];
  for (const engine of ENGINES.filter((e) => only.includes(e))) {
    console.error(`  running ${engine}...`);
    rows.push(runEngineInChild(engine));
  }
  if (rows.length) console.log('| engine | recall@1 | recall@5 | p50 ms | p95 ms | p99 ms | build s | RSS MB (heap) | queries run |');
  if (rows.length) console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const rss = `${r.rssMb} (${r.heapMb})${r.reopenRssMb !== undefined ? `; ${r.reopenRssMb} after reopening from its snapshot in ${fmt((r.reopenMs ?? NaN) / 1000, 1)} s` : ''}`;
    console.log(
      `| ${r.engine} | ${fmt(r.recallAt1, 3)} | ${fmt(r.recallAt5, 3)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${fmt(r.buildMs / 1000, 1)} | ${rss} | ${r.queriesRun}/${r.queriesTotal}${r.note ? ` ${r.note}` : ''}${r.queriesRun < r.queriesTotal && !r.note ? ` (${querySeconds} s budget)` : ''} |`,
    );
  }
  for (const r of rows) {
    if (r.diskMb !== undefined) console.log(`\n${r.engine}: snapshot on disk ${r.diskMb} MB; piece index (any part of a number) ${r.infixIndexMb ?? 'none'} MB in memory`);
    if (r.infix) console.log(`${r.engine}, infix set: ${r.infix.queries} queries, recall@5 ${fmt(r.infix.recallAt5, 3)}, p50 ${fmt(r.infix.p50)} ms, p95 ${fmt(r.infix.p95)} ms`);
  }
  console.log('');
  if (process.env.BENCH_SEARCH_GATEWAY !== '0') console.log(await throughGateway(set));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
