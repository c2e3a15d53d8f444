/**
 * A buyer's fleet as a listing filter (issue 35) at 500,000 parts (BENCH_FLEET_PRODUCTS to change), on the shared
 * seeded catalogue (data/bench-<N>): 50 machines picked from the fitment data (50 models, each with a serial taken
 * from one of its fits' ranges, so ranges decide), and category listings (75 parts) filtered by one of them (`make`,
 * `model`, `serial`) against the same listings filtered by all 50 (`machines`). Every request is distinct: a category
 * the filter has parts in, any offset within its first five pages (so the store's kept pages seldom answer either),
 * and an ignored `r`, so neither the catalog's ready-made answers nor the gateway's edge cache answer it; gzip is asked
 * for, as a browser does. Through the gateway, one connection (service time) and BENCH_FLEET_CONNECTIONS (50),
 * BENCH_FLEET_SECONDS (10) each. The goal: the fleet's p95 at most twice one machine's.
 *
 * Two more rows for reading the first two: one machine on full pages only (pairs with two pages or more, an offset
 * with a full page after it), since a machine's pages hold fewer parts than the fleet's (the table's "parts" column, from
 * 100 answers each), and every part costs its summary and its bytes; and a new fleet of 50 on every request (drawn
 * from every model), the worst
 * case: the store keeps a listing's count per filter and data version, for a fleet as for one machine, and a new
 * fleet never finds one.
 */
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { serialInRange } from '../../services/catalog/src/domain/part-history.ts';
import { catalogPaths } from '../../services/catalog/src/stores.ts';
import { startStack } from '../lib/stack.ts';
import { benchCatalogue } from './lib/bench-catalogue.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { fmt, machineLoad } from './lib/stats.ts';

const products = Number(process.env.BENCH_FLEET_PRODUCTS ?? 500_000);
const seconds = Number(process.env.BENCH_FLEET_SECONDS ?? 10);
const connections = Number(process.env.BENCH_FLEET_CONNECTIONS ?? 50);
const FLEET_SIZE = 50;
const PAGE = 75;
/** Pages a buyer plausibly reaches: 1 to this. */
const MAX_PAGES = 5;
const { dataDir, ensureSeeded } = benchCatalogue(products);

