/**
 * npm run bench: runs every scripts/bench/*.bench.ts in turn, each in its own process (so memory
 * figures are its own), and prints their markdown tables. `npm run bench -- search` runs the ones
 * whose file name contains "search".
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const all = fs.readdirSync(here).filter((f) => f.endsWith('.bench.ts'));
// A filter naming a benchmark exactly runs that one ("search" is not also "search-analytics"); otherwise any it is part of.
const matches = (f: string, x: string) => (all.includes(`${x}.bench.ts`) ? f === `${x}.bench.ts` : f.includes(x));
const benches = all.filter((f) => filters.length === 0 || filters.some((x) => matches(f, x))).sort();

if (benches.length === 0) {
  console.error(`No benchmark matches ${filters.join(', ')}. Available: ${fs.readdirSync(here).filter((f) => f.endsWith('.bench.ts')).join(', ')}`);
  process.exit(1);
}

console.log(`# Forgeline benchmarks (${new Date().toISOString()}, Node ${process.version}, ${process.platform}/${process.arch})\n`);
let failed = 0;
for (const bench of benches) {
  console.log(`\n## ${bench.replace('.bench.ts', '')}\n`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(here, bench)], { stdio: 'inherit', env: process.env });
  console.log(`\n_${bench} took ${((Date.now() - started) / 1000).toFixed(0)} s${result.status === 0 ? '' : `, exit ${result.status}`}_`);
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
