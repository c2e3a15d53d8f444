/**
 * What the metrics and the traces cost search (issue 37) at 500,000 parts (BENCH_OBS_PRODUCTS), on the shared seeded
 * catalogue: the header search through the gateway at 50 connections (BENCH_OBS_CONNECTIONS), every request distinct
 * (an ignored `r`, so no cache answers), gzip, in three modes, a stack each, their order rotated over five rounds (BENCH_OBS_ROUNDS) so
 * the machine's drift falls on all: off (METRICS=off, no OTEL_EXPORTER_OTLP_ENDPOINT), metrics (RED on, as shipped),
 * and metrics + traces (every request traced, exported over OTLP/HTTP to a receiver in a process of its own on this
 * machine, which reads and drops what it gets, as a collector's front would). Prometheus scraping is mimicked by a
 * scrape of the gateway's and the catalog's /metrics each second. The goal: < 5 % on p95 and throughput against off.
 * CPU per search (the stack's processes and the receiver, from /proc) is reported too: this machine moves throughput
 * by 10-15 % from one run to the next, CPU per search less.
 */
import { spawn } from 'node:child_process';
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
const envOf = (mode: Mode): Record<string, string> =>
  mode === 'off' ? { METRICS: 'off' } : mode === 'metrics' ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT: otlp };
const rows: { mode: Mode; round: number; load: LoadResult; cpuMs: number }[] = [];
for (let round = 0; round < rounds; round++) {
  for (const mode of [...MODES.slice(round % 3), ...MODES.slice(0, round % 3)]) {
    const stack = await startStack({ dataDir, port: 0, quiet: true, env: { LOG_LEVEL: 'warn', ...envOf(mode) } });
    const scraping = setInterval(() => {
      for (const url of [stack.metricsUrl, stack.serviceUrls.catalog!]) void fetch(`${url}/metrics`).then((r) => r.arrayBuffer()).catch(() => undefined);
    }, 1_000);
    try {
      await runLoad({ url: stack.url, connections, seconds: 5, nextPath: nextSearch, headers }); // warm
      // CPU the stack's processes (and the receiver) spent per search: what the traces cost, apart from the
      // machine's noise, which moves throughput by 10-15 % from run to run on two shared cores.
      const pids = [...stack.processes().map((p) => p.pid!), receiver.pid!];
      const cpu = () => pids.reduce((sum, pid) => sum + (processCpu(pid)?.seconds ?? 0), 0);
      const before = cpu();
      const load = await runLoad({ url: stack.url, connections, seconds, nextPath: nextSearch, headers });
      rows.push({ mode, round, load, cpuMs: ((cpu() - before) * 1000) / load.requests });
    } finally {
      clearInterval(scraping);
      await stack.stop();
    }
  }
}

receiver.kill();

console.log(`Search with metrics and traces on and off, ${products.toLocaleString('en-US')} parts, ${connections} connections, ${seconds} s a run, load ${machineLoad()}\n`);
console.log('| mode | searches | req/s | p50 ms | p95 ms | p99 ms | CPU ms per search | non-200 |');
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(`| ${r.mode} | ${r.load.requests.toLocaleString('en-US')} | ${fmt(r.load.rps, 0)} | ${fmt(r.load.p50)} | ${fmt(r.load.p95)} | ${fmt(r.load.p99)} | ${fmt(r.cpuMs, 2)} | ${r.load.bad} |`);
}
const median = (mode: Mode, f: (l: LoadResult) => number) => medianOf(rows.filter((r) => r.mode === mode).map((r) => f(r.load)));
const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cpuOf = (mode: Mode) => medianOf(rows.filter((r) => r.mode === mode).map((r) => r.cpuMs));
// Paired within each round (the runs minutes apart, so the machine's drift is mostly shared), then the median.
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
