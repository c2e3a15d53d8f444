/**
 * The product on its production adapters, as docker-compose.yml runs it, on this machine without Docker: FerretDB
 * for MongoDB, redis-server, MinIO, Mailpit for SMTP and nginx as the edge, each started here on a free port with its
 * data under DATA_DIR, and the services as several replicas each (`npm run start:cluster`, test/cluster.test.ts).
 * Every service's environment is compose's (cluster-env.ts) with only addresses, ports and paths changed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ferretDbBinary } from '@forgeline/test-support/ferretdb';
import { minioBinary } from '@forgeline/test-support/minio';
import net from 'node:net';
import { waitForPort } from '@forgeline/test-support/net';
import { nginxBinary } from '@forgeline/test-support/nginx';
import { redisBinary } from '@forgeline/test-support/redis';
import { isExecutable } from '@forgeline/test-support/server-process';
import { DEFAULT_REPLICAS, type ClusterInfo, type ReplicaInfo, type ServerName, type ServiceGroup } from './cluster-info.ts';
import { clearLeftoverCluster, STOP_TIERS } from './cluster-leftovers.ts';
import { ABSENT_SERVERS, composeCommand, composeEnvironment, launcherVariables, localEnvironment, readCompose, type ComposeFile } from './cluster-env.ts';
import { writeClusterNginx } from './cluster-nginx.ts';
import { prometheusBinary, prometheusMissing, writeClusterPrometheus } from './cluster-prometheus.ts';
import { createSupervisor, type ManagedProcess } from './cluster-process.ts';
import { repoRoot } from './stack.ts';

export { DEFAULT_REPLICAS, type ClusterInfo, type ReplicaInfo, type ServerName, type ServiceGroup } from './cluster-info.ts';

const SERVICE_GROUPS = Object.keys(DEFAULT_REPLICAS) as ServiceGroup[];

/** Where scripts/build-test-servers.sh puts Mailpit, unless MAILPIT_BIN says otherwise. */
export function mailpitBinary(): string {
  return process.env.MAILPIT_BIN || path.join(path.dirname(ferretDbBinary()), 'mailpit');
}

/** The servers' binaries, and why the cluster cannot start when one is missing (null when all are there). */
export async function missingServers(): Promise<string | null> {
  const bins: [string, string, string][] = [
    ['FerretDB', ferretDbBinary(), 'run `npm run test-servers` (needs Go) or set FERRETDB_BIN'],
    ['MinIO', minioBinary(), 'run `npm run test-servers` (needs Go) or set MINIO_BIN'],
    ['Mailpit', mailpitBinary(), 'run `npm run test-servers` (needs Go) or set MAILPIT_BIN'],
    ['redis-server', redisBinary(), "install Debian's redis-server package or set REDIS_SERVER_BIN"],
    ['nginx', nginxBinary(), "install Debian's nginx package or set NGINX_BIN"],
  ];
  const missing: string[] = [];
  for (const [name, bin, how] of bins) if (!(await isExecutable(bin))) missing.push(`${name} not found at ${bin}; ${how}`);
  return missing.length ? missing.join('; ') : null;
}

export interface ClusterOptions {
  dataDir: string;
  /** The edge's port; 0 picks a free one. */
  port?: number;
  /** Demo parts seeded into an empty catalogue (compose's SEED_PRODUCTS, whose default this overrides); 0 skips. */
  seedProducts?: number;
  /**
   * What compose's `${NAME:-default}` and `${NAME:?…}` are filled from (default: this process's environment); the
   * secrets it leaves unset are the data folder's own (DATA_DIR/.secrets.env, made on the first start).
   */
  variables?: NodeJS.ProcessEnv;
  replicas?: Partial<Record<ServiceGroup, number>>;
  /** Print only errors and warnings (tests); a failing start still shows the failing part's last lines. */
  quiet?: boolean;
  log?: (line: string) => void;
  /** Prometheus's scrape and rule interval (default 5 s; compose's is 15 s). */
  scrapeIntervalSeconds?: number;
}

