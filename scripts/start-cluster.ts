/**
 * npm run start:cluster [-- --products N]: the product on its production adapters, shaped as docker-compose.yml runs
 * it, without Docker: FerretDB (MongoDB), redis-server, MinIO, Mailpit (SMTP), nginx as the edge and Prometheus
 * (where Debian's package is installed) scraping every replica, started here,
 * and 2 gateways, 2 catalog, 2 quotes, 2 auth, 2 media-api and 3 media-worker replicas, with compose's environment.
 * Prints the edge address and writes DATA_DIR/cluster.json (every replica and server: address, pid). Ctrl-C or
 * SIGTERM stops everything; a part that fails to start stops the rest and says which, and why.
 *
 *   PORT          the edge's port (default 8080; 0 picks a free one)
 *   DATA_DIR      where the servers and replicas keep their data (default ./data/cluster)
 *   SEED_PRODUCTS demo parts seeded into an empty catalogue (default 2,000 here, 20,000 in compose: FerretDB reads
 *                 whole collections for most queries, so larger catalogues answer slowly here; 0 skips); --products wins
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startCluster, type ClusterInfo } from './lib/cluster.ts';
import { ensureWebBuilt, repoRoot } from './lib/stack.ts';

const USAGE = `Usage: npm run start:cluster [-- --products <N>]
  --products  demo parts seeded into an empty catalogue (default: SEED_PRODUCTS, else 2,000; 0 skips)
Environment: PORT (edge, default 8080), DATA_DIR (default ./data/cluster), and compose's own variables
(SERVICE_TOKEN, ADMIN_EMAILS, LOG_LEVEL, ...) as docker-compose.yml reads them.`;

function fail(message: string): never {
  console.error(`\nnpm run start:cluster: ${message}`);
  process.exit(1);
}

const LOCAL_SEED_PRODUCTS = 2_000;
let seedProducts: number | undefined;
try {
  const { values } = parseArgs({ options: { products: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values.products !== undefined) {
    const raw = values.products.replace(/[_,]/g, '');
    if (!/^\d+$/.test(raw)) fail(`--products must be a whole number, got "${values.products}"\n${USAGE}`);
    seedProducts = Number(raw);
  }
} catch (err) {
  fail(`${(err as Error).message}\n${USAGE}`);
}
const port = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PORT must be a port number, got "${process.env.PORT}"`);
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(repoRoot, 'data', 'cluster'));

function summary(info: ClusterInfo, seconds: number): string {
  const rows = Object.entries(info.services).flatMap(([, list]) => list.map((r) => `    ${r.name.padEnd(15)} ${r.address.padEnd(24)} pid ${r.pid}`));
  const servers = Object.entries(info.servers).map(([name, s]) => `    ${name.padEnd(15)} ${String(s.address).padEnd(24)} pid ${s.pid}${s.api ? `   API ${s.api}` : ''}`);
  const notHere = Object.entries(info.notRunHere).filter(([, keys]) => keys.length);
  return [
    '',
    `  Forgeline Parts (production-shaped) is ready in ${seconds.toFixed(1)} s`,
    '',
    `  Edge (nginx)  ${info.edge}/`,
    `  Admin panel   ${info.edge}/admin   (the sign-in code arrives in Mailpit: ${String(info.servers.mailpit.api)}/api/v1/messages)`,
    ...(info.servers.prometheus ? [`  Metrics       ${String(info.servers.prometheus.address)}/   (Prometheus: every replica's /metrics, the alert rules of infra/observability)`] : []),
    `  Data          ${info.dataDir}`,
    `  Processes     ${path.join(info.dataDir, 'cluster.json')}`,
    '',
    '  Replicas',
    ...rows,
    '  Servers',
    ...servers,
    ...notHere.map(([server, keys]) => `  Not run here: ${server} (${keys.join(', ')} left out; the catalog replicas use their embedded search)`),
    '',
    '  Ctrl-C stops everything.',
    '',
  ].join('\n');
}

const started = Date.now();
let stopping = false;
let stopCluster: (() => Promise<void>) | undefined;
// Ctrl-C during the start stops what was started, too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the cluster (edge, gateways, services, then the servers)...');
    (stopCluster ? stopCluster() : Promise.resolve()).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

try {
  ensureWebBuilt();
  // FerretDB scans whole collections for most catalog queries: 2,000 parts keep pages under a few seconds here.
  const cluster = await startCluster({ dataDir, port, seedProducts: seedProducts ?? (process.env.SEED_PRODUCTS ? undefined : LOCAL_SEED_PRODUCTS) });
  stopCluster = cluster.stop;
  if (stopping) await cluster.stop();
  else console.log(summary(cluster.info(), (Date.now() - started) / 1000));
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
