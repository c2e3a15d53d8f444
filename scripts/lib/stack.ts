/**
 * Starts the whole product on its embedded adapters: every service as its own process, then the
 * gateway. Used by `npm start`, the browser tests and the benchmarks, so all three run the same thing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@forgeline/test-support/net';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const DEFAULT_ADMIN_EMAIL = 'admin@forgeline-parts.example';

interface ServiceSpec {
  name: 'catalog' | 'quotes' | 'auth' | 'media';
  entry: string;
  env?: Record<string, string>;
}

const services: ServiceSpec[] = [
  { name: 'catalog', entry: 'services/catalog/src/main.ts' },
  { name: 'quotes', entry: 'services/quotes/src/main.ts' },
  { name: 'auth', entry: 'services/auth/src/main.ts' },
  { name: 'media', entry: 'services/media/src/main.ts', env: { MEDIA_ROLE: 'all' } },
];

export interface StackOptions {
  dataDir: string;
  /** Gateway port; 0 picks a free one. */
  port?: number;
  /** Extra environment for every process (overrides the defaults). */
  env?: Record<string, string>;
  /** Extra environment for one process by name (`gateway`, `catalog`, `quotes`, `auth`, `media`), over `env`. */
  processEnv?: Partial<Record<'gateway' | 'catalog' | 'quotes' | 'auth' | 'media', Record<string, string>>>;
  /** Seed this many products when the data folder has no catalogue yet. */
  seedProducts?: number;
  /** Print only errors (tests, benchmarks); a failing start still shows each service's last lines. */
  quiet?: boolean;
  /** Where log lines go (default: stdout). */
  log?: (line: string) => void;
}

export interface Stack {
  url: string;
  dataDir: string;
  env: Record<string, string>;
  serviceUrls: Record<string, string>;
  /** The gateway's /metrics server (its own port, never the public one). */
  metricsUrl: string;
  /** Each process now: its pid and how often it was started again after dying (tests assert none died). */
  processes: () => { name: string; pid: number | undefined; restarts: number }[];
  stop: () => Promise<void>;
}

/** One secret per data folder, so services started together trust each other's internal calls. */
function serviceToken(dataDir: string): string {
  const file = path.join(dataDir, '.service-token');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const token = randomBytes(24).toString('hex');
  fs.writeFileSync(file, token, { mode: 0o600 });
  return token;
}

const levelNames: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
export const colours = ['\x1b[36m', '\x1b[35m', '\x1b[33m', '\x1b[32m', '\x1b[34m', '\x1b[91m'];

/** Pino's JSON lines, made readable with the process name in front. */
function formatLine(name: string, colour: string, raw: string): { text: string; level: number } {
  const tty = process.stdout.isTTY;
  const prefix = tty ? `${colour}[${name.padEnd(7)}]\x1b[0m` : `[${name.padEnd(7)}]`;
  try {
    const rec = JSON.parse(raw) as Record<string, unknown>;
    const level = typeof rec.level === 'number' ? rec.level : 30;
    const { msg, level: _l, time: _t, pid: _p, hostname: _h, service: _s, name: _n, req, res, responseTime, ...rest } = rec;
    const http =
      req && typeof req === 'object'
        ? ` ${(req as { method?: string }).method} ${(req as { url?: string }).url} → ${(res as { statusCode?: number } | undefined)?.statusCode ?? '?'} ${responseTime ?? '?'}ms`
        : '';
    const extra = Object.entries(rest)
      .filter(([k]) => k !== 'reqId')
      .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join(' ');
    return { text: `${prefix} ${levelNames[level] ?? level} ${String(msg ?? '')}${http}${extra ? ` ${extra}` : ''}`, level };
  } catch {
    return { text: `${prefix} ${raw}`, level: 30 };
  }
}

export function pipeLogs(child: ChildProcess, name: string, colour: string, opts: StackOptions, tail: string[]) {
  const write = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const raw of lines) {
        if (!raw.trim()) continue;
        const { text, level } = formatLine(name, colour, raw);
        tail.push(text);
        if (tail.length > 60) tail.shift();
        if (!opts.quiet || level >= 50 || stream === child.stderr) write(text);
      }
    });
  }
}

