/**
 * infra/k8s rendered and checked without a cluster or the network: `kustomize build` renders the base and the
 * production overlay, `kubeconform -strict` validates every object against the Kubernetes 1.35 and KEDA schemas
 * that scripts/build-k8s-tools.sh made from Go modules, and the rendered YAML is read for what a schema cannot
 * know: probes on the routes and ports the services really serve, resources, autoscalers aimed at Deployments
 * that exist, KEDA on the queue metric a media process really serves (BullMQ on a real redis-server, the query
 * evaluated by promtool), Prometheus's scrape annotations, each Deployment's
 * environment against docker-compose.yml's, no Secret in any render (the operator's own, from a file written from
 * infra/k8s/secrets.env.example), and the NetworkPolicies: who may call whom, derived from the same environment.
 * Without the tools (no Go) the rendering tests skip and say so.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { startRedis, type RunningRedis } from '@forgeline/test-support/redis';
import { createBullJobQueue } from '../services/media/src/adapters/bullmq/job-queue.ts';
import type { JobHandlers, JobQueue } from '../services/media/src/ports.ts';
import type { ProcessSkuResult } from '../services/media/src/jobs.ts';
import { watchQueue } from '../services/media/src/metrics.ts';
import { registry } from '@forgeline/service-kit/metrics';
import { parsePrometheusText, seriesOf } from '@forgeline/test-support/prometheus-text';
import { secretProblem } from '@forgeline/service-kit/config';
import { compose, envOf, exampleEnvOf, readEnvFile, root } from './harness.ts';
import { crdSchemas, kubernetesSchemas, schemaFileName } from '../scripts/k8s-schemas.ts';

const BIN = process.env.GO_BIN_DIR || path.join(os.homedir(), '.cache/storefront/go-bin');
const SCHEMAS = process.env.K8S_SCHEMA_DIR || path.join(os.homedir(), '.cache/storefront/k8s-schemas');
const KUSTOMIZE = path.join(BIN, 'kustomize');
const KUBECONFORM = path.join(BIN, 'kubeconform');
/** Local files only: kubeconform's default location is on GitHub, which this machine and CI cannot reach. */
const SCHEMA_LOCATION = path.join(SCHEMAS, '{{ .ResourceKind }}{{ .KindSuffix }}.json');

const NAMESPACE = 'forgeline';
/** The Deployments: every service docker-compose.yml runs but the data stores, the mail catcher and the one-shot seed. */
const WORKLOADS = ['gateway', 'catalog', 'quotes', 'auth', 'media-api', 'media-worker', 'web'];
const DATA_STORES = ['mongo', 'meilisearch', 'redis', 'minio', 'mailpit'];
const SECRET = 'forgeline-secrets';
/** The keys of forgeline-secrets, as the operator's file has them before it is filled in. */
const SECRETS_EXAMPLE = path.join(root, 'infra/k8s/secrets.env.example');
/**
 * Who calls whom in the namespace (ingress), as infra/k8s/base/network-policies.yaml allows it. The test derives
 * the same from each Deployment's environment (its *_URL variables) and nginx's upstream, and compares.
 */
const CALLERS: Record<string, string[]> = {
  web: [],
  gateway: ['web'],
  catalog: ['gateway', 'quotes', 'media-api', 'media-worker'],
  quotes: ['gateway'],
  auth: ['gateway'],
  'media-api': ['gateway'],
  'media-worker': [],
};
/** From outside the namespace, only the ingress controller, and only to what the production Ingress routes to. */
const INGRESS_CONTROLLER_NAMESPACE = 'ingress-nginx';
/** And Prometheus (kube-prometheus-stack's pods in `monitoring`), to each Node pod's /metrics port only. */
const isPrometheus = (peer: PolicyPeer) =>
  peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring' && peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'prometheus';

function missingTools(): string | undefined {
  const absent = [KUSTOMIZE, KUBECONFORM].filter((bin) => !fs.existsSync(bin));
  if (absent.length) return `${absent.join(' and ')} not built; run \`bash scripts/build-k8s-tools.sh\` (needs Go)`;
  if (!fs.existsSync(path.join(SCHEMAS, 'deployment-apps-v1.json')) || !fs.existsSync(path.join(SCHEMAS, 'scaledobject-keda-v1alpha1.json'))) {
    return `no kubeconform schemas in ${SCHEMAS}; run \`bash scripts/build-k8s-tools.sh schemas\``;
  }
  return undefined;
}

// ---- the rendered objects, as loosely typed as YAML is ----

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any; // each kind's spec is read field by field in the tests below
  data?: Record<string, string>;
}
interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
interface Probe {
  httpGet?: { path: string; port: number | string };
}

function kustomizeBuild(dir: string): string {
  const r = spawnSync(KUSTOMIZE, ['build', dir], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`kustomize build ${dir} failed: ${r.stderr || r.error}`);
  return r.stdout;
}

function parseObjects(yamlText: string): K8sObject[] {
  return parseAllDocuments(yamlText).map((doc) => {
    if (doc.errors.length) throw new Error(doc.errors[0]!.message);
    return doc.toJS() as K8sObject;
  });
}

