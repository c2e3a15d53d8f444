import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './net.ts';
import { isExecutable, startServerProcess } from './server-process.ts';

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
  if (!(await isExecutable(bin))) {
    return { skip: `FerretDB binary not found at ${bin}; run \`npm run test-servers\` (needs Go) or set FERRETDB_BIN` };
  }
  const port = await freePort();
  const { stop } = await startServerProcess({
    name: 'ferretdb',
    bin,
    tempDirPrefix: 'ferretdb-',
    args: (dir) => [
      '--handler=sqlite',
      `--sqlite-url=file:${dir}/`,
      `--state-dir=${dir}`,
      '--telemetry=disable',
      `--listen-addr=127.0.0.1:${port}`,
      '--debug-addr=-',
      '--log-level=WARN',
    ],
    ready: () => waitForPort(port, 30_000),
  });
  return { url: `mongodb://127.0.0.1:${port}`, stop };
}
