/**
 * Failover between catalog replicas under full load (issue #19 point 7), on the embedded adapters so that the figure is
 * the gateway's failover and not the database's speed (the production-shaped cluster here runs on FerretDB, which
 * does not carry load; see cluster.bench.ts): the real gateway with CATALOG_URL naming two real catalog processes,
 * each on its own copy of one seeded catalogue (two replicas over one shared database read alike), under 50
 * connections of distinct reads (any product, any gallery page, any category page) as fast as they are answered.
 * After BENCH_FAILOVER_BEFORE_SECONDS (10) one replica is SIGKILLed; as compose's restart policy would, it is started
 * again 1 s later on its port; the load goes on until BENCH_FAILOVER_AFTER_SECONDS (10) after it is ready again.
 *
 * Reported: failed requests (non-2xx, socket errors, timeouts) before and after the kill, the time until the replica
 * is back and ready, the time of the last failure, and req/s and latency in three phases: both replicas, one replica
 * (kill → ready), both again. BENCH_FAILOVER_PRODUCTS (20,000, seeded once into data/bench-20k) and
 * BENCH_FAILOVER_CONNECTIONS (50) change the run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Subcategory } from '@forgeline/contracts/products';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { startNodeProcess, type NodeProcess } from '@forgeline/test-support/node-process';
import { DEFAULT_SEED } from '../../services/catalog/src/seed/generate.ts';
import { stableUuid } from '../../services/catalog/src/domain/stable-uuid.ts';
import { ensureWebBuilt, repoRoot } from '../lib/stack.ts';
import { benchCatalogue, listTotals } from './lib/bench-catalogue.ts';
import { runLoad } from './lib/load.ts';
import { fmt, machineLoad, percentile } from './lib/stats.ts';

const products = Number(process.env.BENCH_FAILOVER_PRODUCTS ?? 20_000);
const connections = Number(process.env.BENCH_FAILOVER_CONNECTIONS ?? 50);
const beforeSeconds = Number(process.env.BENCH_FAILOVER_BEFORE_SECONDS ?? 10);
const afterSeconds = Number(process.env.BENCH_FAILOVER_AFTER_SECONDS ?? 10);
/** compose's `restart: unless-stopped` starts a dead container again after about a second. */
const RESTART_AFTER_MS = 1_000;
const TOKEN = 'replica-failover-bench-service-token-0123456789';

const randInt = (n: number) => Math.floor(Math.random() * n);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const secs = (ms: number) => `${fmt(ms / 1000)} s`;

const { dataDir: seeded, ensureSeeded } = benchCatalogue(products);
const seed = await ensureSeeded();
ensureWebBuilt(() => {});

const tmp = tempDir('forgeline-failover-bench-');
const processes = new Set<NodeProcess>();
const cleanup = async () => {
  await Promise.allSettled([...processes].map((p) => p.kill('SIGKILL')));
  tmp.remove();
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanup().then(() => process.exit(130)));

