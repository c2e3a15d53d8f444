/**
 * `npm run lint:openapi`: lints the OpenAPI document the gateway serves at /api/openapi.json with Redocly CLI's
 * `recommended` rules (redocly.yaml at the root says which, and why any is changed). The document is built by the same
 * code the gateway runs (packages/contracts/src/openapi.ts) into a temp file, so no copy of it is committed to go stale.
 * Exits non-zero on any error or warning.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildOpenApiDocument } from '../packages/contracts/src/openapi.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forgeline-openapi-'));
const file = path.join(dir, 'openapi.json');
try {
  fs.writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  const redocly = path.join(repoRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const run = spawnSync(process.execPath, [redocly, 'lint', file, '--config', path.join(repoRoot, 'redocly.yaml'), '--max-problems', '1000', '--format', 'stylish'], {
    cwd: repoRoot,
    stdio: 'inherit',
    // No update check and no usage report: CI and a machine without outside network run it the same.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  process.exitCode = run.status ?? 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