export interface Cluster {
  edge: string;
  dataDir: string;
  /** The SMTP catcher's HTTP API (messages, search). */
  mailpitApi: string;
  /** Prometheus's HTTP API and UI, scraping every replica; undefined where Prometheus is not installed. */
  prometheus?: string;
  /** The service token every replica shares (compose's SERVICE_TOKEN). */
  serviceToken: string;
  /** The environment each replica was started with, by replica name. */
  env: Record<string, Record<string, string>>;
  /** Now: every replica and server with its current pid (also written to DATA_DIR/cluster.json). */
  info: () => ClusterInfo;
  replica: (name: string) => ManagedProcess;
  stop: () => Promise<void>;
}


/** What the processes here inherit: enough to run, as a container has (not the shell's other variables). */
function baseEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'USER'];
  return { ...Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])), NODE_ENV: 'production' };
}

function entryOf(compose: ComposeFile, group: ServiceGroup): string {
  const entry = (compose.services[group] as { build?: { args?: { ENTRY?: string } } }).build?.args?.ENTRY;
  if (!entry) throw new Error(`docker-compose.yml: service ${group} has no build arg ENTRY`);
  return entry;
}

/** Refuses a port something already listens on (a second nginx would fail, or its readiness check reach the first). */
async function assertPortFree(port: number, what: string): Promise<void> {
  const { createServer } = await import('node:net');
  await new Promise<void>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', () => reject(new Error(`${what} ${port} is in use by another program; give another (0 picks a free one)`)));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve()));
  });
}

