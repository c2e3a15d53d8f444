import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clearLeftoverCluster, ClusterRunningError } from './cluster-leftovers.ts';

// Real processes stand in for a cluster's replicas and servers: what matters is which pids are stopped.
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/**
 * A node process that sleeps, with the cluster's folder in its environment (a replica's DATA_DIR), its arguments (a
 * server's folder) or as its working folder (redis-server, which rewrites its command line and moves into its --dir).
 */
function sleeper(opts: { env?: NodeJS.ProcessEnv; args?: string[]; cwd?: string; ignoreTerm?: boolean } = {}): ChildProcess {
  const code = `${opts.ignoreTerm ? "process.on('SIGTERM', () => {});" : ''} setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', code, '--', ...(opts.args ?? [])], { env: { PATH: process.env.PATH, ...opts.env }, cwd: opts.cwd, stdio: 'ignore' });
  children.push(child);
  return child;
}

const running = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;
const exited = (c: ChildProcess) => new Promise<void>((resolve) => (running(c) ? c.once('exit', () => resolve()) : resolve()));

async function deadPid(): Promise<number> {
  const c = spawn(process.execPath, ['-e', '']);
  await exited(c);
  return c.pid!;
}

function writeInfo(dir: string, launcher: number, services: Record<string, { name: string; pid: number }[]>, servers: Record<string, { pid: number }>) {
  fs.writeFileSync(
    path.join(dir, 'cluster.json'),
    JSON.stringify({ edge: 'http://127.0.0.1:1', launcher, dataDir: dir, services, servers: Object.fromEntries(Object.entries(servers).map(([n, s]) => [n, { address: 'x', ...s }])) }),
  );
}

describe('a cluster whose launcher was killed outright', () => {
  it('stops the replicas and servers it left, edge first, and leaves a reused pid alone', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-cluster-'));
    const catalog = sleeper({ env: { DATA_DIR: path.join(dir, 'catalog-1') } });
    const stubborn = sleeper({ env: { DATA_DIR: path.join(dir, 'gateway-1') }, ignoreTerm: true });
    const minio = sleeper({ args: ['server', path.join(dir, 'minio')] });
    fs.mkdirSync(path.join(dir, 'redis'));
    const redis = sleeper({ cwd: path.join(dir, 'redis') });
    const stranger = sleeper({ env: { DATA_DIR: '/somewhere/else' } }); // a pid the system gave to another program since
    await new Promise((r) => setTimeout(r, 300)); // each has exec'd node, so /proc shows its own command line
    writeInfo(
      dir,
      await deadPid(),
      { catalog: [{ name: 'catalog-1', pid: catalog.pid! }], gateway: [{ name: 'gateway-1', pid: stubborn.pid! }], quotes: [{ name: 'quotes-1', pid: stranger.pid! }] },
      { redis: { pid: redis.pid! }, minio: { pid: minio.pid! }, nginx: { pid: await deadPid() } },
    );

    const lines = await clearLeftoverCluster(dir, { graceMs: 1_000 });
    expect(lines[0]).toMatch(/^stopped 4 processes left running by the last cluster/);
    for (const name of ['gateway-1', 'catalog-1', 'redis', 'minio']) expect(lines[0]).toContain(name);
    expect(lines[0]).not.toContain('quotes-1');
    await Promise.all([exited(catalog), exited(stubborn), exited(redis), exited(minio)]);
    expect(catalog.signalCode).toBe('SIGTERM');
    expect(stubborn.signalCode).toBe('SIGKILL'); // it ignored SIGTERM past the grace
    expect(redis.signalCode).toBe('SIGTERM');
    expect(minio.signalCode).toBe('SIGTERM');
    expect(running(stranger)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'cluster.json'))).toBe(false);
    // Nothing left: the next start finds no file and says nothing.
    expect(await clearLeftoverCluster(dir)).toEqual([]);
  });

  it('refuses to start beside a cluster whose launcher is alive, and touches none of it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'running-cluster-'));
    const catalog = sleeper({ env: { DATA_DIR: path.join(dir, 'catalog-1') } });
    await new Promise((r) => setTimeout(r, 300));
    writeInfo(dir, process.pid, { catalog: [{ name: 'catalog-1', pid: catalog.pid! }] }, {});
    const refused = await clearLeftoverCluster(dir).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ClusterRunningError);
    expect((refused as Error).message).toContain(`a cluster started by process ${process.pid} is running from ${dir}`);
    expect(running(catalog)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'cluster.json'))).toBe(true);
  });

  it('removes a cluster.json it cannot read, saying so', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'broken-cluster-'));
    fs.writeFileSync(path.join(dir, 'cluster.json'), '{"launcher": 12');
    const lines = await clearLeftoverCluster(dir);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/cluster\.json could not be read \(.+\); removed it/);
    expect(fs.existsSync(path.join(dir, 'cluster.json'))).toBe(false);
  });
});
