/**
 * Issue 37, the files ops run: infra/observability's Prometheus config and alert rules pass `promtool check`, and the
 * Grafana dashboards are well-formed; every metric a dashboard panel or an alert asks for is one a process of ours
 * defines (so a renamed metric cannot leave a blank panel or an alert that never fires).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../scripts/lib/stack.ts';

const dir = path.join(repoRoot, 'infra/observability');
const PROMTOOL = process.env.PROMTOOL_BIN ?? '/usr/bin/promtool';
const noPromtool = fs.existsSync(PROMTOOL) ? undefined : `no promtool at ${PROMTOOL} (Debian package prometheus; scripts/test-setup.sh installs it)`;
if (noPromtool) console.warn(`[observability] promtool checks skipped: ${noPromtool}`);

/** Every metric name the code defines (counter/gauge/histogram('name', ...)), RED's, Node's defaults we use, and up. */
function definedMetrics(): Set<string> {
  const names = new Set(['up', 'http_requests_total', 'http_request_duration_seconds', 'process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds', 'process_cpu_user_seconds_total']);
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) for (const m of fs.readFileSync(p, 'utf8').matchAll(/\b(?:counter|gauge|histogram|each)\(\s*'([a-z_][a-z0-9_]*)'/g)) names.add(m[1]!);
    }
  };
  for (const d of ['packages', 'services', 'gateway']) walk(path.join(repoRoot, d));
  return names;
}

const FUNCTIONS = new Set(['histogram_quantile', 'clamp_min', 'clamp_max', 'label_replace', 'count_values', 'sum_over_time', 'avg_over_time', 'max_over_time']);

/** The metric names a PromQL expression reads (label matchers, `by (...)` lists and functions left out). */
function metricsOf(expr: string): string[] {
  const bare = expr.replace(/\{[^}]*\}/g, '').replace(/\b(?:by|without)\s*\([^)]*\)/g, '');
  return [...new Set([...bare.matchAll(/\b([a-z_][a-z0-9_]*)\b/g)].map((m) => m[1]!).filter((w) => (w.includes('_') || w === 'up') && !FUNCTIONS.has(w)))].map((w) =>
    w.replace(/_(bucket|count|sum)$/, ''),
  );
}

describe('infra/observability (#37)', () => {
  const defined = definedMetrics();

  it.skipIf(Boolean(noPromtool))('the alert rules and the scrape config pass promtool', () => {
    for (const args of [['check', 'rules', 'alerts.yml'], ['check', 'config', 'prometheus.yml']]) {
      const r = spawnSync(PROMTOOL, args, { cwd: dir, encoding: 'utf8' });
      expect(r.status, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
    }
  });

  it('alerts cover search p95, the 5xx ratio, the outbox backlog, a growing queue, change-feed lag and a replica down, on metrics we define', () => {
    const rules = (parse(fs.readFileSync(path.join(dir, 'alerts.yml'), 'utf8')) as { groups: { rules: { alert: string; expr: string; annotations: { summary: string } }[] }[] }).groups.flatMap((g) => g.rules);
    expect(rules.map((r) => r.alert).sort()).toEqual(['ChangeFeedLagging', 'MailOutboxStuck', 'MediaJobsFailing', 'MediaQueueGrowing', 'ReplicaDown', 'SearchSlow', 'ServerErrors'].sort());
    for (const r of rules) {
      expect(r.annotations.summary, r.alert).toBeTruthy();
      for (const m of metricsOf(r.expr)) expect(defined.has(m), `${r.alert} reads ${m}, which nothing defines`).toBe(true);
    }
  });

  it('the dashboards are well-formed Grafana JSON, each panel asking only for metrics we define', () => {
    const files = fs.readdirSync(path.join(dir, 'dashboards')).filter((f) => f.endsWith('.json'));
    expect(files.sort()).toEqual(['buyers.json', 'media.json', 'replicas.json', 'staff.json']);
    const uids = new Set<string>();
    for (const f of files) {
      const d = JSON.parse(fs.readFileSync(path.join(dir, 'dashboards', f), 'utf8')) as {
        uid: string;
        title: string;
        schemaVersion: number;
        panels: { id: number; title: string; gridPos: { x: number; y: number; w: number; h: number }; targets: { expr: string; refId: string }[] }[];
      };
      expect(d.uid, f).toMatch(/^[a-z0-9-]{1,40}$/);
      expect(uids.has(d.uid), `${f}: uid ${d.uid} twice`).toBe(false);
      uids.add(d.uid);
      expect(d.schemaVersion).toBeGreaterThanOrEqual(36);
      expect(d.panels.length, f).toBeGreaterThan(3);
      expect(new Set(d.panels.map((p) => p.id)).size, `${f}: panel ids`).toBe(d.panels.length);
      for (const p of d.panels) {
        expect(p.gridPos.x + p.gridPos.w, `${f}: ${p.title} wider than the grid`).toBeLessThanOrEqual(24);
        expect(p.targets.length, `${f}: ${p.title}`).toBeGreaterThan(0);
        for (const t of p.targets) for (const m of metricsOf(t.expr)) expect(defined.has(m), `${f}: "${p.title}" reads ${m}, which nothing defines`).toBe(true);
      }
    }
  });

  it('the scrape config reaches every process of compose: the gateway on its metrics port, the services on theirs', () => {
    const config = parse(fs.readFileSync(path.join(dir, 'prometheus.yml'), 'utf8')) as { scrape_configs: { job_name: string }[] };
    expect(config.scrape_configs.map((j) => j.job_name).sort()).toEqual(['auth', 'catalog', 'gateway', 'media-api', 'media-worker', 'quotes']);
  });
});