export async function waitReady(url: string, child: ChildProcess, name: string, tail: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${name} exited with code ${child.exitCode} before it was ready. Its last lines:\n${tail.join('\n')}`);
    }
    try {
      const res = await fetch(new URL('/readyz', url), { signal: AbortSignal.timeout(1_000) });
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${name} was not ready within ${timeoutMs / 1000} s. Its last lines:\n${tail.join('\n')}`);
}

/** Newest modification time under a folder (skips node_modules and dist). */
function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Build the web app when its sources are newer than the last build (a fresh clone always builds once). */
export function ensureWebBuilt(log: (line: string) => void = console.log): void {
  const built = path.join(repoRoot, 'web/dist/index.html');
  const sources = [
    'web/src',
    'web/index.html',
    'web/public',
    'web/vite.config.ts',
    'packages/site-config/src',
    'packages/contracts/src',
    'packages/service-kit/src/page-scripts.ts', // index.html's inline scripts (allowed by their hashes in the CSP)
  ];
  const newestSource = Math.max(...sources.map((s) => newestMtime(path.join(repoRoot, s))));
  // The manifest too: the size budget (scripts/bundle-budget.ts) reads it, and a build from before it was turned on lacks it.
  const manifest = path.join(repoRoot, 'web/dist/.vite/manifest.json');
  if (fs.existsSync(built) && fs.existsSync(manifest) && fs.statSync(built).mtimeMs >= newestSource) return;
  log('Building the web app (vite build)...');
  const started = Date.now();
  // Build beside dist and swap it in, so a running gateway (or a parallel build) never sees half a build.
  const dist = path.join(repoRoot, 'web/dist');
  const fresh = `${dist}.building-${process.pid}`;
  // A production build whoever asks (a test runner sets NODE_ENV=test, which would make React's dev JSX runtime).
  const buildEnv = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', fresh, '--emptyOutDir'],
    { cwd: path.join(repoRoot, 'web'), stdio: 'inherit', env: buildEnv },
  );
  // The server-rendering bundle the gateway uses for category and product pages, in a dot folder it never serves.
  const ssr =
    result.status === 0
      ? spawnSync(
          process.execPath,
          [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--ssr', 'src/entry-server.tsx', '--outDir', path.join(fresh, '.ssr')],
          { cwd: path.join(repoRoot, 'web'), stdio: 'inherit', env: buildEnv },
        )
      : result;
  if (result.status !== 0 || ssr.status !== 0) {
    fs.rmSync(fresh, { recursive: true, force: true });
    throw new Error('The web app failed to build (see the output above).');
  }
  const old = `${dist}.old-${process.pid}`;
  if (fs.existsSync(dist)) fs.renameSync(dist, old);
  fs.renameSync(fresh, dist);
  fs.rmSync(old, { recursive: true, force: true });
  log(`Web app built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

export function spawnTs(entry: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, entry), ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Start the stack; if a service found its port taken (drawn free, then bound by someone else before the service
 * listened: another test's process on a busy CI machine), start the whole stack again on freshly drawn ports, since
 * every service was told the others' addresses.
 */
export async function startStack(opts: StackOptions): Promise<Stack> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startStackOnce(opts);
    } catch (err) {
      const portTaken = /EADDRINUSE/.test(String(err)) && !(opts.port && /^gateway /.test(String((err as Error).message)));
      if (!portTaken || attempt >= 3) throw err;
      if (!opts.quiet) (opts.log ?? console.log)(`A port was taken before its service listened on it; starting again on other ports (attempt ${attempt + 1} of 3).`);
    }
  }
}

async function startStackOnce(opts: StackOptions): Promise<Stack> {
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const write = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const ports = Object.fromEntries(await Promise.all(services.map(async (s) => [s.name, await freePort()] as const)));
  const gatewayPort = opts.port || (await freePort());
  // The gateway's /metrics port (#37): a free one, so stacks side by side (the tests) never meet on 9464.
  const metricsPort = await freePort();
  const serviceUrls = Object.fromEntries(services.map((s) => [s.name, `http://127.0.0.1:${ports[s.name]}`]));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SERVICE_TOKEN: serviceToken(dataDir),
    // The person's own environment wins over these defaults; opts.env wins over both.
    LOG_LEVEL: opts.quiet ? 'warn' : process.env.LOG_LEVEL || 'info',
    ADMIN_EMAILS: process.env.ADMIN_EMAILS || DEFAULT_ADMIN_EMAIL,
    PUBLIC_URL: process.env.PUBLIC_URL || `http://localhost:${gatewayPort}`,
    CATALOG_URL: serviceUrls.catalog!,
    QUOTES_URL: serviceUrls.quotes!,
    AUTH_URL: serviceUrls.auth!,
    MEDIA_URL: serviceUrls.media!,
    ...opts.env,
  };
  const baseEnv = { ...process.env, ...env };
  const children: { name: string; child: ChildProcess; restarts?: number }[] = [];
  let stopping = false;

  const stop = async () => {
    stopping = true;
    await Promise.all(
      children.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  };

  /**
   * Start a service and keep it running: a service that dies after it was ready is logged with its
   * exit code and started again (at most 5 times a minute, so a crash loop stops and says so).
   */
  async function launch(name: string, entry: string, env: NodeJS.ProcessEnv, colour: string, url: string, timeoutMs: number) {
    const slot = { name, child: spawnTs(entry, [], env), restarts: 0 };
    children.push(slot);
    const restarts: number[] = [];
    const watch = (child: ChildProcess, tail: string[]) => {
      pipeLogs(child, name, colour, opts, tail);
      child.once('exit', (code, signal) => {
        if (stopping) return;
        const now = Date.now();
        restarts.push(now);
        while (restarts.length && restarts[0]! < now - 60_000) restarts.shift();
        if (restarts.length > 5) {
          write(`[${name}] exited (${signal ?? `code ${code}`}) 6 times within a minute; not restarting it. Its last lines:\n${tail.join('\n')}`);
          return;
        }
        write(`[${name}] exited unexpectedly (${signal ?? `code ${code}`}); starting it again`);
        setTimeout(() => {
          if (stopping) return;
          slot.restarts++;
          slot.child = spawnTs(entry, [], env);
          watch(slot.child, []);
        }, 1_000);
      });
    };
    const tail: string[] = [];
    watch(slot.child, tail);
    await waitReady(url, slot.child, name, tail, timeoutMs);
  }

  try {
    const seedProducts = opts.seedProducts ?? 0;
    if (seedProducts > 0 && !fs.existsSync(path.join(dataDir, 'catalog.sqlite')) && !env.MONGO_URL) {
      write(`Seeding a demo catalogue of ${seedProducts.toLocaleString('en-US')} products into ${dataDir} (first start only)...`);
      const tail: string[] = [];
      const seeding = spawnTs('services/catalog/src/cli/seed.ts', ['--products', String(seedProducts)], baseEnv);
      children.push({ name: 'seed', child: seeding });
      pipeLogs(seeding, 'seed', colours[5]!, opts, tail);
      const code = await new Promise<number | null>((resolve) => seeding.once('exit', resolve));
      if (code !== 0) throw new Error(`Seeding failed (exit ${code}). Its last lines:\n${tail.join('\n')}`);
      children.pop();
    }

    await Promise.all(
      services.map((s, i) =>
        launch(s.name, s.entry, { ...baseEnv, ...s.env, ...opts.processEnv?.[s.name], PORT: String(ports[s.name]) }, colours[i]!, serviceUrls[s.name]!, 120_000),
      ),
    );
    const url = `http://127.0.0.1:${gatewayPort}`;
    await launch('gateway', 'gateway/src/main.ts', { METRICS_PORT: String(metricsPort), ...baseEnv, ...opts.processEnv?.gateway, PORT: String(gatewayPort) }, colours[4]!, url, 60_000);
    const processes = () => children.map((c) => ({ name: c.name, pid: c.child.pid, restarts: c.restarts ?? 0 }));
    return { url, dataDir, env, serviceUrls, metricsUrl: `http://127.0.0.1:${metricsPort}`, processes, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
