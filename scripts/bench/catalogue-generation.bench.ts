/**
 * The demo catalogue generator in-process (issue 33): parts generated per second over the first 200,000
 * (BENCH_GENERATE_PRODUCTS to change), three runs, and the numbering alone over two million (what the
 * generator's uniqueness test walks). CPU time is reported beside wall time: on a shared machine it moves less.
 */
import { generatePartNumbers, generateProducts } from '../../services/catalog/src/seed/generate.ts';
import { fmt, machineLoad } from './lib/stats.ts';

const PRODUCTS = Number(process.env.BENCH_GENERATE_PRODUCTS ?? 200_000);
const NUMBERS = 2_000_000;

/** Seconds of wall and CPU time `run` takes. */
function timed(run: () => void): { wall: number; cpu: number } {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  run();
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - wall) / 1000, cpu: (used.user + used.system) / 1e6 };
}

const load = machineLoad();
const rows: string[] = [];
for (let k = 1; k <= 3; k++) {
  let chars = 0;
  const t = timed(() => {
    for (const p of generateProducts({ count: PRODUCTS })) chars += p.name.length;
  });
  if (!chars) throw new Error('no products');
  rows.push(`| products, run ${k} | ${PRODUCTS.toLocaleString('en-US')} | ${fmt(PRODUCTS / t.wall, 0)} | ${fmt(PRODUCTS / t.cpu, 0)} |`);
}
const t = timed(() => {
  for (const n of generatePartNumbers({ count: NUMBERS })) if (!n.partNumber) throw new Error('no number');
});
rows.push(`| part numbers only | ${NUMBERS.toLocaleString('en-US')} | ${fmt(NUMBERS / t.wall, 0)} | ${fmt(NUMBERS / t.cpu, 0)} |`);

console.log(`Machine load ${load} (1 / 5 / 15 min) before, ${machineLoad()} after.\n`);
console.log('| what | count | per second (wall) | per second (CPU) |');
console.log('|---|---:|---:|---:|');
for (const r of rows) console.log(r);
