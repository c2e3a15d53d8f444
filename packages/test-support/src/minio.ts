import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './net.ts';
import { isExecutable, startServerProcess } from './server-process.ts';

export interface RunningMinio {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  stop: () => Promise<void>;
}

/** Where scripts/build-test-servers.sh puts the binary, unless MINIO_BIN says otherwise. */
export function minioBinary(): string {
  return process.env.MINIO_BIN || path.join(os.homedir(), '.cache', 'storefront', 'go-bin', 'minio');
}

/**
 * Start `minio server <tmp> --address 127.0.0.1:<port>` with throwaway root credentials. Returns
 * `{ skip }` with the reason when the binary is absent; throws when it is there but does not start.
 */
export async function startMinio(): Promise<RunningMinio | { skip: string }> {
  const bin = minioBinary();
  if (!(await isExecutable(bin))) {
    return { skip: `MinIO binary not found at ${bin}; run \`npm run test-servers\` (needs Go) or set MINIO_BIN` };
  }
  const port = await freePort();
  const consolePort = await freePort();
  const accessKey = 'forgeline-test';
  const secretKey = 'forgeline-test-secret-key';
  const endpoint = `http://127.0.0.1:${port}`;
  const ready = async () => {
    await waitForPort(port, 60_000);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await fetch(`${endpoint}/minio/health/ready`).catch(() => null);
      if (res?.ok) return;
      if (Date.now() > deadline) throw new Error(`MinIO on ${endpoint} did not report ready`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const { stop } = await startServerProcess({
    name: 'minio',
    bin,
    tempDirPrefix: 'minio-',
    args: (dir) => ['server', path.join(dir, 'data'), '--address', `127.0.0.1:${port}`, '--console-address', `127.0.0.1:${consolePort}`, '--quiet'],
    env: { ...process.env, MINIO_ROOT_USER: accessKey, MINIO_ROOT_PASSWORD: secretKey, MINIO_BROWSER: 'off', MINIO_UPDATE: 'off' },
    ready,
    notReady: 'it was ready',
  });
  return { endpoint, accessKey, secretKey, stop };
}
