/**
 * docker-compose.yml as the tests read it (test/compose.test.ts checks it against the code, test/k8s.test.ts
 * checks the Kubernetes manifests against it): parsed with its YAML merge keys, `${NAME:-default}` read as the
 * default, since compose must come up without an .env file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ComposeService {
  image?: string;
  command?: string[] | string;
  restart?: string;
  build?: { context: string; dockerfile?: string; target?: string; args?: Record<string, string> };
  environment?: Record<string, string | number | boolean | null>;
  healthcheck?: { test: string[] | string; disable?: boolean };
  ports?: string[];
  volumes?: string[];
  container_name?: string;
  depends_on?: Record<string, { condition: string }>;
}
export interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

export const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as Compose;

/** `${NAME:-default}` becomes its default: compose must come up without an .env file. */
export function interpolate(value: string): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::?-([^}]*))?\}/g, (whole, name: string, fallback?: string) => {
    if (fallback === undefined) throw new Error(`${whole} has no default`);
    return fallback;
  });
}

/** A service's environment as the container gets it with no .env file. */
export function envOf(name: string): Record<string, string> {
  const service = compose.services[name];
  if (!service) throw new Error(`docker-compose.yml has no service ${name}`);
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v ?? ''))]));
}
