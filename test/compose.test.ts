/**
 * docker-compose.yml checked against the code without Docker: every build context, Dockerfile,
 * target and entry point exists; every service's environment parses with that service's own config
 * schema (so a renamed or newly required variable fails here, not at 3 a.m.); the production
 * adapters are chosen; healthchecks, named volumes and the nginx routes are in place; every secret
 * comes from the operator's .env (.env.example lists them, with nothing that would work), and the
 * services refuse the published ones; the mail catcher runs only in the dev profile.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parse } from 'yaml';
import { ConfigError, PUBLISHED_SECRETS, loadConfig, secretProblem } from '@forgeline/service-kit/config';
import { compose, composeReferences, envExample, envOf, exampleEnvOf, operatorVars, root } from './harness.ts';

/** The node services: where their config schema lives and the adapters compose must choose. */
const NODE_SERVICES: Record<string, { config: string; production: string[]; oneShot?: boolean; extraEnv?: string[] }> = {
  catalog: { config: 'services/catalog/src/config.ts', production: ['MONGO_URL', 'MEILI_URL', 'MEILI_MASTER_KEY'] },
  seed: {
    config: 'services/catalog/src/config.ts',
    production: ['MONGO_URL', 'MEILI_URL', 'MEILI_MASTER_KEY'],
    oneShot: true,
    extraEnv: ['SEED_PRODUCTS'],
  },
  quotes: { config: 'services/quotes/src/config.ts', production: ['MONGO_URL', 'SMTP_URL', 'CATALOG_URL'] },
  auth: { config: 'services/auth/src/config.ts', production: ['MONGO_URL', 'SMTP_URL', 'ADMIN_EMAILS'] },
  'media-api': { config: 'services/media/src/config.ts', production: ['REDIS_URL', 'S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET', 'CATALOG_URL'] },
  'media-worker': { config: 'services/media/src/config.ts', production: ['REDIS_URL', 'S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET', 'CATALOG_URL'] },
  gateway: { config: 'gateway/src/config.ts', production: ['CATALOG_URL', 'QUOTES_URL', 'AUTH_URL', 'MEDIA_URL', 'PUBLIC_URL'] },
};
const BACKING = ['mongo', 'meilisearch', 'redis', 'minio', 'mailpit'];
/** The observability profile (#37): what operators watch it with. */
const OBSERVABILITY = ['prometheus', 'grafana'];
/** The secrets the services check in production (productionSecrets in each config), by the name they read. */
const SERVICE_SECRETS = ['SERVICE_TOKEN', 'OTP_SECRET', 'MEILI_MASTER_KEY', 'S3_SECRET_KEY'];
/** Compose's variables that must come from the operator's .env: the secrets, MinIO's root user, the mail relay. */
const REQUIRED_VARIABLES = ['SERVICE_TOKEN', 'OTP_SECRET', 'MEILI_MASTER_KEY', 'MINIO_ROOT_USER', 'MINIO_ROOT_PASSWORD', 'SMTP_URL'];
/** An environment key that holds a secret (as packages/service-kit/src/config.ts keeps them out of messages). */
const SECRET_KEY = /(TOKEN|SECRET|PASSWORD|_KEY|ROOT_USER)$/;
/** Read by service-kit itself rather than a service schema. */
// The OTEL_* read by service-kit/tracing.ts, as OpenTelemetry's SDKs do.
const KIT_ENV = ['HOST', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_TRACES_SAMPLER', 'OTEL_TRACES_SAMPLER_ARG'];

async function schemaOf(file: string): Promise<z.ZodObject> {
  const mod = (await import(path.join(root, file))) as Record<string, unknown>;
  const schema = Object.values(mod).find((v): v is z.ZodObject => v instanceof z.ZodObject);
  if (!schema) throw new Error(`${file} exports no zod object schema`);
  return schema;
}

/** Every `getmeili/meilisearch:<tag>` a test file names (the testcontainers image), by file. */
function testedMeiliImages(): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.test\.ts$/.test(entry.name) && file !== fileURLToPath(import.meta.url)) {
        for (const m of fs.readFileSync(file, 'utf8').matchAll(/['"`](getmeili\/meilisearch:[\w.-]+)['"`]/g)) {
          found.set(path.relative(root, file), m[1]!);
        }
      }
    }
  };
  for (const top of ['services', 'packages', 'gateway', 'test']) walk(path.join(root, top));
  return found;
}

