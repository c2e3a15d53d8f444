import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, tempDir, waitForPort } from './net.ts';

export interface RunningFerretDb {
  /** mongodb://127.0.0.1:<port> (no database: append `/<db>` per test for isolation). */
  url: string;
  stop: () => Promise<void>;
}

/** Where scripts/build-test-servers.sh puts the binary, unless FERRETDB_BIN says otherwise. */
export function ferretDbBinary(): string {
  return process.env.FERRETDB_BIN || path.join(os.homedir(), '.cache', 'storefront', 'go-bin', 'ferretdb');
}

/**
 * Start FerretDB v1.24 (MongoDB's wire protocol on a SQLite backend) on a free port with its data in a
 * temp folder. Returns `{ skip }` with the reason when the binary is absent; throws when it is there but
 * does not start (that is a real failure, not a reason to skip).
 */
export async function startFerretDb(): Promise<RunningFerretDb | { skip: string }> {
  const bin = ferretDbBinary();
  try {
    await access(bin, constants.X_OK);
  } catch {
    return { skip: `FerretDB binary not found at ${bin}; run \`npm run test-servers\` (needs Go) or set FERRETDB_BIN` };
  }
  const tmp = tempDir('ferretdb-');
  const port = await freePort();
  const child = spawn(
    bin,
    [
      '--handler=sqlite',
      `--sqlite-url=file:${tmp.dir}/`,
      `--state-dir=${tmp.dir}`,
      '--telemetry=disable',
      `--listen-addr=127.0.0.1:${port}`,
      '--debug-addr=-',
      '--log-level=WARN',
    ],
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
      waitForPort(port, 30_000),
      exit.then(() => {
        throw new Error(`ferretdb exited with code ${exited} before accepting connections: ${stderr.trim()}`);
      }),
    ]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `mongodb://127.0.0.1:${port}`, stop };
}