const randInt = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(xs: T[]): T => xs[randInt(xs.length)]!;
const shuffled = <T>(xs: T[]): T[] => {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randInt(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

interface Machine {
  make: string;
  model: string;
  serial: string;
}

const seed = await ensureSeeded();

// The machines: every model parts fit, each with a serial from one of its ranged fits (its start, inside the range).
const db = new Database(catalogPaths(dataDir).sqlite, { readonly: true });
const models = db
  .prepare<[], Machine>(
    `SELECT make_slug AS make, model_slug AS model, MIN(coalesce(serial_from, serial_to)) AS serial FROM product_fits
     WHERE serial_from IS NOT NULL OR serial_to IS NOT NULL GROUP BY make_slug, model_slug`,
  )
  .all();
const fleet = shuffled(models).slice(0, FLEET_SIZE);
// How many parts each machine, and the fleet, has in each category (serials in their ranges): where the pages are.
db.function('serial_in_range', { deterministic: true }, (serial: unknown, from: unknown, to: unknown) =>
  serialInRange(String(serial), typeof from === 'string' ? from : undefined, typeof to === 'string' ? to : undefined) ? 1 : 0,
);
const fitting = `FROM json_each(?) m JOIN product_fits f ON f.make_slug = m.value ->> 0 AND f.model_slug = m.value ->> 1
  WHERE serial_in_range(m.value ->> 2, f.serial_from, f.serial_to)`;
const fleetJson = JSON.stringify(fleet.map((m) => [m.make, m.model, m.serial]));
const perMachine = db
  .prepare<[string], { i: number; category: string; n: number }>(`SELECT m.key AS i, f.category_slug AS category, COUNT(DISTINCT f.product_id) AS n ${fitting} GROUP BY 1, 2`)
  .all(fleetJson);
const perCategory = db
  .prepare<[string], { category: string; n: number }>(`SELECT f.category_slug AS category, COUNT(DISTINCT f.product_id) AS n ${fitting} GROUP BY 1`)
  .all(fleetJson);
db.close();
const singles = perMachine.map((c) => ({ machine: fleet[c.i]!, category: c.category, total: c.n }));
const fleetCategories = perCategory.map((c) => [c.category, c.n] as const);
const fullSingles = singles.filter((s) => s.total >= 2 * PAGE);

const entry = (m: Machine) => `${m.make}~${m.model}~${m.serial}`;
const fleetParam = encodeURIComponent(fleet.map(entry).join(','));
/** Any offset with parts after it, within the first pages: pages rarely repeat, so the store's kept pages rarely answer. */
const offsetWithin = (total: number) => randInt(Math.max(1, Math.min(total, MAX_PAGES * PAGE)));
let n = 0;

interface Scenario {
  name: string;
  note: string;
  nextPath: () => string;
}
const scenarios: Scenario[] = [
  {
    name: '1 machine',
    note: `make, model, serial: one of the fleet's ${FLEET_SIZE} machines, a category it has parts in (${singles.length} pairs), any offset in its first ${MAX_PAGES} pages`,
    nextPath: () => {
      const s = pick(singles);
      return `/api/products?category=${s.category}&limit=${PAGE}&offset=${offsetWithin(s.total)}&make=${s.machine.make}&model=${s.machine.model}&serial=${s.machine.serial}&r=${n++}`;
    },
  },
  {
    name: '1 machine, full pages',
    note: `as above, only the ${fullSingles.length} pairs with 2 pages or more, an offset with a full page after it`,
    nextPath: () => {
      const s = pick(fullSingles);
      const offset = randInt(Math.min(s.total - PAGE, (MAX_PAGES - 1) * PAGE) + 1);
      return `/api/products?category=${s.category}&limit=${PAGE}&offset=${offset}&make=${s.machine.make}&model=${s.machine.model}&serial=${s.machine.serial}&r=${n++}`;
    },
  },
  {
    name: `fleet of ${FLEET_SIZE}`,
    note: `machines=make~model~serial ×${FLEET_SIZE} (the same fleet), any of ${fleetCategories.length} categories, any offset in its first ${MAX_PAGES} pages`,
    nextPath: () => {
      const [category, total] = pick(fleetCategories);
      return `/api/products?category=${category}&limit=${PAGE}&offset=${offsetWithin(total)}&machines=${fleetParam}&r=${n++}`;
    },
  },
  {
    name: `a new fleet of ${FLEET_SIZE} each request`,
    note: `${FLEET_SIZE} of all ${models.length} models, drawn again for every request (no count kept helps), any category, its first page`,
    nextPath: () => {
      const [category] = pick(fleetCategories);
      const machines = encodeURIComponent(shuffled(models).slice(0, FLEET_SIZE).map(entry).join(','));
      return `/api/products?category=${category}&limit=${PAGE}&machines=${machines}&r=${n++}`;
    },
  },
];

const stack = await startStack({ dataDir, port: 0, quiet: true, env: { LOG_LEVEL: 'warn' } });
let failed = false;
try {
  const headers = { 'accept-encoding': 'gzip' };
  // Sanity: each answers 200, the fleet's parts say which machines they fit; and how many parts an answer holds.
  const partsPerAnswer = new Map<Scenario, number>();
  for (const s of scenarios) {
    let parts = 0;
    for (let i = 0; i < 100; i++) {
      const p = s.nextPath();
      const res = await fetch(stack.url + p);
      const body = (await res.json()) as { products?: { fitsMachines?: number[] }[] };
      if (!res.ok) throw new Error(`${s.name}: ${p.slice(0, 200)} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
      if (s.name.includes('fleet') && !body.products!.every((x) => x.fitsMachines?.length)) throw new Error(`${s.name}: a part without fitsMachines`);
      parts += body.products!.length;
    }
    partsPerAnswer.set(s, parts / 100);
  }
  const started = performance.now();
  for (const s of scenarios) await runLoad({ url: stack.url, connections: 10, seconds: 3, nextPath: s.nextPath, headers });
  console.log(`(warm-up took ${fmt((performance.now() - started) / 1000)} s)`);

  const loadBefore = machineLoad();
  const results: { conns: number; scenario: Scenario; r: LoadResult }[] = [];
  for (const conns of [1, connections]) {
    for (const scenario of scenarios) results.push({ conns, scenario, r: await runLoad({ url: stack.url, connections: conns, seconds, nextPath: scenario.nextPath, headers }) });
  }
  const loadAfter = machineLoad();

  console.log(
    `\nSeed: ${products.toLocaleString('en-US')} products in ${fmt(seed.seconds)} s${seed.cached ? `, measured ${seed.at} (cached catalogue reused)` : ''}. ` +
      `The fleet: ${fleet.map((m) => `${m.make} ${m.model}`).slice(0, 3).join(', ')}… (${FLEET_SIZE} of ${models.length} models).\n`,
  );
  console.log(`Category pages through the gateway, every request distinct, gzip, ${seconds} s each; SQLite + embedded search\n`);
  console.log('| filter | connections | parts | requests | req/s | p50 ms | p95 ms | p99 ms | p95 ÷ 1 machine | non-200 | what is asked |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|');
  for (const { conns, scenario, r } of results) {
    const single = results.find((x) => x.conns === conns && x.scenario === scenarios[0])!.r;
    console.log(
      `| ${scenario.name} | ${conns} | ${fmt(partsPerAnswer.get(scenario)!)} | ${r.requests.toLocaleString('en-US')} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${fmt(r.p95 / single.p95, 2)} | ${r.bad} | ${scenario.note} |`,
    );
    if (r.bad !== 'none') failed = true;
  }
  console.log(
    `\nGoal: the fleet's p95 ≤ 2 × one machine's (the "fleet of ${FLEET_SIZE}" row against "1 machine" at each concurrency); parts: per answer, the mean of 100. Machine: ${os.cpus().length} cores, load average (1/5/15 min) ${loadBefore} before, ${loadAfter} after.`,
  );
  console.log(`Data: ${path.relative(process.cwd(), dataDir)}.`);
} finally {
  await stack.stop();
}
process.exit(failed ? 1 : 0);
