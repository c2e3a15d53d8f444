import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { tempDir } from './net.ts';

/** True when `bin` is an executable file (test servers that are absent are a reason to skip, not to fail). */
export async function isExecutable(bin: string): Promise<boolean> {
  try {
    await access(bin, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface ServerProcessOptions {
  /** Names the process in errors: `<name> exited with code N before <notReady>: <stderr>`. */
  name: string;
  bin: string;
  /** Prefix of the temp folder made for the server's data; it is removed when the server stops. */
  tempDirPrefix: string;
  /** The command line, given the server's temp folder. */
  args: (dir: string) => string[];
  env?: NodeJS.ProcessEnv;
  /** Resolves once the server answers; rejects when it gives up waiting. */
  ready: () => Promise<void>;
  /** What the process had not done yet when it exited early (default: "accepting connections"). */
  notReady?: string;
}

/**
 * Spawn a throwaway server with its data in a temp folder and wait until `ready` resolves. `stop()`
 * sends SIGTERM (SIGKILL after 5 s), waits for the exit and removes the folder. If the process exits
 * or `ready` rejects first, the server is stopped and the error thrown (the last 4,000 characters of
 * its stderr in the message when it exited).
 */
export async function startServerProcess(opts: ServerProcessOptions): Promise<{ stop: () => Promise<void> }> {
  const tmp = tempDir(opts.tempDirPrefix);
  const child = spawn(opts.bin, opts.args(tmp.dir), { stdio: ['ignore', 'ignore', 'pipe'], ...(opts.env ? { env: opts.env } : {}) });
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
      opts.ready(),
      exit.then(() => {
        throw new Error(`${opts.name} exited with code ${exited} before ${opts.notReady ?? 'accepting connections'}: ${stderr.trim()}`);
      }),
    ]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { stop };
}
