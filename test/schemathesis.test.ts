/**
 * An outside fuzzer in CI: schemathesis (from PyPI; `npm test` installs the version its set-up pins) reads the whole
 * OpenAPI document at /api/openapi.json and sends what it generates from it (valid, edge and invalid values, in every
 * phase: examples, coverage, fuzzing, stateful) through the real gateway to every service behind it, signed in as staff,
 * on their embedded adapters as `npm start` runs them. The check is `not_a_server_error`: no 5xx, whatever it sends;
 * and afterwards every process is the one that started, none logged an error. It found, in 26 seconds, the multipart
 * body that ended the catalog process, which the fast-check suite (hostile-input.test.ts) had not.
 *
 * SCHEMATHESIS_MAX_EXAMPLES (default 25) sets the cases per operation; SCHEMATHESIS_SEED replays or explores
 * (default: one fixed seed, the same run every time).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../scripts/lib/stack.ts';
import { signIn } from './harness.ts';

/** The command: SCHEMATHESIS_BIN, else the one on PATH, else the module of python3's (a PATH without pip's scripts). */
const candidates: string[][] = [...(process.env.SCHEMATHESIS_BIN ? [[process.env.SCHEMATHESIS_BIN]] : []), ['schemathesis'], ['python3', '-m', 'schemathesis.cli']];
const found = candidates
  .map((cmd) => ({ cmd, version: spawnSync(cmd[0]!, [...cmd.slice(1), '--version'], { encoding: 'utf8' }) }))
  .find((c) => c.version.status === 0);
const SCHEMATHESIS = found?.cmd ?? ['schemathesis'];
const version = found?.version ?? { stdout: '' };
const missing = found ? null : 'schemathesis is not installed (python3 -m pip install schemathesis, as npm test\'s set-up does)';
const MAX_EXAMPLES = Number(process.env.SCHEMATHESIS_MAX_EXAMPLES ?? 25);
const SEED = process.env.SCHEMATHESIS_SEED ?? '20261126';

if (missing) console.warn(`[schemathesis] skipped: ${missing}`);

describe.skipIf(missing !== null)(`schemathesis against the whole OpenAPI document (${missing ?? version.stdout.trim()})`, () => {
  let stack: Stack;
  let token: string;
  const errorLines: string[] = [];
  let startPids: Map<string, number | undefined>;

  beforeAll(async () => {
    stack = await startStack({
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'forgeline-schemathesis-')),
      port: 0,
      seedProducts: 200,
      quiet: true,
      log: (line) => {
        if (!line.startsWith('Seeding')) errorLines.push(line);
      },
      // Every generated request must reach its route, not a rate limit.
      env: { LOG_LEVEL: 'error', RATE_LIMIT_MULTIPLIER: '100000', API_KEY_RATE_LIMIT_PER_MINUTE: '1000000' },
    });
    token = await signIn(stack.url, stack.dataDir);
    startPids = new Map(stack.processes().map((p) => [p.name, p.pid]));
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    if (stack) fs.rmSync(stack.dataDir, { recursive: true, force: true });
  });

  it('finds no server error in any operation, and every process lives on', async () => {
    const reportDir = path.join(stack.dataDir, 'schemathesis');
    const args = [
      'run',
      `${stack.url}/api/openapi.json`,
      '--checks',
      'not_a_server_error',
      '--max-examples',
      String(MAX_EXAMPLES),
      '--seed',
      SEED,
      // One worker: the machine has two cores and the services share them; and hypothesis's lambda cache is not safe
      // across schemathesis's threads (a "Runtime Error" in the coverage phase with two).
      '--workers',
      '1',
      '--header',
      `Authorization: Bearer ${token}`,
      // Signing out would end the session the rest runs with.
      '--exclude-path',
      '/api/admin/auth/logout',
      '--request-timeout',
      '60',
      '--report',
      'junit',
      '--report-dir',
      reportDir,
    ];
    const run = await new Promise<{ code: number | null; output: string }>((resolve) => {
      // In the run's temp folder: schemathesis keeps a cache (.schemathesis/) where it runs.
      const child = spawn(SCHEMATHESIS[0]!, [...SCHEMATHESIS.slice(1), ...args], { cwd: stack.dataDir, env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_HOOKS: '' } });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.once('close', (code) => resolve({ code, output }));
    });
    // Every summary line prefixed: schemathesis closes with a pytest-style banner ("=== 2 warnings in 76s ===") that
    // CI would read as the run's closing line (pytest's, counting no test) instead of the one .ci/run prints last.
    const summary = run.output
      .slice(run.output.lastIndexOf('SUMMARY') - 40)
      .split('\n')
      .map((line) => `[schemathesis] ${line}`)
      .join('\n');
    console.log(`[schemathesis] ${SCHEMATHESIS.join(' ')} ${args.filter((a) => !a.startsWith('Authorization')).join(' ')}\n${summary}`);
    expect(run.code, run.output.slice(-20_000)).toBe(0);
    expect(run.output).toMatch(/Test cases:\s+\d+ generated, \d+ passed/);

    expect(errorLines, 'errors the processes logged').toEqual([]);
    for (const p of stack.processes()) {
      expect(p.restarts, `${p.name} was restarted`).toBe(0);
      expect(p.pid, `${p.name}'s pid`).toBe(startPids.get(p.name));
    }
  }, 1_200_000);
});
