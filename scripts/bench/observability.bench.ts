/**
 * What the metrics and the traces cost search (issue 37) at 500,000 parts (BENCH_OBS_PRODUCTS): the header search
 * through the gateway at 50 connections (BENCH_OBS_CONNECTIONS), every request distinct (an ignored `r`, so no cache
 * answers), gzip, in four modes: off (METRICS=off, no OTEL_EXPORTER_OTLP_ENDPOINT), metrics (RED on, as shipped),
 * metrics + traces as compose and k8s ship them (one request in ten recorded: BENCH_OBS_SAMPLE, default 0.1), and
 * metrics + traces recording every request; spans go over OTLP/HTTP to a receiver in a process of its own that reads
 * and drops what it gets, as a collector's front would.
 * The four stacks run side by side, each on its own copy of the seeded catalogue, but take their load one at a time
 * (each has the machine to itself, as a deployment would), BENCH_OBS_SECONDS (10) each, for BENCH_OBS_ROUNDS (7)
 * rounds, the order reversed every round: this 2-core machine drifts 15-35 % within minutes, and a mode measured
 * next to off in the same round, half the rounds before and half after, shares its drift. Loaded all at once instead
 * (the first version of this bench), the stacks fought over two cores and their CPU per search said more about the
 * scheduler than about them. Prometheus scraping is mimicked by a scrape of each gateway's and catalog's /metrics
 * every second. Reported: req/s, latency and the CPU the stack's processes (and, with traces, the receiver) spent per
 * search, from /proc; each mode against off, paired by round, then the median. The goal: < 5 %.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { generateProducts } from '../../services/catalog/src/seed/generate.ts';
import { buildRelevanceSet } from '../../services/catalog/src/seed/relevance-set.ts';
import { startStack } from '../lib/stack.ts';
import { benchCatalogue } from './lib/bench-catalogue.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { fmt, machineLoad } from './lib/stats.ts';
import { processCpu } from './lib/proc-cpu.ts';

const products = Number(process.env.BENCH_OBS_PRODUCTS ?? 500_000);
const seconds = Number(process.env.BENCH_OBS_SECONDS ?? 10);
/** Rounds of the four modes, each round in the other order: the medians, and CPU per search, are over these. */
const rounds = Number(process.env.BENCH_OBS_ROUNDS ?? 7);
const connections = Number(process.env.BENCH_OBS_CONNECTIONS ?? 50);
const ALL_MODES = ['off', 'metrics', 'metrics + traces (1 in 10)', 'metrics + traces (every request)'] as const;
type Mode = (typeof ALL_MODES)[number];
/**
 * BENCH_OBS_MODES: which of them, a comma list of off, metrics, sampled, every, off first (every mode is compared
 * with it): `off,sampled` measures just the goal's pair, twice the rounds in the same time.
 */
const KEYS: Record<string, Mode> = { off: 'off', metrics: 'metrics', sampled: 'metrics + traces (1 in 10)', every: 'metrics + traces (every request)' };
const modeOf = (key: string): Mode => {
  const mode = KEYS[key.trim()];
  if (!mode) throw new Error(`BENCH_OBS_MODES: unknown mode "${key}" (one of ${Object.keys(KEYS).join(', ')})`);
  return mode;
};
const MODES: Mode[] = process.env.BENCH_OBS_MODES ? process.env.BENCH_OBS_MODES.split(',').map(modeOf) : [...ALL_MODES];
if (MODES[0] !== 'off' || new Set(MODES).size !== MODES.length) throw new Error('BENCH_OBS_MODES: off first, each mode once');
const { dataDir, ensureSeeded } = benchCatalogue(products);
await ensureSeeded();

const queries = buildRelevanceSet([...generateProducts({ count: 20_000 })], { targets: 80 }).map((q) => q.q);
let n = 0;
const nextSearch = () => `/api/products?search=${encodeURIComponent(queries[n++ % queries.length]!)}&limit=10&r=${n}`;
const headers = { 'accept-encoding': 'gzip, br' };

