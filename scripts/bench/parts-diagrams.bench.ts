/**
 * Parts diagrams (issue 38) at 500,000 parts (BENCH_DIAGRAMS_PRODUCTS), through the gateway on the embedded stack:
 *  - the assembly page with 40 callouts, server-rendered (the HTML a visitor or a crawler gets: drawing, hotspots and
 *    the whole table), every request a different assembly (so neither the catalog's ready-made answers nor the edge
 *    cache answer it), gzip as browsers ask; one at a time, then BENCH_DIAGRAMS_CONNECTIONS (10) at once;
 *  - the same assemblies' JSON (/api/machines/.../assemblies/...), and a part page's where-used (the product detail);
 *  - how long the demo parts books take to draw from the stored catalogue.
 * Goal: the page's p95 < 100 ms.
 *
 *   npm run bench -- parts-diagrams
 */
import { gzipSync } from 'node:zlib';
import type { Assembly, Callout } from '@forgeline/contracts/parts-diagrams';
import { createSqliteDiagramStore } from '../../services/catalog/src/adapters/sqlite/sqlite-diagram-store.ts';
import { SqliteProductRepository } from '../../services/catalog/src/adapters/sqlite/sqlite-product-repository.ts';
import { stableUuid } from '../../services/catalog/src/domain/stable-uuid.ts';
import { seedDemoDiagrams } from '../../services/catalog/src/seed/seed-catalogue.ts';
import { demoLayout } from '../../services/catalog/src/seed/demo-diagrams.ts';
import { catalogPaths } from '../../services/catalog/src/stores.ts';
import { startStack } from '../lib/stack.ts';
import { benchCatalogue } from './lib/bench-catalogue.ts';
import { fmt, machineLoad, percentile } from './lib/stats.ts';

const PRODUCTS = Number(process.env.BENCH_DIAGRAMS_PRODUCTS ?? 500_000);
const CONNECTIONS = Number(process.env.BENCH_DIAGRAMS_CONNECTIONS ?? 10);
/** Assemblies of 40 callouts made for the bench: each measured request a different one. */
const ASSEMBLIES = Number(process.env.BENCH_DIAGRAMS_ASSEMBLIES ?? 400);
const CALLOUTS = 40;

const catalogue = benchCatalogue(PRODUCTS);
await catalogue.ensureSeeded();
const paths = catalogPaths(catalogue.dataDir);

// The demo's parts books (a catalogue seeded before #38 has none), then the bench's own 40-callout assemblies.
{
  const repo = SqliteProductRepository.open(paths.sqlite, {});
  const diagrams = createSqliteDiagramStore(paths.diagrams);
  try {
    if ((await diagrams.count()) === 0) {
      const started = performance.now();
      const n = await seedDemoDiagrams(repo.scan(5_000), diagrams);
      console.log(`Drew the demo parts books from the stored catalogue: ${n} assemblies in ${fmt((performance.now() - started) / 1000)} s`);
    }
    const [sample] = await diagrams.list({ limit: 1 });
    if (!sample) throw new Error('no demo assemblies: the catalogue has no parts that fit machines');
    const fitting = [...(await repo.idsFitting({ makeSlug: sample.makeSlug, modelSlug: sample.modelSlug }))].slice(0, 2_000);
    const at = new Date().toISOString();
    const changes: Parameters<typeof diagrams.save>[0] = [];
    for (let i = 0; i < ASSEMBLIES; i++) {
      const slug = `bench-section-${i}`;
      const id = stableUuid(`bench-assembly:${sample.makeSlug}/${sample.modelSlug}/${slug}`);
      if (await diagrams.get(id)) continue;
      const layout = demoLayout(slug, CALLOUTS);
      const callouts: Callout[] = layout.map((s, k) => ({
        number: String(k + 1),
        positions: [{ x: Math.round((s.bubble.x / 12) * 100) / 100, y: Math.round((s.bubble.y / 8) * 100) / 100 }],
        partId: fitting[(i * CALLOUTS + k) % fitting.length]!,
        quantity: 1 + (k % 4),
      }));
      const a: Assembly = {
        ...sample,
        id,
        slug,
        name: `Bench section ${i}`,
        callouts,
        diagram: { url: `/media/generated/diagrams/${sample.makeSlug}/${sample.modelSlug}/${slug}-${CALLOUTS}.svg`, width: 1200, height: 800 },
        version: 1,
        updatedAt: at,
        updatedBy: 'bench',
      };
      changes.push({ assembly: a, expected: null, entry: { version: 1, at, actor: 'bench', action: 'create', summary: 'bench' } });
    }
    if (changes.length) await diagrams.save(changes);
  } finally {
    await diagrams.close();
    await repo.close();
  }
}