function kubeconform(yamlText: string): { status: number | null; out: string } {
  const r = spawnSync(KUBECONFORM, ['-strict', '-summary', '-schema-location', SCHEMA_LOCATION, '-'], { input: yamlText, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}`.trim() };
}

class Rendered {
  constructor(readonly objects: K8sObject[]) {}
  all(kind: string): K8sObject[] {
    return this.objects.filter((o) => o.kind === kind);
  }
  find(kind: string, name: string): K8sObject | undefined {
    return this.objects.find((o) => o.kind === kind && o.metadata.name === name);
  }
  get(kind: string, name: string): K8sObject {
    const found = this.find(kind, name);
    if (!found) throw new Error(`no ${kind} ${name} in the render`);
    return found;
  }
  container(deployment: string): Container {
    const containers = this.get('Deployment', deployment).spec.template.spec.containers as Container[];
    expect(containers, `${deployment}: one container`).toHaveLength(1);
    return containers[0]!;
  }
  /** The container's environment: envFrom ConfigMaps, then env entries (values, or `secret:KEY` for a Secret's key). */
  envOf(deployment: string): Record<string, { value?: string; secret?: { name: string; key: string } }> {
    const c = this.container(deployment);
    const env: Record<string, { value?: string; secret?: { name: string; key: string } }> = {};
    for (const from of c.envFrom ?? []) {
      expect(from.configMapRef, `${deployment}: envFrom only ConfigMaps (secrets by key, below)`).toBeTruthy();
      const map = this.get('ConfigMap', from.configMapRef!.name);
      for (const [k, v] of Object.entries(map.data ?? {})) env[k] = { value: v };
    }
    for (const e of c.env ?? []) {
      expect(env, `${deployment}: ${e.name} given twice`).not.toHaveProperty(e.name);
      if (e.valueFrom?.secretKeyRef) env[e.name] = { secret: e.valueFrom.secretKeyRef };
      else if (e.value !== undefined) env[e.name] = { value: e.value };
      else throw new Error(`${deployment}: ${e.name} comes from neither a value nor a Secret`);
    }
    return env;
  }
  /** With the Secret's keys as infra/k8s/secrets.env.example has them (the file the operator fills in). */
  resolvedEnvOf(deployment: string): Record<string, string> {
    const secret = readEnvFile(SECRETS_EXAMPLE).set;
    return Object.fromEntries(
      Object.entries(this.envOf(deployment)).map(([k, v]) => {
        if (v.value !== undefined) return [k, v.value];
        expect(v.secret!.name).toBe(SECRET);
        const value = secret[v.secret!.key];
        expect(value, `${deployment}: ${k} from ${SECRET}/${v.secret!.key}`).toBeDefined();
        return [k, value!];
      }),
    );
  }
}

/** The container port a probe or Service names (by name or number). */
function portOf(c: Container, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return c.ports?.some((p) => p.containerPort === port) ? port : undefined;
  return c.ports?.find((p) => p.name === port)?.containerPort;
}

/** The keys of the Secret the operator creates, as infra/k8s/secrets.env.example lists them. */
function secretKeysOfFile(): string[] {
  return Object.keys(readEnvFile(SECRETS_EXAMPLE).set);
}

// ---- NetworkPolicy, read as the API server applies it ----

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}
interface PolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: unknown;
}
interface PolicyRule {
  from?: PolicyPeer[];
  ports?: { protocol?: string; port?: number | string }[];
}

/** Whether a label selector selects these labels (an empty selector selects everything). */
function selects(selector: LabelSelector, labels: Record<string, string>): boolean {
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpressions = (selector.matchExpressions ?? []).every((e) => {
    const has = Object.hasOwn(labels, e.key);
    switch (e.operator) {
      case 'In':
        return has && e.values!.includes(labels[e.key]!);
      case 'NotIn':
        return !has || !e.values!.includes(labels[e.key]!);
      case 'Exists':
        return has;
      case 'DoesNotExist':
        return !has;
    }
  });
  return byLabels && byExpressions;
}
const isEmptySelector = (s: LabelSelector | undefined) => !!s && !s.matchLabels && !s.matchExpressions;

/** The pods' labels of each Deployment and StatefulSet in a render. */
function podLabels(r: Rendered): Map<string, Record<string, string>> {
  return new Map([...r.all('Deployment'), ...r.all('StatefulSet')].map((w) => [w.metadata.name, w.spec.template.metadata.labels as Record<string, string>]));
}

/** The ingress rules that apply to a workload's pods: those of every policy selecting them. */
function ingressRulesFor(r: Rendered, labels: Record<string, string>): { policy: string; rules: PolicyRule[] }[] {
  return r
    .all('NetworkPolicy')
    .filter((p) => (p.spec.policyTypes ?? ['Ingress']).includes('Ingress') && selects(p.spec.podSelector, labels))
    .map((p) => ({ policy: p.metadata.name, rules: (p.spec.ingress ?? []) as PolicyRule[] }));
}

/** The service URLs a workload's environment names, as `host:port` (values from the example Secret for its keys). */
function calledHosts(r: Rendered, deployment: string): { key: string; host: string; port: string }[] {
  return Object.entries(r.resolvedEnvOf(deployment)).flatMap(([key, value]) => {
    if (key === 'PUBLIC_URL') return [];
    return value.split(',').flatMap((one) => {
      if (!/^[a-z+]+:\/\//.test(one)) return [];
      const url = new URL(one);
      return [{ key, host: url.hostname, port: url.port }];
    });
  });
}

const skip = missingTools();
if (skip) console.warn(`[k8s] rendering and validation skipped: ${skip}`);

describe.skipIf(!!skip)(`infra/k8s${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const targets = { base: 'infra/k8s/base', production: 'infra/k8s/overlays/production' } as const;
  const texts = {} as Record<keyof typeof targets, string>;
  const renders = {} as Record<keyof typeof targets, Rendered>;

  beforeAll(() => {
    for (const [name, dir] of Object.entries(targets) as [keyof typeof targets, string][]) {
      texts[name] = kustomizeBuild(dir);
      renders[name] = new Rendered(parseObjects(texts[name]));
    }
  });

  for (const target of ['base', 'production'] as const) {
    describe(target, () => {
      it('validates with kubeconform -strict against local schemas, every object known', () => {
        const { status, out } = kubeconform(texts[target]);
        console.log(`[k8s] ${target}: ${out.split('\n').at(-1)}`);
        expect(status, out).toBe(0);
        const count = renders[target].objects.length;
        expect(out).toMatch(new RegExp(`Summary: ${count} resources? found .* Valid: ${count}, Invalid: 0, Errors: 0, Skipped: 0`));
      });

      it('puts every object in the forgeline namespace', () => {
        for (const o of renders[target].objects) expect(o.metadata.namespace, `${o.kind} ${o.metadata.name}`).toBe(NAMESPACE);
      });

      it('runs every service of docker-compose.yml but the data stores and the one-shot seed', () => {
        const deployments = renders[target].all('Deployment').map((d) => d.metadata.name);
        expect(deployments.sort()).toEqual([...WORKLOADS].sort());
        // Compose's observability profile (Prometheus, Grafana) is the cluster's own monitoring stack here (README).
        const composeWorkloads = Object.keys(compose.services).filter(
          (s) => !DATA_STORES.includes(s) && compose.services[s]!.restart !== 'no' && !compose.services[s]!.profiles?.includes('observability'),
        );
        expect(composeWorkloads.sort()).toEqual([...WORKLOADS].sort());
      });

      it('probes readiness on /readyz and liveness on /healthz at the port each service listens on', () => {
        const r = renders[target];
        for (const name of WORKLOADS) {
          const c = r.container(name);
          const readiness = c.readinessProbe?.httpGet;
          const liveness = c.livenessProbe?.httpGet;
          expect(liveness?.path, `${name}: liveness`).toBe('/healthz');
          // nginx answers /healthz itself and has no /readyz (it would go to the gateway): both probes use /healthz.
          expect(readiness?.path, `${name}: readiness`).toBe(name === 'web' ? '/healthz' : '/readyz');
          const port = name === 'web' ? 80 : Number(r.envOf(name).PORT?.value);
          expect(portOf(c, readiness?.port), `${name}: readiness port`).toBe(port);
          expect(portOf(c, liveness?.port), `${name}: liveness port`).toBe(port);
        }
      });

      it('asks for CPU and memory and caps memory in every container', () => {
        for (const name of WORKLOADS) {
          const { requests, limits } = renders[target].container(name).resources ?? {};
          expect(requests?.cpu, `${name}: cpu request`).toBeTruthy();
          expect(requests?.memory, `${name}: memory request`).toBeTruthy();
          expect(limits?.memory, `${name}: memory limit`).toBeTruthy();
        }
      });

      it('gives each Deployment but the workers a Service on its port, selecting its pods', () => {
        const r = renders[target];
        for (const name of WORKLOADS.filter((n) => n !== 'media-worker')) {
          const svc = r.get('Service', name);
          const pods = r.get('Deployment', name).spec.template.metadata.labels as Record<string, string>;
          for (const [k, v] of Object.entries(svc.spec.selector as Record<string, string>)) expect(pods[k], `${name}: selector ${k}`).toBe(v);
          const [port] = svc.spec.ports as { port: number; targetPort: number | string }[];
          const container = portOf(r.container(name), port!.targetPort);
          expect(container, `${name}: targetPort`).toBeDefined();
          // Compose's URLs (http://catalog:4001) hold on the Service: its port is the one the service listens on.
          expect(port!.port, `${name}: Service port`).toBe(container);
        }
      });

      it('points every service URL at a Service of this render on its port, or the cluster Secret', () => {
        const r = renders[target];
        for (const name of WORKLOADS.filter((n) => n !== 'web')) {
          // The base's URLs in its Secret too; production's Secret is the cluster's own.
          const values = target === 'base' ? r.resolvedEnvOf(name) : Object.fromEntries(Object.entries(r.envOf(name)).map(([k, v]) => [k, v.value]));
          for (const [key, value] of Object.entries(values)) {
            if (value === undefined || !/^[a-z]+:\/\//.test(value)) continue;
            const url = new URL(value);
            if (key === 'PUBLIC_URL') continue; // the site's own address
            const svc = r.get('Service', url.hostname);
            if (svc.spec.type !== 'ExternalName') {
              expect((svc.spec.ports as { port: number }[]).map((p) => String(p.port)), `${name}: ${key}`).toContain(url.port);
            }
          }
        }
      });

      it('scales gateway and catalog with HorizontalPodAutoscalers (autoscaling/v2) on Deployments that exist', () => {
        const r = renders[target];
        const hpas = r.all('HorizontalPodAutoscaler');
        expect(hpas.map((h) => h.metadata.name).sort()).toEqual(['catalog', 'gateway']);
        for (const hpa of hpas) {
          expect(hpa.apiVersion).toBe('autoscaling/v2');
          const ref = hpa.spec.scaleTargetRef as { apiVersion: string; kind: string; name: string };
          expect(ref.kind).toBe('Deployment');
          expect(ref.apiVersion).toBe('apps/v1');
          const deployment = r.get('Deployment', ref.name);
          // An apply must not reset what the autoscaler chose; CPU utilisation is measured against the request.
          expect(deployment.spec.replicas, `${ref.name}: replicas left to the HPA`).toBeUndefined();
          expect(r.container(ref.name).resources?.requests?.cpu).toBeTruthy();
          expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
          expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
        }
      });

      it('scales media workers with a KEDA ScaledObject on the queue metric the media dashboard graphs, asked of Prometheus', () => {
        const r = renders[target];
        const [scaled, ...more] = r.all('ScaledObject');
        expect(more).toHaveLength(0);
        expect(scaled!.apiVersion).toBe('keda.sh/v1alpha1');
        const ref = scaled!.spec.scaleTargetRef as { name: string; kind?: string };
        expect(ref.kind ?? 'Deployment').toBe('Deployment');
        expect(ref.name).toBe('media-worker');
        expect(r.get('Deployment', 'media-worker').spec.replicas, 'replicas left to KEDA').toBeUndefined();
        expect(r.envOf('media-worker').MEDIA_ROLE?.value).toBe('worker');
        expect(r.all('HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name)).not.toContain('media-worker');
        const [trigger, ...others] = scaled!.spec.triggers as { type: string; metadata: Record<string, string> }[];
        expect(others).toHaveLength(0);
        expect(trigger!.type).toBe('prometheus');
        expect(trigger!.metadata.query).toBe(scalerQuery);
        expect(Number(trigger!.metadata.threshold)).toBeGreaterThan(0);
        expect(new URL(trigger!.metadata.serverAddress!).hostname).toMatch(/\.monitoring\.svc\.cluster\.local$/);
        // The dashboard ops watch shows the very number KEDA scales on.
        const media = JSON.parse(fs.readFileSync(path.join(root, 'infra/observability/dashboards/media.json'), 'utf8')) as { panels: { targets?: { expr: string }[] }[] };
        expect(media.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr)).toContain(scalerQuery);
      });

      it('lets Prometheus scrape every Node pod: annotations naming the port that serves /metrics', () => {
        const r = renders[target];
        for (const name of WORKLOADS.filter((n) => n !== 'web')) {
          const annotations = r.get('Deployment', name).spec.template.metadata.annotations as Record<string, string> | undefined;
          expect(annotations?.['prometheus.io/scrape'], name).toBe('true');
          expect(annotations?.['prometheus.io/path'], name).toBe('/metrics');
          // The gateway's metrics port is its own (compose and the gateway's config default: 9464), never its public one.
          const port = name === 'gateway' ? 9464 : Number(r.envOf(name).PORT?.value);
          expect(Number(annotations?.['prometheus.io/port']), name).toBe(port);
          expect(r.container(name).ports?.some((p) => p.containerPort === port), `${name} declares port ${port}`).toBe(true);
        }
      });

      it('gives each Deployment the environment variable names docker-compose.yml gives that service', () => {
        for (const name of WORKLOADS.filter((n) => n !== 'web')) {
          expect(Object.keys(renders[target].envOf(name)).sort(), name).toEqual(Object.keys(envOf(name)).sort());
        }
        expect(compose.services.web!.environment ?? {}).toEqual({});
        expect(renders[target].container('web').env ?? []).toEqual([]);
      });

      it('reads secrets from the one Secret by keys its placeholder file lists and the README documents', () => {
        const keys = secretKeysOfFile();
        const readme = fs.readFileSync(path.join(root, 'infra/k8s/README.md'), 'utf8');
        for (const key of keys) expect(readme, `infra/k8s/README.md documents ${key}`).toContain(`\`${key}\``);
        for (const name of WORKLOADS) {
          for (const [env, v] of Object.entries(renders[target].envOf(name))) {
            if (!v.secret) continue;
            expect(v.secret.name, `${name}: ${env}`).toBe(SECRET);
            expect(keys, `${name}: ${env}`).toContain(v.secret.key);
          }
        }
        // The compose secrets are never plain ConfigMap values.
        for (const name of WORKLOADS.filter((n) => n !== 'web')) {
          const env = renders[target].envOf(name);
          for (const key of ['SERVICE_TOKEN', 'MEILI_MASTER_KEY', 'OTP_SECRET', 'S3_SECRET_KEY', 'MONGO_URL', 'REDIS_URL', 'SMTP_URL']) {
            if (env[key]) expect(env[key]!.secret, `${name}: ${key} from the Secret`).toBeTruthy();
          }
        }
      });

      it('renders no Secret: forgeline-secrets is the one the operator creates, so no secret value is in git', () => {
        expect(renders[target].all('Secret')).toEqual([]);
      });

      it('closes every pod of the namespace to ingress by default, and opens none to every source', () => {
        const r = renders[target];
        const policies = r.all('NetworkPolicy');
        const denyAll = policies.filter((p) => isEmptySelector(p.spec.podSelector) && p.spec.policyTypes?.includes('Ingress') && !p.spec.ingress?.length);
        expect(denyAll.map((p) => p.metadata.name), 'a default deny').toHaveLength(1);
        for (const [name, labels] of podLabels(r)) {
          expect(ingressRulesFor(r, labels).map((p) => p.policy), `${name} is selected`).toContain(denyAll[0]!.metadata.name);
        }
        for (const p of policies) {
          for (const rule of (p.spec.ingress ?? []) as PolicyRule[]) {
            // A rule without `from`, or with an empty peer, admits every source: the opposite of the point.
            expect(rule.from?.length, `${p.metadata.name}: a rule names its sources`).toBeGreaterThan(0);
            for (const peer of rule.from!) {
              expect(peer.ipBlock, `${p.metadata.name}: no address ranges`).toBeUndefined();
              expect(peer.podSelector ?? peer.namespaceSelector, `${p.metadata.name}: a peer selects something`).toBeTruthy();
              if (peer.namespaceSelector) expect(isEmptySelector(peer.namespaceSelector), `${p.metadata.name}: every namespace`).toBe(false);
            }
          }
        }
      });

      it('lets each service be called only by the pods its callers are, on its own port, as their environment says', () => {
        const r = renders[target];
        const pods = podLabels(r);
        expect([...pods.keys()].sort()).toEqual(Object.keys(CALLERS).sort());
        // Derived: every service URL in a Deployment's environment (CATALOG_URL …) and nginx's upstream (web -> gateway).
        const derived: Record<string, Set<string>> = Object.fromEntries(Object.keys(CALLERS).map((n) => [n, new Set<string>()]));
        const deploymentBehind = (service: string) => {
          const svc = r.find('Service', service);
          if (!svc || svc.spec.type === 'ExternalName') return undefined; // a data store: infra/k8s/data-stores/
          return [...pods].find(([, labels]) => selects({ matchLabels: svc.spec.selector }, labels))?.[0];
        };
        for (const caller of WORKLOADS.filter((n) => n !== 'web')) {
          for (const { host } of calledHosts(r, caller)) {
            const callee = deploymentBehind(host);
            if (callee) derived[callee]!.add(caller);
          }
        }
        const nginx = fs.readFileSync(path.join(root, 'infra/nginx/default.conf'), 'utf8');
        for (const m of nginx.matchAll(/^\s*server ([a-z-]+):\d+/gm)) derived[deploymentBehind(m[1]!)!]!.add('web');
        for (const [callee, callers] of Object.entries(CALLERS)) {
          expect([...derived[callee]!].sort(), `${callee}: the callers its environment implies`).toEqual([...callers].sort());
        }

        const scraped = new Set<string>();
        for (const [callee, labels] of pods) {
          const allowed = new Set<string>();
          const external: PolicyPeer[] = [];
          const port = callee === 'web' ? 80 : Number(r.envOf(callee).PORT?.value);
          for (const { policy, rules } of ingressRulesFor(r, labels)) {
            for (const rule of rules) {
              expect(rule.ports?.length, `${policy}: names its ports`).toBeGreaterThan(0);
              // Prometheus, from its own namespace, to the port serving /metrics only (the gateway's 9464).
              if (rule.from?.some(isPrometheus)) {
                expect(rule.from.every(isPrometheus), `${policy}: Prometheus alone in its rule`).toBe(true);
                const metricsPort = callee === 'gateway' ? 9464 : port;
                for (const p of rule.ports!) expect(portOf(r.container(callee), p.port), `${policy}: port ${p.port}`).toBe(metricsPort);
                scraped.add(callee);
                continue;
              }
              // Only the service's own port (by number or by the container port's name).
              for (const p of rule.ports!) expect(portOf(r.container(callee), p.port), `${policy}: port ${p.port}`).toBe(port);
              for (const peer of rule.from ?? []) {
                if (peer.namespaceSelector) {
                  external.push(peer);
                  continue;
                }
                for (const [caller, callerLabels] of pods) if (selects(peer.podSelector!, callerLabels)) allowed.add(caller);
              }
            }
          }
          expect([...allowed].sort(), `${callee}: the pods that may call it`).toEqual([...CALLERS[callee]!].sort());
          if (callee === 'web') {
            expect(external, 'web: from the ingress controller').toHaveLength(1);
            expect(external[0]!.namespaceSelector!.matchLabels?.['kubernetes.io/metadata.name']).toBe(INGRESS_CONTROLLER_NAMESPACE);
            expect(isEmptySelector(external[0]!.podSelector ?? {}), 'web: the controller pods, not the whole namespace').toBe(false);
          } else {
            expect(external, `${callee}: nothing from outside the namespace`).toEqual([]);
          }
        }
        expect([...scraped].sort(), 'Prometheus scrapes every Node pod').toEqual(WORKLOADS.filter((n) => n !== 'web').sort());
        // What an Ingress routes to is what the controller may reach.
        for (const ingress of r.all('Ingress')) {
          for (const rule of ingress.spec.rules) {
            for (const p of rule.http.paths) expect(deploymentBehind(p.backend.service.name), `${ingress.metadata.name} routes to web`).toBe('web');
          }
        }
      });
    });
  }

  it('infra/k8s/secrets.env.example lists the keys the Deployments read, with nothing that passes for a secret, and the filled-in file stays out of git', () => {
    const { set } = readEnvFile(SECRETS_EXAMPLE);
    const read = new Set<string>();
    for (const name of WORKLOADS) for (const v of Object.values(renders.base.envOf(name))) if (v.secret) read.add(v.secret.key);
    expect(Object.keys(set).sort()).toEqual([...read].sort());
    for (const key of ['SERVICE_TOKEN', 'OTP_SECRET', 'MEILI_MASTER_KEY', 'S3_SECRET_KEY']) expect(secretProblem(set[key]), key).not.toBeNull();
    expect(fs.existsSync(path.join(root, 'infra/k8s/base/env/secrets.env')), 'no secrets file in the base').toBe(false);
    for (const file of ['infra/k8s/secrets.env', 'infra/k8s/overlays/production/secrets.env']) {
      expect(spawnSync('git', ['check-ignore', '-q', file], { cwd: root }).status, `${file} is ignored by git`).toBe(0);
    }
  });

  describe('infra/k8s/data-stores: who may reach the stores', () => {
    let stores: Rendered;
    let text = '';
    beforeAll(() => {
      text = kustomizeBuild('infra/k8s/data-stores');
      stores = new Rendered(parseObjects(text));
    });

    it('validates with kubeconform -strict, every object a NetworkPolicy in forgeline-data', () => {
      const { status, out } = kubeconform(text);
      expect(status, out).toBe(0);
      for (const o of stores.objects) {
        expect(o.kind).toBe('NetworkPolicy');
        expect(o.metadata.namespace).toBe('forgeline-data');
      }
    });

    it("admits on each store's port exactly the forgeline pods whose environment names the store", () => {
      const pods = podLabels(renders.base);
      for (const store of DATA_STORES) {
        const policy = stores.get('NetworkPolicy', store);
        expect(isEmptySelector(policy.spec.podSelector), `${store}: selects the store's pods only`).toBe(false);
        // Derived from compose's environment of each workload (as an operator's .env fills it).
        const users = new Set<string>();
        const ports = new Set<string>();
        for (const name of WORKLOADS.filter((n) => n !== 'web')) {
          for (const value of Object.values(envOf(name))) {
            if (!/^[a-z+]+:\/\//.test(value)) continue;
            const url = new URL(value);
            if (url.hostname !== store) continue;
            users.add(name);
            ports.add(url.port);
          }
        }
        expect(users.size, `${store}: used by someone`).toBeGreaterThan(0);
        const allowed = new Set<string>();
        for (const rule of (policy.spec.ingress ?? []) as PolicyRule[]) {
          for (const peer of rule.from ?? []) {
            if (peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] !== NAMESPACE) continue;
            expect(rule.ports?.map((p) => String(p.port)), `${store}: its port`).toEqual([...ports]);
            for (const [name, labels] of pods) if (selects(peer.podSelector ?? {}, labels)) allowed.add(name);
          }
        }
        expect([...allowed].sort(), store).toEqual([...users].sort());
      }
      // KEDA asks Prometheus, not Redis: nothing outside the two namespaces reaches the queue.
      const redisPeers = (stores.get('NetworkPolicy', 'redis').spec.ingress as PolicyRule[]).flatMap((r) => r.from ?? []);
      expect(redisPeers.map((p) => p.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name']).filter(Boolean)).toEqual([NAMESPACE]);
    });
  });

  it("base: carries the values docker-compose.yml gives each service, the Secret's as both example files have them", () => {
    for (const name of WORKLOADS.filter((n) => n !== 'web')) {
      expect(renders.base.resolvedEnvOf(name), name).toEqual(exampleEnvOf(name));
    }
  });

  it('base: runs the images compose builds, and the data stores as ExternalName Services of compose\'s names', () => {
    const r = renders.base;
    for (const name of WORKLOADS) {
      expect(r.container(name).image, name).toBe(compose.services[name]!.image);
    }
    for (const store of DATA_STORES) {
      const svc = r.get('Service', store);
      expect(svc.spec.type, store).toBe('ExternalName');
      expect(svc.spec.externalName, store).toMatch(/^[a-z0-9.-]+$/);
    }
  });

  it('production: no mail catcher, released images from a registry, the public address over https, no admin address prefill', () => {
    const r = renders.production;
    expect(r.find('Service', 'mailpit')).toBeUndefined();
    expect(r.envOf('auth').ADMIN_EMAIL_PREFILL?.value).toBe('false');
    for (const name of WORKLOADS.filter((n) => n !== 'web')) expect(r.envOf(name).NODE_ENV?.value, name).toBe('production');
    for (const name of WORKLOADS) {
      const image = r.container(name).image;
      expect(image, name).toMatch(/^[a-z0-9.-]+\.[a-z]+\/forgeline\/[a-z-]+:[\w.-]+$/);
      expect(image, name).not.toMatch(/:local$/);
    }
    for (const name of ['gateway', 'auth']) expect(r.envOf(name).PUBLIC_URL?.value, name).toMatch(/^https:\/\//);
    const ingress = r.get('Ingress', 'web');
    const backend = ingress.spec.rules[0].http.paths[0].backend.service as { name: string; port: { name: string } };
    expect(backend.name).toBe('web');
    expect((r.get('Service', 'web').spec.ports as { name: string }[]).map((p) => p.name)).toContain(backend.port.name);
    // The stores by full DNS name (the charts' and operators' Services, or a managed service's host).
    for (const store of DATA_STORES.filter((s) => s !== 'mailpit')) {
      expect(r.get('Service', store).spec.externalName, store).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    }
  });

  it('kubeconform refuses what the API server would: an unknown field, a wrongly typed KEDA field, an unknown kind', () => {
    const cases: [string, string, RegExp][] = [
      ['readinessProbe:', 'readinessProbes:', /additional properties 'readinessProbes' not allowed/],
      ['threshold: "10"', 'threshold: 10', /threshold': got number, want string/],
      ['kind: HorizontalPodAutoscaler', 'kind: HorizontalPodAutoscalr', /could not find schema for HorizontalPodAutoscalr/],
    ];
    for (const [from, to, message] of cases) {
      expect(texts.base, from).toContain(from);
      const { status, out } = kubeconform(texts.base.replace(from, to));
      expect(status, `${from} → ${to}`).toBe(1);
      expect(out).toMatch(message);
    }
  });
});

// ---- the schema conversion itself (no tools needed) ----

describe('scripts/k8s-schemas.ts', () => {
  it("names files as kubeconform's {{ .ResourceKind }}{{ .KindSuffix }} template asks", () => {
    expect(schemaFileName({ group: '', version: 'v1', kind: 'Service' })).toBe('service-v1.json');
    expect(schemaFileName({ group: 'apps', version: 'v1', kind: 'Deployment' })).toBe('deployment-apps-v1.json');
    expect(schemaFileName({ group: 'networking.k8s.io', version: 'v1', kind: 'Ingress' })).toBe('ingress-networking-v1.json');
    expect(schemaFileName({ group: 'keda.sh', version: 'v1alpha1', kind: 'ScaledObject' })).toBe('scaledobject-keda-v1alpha1.json');
  });

  it('makes stand-alone strict schemas: references inlined, unknown fields refused, int-or-string and quantities open', () => {
    const spec = {
      definitions: {
        'io.k8s.api.demo.v1.Widget': {
          'x-kubernetes-group-version-kind': [{ group: 'demo.example.com', version: 'v1', kind: 'Widget' }],
          required: ['spec'],
          properties: {
            apiVersion: { type: 'string' },
            kind: { type: 'string' },
            spec: { $ref: '#/definitions/io.k8s.api.demo.v1.WidgetSpec' },
          },
        },
        'io.k8s.api.demo.v1.WidgetSpec': {
          type: 'object',
          properties: {
            port: { $ref: '#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString' },
            memory: { $ref: '#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity' },
          },
        },
        'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: 'string', format: 'int-or-string' },
        'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: 'string' },
        'io.k8s.api.demo.v1.Tree': {
          'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Tree' }],
          properties: { child: { $ref: '#/definitions/io.k8s.api.demo.v1.Tree' } },
        },
      },
    };
    const out = kubernetesSchemas(spec);
    expect([...out.keys()]).toEqual(['widget-demo-v1.json']); // the self-referencing kind is left out
    const widget = out.get('widget-demo-v1.json')!;
    expect(widget.additionalProperties).toBe(false);
    expect(JSON.stringify(widget)).not.toContain('$ref');
    const props = widget.properties as Record<string, any>;
    expect(props.apiVersion.enum).toEqual(['demo.example.com/v1']);
    expect(props.kind.enum).toEqual(['Widget']);
    expect(props.spec.additionalProperties).toBe(false);
    // Each may also be null where nothing requires it (openapi2jsonschema's rule, kept): ['string', 'null'].
    const typesOf = (p: { oneOf: { type: string[] }[] }) => p.oneOf.map((o) => o.type[0]);
    expect(typesOf(props.spec.properties.port)).toEqual(['string', 'integer']);
    expect(typesOf(props.spec.properties.memory)).toEqual(['string', 'number']);
    expect(spec.definitions['io.k8s.api.demo.v1.WidgetSpec']).not.toHaveProperty('additionalProperties'); // input untouched
  });

  it("keeps a CRD's root open and its nested objects strict, one schema per version", () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  group: keda.sh
  names: { kind: ScaledObject }
  versions:
    - name: v1alpha1
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                minReplicaCount: { type: integer }
`;
    const out = crdSchemas(crd);
    expect([...out.keys()]).toEqual(['scaledobject-keda-v1alpha1.json']);
    const schema = out.get('scaledobject-keda-v1alpha1.json')! as Record<string, any>;
    expect(schema).not.toHaveProperty('additionalProperties');
    expect(schema.properties.spec.additionalProperties).toBe(false);
  });
});

// ---- the metric KEDA asks for is the one the media processes serve ----

/** Read from the ScaledObject in the base: the query KEDA asks Prometheus (and the media dashboard graphs). */
const scalerQuery = (() => {
  const file = fs.readFileSync(path.join(root, 'infra/k8s/base/media-worker.yaml'), 'utf8');
  const m = /^\s*query:\s*(.+)$/m.exec(file);
  if (!m) throw new Error('infra/k8s/base/media-worker.yaml names no query');
  return m[1]!.trim();
})();

const PROMTOOL = process.env.PROMTOOL_BIN || '/usr/bin/promtool';
const redis = await startRedis();
const scalerSkip = 'skip' in redis ? redis.skip : fs.existsSync(PROMTOOL) ? undefined : `promtool not found at ${PROMTOOL} (Debian's prometheus package)`;
if (scalerSkip) console.warn(`[k8s] the scaler's metric check skipped: ${scalerSkip}`);

describe.skipIf(scalerSkip)(`the metric the ScaledObject scales on${scalerSkip ? ` (skipped: ${scalerSkip})` : ''}`, () => {
  const running = redis as RunningRedis;
  let queue: JobQueue;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'forgeline-scaler-'));
  beforeAll(() => {
    // The queue exactly as services/media/src/main.ts builds it (no name: the production one), watched as it does.
    queue = createBullJobQueue({ redisUrl: running.url, attempts: 1, backoffMs: 10 });
    watchQueue(queue);
  });
  afterAll(async () => {
    await queue?.close();
    await running.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** KEDA's query over what two media processes (an API and a worker, each reporting the one queue) serve now. */
  async function scalerReads(): Promise<{ served: number; promtool: { status: number | null; out: string } }> {
    const waiting = parsePrometheusText(await registry.metrics()).find((x) => x.name === 'media_queue_jobs' && x.labels.state === 'waiting');
    if (!waiting) throw new Error('the media process serves no media_queue_jobs{state="waiting"}');
    const series = (instance: string) => seriesOf(waiting.name, { ...waiting.labels, instance, job: 'media' });
    const file = path.join(tmp, 'scaler-test.yml');
    // promtool's own PromQL evaluation, as Prometheus answers KEDA: the expected value is what the process served.
    fs.writeFileSync(
      file,
      [
        'evaluation_interval: 1m',
        'tests:',
        '  - interval: 1m',
        '    input_series:',
        `      - series: '${series('media-api-1')}'`,
        `        values: '${waiting.value}x3'`,
        `      - series: '${series('media-worker-1')}'`,
        `        values: '${waiting.value}x3'`,
        '    promql_expr_test:',
        `      - expr: '${scalerQuery}'`,
        '        eval_time: 2m',
        '        exp_samples:',
        `          - labels: '{}'`,
        `            value: ${waiting.value}`,
        '',
      ].join('\n'),
    );
    const run = spawnSync(PROMTOOL, ['test', 'rules', file], { encoding: 'utf8' });
    return { served: waiting.value, promtool: { status: run.status, out: `${run.stdout}${run.stderr}` } };
  }

  it('reads every image job the media API queues as waiting, counted once however many processes report it, and none once a worker took them', async () => {
    expect((await scalerReads()).served).toBe(0);
    for (const sku of ['K8S-1', 'K8S-2', 'K8S-3']) {
      await queue.add('process-sku', { sku, productId: `p-${sku}`, batchId: 'k8s', forceReprocess: false }, { jobId: `k8s-${sku}` });
    }
    const queued = await scalerReads();
    expect(queued.served).toBe(3);
    expect(queued.promtool.status, queued.promtool.out).toBe(0);
    const taken: string[] = [];
    const handlers: JobHandlers = {
      'process-sku': async (p) => {
        taken.push(p.sku);
        return { sku: p.sku, productId: p.productId, processed: 0, unchanged: 0, failed: [], images: [], catalogUpdated: false } satisfies ProcessSkuResult;
      },
      // Not queued here; a worker needs a handler for every job name.
      'process-diagram': async (p) => ({ assemblyId: p.assemblyId, diagram: null, superseded: true, catalogUpdated: false }),
    };
    const worker = await queue.work(handlers, { concurrency: 1 });
    try {
      await expect.poll(() => taken.length, { timeout: 20_000 }).toBe(3);
      const drained = await scalerReads();
      expect(drained.served).toBe(0);
      expect(drained.promtool.status, drained.promtool.out).toBe(0);
    } finally {
      await worker.close();
    }
  });
});
