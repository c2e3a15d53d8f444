import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { freePort, tempDir, waitForPort } from './net.ts';

export interface RunningRedis {
  /** redis://127.0.0.1:<port> */
  url: string;
  stop: () => Promise<void>;
}

/** Debian's redis-server, unless REDIS_SERVER_BIN says otherwise. */
export function redisBinary(): string {
  return process.env.REDIS_SERVER_BIN || '/usr/bin/redis-server';
}

/**
 * Start a throwaway redis-server on a free port (no persistence, its dir in a temp folder). Returns
 * `{ skip }` with the reason when the binary is absent; throws when it is there but does not start.
 */
export async function startRedis(): Promise<RunningRedis | { skip: string }> {
  const bin = redisBinary();
  try {
    await access(bin, constants.X_OK);
  } catch {
    return { skip: `redis-server not found at ${bin}; install Debian's redis-server package or set REDIS_SERVER_BIN` };
  }
  const tmp = tempDir('redis-');
  const port = await freePort();
  const child = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', tmp.dir, '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  const stop = async () => {
    if (exited === undefined) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit;
      clearTimeout(timer);
    }
    tmp.remove();
  };
  try {
    await Promise.race([
      waitForPort(port, 20_000),
      exit.then(() => {
        throw new Error(`redis-server exited with code ${exited} before accepting connections: ${stderr.trim()}`);
      }),
    ]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}