const diagramsOf = async () => {
  const d = createSqliteDiagramStore(paths.diagrams);
  try {
    const all = await d.list({ search: 'Bench section', limit: ASSEMBLIES });
    return { bench: all, total: await d.count(), models: (await d.models()).length };
  } finally {
    await d.close();
  }
};
const { bench, total, models } = await diagramsOf();

const stack = await startStack({ dataDir: catalogue.dataDir, port: 0, quiet: true, env: { RATE_LIMIT_MULTIPLIER: '1000000', LOG_LEVEL: 'warn' } });
try {
  const headers = { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' };
  const timed = async (url: string, check: (status: number, body: string) => boolean, h: Record<string, string> = headers) => {
    const t = performance.now();
    const res = await fetch(`${stack.url}${url}`, { headers: h });
    const body = await res.text();
    const ms = performance.now() - t;
    if (!check(res.status, body)) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
    // What a browser downloads: the page gzipped (fetch hands the body over inflated).
    return { ms, bytes: gzipSync(body).length };
  };
  const pageUrl = (a: Assembly) => `/machines/${a.makeSlug}/${a.modelSlug}/${a.slug}`;
  const apiUrl = (a: Assembly) => `/api/machines/${a.makeSlug}/${a.modelSlug}/assemblies/${a.slug}`;
  // The table's 40th line is in the HTML: the page was rendered whole on the server.
  const isWhole = (a: Assembly) => (status: number, body: string) => status === 200 && body.includes(`Bench section`) && body.includes('>40<');

  // Warm-up on a few (the first render of the page's code), then every measured request a different assembly.
  const queue = [...bench];
  for (const a of queue.splice(0, 5)) await timed(pageUrl(a), () => true);
  const one: number[] = [];
  let pageBytes = 0;
  for (const a of queue.splice(0, 150)) {
    const r = await timed(pageUrl(a), isWhole(a));
    one.push(r.ms);
    pageBytes = r.bytes;
  }
  const atOnce: number[] = [];
  const pageQueue = queue.splice(0, 150);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let a = pageQueue.shift(); a; a = pageQueue.shift()) atOnce.push((await timed(pageUrl(a), isWhole(a))).ms);
    }),
  );
  const rate = (atOnce.length / (performance.now() - started)) * 1000;
  const api: number[] = [];
  for (const a of queue.splice(0, 90)) api.push((await timed(apiUrl(a), (s) => s === 200, { 'accept-encoding': 'gzip' })).ms);
  // A part page's JSON with its where-used: parts drawn in the bench assemblies (each in several of them).
  const used = [...new Set(bench.flatMap((a) => a.callouts.map((c) => c.partId)))].slice(0, 100);
  const whereUsed: number[] = [];
  for (const id of used) whereUsed.push((await timed(`/api/products/${id}`, (s, b) => s === 200 && b.includes('"whereUsed"'), { 'accept-encoding': 'gzip' })).ms);

  const row = (name: string, ms: number[], extra = '') => {
    const s = [...ms].sort((a, b) => a - b);
    return `| ${name} | ${s.length} | ${fmt(percentile(s, 50))} | ${fmt(percentile(s, 95))} | ${fmt(percentile(s, 99))} | ${fmt(s.at(-1) ?? NaN)} | ${extra} |`;
  };
  console.log(`\n${PRODUCTS.toLocaleString('en-US')} parts, ${total} assemblies of ${models} machine models; every request a different assembly or part; machine load ${machineLoad()}\n`);
  console.log('| request | n | p50 ms | p95 ms | p99 ms | max ms | notes |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  console.log(row('assembly page, 40 callouts, server-rendered (one at a time)', one, `${fmt(pageBytes / 1024)} kB gzip`));
  console.log(row(`assembly page, ${CONNECTIONS} at once`, atOnce, `${fmt(rate, 0)} pages/s`));
  console.log(row('assembly JSON, 40 lines', api));
  console.log(row('part JSON with its where-used', whereUsed));
  const p95 = percentile([...one].sort((a, b) => a - b), 95);
  console.log(`\nGoal: the assembly page's p95 < 100 ms: ${fmt(p95)} ms, ${p95 < 100 ? 'met' : 'MISSED'}.`);
} finally {
  await stack.stop();
}