// The OTLP receiver: its own process (a collector is never the services' process), answering 200 to every batch.
const receiver = spawn(
  process.execPath,
  [
    '-e',
    `const s = require('node:http').createServer((q, r) => { q.resume(); q.on('end', () => r.end('{}')); });
     s.listen(0, '127.0.0.1', () => console.log(s.address().port));`,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const receiverPort = await new Promise<number>((resolve) => receiver.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
const otlp = `http://127.0.0.1:${receiverPort}`;

/** BENCH_OBS_SAMPLE (0-1): the share of requests the sampled mode records (its sampler's ratio); default compose's. */
const sample = process.env.BENCH_OBS_SAMPLE ?? '0.1';
/** A mode as printed: the sampled one says its ratio when BENCH_OBS_SAMPLE changed it. */
const labelOf = (mode: Mode) => (mode === 'metrics + traces (1 in 10)' && sample !== '0.1' ? `metrics + traces (ratio ${sample})` : mode);
const traces = (ratio: string) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: ratio });
const ENV: Record<Mode, Record<string, string>> = {
  off: { METRICS: 'off' },
  metrics: {},
  'metrics + traces (1 in 10)': traces(sample),
  'metrics + traces (every request)': traces('1'),
};
const rows: { mode: Mode; round: number; load: LoadResult; cpuMs: number }[] = [];
/** Until the processes use under 5 % of a core over a quarter second (at most 10 s). */
async function quiet(pids: number[]): Promise<void> {
  const cpuOf = () => pids.reduce((sum, pid) => sum + (processCpu(pid)?.seconds ?? 0), 0);
  for (let i = 0; i < 40; i++) {
    const before = cpuOf();
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (cpuOf() - before < 0.0125) return;
  }
}
// Each stack on its own copy of the catalogue (the searches write analytics to it).
const stacks = await Promise.all(
  MODES.map(async (mode, i) => {
    const dir = i === 0 ? dataDir : `${dataDir}-obs-${i}`;
    if (i > 0) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.cpSync(dataDir, dir, { recursive: true });
    }
    const stack = await startStack({ dataDir: dir, port: 0, quiet: true, env: { LOG_LEVEL: 'warn', ...ENV[mode] } });
    return { mode, dir, stack };
  }),
);
const scraping = setInterval(() => {
  for (const { stack } of stacks) {
    for (const url of [stack.metricsUrl, stack.serviceUrls.catalog!]) void fetch(`${url}/metrics`).then((r) => r.arrayBuffer()).catch(() => undefined);
  }
}, 1_000);
try {
  for (const { stack } of stacks) await runLoad({ url: stack.url, connections, seconds: 5, nextPath: nextSearch, headers }); // warm
  // CPU the stack's processes (and, with traces, the receiver) spent per search, from /proc.
  const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + (processCpu(pid)?.seconds ?? 0), 0);
  const pidsOf = (s: (typeof stacks)[number]) => [...s.stack.processes().map((p) => p.pid!), ...(s.mode.includes('traces') ? [receiver.pid!] : [])];
  for (let round = 0; round < rounds; round++) {
    for (const s of round % 2 ? [...stacks].reverse() : stacks) {
      const before = cpuOf(pidsOf(s));
      const load = await runLoad({ url: s.stack.url, connections, seconds, nextPath: nextSearch, headers });
      rows.push({ mode: s.mode, round, load, cpuMs: ((cpuOf(pidsOf(s)) - before) * 1000) / load.requests });
      // A stack works on after its load (analytics written, spans sent, garbage collected): the next one starts when
      // it has gone quiet, or it would pay for its neighbour (and the modes in the middle of the order always would).
      await quiet(pidsOf(s));
    }
  }
} finally {
  clearInterval(scraping);
  await Promise.all(stacks.map(({ stack }) => stack.stop()));
  for (const s of stacks.slice(1)) fs.rmSync(s.dir, { recursive: true, force: true });
}

receiver.kill();

console.log(`Search with metrics and traces on and off, ${MODES.length} stacks loaded in turn, ${products.toLocaleString('en-US')} parts, ${connections} connections, ${rounds} rounds of ${seconds} s each, load ${machineLoad()}\n`);
console.log('| mode | searches | req/s | p50 ms | p95 ms | p99 ms | CPU ms per search | non-200 |');
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(`| ${labelOf(r.mode)} | ${r.load.requests.toLocaleString('en-US')} | ${fmt(r.load.rps, 0)} | ${fmt(r.load.p50)} | ${fmt(r.load.p95)} | ${fmt(r.load.p99)} | ${fmt(r.cpuMs, 2)} | ${r.load.bad} |`);
}
const median = (mode: Mode, f: (l: LoadResult) => number) => medianOf(rows.filter((r) => r.mode === mode).map((r) => f(r.load)));
const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cpuOfMode = (mode: Mode) => medianOf(rows.filter((r) => r.mode === mode).map((r) => r.cpuMs));
// Paired within each round (each mode next to off, seconds apart), then the median.
const paired = (mode: Mode, f: (r: (typeof rows)[number]) => number) =>
  medianOf(
    Array.from({ length: rounds }, (_, round) => {
      const of = (m: Mode) => rows.find((r) => r.round === round && r.mode === m)!;
      return f(of(mode)) / f(of('off')) - 1;
    }),
  );
for (const mode of MODES.slice(1)) {
  console.log(
    `\n${labelOf(mode)}, paired by round, median of ${rounds}: throughput ${fmt(paired(mode, (r) => r.load.rps) * 100)} %, p95 ${fmt(paired(mode, (r) => r.load.p95) * 100)} %, CPU per search ${fmt(paired(mode, (r) => r.cpuMs) * 100)} % against off (goal: within 5 %).`,
  );
  console.log(
    `${labelOf(mode)}, medians of ${rounds}: p95 ${fmt((median(mode, (l) => l.p95) / median('off', (l) => l.p95) - 1) * 100)} %, throughput ${fmt((median(mode, (l) => l.rps) / median('off', (l) => l.rps) - 1) * 100)} %, CPU per search ${fmt((cpuOfMode(mode) / cpuOfMode('off') - 1) * 100)} % against off.`,
  );
}
