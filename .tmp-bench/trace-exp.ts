import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { generateProducts } from '../services/catalog/src/seed/generate.ts';
import { buildRelevanceSet } from '../services/catalog/src/seed/relevance-set.ts';
import { startStack } from '../scripts/lib/stack.ts';
import { runLoad } from '../scripts/bench/lib/load.ts';
import { processCpu } from '../scripts/bench/lib/proc-cpu.ts';

const dataDir = '/work/main/data/bench-500k';
const queries = buildRelevanceSet([...generateProducts({ count: 20_000 })], { targets: 80 }).map((q) => q.q);
let n = 0;
const nextSearch = () => `/api/products?search=${encodeURIComponent(queries[n++ % queries.length]!)}&limit=10&r=${n}`;
const receiver = spawn(process.execPath, ['-e', `const s=require('node:http').createServer((q,r)=>{q.resume();q.on('end',()=>r.end('{}'))});s.listen(0,'127.0.0.1',()=>console.log(s.address().port))`], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise<number>((r) => receiver.stdout!.once('data', (d: Buffer) => r(Number(String(d).trim()))));
const otlp = `http://127.0.0.1:${port}`;
const configs: Record<string, Record<string, string>> = JSON.parse(process.argv[2]!);
const prof = process.argv[3];
for (const [name, env] of Object.entries(configs)) {
  const full = { LOG_LEVEL: 'warn', ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace('$OTLP', otlp)])) };
  const stack = await startStack({ dataDir, port: 0, quiet: true, env: full, processEnv: prof ? { catalog: { NODE_OPTIONS: '--import /work/main/.tmp-bench/prof.mjs', XX_PROF_DIR: `${prof}/${name}-catalog` }, gateway: { NODE_OPTIONS: '--import /work/main/.tmp-bench/prof.mjs', XX_PROF_DIR: `${prof}/${name}-gateway` } } : undefined });
  try {
    await runLoad({ url: stack.url, connections: 50, seconds: 4, nextPath: nextSearch, headers: { 'accept-encoding': 'gzip' } });
    const pids = stack.processes().map((p) => ({ name: p.name, pid: p.pid! }));
    const before = pids.map((p) => processCpu(p.pid)!.seconds);
    const r = await runLoad({ url: stack.url, connections: Number(process.env.CONN ?? 10), seconds: 12, nextPath: nextSearch, headers: { 'accept-encoding': 'gzip' } });
    const per = pids.map((p, i) => `${p.name} ${(((processCpu(p.pid)!.seconds - before[i]!) * 1e6) / r.requests).toFixed(0)}`).filter((x) => /^(gateway|catalog)/.test(x));
    console.log(`${name.padEnd(24)} ${r.rps.toFixed(0)} rps p50 ${r.p50.toFixed(1)} p95 ${r.p95.toFixed(1)} µs CPU/search: ${per.join(' ')}`);
  } finally {
    await stack.stop();
  }
}
receiver.kill();