function stagesOf(dockerfile: string): string[] {
  return [...fs.readFileSync(dockerfile, 'utf8').matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((m) => m[1]!);
}

describe('docker-compose.yml', () => {
  it('runs the backing servers, every service and nginx', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [...BACKING, ...OBSERVABILITY, ...Object.keys(NODE_SERVICES), 'web'].sort(),
    );
  });

  it('builds from contexts, Dockerfiles and targets that exist, and starts entry points that exist', () => {
    for (const [name, svc] of Object.entries(compose.services)) {
      if (!svc.build) {
        expect(svc.image, `${name} has an image or a build`).toBeTruthy();
        continue;
      }
      const context = path.resolve(root, svc.build.context);
      expect(fs.existsSync(context), `${name}: context ${svc.build.context}`).toBe(true);
      const dockerfile = path.resolve(context, svc.build.dockerfile ?? 'Dockerfile');
      expect(fs.existsSync(dockerfile), `${name}: ${dockerfile}`).toBe(true);
      if (svc.build.target) expect(stagesOf(dockerfile), `${name}: target`).toContain(svc.build.target);
      if (name in NODE_SERVICES) {
        const entry = svc.build.args?.ENTRY;
        expect(entry, `${name}: build arg ENTRY`).toBeTruthy();
        expect(fs.existsSync(path.resolve(context, entry!)), `${name}: entry ${entry}`).toBe(true);
        // A command that runs another script (the one-shot seed) must name a file that exists too.
        for (const script of JSON.stringify(svc.command ?? '').match(/[\w./-]+\.ts\b/g) ?? []) {
          expect(fs.existsSync(path.resolve(context, script)), `${name}: command runs ${script}`).toBe(true);
        }
      }
    }
  });

  it('copies only files that exist into the images', () => {
    const dockerfiles = new Set(
      Object.values(compose.services)
        .filter((s) => s.build)
        .map((s) => path.resolve(root, s.build!.context, s.build!.dockerfile ?? 'Dockerfile')),
    );
    for (const file of dockerfiles) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/^COPY\s+(?!--from)(.+)$/gm)) {
        const parts = m[1]!.split(/\s+/).filter((p) => !p.startsWith('--'));
        for (const src of parts.slice(0, -1)) {
          const base = src.split('*')[0]!.replace(/\/$/, '');
          expect(fs.existsSync(path.join(root, base || '.')), `${path.relative(root, file)}: COPY ${src}`).toBe(true);
        }
      }
    }
  });

  it("gives every service an environment its own config schema accepts, with every required variable set", async () => {
    for (const [name, { config, extraEnv = [] }] of Object.entries(NODE_SERVICES)) {
      const schema = await schemaOf(config);
      const env = envOf(name);
      const required = (schema.safeParse({}).error?.issues ?? []).map((i) => String(i.path[0]));
      for (const key of required) expect(env, `${name} needs ${key}`).toHaveProperty(key);
      const parsed = schema.safeParse(env);
      expect(parsed.error?.issues ?? [], `${name}'s environment`).toEqual([]);
      const known = new Set([...Object.keys(schema.shape), ...KIT_ENV, ...extraEnv]);
      for (const key of Object.keys(env)) expect(known.has(key), `${name}: ${key} is not read by ${config}`).toBe(true);
    }
  });

  it('chooses the production adapters and listens on all interfaces', () => {
    for (const [name, { production }] of Object.entries(NODE_SERVICES)) {
      const env = envOf(name);
      for (const key of production) expect(env[key], `${name}: ${key}`).toBeTruthy();
      expect(env.HOST, `${name}: HOST`).toBe('0.0.0.0');
      expect(env.PORT, `${name}: PORT`).toMatch(/^\d+$/);
    }
    expect(envOf('media-api').MEDIA_ROLE).toBe('api');
    expect(envOf('media-worker').MEDIA_ROLE).toBe('worker');
  });

  it('shares one service token, and points service URLs at compose services on their ports', () => {
    const tokens = new Set(Object.keys(NODE_SERVICES).map((n) => envOf(n).SERVICE_TOKEN));
    expect(tokens.size).toBe(1);
    for (const name of Object.keys(NODE_SERVICES)) {
      for (const [key, value] of Object.entries(envOf(name))) {
        if (!/^(CATALOG|QUOTES|AUTH|MEDIA)_URL$/.test(key)) continue;
        const url = new URL(value);
        expect(compose.services, `${name}: ${key}`).toHaveProperty(url.hostname);
        expect(envOf(url.hostname).PORT, `${name}: ${key} port`).toBe(url.port);
      }
    }
  });

  it('health-checks every long-running container, the node services on /readyz', () => {
    for (const [name, svc] of Object.entries(compose.services)) {
      if (NODE_SERVICES[name]?.oneShot) {
        // Exempt: it serves nothing and exits; what waits for it waits for its completion.
        expect(svc.restart, `${name} runs once`).toBe('no');
        expect(svc.healthcheck, `${name} runs once`).toBeUndefined();
        continue;
      }
      const test = svc.healthcheck?.test;
      expect(test, `${name}: healthcheck`).toBeTruthy();
      // A command, not ["NONE"] (compose's way of turning the image's own check off) nor `disable: true`.
      expect(Array.isArray(test) ? test[0] : 'CMD-SHELL', `${name}: healthcheck runs a command`).toMatch(/^CMD(-SHELL)?$/);
      expect(Array.isArray(test) ? test.slice(1).join(' ').trim() : String(test).trim(), `${name}: healthcheck command`).not.toBe('');
      expect(svc.healthcheck!.disable, `${name}: healthcheck disabled`).not.toBe(true);
      if (name in NODE_SERVICES) {
        expect(JSON.stringify(svc.healthcheck!.test), name).toContain(`:${envOf(name).PORT}/readyz`);
      }
    }
  });

  it('runs the Meilisearch version the adapter tests run against', () => {
    const image = compose.services.meilisearch!.image!;
    expect(image).toMatch(/^getmeili\/meilisearch:v\d+\.\d+/);
    const used = testedMeiliImages();
    expect(used.size, 'a test starts Meilisearch through testcontainers').toBeGreaterThan(0);
    for (const [file, tested] of used) expect(image, `${file} tests ${tested}`).toBe(tested);
  });

  it('keeps data in declared named volumes', () => {
    const declared = Object.keys(compose.volumes ?? {});
    for (const name of ['mongo', 'meilisearch', 'redis', 'minio', 'catalog']) {
      expect(compose.services[name]!.volumes?.length, `${name} keeps its data`).toBeGreaterThan(0);
    }
    for (const [name, svc] of Object.entries(compose.services)) {
      for (const v of svc.volumes ?? []) {
        const source = v.split(':')[0]!;
        if (!source.startsWith('.') && !source.startsWith('/')) expect(declared, `${name}: volume ${source}`).toContain(source);
      }
    }
  });

  it('seeds an empty catalogue once before the catalog starts', () => {
    expect(compose.services.catalog!.depends_on?.seed?.condition).toBe('service_completed_successfully');
    expect(JSON.stringify(compose.services.seed!.command)).toContain('--if-empty');
    const { SEED_PRODUCTS, ...seedEnv } = envOf('seed');
    expect(Number(SEED_PRODUCTS)).toBeGreaterThanOrEqual(20_000);
    expect(seedEnv, 'the seed writes where the catalog reads').toEqual(envOf('catalog'));
  });

  it('lets media-worker scale: same image as media-api, no container name, no host port', () => {
    const worker = compose.services['media-worker']!;
    const api = compose.services['media-api']!;
    expect(worker.container_name).toBeUndefined();
    expect(worker.ports).toBeUndefined();
    expect(worker.image).toBe(api.image);
    expect(worker.build?.args?.ENTRY).toBe(api.build?.args?.ENTRY);
  });

  it('publishes only nginx, and the mail, metrics and dashboard UIs on loopback only', () => {
    const published = Object.entries(compose.services).filter(([, s]) => s.ports?.length).map(([n]) => n);
    expect(published.sort()).toEqual(['grafana', 'mailpit', 'prometheus', 'web']);
    for (const name of ['mailpit', ...OBSERVABILITY]) {
      for (const port of compose.services[name]!.ports!) expect(port, `${name}: host address`).toMatch(/^127\.0\.0\.1:/);
    }
  });

  it('runs Prometheus and Grafana only in the observability profile, on the files of infra/observability', () => {
    for (const name of OBSERVABILITY) expect(compose.services[name]!.profiles, name).toEqual(['observability']);
    for (const [name, svc] of Object.entries(compose.services)) {
      if (OBSERVABILITY.includes(name)) continue;
      expect(Object.keys(svc.depends_on ?? {}).filter((d) => OBSERVABILITY.includes(d)), `${name} needs no observability`).toEqual([]);
    }
    const mounts = (name: string) =>
      Object.fromEntries((compose.services[name]!.volumes ?? []).filter((v) => v.startsWith('./')).map((v) => [v.split(':')[1]!, path.join(root, v.split(':')[0]!)]));
    // Prometheus reads compose's scrape config, whose rule files sit beside it in the same mount.
    const prom = mounts('prometheus');
    const configArg = JSON.stringify(compose.services.prometheus!.command).match(/--config\.file=([^"]+)/)![1]!;
    const configDir = prom[path.dirname(configArg)]!;
    expect(configDir, 'the config folder is mounted').toBeTruthy();
    const config = parse(fs.readFileSync(path.join(configDir, path.basename(configArg)), 'utf8')) as { rule_files: string[]; scrape_configs: { job_name: string }[] };
    for (const rules of config.rule_files) expect(fs.existsSync(path.join(configDir, rules)), rules).toBe(true);
    expect(config.scrape_configs.map((j) => j.job_name).sort()).toEqual(['auth', 'catalog', 'gateway', 'media-api', 'media-worker', 'quotes']);
    // Grafana: a datasource at compose's prometheus, and the dashboards folder where the provider looks.
    const grafana = mounts('grafana');
    for (const [target, source] of Object.entries(grafana)) expect(fs.existsSync(source), `${source} -> ${target}`).toBe(true);
    const datasources = parse(fs.readFileSync(grafana['/etc/grafana/provisioning/datasources/forgeline.yml']!, 'utf8')) as { datasources: { type: string; url: string }[] };
    expect(datasources.datasources[0]).toMatchObject({ type: 'prometheus', url: `http://prometheus:${compose.services.prometheus!.ports![0]!.split(':').at(-1)}` });
    const providers = parse(fs.readFileSync(grafana['/etc/grafana/provisioning/dashboards/forgeline.yml']!, 'utf8')) as { providers: { options: { path: string } }[] };
    const dashboards = grafana[providers.providers[0]!.options.path]!;
    expect(fs.readdirSync(dashboards).filter((f) => f.endsWith('.json')).sort()).toEqual(['buyers.json', 'media.json', 'replicas.json', 'staff.json']);
    const home = compose.services.grafana!.environment as Record<string, string>;
    expect(fs.existsSync(path.join(dashboards, path.basename(home.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH!)))).toBe(true);
  });

  it('runs the mail catcher only in the dev profile, and nothing of the default profile needs it', () => {
    expect(compose.services.mailpit!.profiles).toEqual(['dev']);
    const inDefault = (name: string) => !compose.services[name]!.profiles?.length;
    for (const [name, svc] of Object.entries(compose.services)) {
      if (!inDefault(name)) continue;
      for (const [dep, spec] of Object.entries(svc.depends_on ?? {})) {
        expect(compose.services, `${name} depends on ${dep}`).toHaveProperty(dep);
        // Compose refuses to start a service whose required dependency is in a profile not enabled.
        if (!inDefault(dep)) expect(spec.required, `${name} depends on ${dep} (profile ${compose.services[dep]!.profiles})`).toBe(false);
      }
    }
    for (const name of ['quotes', 'auth']) expect(envOf(name).SMTP_URL, `${name}: the relay from .env`).toBe(operatorVars.SMTP_URL);
  });

  it('runs every Node service with NODE_ENV=production, as the image does', () => {
    for (const name of Object.keys(NODE_SERVICES)) expect(envOf(name).NODE_ENV, name).toBe('production');
    const dockerfile = fs.readFileSync(path.join(root, 'infra/Dockerfile'), 'utf8');
    const service = dockerfile.slice(dockerfile.search(/^FROM .* AS service$/m));
    expect(service.slice(0, service.indexOf('\nFROM '))).toMatch(/ENV NODE_ENV=production/);
  });

  it('does not serve the admin address on the sign-in page', () => {
    expect(envOf('auth').ADMIN_EMAIL_PREFILL).toBe('false');
  });
});

describe('secrets', () => {
  it('takes every secret, the mail relay and MinIO\'s user from .env: a required ${NAME:?…} with no default', () => {
    const references = composeReferences();
    for (const ref of references) {
      if (!REQUIRED_VARIABLES.includes(ref.name) && !SECRET_KEY.test(ref.name)) continue;
      expect(ref.operator, `\${${ref.name}…} is required`).toBe(':?');
      expect(ref.rest, `\${${ref.name}:?…} says where to set it`).toMatch(new RegExp(`set ${ref.name} in \\.env`));
    }
    expect(new Set(references.filter((r) => r.operator === ':?').map((r) => r.name))).toEqual(new Set(REQUIRED_VARIABLES));
    // And a secret is never a literal value either.
    for (const [name, svc] of Object.entries(compose.services)) {
      for (const [key, value] of Object.entries(svc.environment ?? {})) {
        if (SECRET_KEY.test(key) || key === 'SMTP_URL') expect(String(value), `${name}: ${key}`).toMatch(/^\$\{[A-Z_]+:\?[^}]+\}$/);
      }
    }
  });

  it('.env.example names every variable compose reads, secrets empty, the others with compose\'s defaults', () => {
    const references = composeReferences();
    const read = new Set(references.map((r) => r.name));
    const listed = new Set([...Object.keys(envExample.set), ...Object.keys(envExample.shown)]);
    expect([...read].filter((n) => !listed.has(n)), 'read by compose, missing from .env.example').toEqual([]);
    expect([...listed].filter((n) => !read.has(n)), 'in .env.example, read by nothing').toEqual([]);
    for (const name of REQUIRED_VARIABLES) expect(envExample.set, `${name} is set (to fill in), not commented out`).toHaveProperty(name);
    for (const ref of references.filter((r) => r.operator === ':-')) {
      expect(envExample.shown[ref.name] ?? envExample.set[ref.name], `${ref.name}: the default .env.example shows`).toBe(ref.rest);
    }
    const text = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
    expect(text).toContain('openssl rand -base64 48');
    expect(fs.readFileSync(path.join(root, '.gitignore'), 'utf8').split('\n')).toContain('.env');
  });

  it('.env.example holds nothing that would pass for a secret, and compose refuses to start on it as committed', () => {
    for (const name of REQUIRED_VARIABLES) {
      const value = envExample.set[name]!;
      if (name === 'SMTP_URL' || name === 'MINIO_ROOT_USER') expect(value, name).toBe('');
      else expect(secretProblem(value), `${name}=${value}`).not.toBeNull();
    }
    // compose itself: `${SERVICE_TOKEN:?…}` with SERVICE_TOKEN empty stops `docker compose up` with the message.
    expect(() => envOf('gateway', envExample.set)).toThrow('SERVICE_TOKEN: set SERVICE_TOKEN in .env (see .env.example)');
    expect(() => envOf('minio', envExample.set)).toThrow(/MINIO_ROOT_(USER|PASSWORD): set MINIO_ROOT_/);
  });

  it('every Node service refuses to start on .env.example\'s placeholders and on every published default, naming each secret it reads', async () => {
    /** What the services would get from an .env filled with the secrets compose once defaulted to. */
    const published = {
      ...operatorVars,
      SERVICE_TOKEN: 'compose-dev-service-token-change-me',
      OTP_SECRET: 'compose-dev-otp-secret-change-me',
      MEILI_MASTER_KEY: 'compose-dev-meili-master-key',
      MINIO_ROOT_USER: 'forgeline',
      MINIO_ROOT_PASSWORD: 'forgeline-minio-secret',
    };
    for (const key of ['SERVICE_TOKEN', 'OTP_SECRET', 'MEILI_MASTER_KEY', 'MINIO_ROOT_PASSWORD'] as const) expect(PUBLISHED_SECRETS).toContain(published[key]);
    for (const [name, { config }] of Object.entries(NODE_SERVICES)) {
      const schema = await schemaOf(config);
      const secrets = SERVICE_SECRETS.filter((s) => s in envOf(name));
      expect(secrets, name).toContain('SERVICE_TOKEN');
      const refusal = (env: NodeJS.ProcessEnv): string => {
        try {
          loadConfig(schema, env);
        } catch (err) {
          expect(err, name).toBeInstanceOf(ConfigError);
          return (err as Error).message;
        }
        throw new Error(`${name} started with ${JSON.stringify(env)}`);
      };
      const withPublished = refusal(envOf(name, published));
      const withExample = refusal(exampleEnvOf(name));
      // The services' own defaults (nothing set but production and the adapters that need a secret).
      const adapters = Object.fromEntries(Object.entries(envOf(name)).filter(([k]) => /^(MEILI_URL|S3_ENDPOINT|S3_ACCESS_KEY|S3_BUCKET)$/.test(k)));
      const withDefaults = refusal({ NODE_ENV: 'production', ...adapters });
      for (const secret of secrets) {
        expect(withPublished, `${name}, published defaults`).toContain(`${secret}: is the published development default; set it to a random secret of at least 32 bytes (openssl rand -base64 48)`);
        expect(withExample, `${name}, .env.example`).toContain(`${secret}: `);
        expect(withDefaults, `${name}, its own defaults`).toMatch(new RegExp(`${secret}: is (not set|the published development default)`));
      }
      for (const message of [withPublished, withExample]) for (const v of Object.values(published)) if (v.length > 8) expect(message).not.toContain(`"${v}"`);
      expect(() => loadConfig(schema, envOf(name)), `${name} with an operator's .env`).not.toThrow();
    }
  });
});

describe('infra/nginx/default.conf', () => {
  const conf = fs.readFileSync(path.join(root, 'infra/nginx/default.conf'), 'utf8');

  it('sends the API, media, sitemaps, robots.txt and the no-JavaScript quote form to the gateway on its compose port', () => {
    expect(conf).toContain(`server gateway:${envOf('gateway').PORT};`);
    for (const location of ['location /api/', 'location /media/', 'sitemap[^/]*\\.xml|robots\\.txt', 'location = /quote-request']) {
      expect(conf).toContain(location);
    }
    expect(conf.match(/proxy_pass http:\/\/gateway;/g)?.length).toBeGreaterThanOrEqual(5);
  });

  it('falls back to the app shell for page paths when the gateway is down', () => {
    expect(conf).toMatch(/error_page 502 503 504 = @spa;/);
    expect(conf).toMatch(/try_files \/index\.html/);
  });
});
