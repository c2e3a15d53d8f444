/**
 * What the metrics and the traces cost search (issue 37) at 500,000 parts (BENCH_OBS_PRODUCTS): the header search
 * through the gateway at 50 connections (BENCH_OBS_CONNECTIONS), every request distinct (an ignored `r`, so no cache
 * answers), gzip, in three modes: off (METRICS=off, no OTEL_EXPORTER_OTLP_ENDPOINT), metrics (RED on, as shipped), and
 * metrics + traces (every request traced, exported over OTLP/HTTP to a receiver in a process of its own that reads and
 * drops what it gets, as a collector's front would). The three stacks run at the same time, each on its own copy of
 * the seeded catalogue, and take their load together for BENCH_OBS_ROUNDS (5) rounds of BENCH_OBS_SECONDS (15): run one
 * after another, minutes apart, the same mode moved 15-35 % on this 2-core machine and the comparison said nothing.
 * Prometheus scraping is mimicked by a scrape of each gateway's and catalog's /metrics every second. Reported: req/s,
 * latency and the CPU the stack's processes (and, with traces, the receiver) spent per search, from /proc; each mode
 * against off, paired by round. The goal: < 5 %.
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
const seconds = Number(process.env.BENCH_OBS_SECONDS ?? 15);
/** Rounds of the three modes, each round in another order: the medians, and CPU per search, are over these. */
const rounds = Number(process.env.BENCH_OBS_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_OBS_CONNECTIONS ?? 50);
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

const MODES = ['off', 'metrics', 'metrics + traces'] as const;
type Mode = (typeof MODES)[number];
/** BENCH_OBS_SAMPLE (0-1): the share of requests the traces mode records (its sampler's ratio); default all. */
const sample = process.env.BENCH_OBS_SAMPLE;
const sampler: Record<string, string> = sample ? { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: sample } : {};
const envOf = (mode: Mode): Record<string, string> =>
  mode === 'off' ? { METRICS: 'off' } : mode === 'metrics' ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT: otlp, ...sampler };
const rows: { mode: Mode; round: number; load: LoadResult; cpuMs: number }[] = [];
// The three stacks run at once, each on its own copy of the catalogue, and take their load at the same time: the
// machine's drift (which moved one mode's throughput by 15-35 % between runs minutes apart) falls on all three alike,
// and CPU per search compares like with like ("vs off, same run"). Each gets `connections` of its own.
const stacks = await Promise.all(
  MODES.map(async (mode, i) => {
    const dir = i === 0 ? dataDir : `${dataDir}-obs-${i}`;
    if (i > 0) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.cpSync(dataDir, dir, { recursive: true });
    }
    const stack = await startStack({ dataDir: dir, port: 0, quiet: true, env: { LOG_LEVEL: 'warn', ...envOf(mode) } });
    return { mode, dir, stack };
  }),
);
const scraping = setInterval(() => {
  for (const { stack } of stacks) {
    for (const url of [stack.metricsUrl, stack.serviceUrls.catalog!]) void fetch(`${url}/metrics`).then((r) => r.arrayBuffer()).catch(() => undefined);
  }
}, 1_000);
try {
  await Promise.all(stacks.map(({ stack }) => runLoad({ url: stack.url, connections, seconds: 5, nextPath: nextSearch, headers }))); // warm
  for (let round = 0; round < rounds; round++) {
    // CPU the stack's processes (and, with traces, the receiver) spent per search, from /proc.
    const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + (processCpu(pid)?.seconds ?? 0), 0);
    const pidsOf = (s: (typeof stacks)[number]) => [...s.stack.processes().map((p) => p.pid!), ...(s.mode === 'metrics + traces' ? [receiver.pid!] : [])];
    const before = stacks.map((s) => cpuOf(pidsOf(s)));
    const loads = await Promise.all(stacks.map(({ stack }) => runLoad({ url: stack.url, connections, seconds, nextPath: nextSearch, headers })));
    stacks.forEach((s, i) => rows.push({ mode: s.mode, round, load: loads[i]!, cpuMs: ((cpuOf(pidsOf(s)) - before[i]!) * 1000) / loads[i]!.requests }));
  }
} finally {
  clearInterval(scraping);
  await Promise.all(stacks.map(({ stack }) => stack.stop()));
  for (const s of stacks.slice(1)) fs.rmSync(s.dir, { recursive: true, force: true });
}

receiver.kill();

console.log(`Search with metrics and traces (${sample ? `${Number(sample) * 100} % of requests recorded` : 'every request recorded'}) on and off, three stacks at once, ${products.toLocaleString('en-US')} parts, ${connections} connections each, ${rounds} rounds of ${seconds} s, load ${machineLoad()}\n`);
console.log('| mode | searches | req/s | p50 ms | p95 ms | p99 ms | CPU ms per search | non-200 |');
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(`| ${r.mode} | ${r.load.requests.toLocaleString('en-US')} | ${fmt(r.load.rps, 0)} | ${fmt(r.load.p50)} | ${fmt(r.load.p95)} | ${fmt(r.load.p99)} | ${fmt(r.cpuMs, 2)} | ${r.load.bad} |`);
}
const median = (mode: Mode, f: (l: LoadResult) => number) => medianOf(rows.filter((r) => r.mode === mode).map((r) => f(r.load)));
const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cpuOf = (mode: Mode) => medianOf(rows.filter((r) => r.mode === mode).map((r) => r.cpuMs));
// Paired within each round (the three ran at the same time), then the median.
const paired = (mode: Mode, f: (r: (typeof rows)[number]) => number) =>
  medianOf(
    Array.from({ length: rounds }, (_, round) => {
      const of = (m: Mode) => rows.find((r) => r.round === round && r.mode === m)!;
      return f(of(mode)) / f(of('off')) - 1;
    }),
  );
for (const mode of MODES.slice(1)) {
  console.log(
    `\n${mode}, paired by round, median of ${rounds}: throughput ${fmt(paired(mode, (r) => r.load.rps) * 100)} %, p95 ${fmt(paired(mode, (r) => r.load.p95) * 100)} %, CPU per search ${fmt(paired(mode, (r) => r.cpuMs) * 100)} % against off.`,
  );
  console.log(
    `\n${mode}, medians of ${rounds}: p95 ${fmt((median(mode, (l) => l.p95) / median('off', (l) => l.p95) - 1) * 100)} %, throughput ${fmt((median(mode, (l) => l.rps) / median('off', (l) => l.rps) - 1) * 100)} %, CPU per search ${fmt((cpuOf(mode) / cpuOf('off') - 1) * 100)} % against off (goal: within 5 %).`,
  );
}
