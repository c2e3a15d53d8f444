/**
 * A 500,000-row catalogue import into the 500,000-part store (BENCH_IMPORT_ROWS to change; BENCH_IMPORT_STORE=2000000
 * with BENCH_IMPORT_ROWS=2000000 is issue 33's two-million run, on data/bench-2000k): half the rows change
 * parts that exist (a new price and stock), half are new parts; every column but description and specifications
 * (a daily ERP feed). The store is a copy of data/bench-500k
 * (seeded once, shared with the other benchmarks), so every run starts from the same catalogue.
 * Measured: time, rows/s and the peak RSS of every process (goals: < 3 minutes, < 1 GB per process), and
 * header-search latency through the gateway while the import runs against idle (distinct queries; goal: p95 < 2×).
 */
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { CatalogImportJob } from '../../packages/contracts/src/catalog-admin.ts';
import { CATALOG_COLUMNS, exportRow } from '../../services/catalog/src/domain/catalog-import.ts';
import { generateProducts } from '../../services/catalog/src/seed/generate.ts';
import { repoRoot, startStack } from '../lib/stack.ts';
import { benchCatalogue } from './lib/bench-catalogue.ts';
import { gatewayAssertionHeaders } from '../../packages/service-kit/src/gateway-assertion.ts';
import { fmt, percentile } from './lib/stats.ts';

const STORE = Number(process.env.BENCH_IMPORT_STORE ?? 500_000);
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 500_000);
const shared = benchCatalogue(STORE);
const source = shared.dataDir;
const dataDir = path.join(repoRoot, 'data', 'bench-import');

// The store: a fresh copy of the shared 500,000-part catalogue (seeded by the first benchmark that needs it).
await shared.ensureSeeded();
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
for (const f of ['catalog.sqlite', 'catalog-search', '.service-token']) {
  if (fs.existsSync(path.join(source, f))) fs.cpSync(path.join(source, f), path.join(dataDir, f), { recursive: true });
}

// The file: every other generated part changed, and as many new parts.
const file = path.join(dataDir, 'import.csv');
{
  const t0 = performance.now();
  const out = fs.openSync(file, 'w');
  const write = (rows: string[][]) => fs.writeSync(out, stringify(rows));
  // An ERP's daily feed: every column but the long text ones (descriptions and specifications stay as they are).
  const keep = CATALOG_COLUMNS.map((c, i) => [c, i] as const).filter(([c]) => c !== 'description' && c !== 'specifications');
  const pick = (row: string[]) => keep.map(([, i]) => row[i]!);
  write([keep.map(([c]) => c)]);
  let n = 0;
  let buf: string[][] = [];
  for (const p of generateProducts({ count: STORE })) {
    if (n >= ROWS) break;
    if (n % 2 === 0) {
      buf.push(pick(exportRow({ ...p, price: Math.round(p.price * 107) / 100, inStock: !p.inStock, availability: p.inStock ? 'Special Order' : 'In Stock' })));
    } else {
      buf.push(pick(exportRow({ ...p, id: '', sku: `NEW-${p.sku}-${n}`, partNumber: `${p.partNumber}-N${n % 97}`, createdAt: '' })));
    }
    n++;
    if (buf.length === 5000) {
      write(buf);
      buf = [];
    }
  }
  write(buf);
  fs.closeSync(out);
  console.log(`Wrote ${fmt(ROWS, 0)} rows (${fmt(fs.statSync(file).size / 1024 / 1024)} MB) in ${fmt((performance.now() - t0) / 1000)} s`);
}

/**
 * The stack's processes (this one's descendants), by service, with their peak RSS in MB. Read from /proc in a few
 * milliseconds: this thread also times the searches (a pgrep per process held it ~100 ms, which the searches of that
 * moment counted as their own latency).
 */
