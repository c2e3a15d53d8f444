/**
 * The production configuration, read from docker-compose.yml: the x-*-env anchors and each service's environment
 * block (merged as compose merges them), `${NAME:-default}` filled in from the given variables as compose fills them
 * from the shell. `npm run start:cluster` runs exactly this, with only what points at compose's network (host names,
 * ports, /data paths, 0.0.0.0) changed to the local processes: one set of variables, kept in one place.
 */
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
 * `${NAME}` and `$NAME` (empty when unset), `$$` for a dollar sign.
 */
export function interpolate(value: string, vars: NodeJS.ProcessEnv): string {
  const pattern = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;
  return value.replace(pattern, (whole, braced?: string, colon?: string, fallback?: string, bare?: string) => {
    if (whole === '$$') return '$';
    const name = braced ?? bare!;
    const set = vars[name];
    if (fallback !== undefined && (set === undefined || (colon === ':' && set === ''))) return fallback;
    return set ?? '';
  });
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
  }
  const whole = local.whole?.[value];
  if (whole !== undefined) return whole;
  return value.replace(/(?<=^|\/\/|@)([a-z][a-z0-9-]*):(\d+)\b/g, (hostPort: string) => {
    const here = local.hosts[hostPort];
    if (here === undefined) throw new Error(`${key}=${value}: no local address for ${hostPort}`);
    return here;
  });
}
