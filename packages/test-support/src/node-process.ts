import { spawn } from 'node:child_process';

export interface NodeProcessOptions {
  /** Names the process in errors. */
  name: string;
  /** Node's arguments: `['--import', 'tsx', 'services/catalog/src/main.ts']`, or `['-e', script]`. */
  args: string[];
  cwd?: string;
  /** Added to this process's environment. */
  env?: Record<string, string>;
  port: number;
  /** Polled until it answers 2xx (default /readyz). */
  readyPath?: string;
  readyTimeoutMs?: number;
}

export interface NodeProcess {
  url: string;
  port: number;
  pid: number;
  /** Its stdout so far, one entry per line (pino's JSON lines for the services). */
  lines: string[];
  /** Its stdout lines parsed as JSON (lines that are not JSON are left out). */
  logs: () => Record<string, unknown>[];
  /** Sends `signal` (SIGKILL: the process dies at once, mid-request) and waits for the exit. */
  kill: (signal?: NodeJS.Signals) => Promise<void>;
  exited: () => boolean;
}

/**
 * A Node process (a service's main.ts, or a small stand-in server) on a given port, started and waited for until
 * `readyPath` answers. Killed with `kill`; a test that starts one again on the same port gets a new process.
 */
export async function startNodeProcess(o: NodeProcessOptions): Promise<NodeProcess> {
  const child = spawn(process.execPath, o.args, {
    cwd: o.cwd,
    env: { ...process.env, ...o.env, PORT: String(o.port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  child.stdout.on('data', (d: Buffer) => {
    const parts = (partial + d.toString()).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts.filter(Boolean));
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  let done = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      done = true;
      resolve();
    }),
  );
  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (!done) child.kill(signal);
    await exit;
  };
  const url = `http://127.0.0.1:${o.port}`;
  const deadline = Date.now() + (o.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (done) throw new Error(`${o.name} exited with code ${child.exitCode} before it was ready: ${stderr.trim()}`);
    const ready = await fetch(`${url}${o.readyPath ?? '/readyz'}`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await kill('SIGKILL');
      throw new Error(`${o.name} was not ready on ${url} within ${o.readyTimeoutMs ?? 60_000} ms: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const logs = () =>
    lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  return { url, port: o.port, pid: child.pid!, lines, logs, kill, exited: () => done };
}
