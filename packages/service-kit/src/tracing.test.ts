/**
 * Tracing's configuration is read once, at a process's start (runMain): a malformed OTEL_* variable stops the start
 * with one line naming it, rather than a process that runs and silently exports nothing. Real processes.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serve = path.join(path.dirname(fileURLToPath(import.meta.url)), 'serve.ts');

/** A process that runs runMain('probe') with `env` and prints "started" if its main ran. */
function start(env: Record<string, string>) {
  const code = `import(${JSON.stringify(serve)}).then((m) => m.runMain('probe', async () => { console.log('started'); }));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('tracing at start (#37)', () => {
  it('starts with a good endpoint and sampler, and without tracing at all', () => {
    expect(start({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' })).toMatchObject({ status: 0, out: 'started\n' });
    expect(start({})).toMatchObject({ status: 0, out: 'started\n' });
    // The sampler is not read when tracing is off: a bad one there stops nothing.
    expect(start({ OTEL_TRACES_SAMPLER: 'sometimes' }).status).toBe(0);
  });

  it('refuses a malformed endpoint, sampler or ratio, naming the variable, before the main runs', () => {
    const cases: [Record<string, string>, string][] = [
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318 ' }, '[probe] failed to start: OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL'],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }, '[probe] failed to start: OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL'],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_SAMPLER: 'sometimes' }, '[probe] failed to start: OTEL_TRACES_SAMPLER must be one of'],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }, '[probe] failed to start: OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1'],
    ];
    for (const [env, message] of cases) {
      const r = start(env);
      expect(r.status, JSON.stringify(env)).toBe(1);
      expect(r.out, JSON.stringify(env)).toContain(message);
      expect(r.out).not.toContain('started');
    }
  });
});