function processes(): { name: string; pid: number; peakMb: number; rssMb: number }[] {
  const out: { name: string; pid: number; peakMb: number; rssMb: number }[] = [];
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid ...: the command may hold spaces and parentheses, so read after its last ')'.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const walk = (pid: number) => {
    for (const k of children.get(pid) ?? []) {
      try {
        const cmd = fs.readFileSync(`/proc/${k}/cmdline`, 'utf8').replaceAll('\0', ' ');
        // The services, and the catalog's import and index merge processes (each ends with its job: sampled while it runs).
        const m = /(services\/[\w-]+|gateway)\/src\/main\.ts|catalog\/src\/jobs\/(catalog-import-worker)\.ts|search-engine\/src\/persistence\/(merge-process)\.ts/.exec(cmd);
        const status = fs.readFileSync(`/proc/${k}/status`, 'utf8');
        const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
        const rss = /VmRSS:\s+(\d+) kB/.exec(status);
        const name = m?.[2] ? 'catalog import process' : m?.[3] ? 'search index merge process' : m?.[1]?.replace('services/', '');
        if (name && hwm && rss) out.push({ name, pid: k, peakMb: Number(hwm[1]) / 1024, rssMb: Number(rss[1]) / 1024 });
      } catch {
        // gone
      }
      walk(k);
    }
  };
  walk(process.pid);
  return out;
}

