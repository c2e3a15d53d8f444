/**
 * The production configuration, read from docker-compose.yml: the x-*-env anchors and each service's environment
 * block (merged as compose merges them), `${NAME:-default}` and `${NAME:?message}` filled in from the given
 * variables as compose fills them from the shell and .env. `npm run start:cluster` runs exactly this, with only what
 * points at compose's network (host names, ports, /data paths, 0.0.0.0) changed to the local processes: one set of
 * variables, kept in one place. What compose takes from the operator's .env (the secrets, the mail relay) the
 * launcher gives it (launcherVariables).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './stack.ts';

interface ComposeService {
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
}
export interface ComposeFile {
  services: Record<string, ComposeService>;
}

export function readCompose(file = path.join(repoRoot, 'docker-compose.yml')): ComposeFile {
  const compose = parse(fs.readFileSync(file, 'utf8'), { merge: true }) as ComposeFile;
  if (!compose?.services) throw new Error(`${file} has no services`);
  return compose;
}

/**
 * Compose's interpolation: `${NAME:-default}` (default when unset or empty), `${NAME-default}` (when unset),
 * `${NAME:?message}` (required: an error with the message when unset or empty), `${NAME?message}` (when unset),
 * `${NAME}` and `$NAME` (empty when unset), `$$` for a dollar sign.
 */
export function interpolate(value: string, vars: NodeJS.ProcessEnv): string {
  const pattern = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;
  return value.replace(pattern, (whole, braced?: string, colon?: string, operator?: string, rest?: string, bare?: string) => {
    if (whole === '$$') return '$';
    const name = braced ?? bare!;
    const set = vars[name];
    const missing = set === undefined || (colon === ':' && set === '');
    if (operator === '-' && missing) return rest!;
    if (operator === '?' && missing) throw new Error(`required variable ${name} is missing a value: ${rest}`);
    return set ?? '';
  });
}

/**
 * What compose takes from the operator's .env and the cluster makes itself: a random secret for each, made once per
 * data folder and kept in DATA_DIR/.secrets.env (mode 600), so data written by one start (MinIO's, sessions) is read
 * by the next. The services run with NODE_ENV=production and refuse published or short secrets.
 */
export const LAUNCHER_SECRETS = ['SERVICE_TOKEN', 'OTP_SECRET', 'MEILI_MASTER_KEY', 'MINIO_ROOT_USER', 'MINIO_ROOT_PASSWORD'] as const;

/**
 * The variables compose's `${…}` are filled from here: the caller's (the shell's, as compose reads them), with every
 * secret the caller leaves unset or empty from DATA_DIR/.secrets.env, and SMTP_URL at the dev profile's Mailpit
 * (`smtp://mailpit:1025`), which the cluster runs: the mail goes there whatever relay the shell names.
 */
export function launcherVariables(dataDir: string, caller: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const file = path.join(dataDir, '.secrets.env');
  const kept: Record<string, string> = {};
  if (fs.existsSync(file)) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0 && !line.startsWith('#')) kept[line.slice(0, eq)] = line.slice(eq + 1);
    }
  }
  const missing = LAUNCHER_SECRETS.filter((name) => !kept[name]);
  for (const name of missing) {
    // MinIO's root user is its access key (3 to 20 characters in S3 terms); the rest are secrets of 64 characters.
    kept[name] = name === 'MINIO_ROOT_USER' ? `forgeline-${randomBytes(4).toString('hex')}` : randomBytes(48).toString('base64');
  }
  if (missing.length) {
    fs.mkdirSync(dataDir, { recursive: true });
    const lines = Object.entries(kept).map(([k, v]) => `${k}=${v}`);
    fs.writeFileSync(file, `# Made by npm run start:cluster for this data folder (as an operator's .env has them for compose).\n${lines.join('\n')}\n`, { mode: 0o600 });
  }
  const vars: NodeJS.ProcessEnv = { ...caller, SMTP_URL: 'smtp://mailpit:1025' };
  for (const name of LAUNCHER_SECRETS) if (!caller[name]) vars[name] = kept[name];
  return vars;
}

/** A service's environment as compose would hand it to the container. */
export function composeEnvironment(compose: ComposeFile, service: string, vars: NodeJS.ProcessEnv): Record<string, string> {
  const svc = compose.services[service];
  if (!svc) throw new Error(`docker-compose.yml has no service "${service}"`);
  const raw = svc.environment ?? {};
  const pairs: [string, string][] = Array.isArray(raw)
    ? raw.map((line) => {
        const eq = line.indexOf('=');
        return eq < 0 ? [line, vars[line] ?? ''] : [line.slice(0, eq), line.slice(eq + 1)];
      })
    : Object.entries(raw).map(([k, v]) => [k, v === null ? (vars[k] ?? '') : String(v)]);
  return Object.fromEntries(pairs.map(([k, v]) => [k, interpolate(v, vars)]));
}

/** A service's command (`command:` in list or string form), interpolated. */
export function composeCommand(compose: ComposeFile, service: string, vars: NodeJS.ProcessEnv): string[] {
  const cmd = compose.services[service]?.command;
  if (cmd === undefined) return [];
  return (Array.isArray(cmd) ? cmd : cmd.split(/\s+/).filter(Boolean)).map((part) => interpolate(String(part), vars));
}

/**
 * Compose's servers that have no local stand-in, and the variables that only mean something with them.
 * Meilisearch has no build reachable here (see ARCHITECTURE.md): the catalog replicas use their embedded engine.
 */
export const ABSENT_SERVERS: Record<string, string[]> = {
  meilisearch: ['MEILI_URL', 'MEILI_MASTER_KEY', 'MEILI_INDEX'],
};

export interface LocalAddresses {
  /** `host:port` in compose's network → `host:port` here (servers, and the services other services call). */
  hosts: Record<string, string>;
  /** A value that is exactly `http://<service>:<port>` → this value instead (the gateway's comma-separated replica lists). */
  whole?: Record<string, string>;
  port: number;
  dataDir: string;
  /** The edge's address: the site's PUBLIC_URL. */
  publicUrl: string;
  webDistDir: string;
}

/**
 * Compose's environment for one process here: only addresses, ports and paths change. Variables that point at a
 * server with no local stand-in are left out (they are listed in `dropped`).
 */
export function localEnvironment(env: Record<string, string>, local: LocalAddresses): { env: Record<string, string>; dropped: string[] } {
  const out: Record<string, string> = {};
  const dropped: string[] = [];
  const absent = new Set(Object.values(ABSENT_SERVERS).flat());
  for (const [key, value] of Object.entries(env)) {
    if (absent.has(key)) {
      dropped.push(key);
      continue;
    }
    out[key] = localValue(key, value, local);
  }
  return { env: out, dropped };
}

function localValue(key: string, value: string, local: LocalAddresses): string {
  switch (key) {
    case 'HOST':
      return '127.0.0.1';
    case 'PORT':
      return String(local.port);
    case 'DATA_DIR':
      return local.dataDir;
    case 'PUBLIC_URL':
      return local.publicUrl;
    case 'WEB_DIST_DIR':
      return local.webDistDir;
    case 'OTEL_EXPORTER_OTLP_ENDPOINT':
      return value; // the caller's own collector, an address on this machine already (or empty: no traces)
  }
  const whole = local.whole?.[value];
  if (whole !== undefined) return whole;
  return value.replace(/(?<=^|\/\/|@)([a-z][a-z0-9-]*):(\d+)\b/g, (hostPort: string) => {
    const here = local.hosts[hostPort];
    if (here === undefined) throw new Error(`${key}=${value}: no local address for ${hostPort}`);
    return here;
  });
}
