import { freePort, waitForPort } from './net.ts';
import { isExecutable, startServerProcess } from './server-process.ts';

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
 * `port` starts it again where a stopped one was (tests of clients that reconnect).
 */
export async function startRedis(opts: { port?: number } = {}): Promise<RunningRedis | { skip: string }> {
  const bin = redisBinary();
  if (!(await isExecutable(bin))) {
    return { skip: `redis-server not found at ${bin}; install Debian's redis-server package or set REDIS_SERVER_BIN` };
  }
  const port = opts.port ?? (await freePort());
  const { stop } = await startServerProcess({
    name: 'redis-server',
    bin,
    tempDirPrefix: 'redis-',
    args: (dir) => ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
    ready: () => waitForPort(port, 20_000),
  });
  return { url: `redis://127.0.0.1:${port}`, stop };
}