const stack = await startStack({ dataDir, port: 0, seedProducts: STORE, quiet: true, env: { LOG_LEVEL: 'warn', RATE_LIMIT_MULTIPLIER: '1000' } });
try {
  const catalog = stack.serviceUrls.catalog!;
  // Header searches: distinct part-number prefixes and words, so no answer comes from a cache.
  const words = ['filter', 'seal', 'bearing', 'pump', 'hose', 'gasket', 'valve', 'sensor', 'piston', 'bushing', 'injector', 'track', 'roller', 'motor'];
  let q = 0;
  const nextQuery = () => {
    q++;
    return q % 2 ? `${words[q % words.length]} ${String.fromCharCode(97 + (q % 26))}${q % 10}` : `${String(1000 + ((q * 7919) % 9000))}`;
  };
  const searchOnce = async () => {
    const t0 = performance.now();
    const res = await fetch(`${stack.url}/api/products?search=${encodeURIComponent(nextQuery())}&limit=10`);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`search answered ${res.status}`);
    return performance.now() - t0;
  };
  const searches = async (until: () => boolean, minCount = 0) => {
    const ms: number[] = [];
    // Two searchers at a time, as a few visitors typing.
    await Promise.all(
      [0, 1].map(async () => {
        while (!until() || ms.length < minCount) {
          ms.push(await searchOnce());
          await new Promise((r) => setTimeout(r, 20));
        }
      }),
    );
    return ms.sort((a, b) => a - b);
  };

  for (let i = 0; i < 50; i++) await searchOnce(); // warm up
  const idleStop = Date.now() + 15_000;
  const idle = await searches(() => Date.now() > idleStop);

  const before = new Map(processes().map((p) => [p.pid, p.rssMb]));
  const form = new FormData();
  form.append('file', await fs.openAsBlob(file), 'import.csv');
  const started = performance.now();
  const res = await fetch(`${catalog}/api/admin/catalog/imports`, { method: 'POST', body: form, headers: await gatewayAssertionHeaders(stack.env.SERVICE_TOKEN!, 'bench@example.com') });
  const { id } = (await res.json()) as { id: string };
  if (res.status !== 202) throw new Error(`import answered ${res.status}`);
  const accepted = performance.now() - started;

  let job: CatalogImportJob | null = null;
  const poll = (async () => {
    for (;;) {
      job = (await (await fetch(`${catalog}/api/admin/catalog/imports/${id}`, { headers: await gatewayAssertionHeaders(stack.env.SERVICE_TOKEN!, 'bench@example.com') })).json()) as CatalogImportJob;
      if (!['queued', 'running'].includes(job.state)) return;
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  let done = false;
  void poll.then(() => (done = true));
  // Every process's peak, sampled each second: the import process is gone by the end.
  const peaks = new Map<number, { name: string; atEnd: number; peak: number }>();
  let importDone = false;
  const sample = () => {
    for (const p of processes()) {
      const seen = peaks.get(p.pid) ?? { name: p.name, atEnd: 0, peak: 0 };
      seen.peak = Math.max(seen.peak, p.peakMb);
      if (!importDone) seen.atEnd = seen.peak;
      peaks.set(p.pid, seen);
    }
  };
  const sampler = setInterval(sample, 1000);
  const during = await searches(() => done);
  await poll;
  sample();
  importDone = true;
  const seconds = (performance.now() - started) / 1000;
  const finished = job as unknown as CatalogImportJob;
  // After the import: the search index's full merge starts once writes have paused 10 s, in a process of its own,
  // and the catalog then loads its result; search goes on meanwhile. Measured until 10 s after that process ends.
  const afterStart = Date.now();
  let mergeSeen = 0;
  let mergeGone = 0;
  const mergeWatch = setInterval(() => {
    const running = processes().some((p) => p.name === 'search index merge process');
    if (running && !mergeSeen) mergeSeen = Date.now();
    if (!running && mergeSeen && !mergeGone) mergeGone = Date.now();
  }, 500);
  const after = await searches(() => (mergeGone > 0 && Date.now() > mergeGone + 10_000) || Date.now() > afterStart + Math.max(180_000, STORE * 0.3));
  clearInterval(mergeWatch);
  const afterSeconds = (Date.now() - afterStart) / 1000;
  sample();
  clearInterval(sampler);

  console.log(`\nCatalogue import: ${fmt(ROWS, 0)} rows (${fmt(ROWS / 2, 0)} changed, ${fmt(ROWS / 2, 0)} new) into ${fmt(STORE, 0)} parts\n`);
  console.log('| rows | upload accepted | total time | rows/s | created | updated | unchanged | errors | state |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  console.log(
    `| ${fmt(ROWS, 0)} | ${fmt(accepted / 1000)} s | ${fmt(seconds)} s | ${fmt(ROWS / seconds, 0)} | ${fmt(finished.created, 0)} | ${fmt(finished.updated, 0)} | ${fmt(finished.unchanged, 0)} | ${fmt(finished.errorCount, 0)} | ${finished.state} |`,
  );
  console.log(
    mergeGone
      ? `\nFull index merge: started ${fmt((mergeSeen - afterStart) / 1000)} s after the import, its process ran ${fmt((mergeGone - mergeSeen) / 1000)} s.`
      : `\nFull index merge: no merge process seen to its end within ${fmt(Math.max(180, STORE * 0.0003), 0)} s after the import.`,
  );
  console.log('\n| process | RSS MB before the import | peak RSS MB during the import | peak RSS MB including the full index merge after |\n| --- | --- | --- | --- |');
  for (const [pid, p] of [...peaks].sort((a, b) => a[1].name.localeCompare(b[1].name))) {
    console.log(`| ${p.name} (pid ${pid}) | ${before.has(pid) ? fmt(before.get(pid)!, 0) : '-'} | ${fmt(p.atEnd, 0)} | ${fmt(p.peak, 0)} |`);
  }
  console.log('\n| header search through the gateway | searches | p50 ms | p95 ms | p99 ms | max ms |\n| --- | --- | --- | --- | --- | --- |');
  console.log(`| idle | ${idle.length} | ${fmt(percentile(idle, 50))} | ${fmt(percentile(idle, 95))} | ${fmt(percentile(idle, 99))} | ${fmt(idle.at(-1) ?? 0)} |`);
  console.log(`| while importing | ${during.length} | ${fmt(percentile(during, 50))} | ${fmt(percentile(during, 95))} | ${fmt(percentile(during, 99))} | ${fmt(during.at(-1) ?? 0)} |`);
  console.log(`| after, until the merge is in (${fmt(afterSeconds, 0)} s) | ${after.length} | ${fmt(percentile(after, 50))} | ${fmt(percentile(after, 95))} | ${fmt(percentile(after, 99))} | ${fmt(after.at(-1) ?? 0)} |`);
  const goals = STORE >= 2_000_000 ? '< 12 min, < 1,536 MB per process (at 2,000,000 parts)' : '< 180 s, < 1,024 MB per process';
  console.log(`\nSearch p95 while importing / idle: ${fmt(percentile(during, 95) / percentile(idle, 95), 2)}× (goal < 2×). Goals: ${goals}.`);
} finally {
  await stack.stop();
  fs.rmSync(file, { force: true });
}
