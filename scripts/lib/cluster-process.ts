/**
 * The cluster's processes: servers (FerretDB, redis-server, MinIO, Mailpit, nginx) and Node replicas, each with its
 * log lines prefixed by its name (stack.ts's formatting), a readiness check, and an orderly stop. A replica that dies
 * after it was ready is started again, as compose's `restart: unless-stopped` does (at most 5 times a minute).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { colours, pipeLogs, spawnTs, waitReady, type StackOptions } from './stack.ts';

export interface ManagedProcess {
  name: string;
  /** The compose service it stands for (gateway, catalog, ..., or a server's own name). */
  group: string;
  kind: 'server' | 'service';
  address: string;
  child: ChildProcess;
  restarts: number;
  /** Its last log lines (shown when it fails). */
  tail: string[];
}

export interface Supervisor {
  processes: ManagedProcess[];
  /** A server: spawned in its own process group (a terminal's Ctrl-C reaches it only through the launcher, last). */
  server(spec: { name: string; address: string; bin: string; args: string[]; env?: NodeJS.ProcessEnv; ready: (p: ManagedProcess) => Promise<void> }): Promise<ManagedProcess>;
  /** A Node replica, ready when its /readyz answers 200. */
  service(spec: { name: string; group: string; address: string; entry: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<ManagedProcess>;
  /** A one-shot Node script (the seed); resolves when it exits 0. */
  oneShot(spec: { name: string; entry: string; args: string[]; env: NodeJS.ProcessEnv }): Promise<void>;
  /** Stops the groups tier by tier (each tier at once, SIGTERM then SIGKILL after 10 s), then anything left; idempotent. */
  stop(tiers: string[][]): Promise<void>;
  stopping: () => boolean;
}

const RESTARTS_PER_MINUTE = 5;

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    if (exited(child) || child.pid === undefined) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Resolves when `ready` does; rejects (naming the process and its last lines) when it fails or the process exits first. */
async function untilReady(p: ManagedProcess, ready: () => Promise<void>): Promise<void> {
  let onExit: () => void = () => {};
  const died = new Promise<never>((_, reject) => {
    onExit = () =>
      reject(new Error(`${p.name} exited (${p.child.signalCode ?? `code ${p.child.exitCode}`}) before it was ready. Its last lines:\n${p.tail.join('\n')}`));
    // 'close' (after 'exit', once its output is read), so the last lines are in the message.
    if (exited(p.child) && p.child.stderr?.readableEnded !== false) onExit();
    else p.child.once('close', onExit);
  });
  try {
    await Promise.race([ready(), died]);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(message.includes('last lines') ? message : `${p.name}: ${message}. Its last lines:\n${p.tail.join('\n')}`);
  } finally {
    p.child.off('close', onExit);
    died.catch(() => {});
  }
}

export function createSupervisor(opts: Pick<StackOptions, 'quiet' | 'log'>, onChange: () => void): Supervisor {
  const write = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const logOpts: StackOptions = { dataDir: '', quiet: opts.quiet, log: opts.log };
  const processes: ManagedProcess[] = [];
  const oneShots = new Set<ChildProcess>();
  let stopping = false;
  let colour = 0;
  const nextColour = () => colours[colour++ % (colours.length - 1)]!;

  // Whatever ends the launcher's process (an error, process.exit), the servers in their own groups go with it.
  const killAll = () => {
    for (const p of processes) if (!exited(p.child)) p.child.kill('SIGKILL');
    for (const c of oneShots) if (!exited(c)) c.kill('SIGKILL');
  };
  process.on('exit', killAll);

  return {
    processes,
    stopping: () => stopping,

    async server(spec) {
      const child = spawn(spec.bin, spec.args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...(spec.env ? { env: spec.env } : {}) });
      const p: ManagedProcess = { name: spec.name, group: spec.name, kind: 'server', address: spec.address, child, restarts: 0, tail: [] };
      processes.push(p);
      // spawn failures (ENOENT, EACCES) arrive as an 'error' event, and then 'exit' may never come.
      child.once('error', (err) => {
        p.tail.push(`could not start ${spec.bin}: ${err.message}`);
        child.emit('close', null, null);
      });
      pipeLogs(child, spec.name, nextColour(), logOpts, p.tail);
      await untilReady(p, () => spec.ready(p));
      child.once('exit', (code, signal) => {
        if (!stopping) write(`[${spec.name}] exited unexpectedly (${signal ?? `code ${code}`}); what needs it will fail until the cluster is started again. Its last lines:\n${p.tail.join('\n')}`);
      });
      return p;
    },

    async service(spec) {
      const p: ManagedProcess = { name: spec.name, group: spec.group, kind: 'service', address: spec.address, child: spawnTs(spec.entry, [], spec.env), restarts: 0, tail: [] };
      processes.push(p);
      const c = nextColour();
      const recent: number[] = [];
      const watch = () => {
        pipeLogs(p.child, spec.name, c, logOpts, p.tail);
        p.child.once('exit', (code, signal) => {
          if (stopping) return;
          const now = Date.now();
          recent.push(now);
          while (recent.length && recent[0]! < now - 60_000) recent.shift();
          if (recent.length > RESTARTS_PER_MINUTE) {
            write(`[${spec.name}] exited (${signal ?? `code ${code}`}) ${recent.length} times within a minute; not starting it again. Its last lines:\n${p.tail.join('\n')}`);
            return;
          }
          write(`[${spec.name}] exited unexpectedly (${signal ?? `code ${code}`}); starting it again`);
          setTimeout(() => {
            if (stopping) return;
            p.restarts++;
            p.child = spawnTs(spec.entry, [], spec.env);
            watch();
            onChange();
          }, 1_000);
        });
      };
      watch();
      await waitReady(spec.address, p.child, spec.name, p.tail, spec.timeoutMs);
      return p;
    },

    async oneShot(spec) {
      const tail: string[] = [];
      const child = spawnTs(spec.entry, spec.args, spec.env);
      oneShots.add(child);
      pipeLogs(child, spec.name, colours[5]!, logOpts, tail);
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      oneShots.delete(child);
      if (code !== 0) throw new Error(`${spec.name} failed (${code === null ? child.signalCode : `exit ${code}`}). Its last lines:\n${tail.join('\n')}`);
    },

    async stop(tiers) {
      stopping = true;
      await Promise.all([...oneShots].map((c) => stopChild(c)));
      for (const tier of tiers) await Promise.all(processes.filter((p) => tier.includes(p.group)).map((p) => stopChild(p.child)));
      await Promise.all(processes.map((p) => stopChild(p.child)));
      process.off('exit', killAll);
    },
  };
}
