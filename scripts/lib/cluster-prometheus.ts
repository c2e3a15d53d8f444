/**
 * Prometheus for the local cluster (#37): compose's scrape config (infra/observability/prometheus.yml) and its alert
 * rules, with only the targets changed: each job's compose address becomes the replicas here, one target each, named
 * by the replica (`instance="catalog-2"`), as Docker's DNS gives compose one target per container. Debian's
 * `prometheus` package (or PROMETHEUS_BIN); the cluster runs without it, and says so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { isExecutable } from '@forgeline/test-support/server-process';
import { repoRoot } from './stack.ts';

const observability = path.join(repoRoot, 'infra/observability');

export function prometheusBinary(): string {
  return process.env.PROMETHEUS_BIN || '/usr/bin/prometheus';
}

/** Why Prometheus cannot run here (null when it can). */
export async function prometheusMissing(): Promise<string | null> {
  const bin = prometheusBinary();
  return (await isExecutable(bin)) ? null : `Prometheus not found at ${bin}; install Debian's prometheus package or set PROMETHEUS_BIN`;
}

interface ScrapeConfig {
  job_name: string;
  static_configs?: { targets: string[]; labels?: Record<string, string> }[];
  dns_sd_configs?: unknown[];
  [key: string]: unknown;
}

export interface ClusterPrometheusConfig {
  dir: string;
  /** Job (compose's service name) → its replicas here: name and host:port of its /metrics. */
  targets: Record<string, { name: string; address: string }[]>;
  scrapeIntervalSeconds: number;
}

/** Writes prometheus.yml and alerts.yml into `dir`; returns the config file's path. */
export function writeClusterPrometheus(opts: ClusterPrometheusConfig): string {
  const config = parse(fs.readFileSync(path.join(observability, 'prometheus.yml'), 'utf8')) as {
    global: Record<string, string>;
    rule_files: string[];
    scrape_configs: ScrapeConfig[];
  };
  const interval = `${opts.scrapeIntervalSeconds}s`;
  config.global = { ...config.global, scrape_interval: interval, evaluation_interval: interval };
  const jobs = new Set(config.scrape_configs.map((j) => j.job_name));
  for (const job of Object.keys(opts.targets)) {
    if (!jobs.has(job)) throw new Error(`infra/observability/prometheus.yml has no job "${job}"; the cluster's Prometheus config cannot be made`);
  }
  config.scrape_configs = config.scrape_configs.map((job) => {
    const replicas = opts.targets[job.job_name];
    if (!replicas) throw new Error(`the cluster runs nothing for Prometheus's job "${job.job_name}" (infra/observability/prometheus.yml)`);
    const { dns_sd_configs: _dns, static_configs: _static, ...rest } = job;
    // A short interval scrapes within it (Prometheus refuses a timeout longer than the interval).
    return { ...rest, scrape_timeout: interval, static_configs: replicas.map((r) => ({ targets: [r.address], labels: { instance: r.name } })) };
  });
  for (const rules of config.rule_files) fs.copyFileSync(path.join(observability, rules), path.join(opts.dir, path.basename(rules)));
  config.rule_files = config.rule_files.map((r) => path.basename(r));
  const file = path.join(opts.dir, 'prometheus.yml');
  fs.writeFileSync(file, `# Made by scripts/lib/cluster-prometheus.ts from infra/observability/prometheus.yml: only the targets differ.\n${stringify(config)}`);
  return file;
}
