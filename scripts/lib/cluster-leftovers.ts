/**
 * What a cluster whose launcher was killed outright (SIGKILL, a closed terminal, an OOM kill) leaves behind: its
 * replicas and servers go on running, holding the edge's port and DATA_DIR's files, and the next `npm run
 * start:cluster` fails on a taken port or, worse, starts beside them. DATA_DIR/cluster.json still lists them (it is
 * removed only by a clean stop), so the next start reads it: a launcher still alive means a cluster is running from
 * this folder (refused, naming it); otherwise each listed process that is still ours is stopped, edge first.
 *
 * "Still ours": a pid is reused once its process is gone, so one is stopped only when its command line,
 * environment or working folder names this DATA_DIR (every replica's DATA_DIR and every server's data folder are
 * under it). Where /proc is not there to ask (macOS), nothing is stopped and the message says which pids to look at.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ClusterInfo } from './cluster-info.ts';

/** The order a cluster stops in: the edge first, the servers last. */
export const STOP_TIERS = [['nginx', 'prometheus'], ['gateway'], ['media-worker', 'media-api', 'quotes', 'auth'], ['catalog'], ['ferretdb', 'redis', 'minio', 'mailpit']];

export class ClusterRunningError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The process's command line, environment and working folder, NUL-separated, or null where /proc cannot tell (gone,
 * or not Linux). The folder counts because redis-server rewrites its command line (to "redis-server host:port") and
 * moves into its --dir.
 */
function describe(pid: number): string | null {
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
    return `${cmdline}\0${environ}\0${fs.readlinkSync(`/proc/${pid}/cwd`)}`;
  } catch {
    return null;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

/**
 * Reads DATA_DIR/cluster.json as a launcher left it. Throws ClusterRunningError when its launcher is alive; stops
 * the processes it lists that are still running from this DATA_DIR and removes the file. Returns what it did, one
 * line each, for the launcher to print (empty when there was nothing left). A process not gone `graceMs` after its
 * SIGTERM gets SIGKILL.
 */
export async function clearLeftoverCluster(dataDir: string, opts: { graceMs?: number } = {}): Promise<string[]> {
  const graceMs = opts.graceMs ?? 10_000;
  const file = path.join(dataDir, 'cluster.json');
  let info: Partial<ClusterInfo>;
  try {
    info = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ClusterInfo>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    fs.rmSync(file, { force: true });
    return [`${file} could not be read (${(err as Error).message}); removed it`];
  }
  const launcher = Number(info.launcher);
  if (Number.isInteger(launcher) && launcher > 0 && alive(launcher)) {
    const seen = describe(launcher);
    // A reused pid is some other program: a launcher is a node process.
    if (seen === null || /(^|\/)node(\0|$)/.test(seen.split('\0')[0] ?? '')) {
      throw new ClusterRunningError(
        `a cluster started by process ${launcher} is running from ${dataDir} (edge ${info.edge ?? '?'}). Stop it (Ctrl-C there, or kill ${launcher}), or give another DATA_DIR.`,
      );
    }
  }

  const listed: { name: string; group: string; pid: number }[] = [];
  for (const [group, replicas] of Object.entries(info.services ?? {})) {
    for (const r of replicas ?? []) if (Number.isInteger(r.pid)) listed.push({ name: r.name, group, pid: r.pid! });
  }
  for (const [name, server] of Object.entries(info.servers ?? {})) {
    if (Number.isInteger(server?.pid)) listed.push({ name, group: name, pid: server.pid! });
  }
  const lines: string[] = [];
  const ours: typeof listed = [];
  for (const p of listed) {
    if (!alive(p.pid)) continue;
    const seen = describe(p.pid);
    if (seen === null) lines.push(`${p.name} (pid ${p.pid}) may still be running from the last cluster; this system cannot tell whether that pid is still it, so it was left alone`);
    else if (seen.includes(dataDir)) ours.push(p);
  }
  for (const tier of STOP_TIERS) {
    const now = ours.filter((p) => tier.includes(p.group));
    if (!now.length) continue;
    for (const p of now) process.kill(p.pid, 'SIGTERM');
    if (!(await until(() => now.every((p) => !alive(p.pid)), graceMs))) {
      for (const p of now) if (alive(p.pid)) process.kill(p.pid, 'SIGKILL');
      await until(() => now.every((p) => !alive(p.pid)), 2_000);
    }
  }
  if (ours.length) {
    lines.unshift(
      `stopped ${ours.length} process${ours.length === 1 ? '' : 'es'} left running by the last cluster (its launcher, pid ${info.launcher}, ended without stopping them): ${ours.map((p) => p.name).join(', ')}`,
    );
  }
  fs.rmSync(file, { force: true });
  return lines;
}