let failed = false;
try {
  // Two copies of the catalogue, one per replica (the search index files are each replica's own).
  const replicas = await Promise.all(
    ['a', 'b'].map(async (name) => {
      const dir = path.join(tmp.dir, `catalog-${name}`);
      fs.cpSync(seeded, dir, { recursive: true });
      return { name: `catalog-${name}`, dir, port: await freePort() };
    }),
  );
  const startCatalog = async (r: (typeof replicas)[number]) => {
    const p = await startNodeProcess({
      name: r.name,
      args: ['--import', 'tsx', 'services/catalog/src/main.ts'],
      cwd: repoRoot,
      port: r.port,
      readyTimeoutMs: 300_000,
      env: { DATA_DIR: r.dir, SERVICE_TOKEN: TOKEN, LOG_LEVEL: 'warn', MONGO_URL: '', MEILI_URL: '', REDIS_URL: '', NODE_ENV: 'production' },
    });
    processes.add(p);
    return p;
  };
  const running = await Promise.all(replicas.map(startCatalog));
  const closed = `http://127.0.0.1:${await freePort()}`;
  const gateway = await startNodeProcess({
    name: 'gateway',
    args: ['--import', 'tsx', 'gateway/src/main.ts'],
    cwd: repoRoot,
    port: await freePort(),
    readyPath: '/healthz',
    env: {
      CATALOG_URL: replicas.map((r) => `http://127.0.0.1:${r.port}`).join(','),
      QUOTES_URL: closed,
      AUTH_URL: closed,
      MEDIA_URL: closed,
      SERVICE_TOKEN: TOKEN,
      PUBLIC_URL: 'http://parts.example.com',
      EDGE_CACHE_MB: '0', // every read goes to a replica
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
  });
  processes.add(gateway);

  const subs = (await (await fetch(`${gateway.url}/api/subcategories`)).json()) as Subcategory[];
  const { categories: categoryList } = listTotals(subs);
  let n = 0;
  const nextPath = () => {
    switch (n++ % 3) {
      case 0:
        return `/api/products/${stableUuid(`forgeline-product:${DEFAULT_SEED}:${randInt(products)}`)}`;
      case 1:
        return `/api/catalog/products?limit=48&offset=${randInt(Math.ceil(products / 48)) * 48}`;
      default: {
        const [slug, total] = categoryList[randInt(categoryList.length)]!;
        return `/api/products?category=${slug}&limit=75&offset=${randInt(Math.max(1, Math.ceil(total / 75))) * 75}`;
      }
    }
  };
  for (let i = 0; i < 3; i++) {
    const res = await fetch(gateway.url + nextPath());
    if (!res.ok) throw new Error(`warm-up read answered ${res.status}: ${await res.text()}`);
  }
  // Unmeasured: the page cache and each replica's JIT warm.
  await runLoad({ url: gateway.url, connections: 10, seconds: 3, nextPath });

  const loadBefore = machineLoad();
  const events: { at: number; status: number | null; ms: number | null }[] = [];
  const stop = new AbortController();
  const started = Date.now();
  const loadDone = runLoad({
    url: gateway.url,
    connections,
    seconds: 600,
    timeoutSeconds: 20,
    nextPath,
    onResult: (status, ms) => events.push({ at: Date.now(), status, ms }),
    signal: stop.signal,
  });
  await sleep(beforeSeconds * 1_000);
  const victim = replicas[0]!;
  const killedAt = Date.now();
  await running[0]!.kill('SIGKILL');
  processes.delete(running[0]!);
  await sleep(RESTART_AFTER_MS);
  await startCatalog(victim);
  const backAt = Date.now();
  await sleep(afterSeconds * 1_000);
  stop.abort();
  await loadDone;
  const endedAt = Date.now();
  const loadAfter = machineLoad();

  const bad = (e: (typeof events)[number]) => e.status === null || e.status < 200 || e.status >= 300;
  const phases = [
    { name: `both replicas (${secs(killedAt - started)} before the kill)`, from: started, to: killedAt },
    { name: `one replica (${victim.name} SIGKILLed → started again 1 s later → ready)`, from: killedAt, to: backAt },
    { name: `both again (${secs(endedAt - backAt)} after it was ready)`, from: backAt, to: endedAt },
  ];
  console.log(
    `\n${products.toLocaleString('en-US')} parts (SQLite + embedded search, one copy per replica; seeded in ${fmt(seed.seconds)} s${seed.cached ? `, ${seed.at}, reused` : ''}), ` +
      `${connections} connections through the gateway, every read distinct (any product, any gallery page, any category page), as fast as answered.\n`,
  );
  console.log('| phase | seconds | requests | req/s | p50 ms | p95 ms | p99 ms | failed |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const ph of phases) {
    const list = events.filter((e) => e.at >= ph.from && e.at < ph.to);
    const ms = list.flatMap((e) => (e.ms === null ? [] : [e.ms])).sort((a, b) => a - b);
    const s = (ph.to - ph.from) / 1000;
    console.log(
      `| ${ph.name} | ${fmt(s)} | ${list.length.toLocaleString('en-US')} | ${fmt(list.length / s, 0)} | ${fmt(percentile(ms, 50))} | ${fmt(percentile(ms, 95))} | ${fmt(percentile(ms, 99))} | ${list.filter(bad).length} |`,
    );
  }
  const failures = events.filter(bad);
  const after = failures.filter((e) => e.at >= killedAt);
  const kinds = new Map<string, number>();
  for (const e of failures) kinds.set(e.status === null ? 'socket error/timeout' : String(e.status), (kinds.get(e.status === null ? 'socket error/timeout' : String(e.status)) ?? 0) + 1);
  console.log(
    `\nFailed: **${after.length} of ${events.filter((e) => e.at >= killedAt).length.toLocaleString('en-US')}** requests after the kill` +
      ` (${failures.length - after.length} before it; ${[...kinds].map(([k, v]) => `${k}: ${v}`).join(', ') || 'none'}); ` +
      `${victim.name} back and ready **${secs(backAt - killedAt)}** after the kill (1 s of it the restart delay, the rest its start-up)` +
      `${after.length ? `; last failure ${secs(Math.max(...after.map((e) => e.at)) - killedAt)} after the kill` : ''}.`,
  );
  const upstreamWarnings = gateway.logs().filter((l) => String(l.msg).startsWith('upstream replica'));
  console.log(`The gateway logged ${upstreamWarnings.length} replica warning(s): ${[...new Set(upstreamWarnings.map((l) => String(l.msg)))].join('; ') || 'none'}.`);
  console.log(`Machine: ${os.cpus().length} cores, load average ${loadBefore} before, ${loadAfter} after.`);
  if (after.length > 0) failed = true;
} finally {
  await cleanup();
}
process.exit(failed ? 1 : 0);