async function waitHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
    if (res?.ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const write = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  // A launcher killed outright left its processes running (and listed in cluster.json): stop them first.
  for (const line of await clearLeftoverCluster(dataDir)) write(`[cluster] ${line}`);
  const missing = await missingServers();
  if (missing) throw new Error(`the cluster needs its servers: ${missing}`);
  if (opts.port) await assertPortFree(opts.port, "The edge's port");

  const compose = readCompose();
  // As compose reads the shell and the operator's .env: the secrets from DATA_DIR/.secrets.env unless given.
  const vars = launcherVariables(dataDir, opts.variables ?? process.env);
  if (opts.seedProducts !== undefined) vars.SEED_PRODUCTS = String(opts.seedProducts);
  const replicas = { ...DEFAULT_REPLICAS, ...opts.replicas };
  const dir = (name: string) => {
    const d = path.join(dataDir, name);
    fs.mkdirSync(d, { recursive: true });
    return d;
  };

  // Every address up front: the nginx config and each service's environment name them before anything listens.
  const port = async () => portBelowEphemeralRange();
  const ports = {
    ferretdb: await port(),
    redis: await port(),
    minio: await port(),
    minioConsole: await port(),
    mailpitSmtp: await port(),
    mailpitHttp: await port(),
    prometheus: await port(),
    edge: opts.port || (await port()),
  };
  const local = (p: number) => `127.0.0.1:${p}`;
  const names = Object.fromEntries(
    SERVICE_GROUPS.map((g) => [g, Array.from({ length: replicas[g] }, (_, i) => `${g}-${i + 1}`)]),
  ) as Record<ServiceGroup, string[]>;
  const replicaPort: Record<string, number> = {};
  for (const g of SERVICE_GROUPS) for (const n of names[g]) replicaPort[n] = await port();
  // Each gateway's /metrics port (#37): compose gives every container its own 9464; here they share one machine.
  const metricsPort: Record<string, number> = {};
  for (const n of names.gateway) metricsPort[n] = await port();
  const internalPort: Record<string, number> = {};
  for (const g of SERVICE_GROUPS.filter((g) => g !== 'gateway' && g !== 'media-worker')) internalPort[g] = await port();
  const url = (hostPort: string) => `http://${hostPort}`;
  const edge = url(local(ports.edge));
  const publicUrl = `http://localhost:${ports.edge}`;

  // compose's network → here. Servers by their well-known ports; services by the port compose gives each.
  const composePort = (g: ServiceGroup) => composeEnvironment(compose, g, vars).PORT;
  const hosts: Record<string, string> = {
    'mongo:27017': local(ports.ferretdb),
    'redis:6379': local(ports.redis),
    'minio:9000': local(ports.minio),
    'mailpit:1025': local(ports.mailpitSmtp),
    'mailpit:8025': local(ports.mailpitHttp),
  };
  for (const g of Object.keys(internalPort)) hosts[`${g}:${composePort(g as ServiceGroup)}`] = local(internalPort[g]!);
  // The gateway takes each service as its list of replicas (comma-separated) and spreads calls over them itself.
  const gatewayLists: Record<string, string> = {};
  for (const g of Object.keys(internalPort)) {
    gatewayLists[`http://${g}:${composePort(g as ServiceGroup)}`] = names[g as ServiceGroup].map((n) => url(local(replicaPort[n]!))).join(',');
  }

  const envs: Record<string, Record<string, string>> = {};
  const dropped = new Set<string>();
  const envFor = (service: string, name: string, p: number) => {
    const local = localEnvironment(composeEnvironment(compose, service, vars), {
      hosts,
      whole: service === 'gateway' ? gatewayLists : undefined,
      port: p,
      dataDir: dir(name),
      publicUrl,
      webDistDir: path.join(repoRoot, 'web/dist'),
    });
    for (const d of local.dropped) dropped.add(d);
    if (metricsPort[name]) local.env.METRICS_PORT = String(metricsPort[name]);
    envs[name] = local.env;
    return { ...baseEnv(), ...local.env };
  };

  let stopped = false;
  const supervisor = createSupervisor({ quiet: opts.quiet, log: opts.log }, () => writeInfo());
  const serverProc = (name: ServerName) => supervisor.processes.find((p) => p.name === name);
  const info = (): ClusterInfo => {
    const services = Object.fromEntries(
      SERVICE_GROUPS.map((g) => [
        g,
        supervisor.processes.filter((p) => p.group === g).map((p) => ({ name: p.name, address: p.address, pid: p.child.pid, restarts: p.restarts })),
      ]),
    ) as ClusterInfo['services'];
    const server = (name: ServerName, address: string, extra: Record<string, unknown> = {}) => ({ address, pid: serverProc(name)?.child.pid, ...extra });
    return {
      edge,
      launcher: process.pid,
      dataDir,
      startedAt,
      services,
      servers: {
        ferretdb: server('ferretdb', `mongodb://${local(ports.ferretdb)}`),
        redis: server('redis', `redis://${local(ports.redis)}`),
        minio: server('minio', url(local(ports.minio)), { console: url(local(ports.minioConsole)) }),
        mailpit: server('mailpit', `smtp://${local(ports.mailpitSmtp)}`, { api: url(local(ports.mailpitHttp)) }),
        nginx: server('nginx', edge),
        ...(serverProc('prometheus') ? { prometheus: server('prometheus', url(local(ports.prometheus))) } : {}),
      },
      internal: Object.fromEntries(Object.entries(internalPort).map(([g, p]) => [g, url(local(p))])),
      notRunHere: Object.fromEntries(Object.entries(ABSENT_SERVERS).map(([server, keys]) => [server, keys.filter((k) => dropped.has(k))])),
    };
  };
  const startedAt = new Date().toISOString();
  const infoFile = path.join(dataDir, 'cluster.json');
  function writeInfo() {
    if (stopped) return;
    fs.writeFileSync(infoFile, `${JSON.stringify(info(), null, 2)}\n`);
  }

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await supervisor.stop(STOP_TIERS);
    fs.rmSync(infoFile, { force: true });
  };

  const step = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    const t = Date.now();
    const out = await run();
    if (!opts.quiet) write(`[cluster] ${what} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
    return out;
  };

  try {
    // The servers, as compose configures them, with their data under DATA_DIR.
    const nginxDir = dir('nginx');
    const nginxConf = writeClusterNginx({
      dir: nginxDir,
      edgePort: ports.edge,
      webDistDir: path.join(repoRoot, 'web/dist'),
      gateways: names.gateway.map((n) => local(replicaPort[n]!)),
      internal: Object.fromEntries(Object.entries(internalPort).map(([g, p]) => [g, { port: p, replicas: names[g as ServiceGroup].map((n) => local(replicaPort[n]!)) }])),
    });
    const check = spawnSync(nginxBinary(), ['-t', '-q', '-e', 'stderr', '-p', `${nginxDir}/`, '-c', nginxConf], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`nginx -t refused the cluster's config (${nginxConf}): ${check.stderr.trim() || check.stdout.trim()}`);

    const redisArgs = composeCommand(compose, 'redis', vars);
    const minioArgs = composeCommand(compose, 'minio', vars);
    const minioEnv = composeEnvironment(compose, 'minio', vars);
    const mailpitEnv = composeEnvironment(compose, 'mailpit', vars);
    await step('servers ready: FerretDB, redis-server, MinIO, Mailpit, nginx', () =>
      Promise.all([
        supervisor.server({
          name: 'ferretdb',
          address: `mongodb://${local(ports.ferretdb)}`,
          bin: ferretDbBinary(),
          args: [
            '--handler=sqlite',
            `--sqlite-url=file:${dir('ferretdb')}/`,
            `--state-dir=${dir('ferretdb')}`,
            '--telemetry=disable',
            `--listen-addr=${local(ports.ferretdb)}`,
            '--debug-addr=-',
            '--log-level=error', // at warn it prints every refused command in full ("collection already exists" at each start)
          ],
          ready: () => waitForPort(ports.ferretdb, 60_000),
        }),
        supervisor.server({
          name: 'redis',
          address: `redis://${local(ports.redis)}`,
          bin: redisBinary(),
          // compose's command (`redis-server --appendonly yes --maxmemory-policy noeviction`), here.
          args: [...redisArgs.slice(redisArgs[0] === 'redis-server' ? 1 : 0), '--port', String(ports.redis), '--bind', '127.0.0.1', '--dir', dir('redis'), '--loglevel', 'warning'],
          ready: () => waitForPort(ports.redis, 30_000),
        }),
        supervisor.server({
          name: 'minio',
          address: url(local(ports.minio)),
          bin: minioBinary(),
          // compose's `server /data --console-address :9001`, with the folder and addresses here.
          args: [
            ...minioArgs.map((a) => (a === '/data' ? dir('minio') : a === ':9001' ? local(ports.minioConsole) : a)),
            '--address',
            local(ports.minio),
            '--quiet',
          ],
          env: { ...baseEnv(), ...minioEnv },
          ready: () => waitHttp(`${url(local(ports.minio))}/minio/health/ready`, 90_000),
        }),
        supervisor.server({
          name: 'mailpit',
          address: `smtp://${local(ports.mailpitSmtp)}`,
          bin: mailpitBinary(),
          args: ['--smtp', local(ports.mailpitSmtp), '--listen', local(ports.mailpitHttp), '--disable-version-check', '--quiet'],
          env: { ...baseEnv(), ...mailpitEnv, MP_DATABASE: path.join(dir('mailpit'), path.basename(mailpitEnv.MP_DATABASE || 'mailpit.db')) },
          ready: () => waitHttp(`${url(local(ports.mailpitHttp))}/readyz`, 30_000),
        }),
        supervisor.server({
          name: 'nginx',
          address: edge,
          bin: nginxBinary(),
          args: ['-e', 'stderr', '-p', `${nginxDir}/`, '-c', nginxConf],
          ready: () => waitHttp(`${edge}/healthz`, 20_000),
        }),
      ]),
    );
    writeInfo();

    // compose's one-shot seed: fills an empty catalogue (into the first catalog replica's folder, so its search
    // index is built by the seed; the other replicas build theirs from MongoDB when they start).
    const seedEnv = envFor('seed', names.catalog[0]!, 0);
    const seedCount = Number(seedEnv.SEED_PRODUCTS ?? '0');
    delete seedEnv.SEED_PRODUCTS;
    delete seedEnv.PORT;
    if (seedCount > 0) {
      await step(`demo catalogue: ${seedCount.toLocaleString('en-US')} parts (when empty)`, () =>
        supervisor.oneShot({ name: 'seed', entry: 'services/catalog/src/cli/seed.ts', args: ['--products', String(seedCount), '--if-empty'], env: seedEnv }),
      );
    }

    const startGroup = (g: ServiceGroup, timeoutMs: number) =>
      Promise.all(
        names[g].map((n) =>
          supervisor.service({ name: n, group: g, address: url(local(replicaPort[n]!)), entry: entryOf(compose, g), env: envFor(g, n, replicaPort[n]!), timeoutMs }),
        ),
      );
    // The catalog first (its replicas build their search index from MongoDB before they say ready), then what calls
    // it, then the gateways: compose's depends_on order.
    await step(`catalog ready (${replicas.catalog} replicas)`, () => startGroup('catalog', 600_000));
    writeInfo();
    await step('quotes, auth, media-api and media-worker ready', () =>
      Promise.all((['quotes', 'auth', 'media-api', 'media-worker'] as const).map((g) => startGroup(g, 180_000))),
    );
    writeInfo();
    await step(`gateway ready (${replicas.gateway} replicas)`, () => startGroup('gateway', 180_000));
    writeInfo();

    // Prometheus last, once every target listens: each replica's /metrics (the gateways' on their metrics ports).
    const noPrometheus = await prometheusMissing();
    if (noPrometheus) write(`[cluster] no metrics server: ${noPrometheus}`);
    else {
      const promDir = dir('prometheus');
      const target = (n: string) => ({ name: n, address: local(metricsPort[n] ?? replicaPort[n]!) });
      const promConf = writeClusterPrometheus({
        dir: promDir,
        scrapeIntervalSeconds: opts.scrapeIntervalSeconds ?? 5,
        targets: Object.fromEntries(SERVICE_GROUPS.map((g) => [g, names[g].map(target)])),
      });
      const promUrl = url(local(ports.prometheus));
      await step('Prometheus ready, scraping every replica', () =>
        supervisor.server({
          name: 'prometheus',
          address: promUrl,
          bin: prometheusBinary(),
          args: [
            `--config.file=${promConf}`,
            `--storage.tsdb.path=${path.join(promDir, 'data')}`,
            `--web.listen-address=${local(ports.prometheus)}`,
            '--storage.tsdb.retention.time=2d',
            '--log.level=warn',
          ],
          ready: () => waitHttp(`${promUrl}/-/ready`, 60_000),
        }),
      );
      writeInfo();
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    write(`[cluster] a part failed to start; stopping the rest`);
    await stop();
    throw new Error(`The cluster did not start: ${message}`);
  }

  const serviceToken = envs[names.gateway[0]!]?.SERVICE_TOKEN ?? '';
  return {
    edge,
    dataDir,
    mailpitApi: url(local(ports.mailpitHttp)),
    prometheus: serverProc('prometheus') ? url(local(ports.prometheus)) : undefined,
    serviceToken,
    env: envs,
    info,
    replica: (name) => {
      const p = supervisor.processes.find((x) => x.name === name);
      if (!p) throw new Error(`no process named ${name}`);
      return p;
    },
    stop,
  };
}

const taken = new Set<number>();
/**
 * A free port below the kernel's ephemeral range (32768-60999 on Linux). The cluster names its ports up front and
 * its processes take them up to a minute later; a port from the ephemeral range could meanwhile go to any other
 * program's port-0 listener or outgoing connection (a test beside it did: auth-2 met EADDRINUSE and its address
 * answered for another server). Nothing gets a port from 20000-32767 without asking for it by number.
 */
async function portBelowEphemeralRange(): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const candidate = 20_000 + Math.floor(Math.random() * 12_700);
    if (taken.has(candidate)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.unref();
      srv.once('error', () => resolve(false));
      srv.listen(candidate, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) {
      taken.add(candidate);
      return candidate;
    }
  }
  throw new Error('no free port found between 20000 and 32700 in 200 tries');
}
