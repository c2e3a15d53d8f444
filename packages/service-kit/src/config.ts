import path from 'node:path';
import { z } from 'zod';

/** Thrown at start when the environment is wrong; its message names every bad or missing variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parse process.env (or a given env) with a zod object schema of variable names. */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => {
    const name = i.path.join('.') || '(environment)';
    const got = env[String(i.path[0])];
    // A secret's value stays out of the message (and so out of the logs), whatever is wrong with it.
    const shown = got === undefined ? (i.message.startsWith('is not set') ? '' : ' (not set)') : SECRET_NAME.test(name) ? '' : ` (got "${got}")`;
    return `  ${name}: ${i.message}${shown}`;
  });
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** Variables whose values an error message never repeats. */
const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|_KEY)$/;

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** baseEnv's SERVICE_TOKEN when none is given: published here, so only for development. */
export const DEV_SERVICE_TOKEN = 'dev-service-token-change-me';

/** Variables every service reads. */
export const baseEnv = {
  DATA_DIR: z
    .string()
    .default('./data')
    .transform((d) => path.resolve(d)),
  /** 0.0.0.0 in containers (docker-compose.yml sets it); loopback otherwise, so a dev machine exposes nothing. */
  HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Shared secret on /internal routes, and the key the gateway's assertions are signed with. The launcher makes one
   * per data folder; compose and Kubernetes take it from the operator. Outside development the default is refused
   * (productionSecrets).
   */
  SERVICE_TOKEN: z.string().min(16, 'must be at least 16 characters').default(DEV_SERVICE_TOKEN),
  /** `production` (the images, compose and the cluster launcher set it) turns on the production checks. */
  NODE_ENV: z.string().optional(),
  /**
   * The site's address. Read here only to tell production from development (https on a public host is production);
   * the gateway and auth define it again with their default and use it.
   */
  PUBLIC_URL: z.string().optional(),
  /** A client must send its request line and headers within this (slow-header attacks end here with 408). */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  /** …and its whole request, body included, within this (5 min: a 180 MB import at 5 Mbit/s, a 2,000,000-row 610 MB one at 17 Mbit/s; slow bodies end here. A seller on a slower line raises it and the gateway's UPLOAD_TIMEOUT_MS). */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(300_000),
};

/** The HTTP server limits of baseEnv, as serve() takes them. */
export const serverLimitsOf = (c: { HEADERS_TIMEOUT_MS: number; REQUEST_TIMEOUT_MS: number }): ServerLimits => ({
  headersTimeoutMs: c.HEADERS_TIMEOUT_MS,
  requestTimeoutMs: c.REQUEST_TIMEOUT_MS,
});

export interface ServerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/** A group of variables that must be given together or not at all (e.g. S3_ENDPOINT with its keys). */
export function allOrNone(env: Record<string, unknown>, names: string[]): string | null {
  const set = names.filter((n) => env[n] !== undefined && env[n] !== '');
  if (set.length === 0 || set.length === names.length) return null;
  const missing = names.filter((n) => !set.includes(n));
  return `${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set, so ${missing.join(', ')} must be set too`;
}

/** A secret a service reads, for productionSecrets. */
export interface SecretSpec<T> {
  name: Extract<keyof T, string>;
  /** Checked only when this holds: MEILI_MASTER_KEY when MEILI_URL is set, the S3 secret key when S3 is configured. */
  when?: (config: T) => boolean;
}

/**
 * The refusal of published and weak secrets outside development, as a zod refinement a service's config schema
 * ends with: `z.object({ ...baseEnv, … }).superRefine(productionSecrets(['SERVICE_TOKEN', 'OTP_SECRET']))`.
 * In production (NODE_ENV=production, or PUBLIC_URL https on a host that is not loopback) each secret named must
 * be set, must not be a value published in this repository (PUBLISHED_SECRETS) and must be at least 32 bytes;
 * else the service does not start, and the ConfigError names the variable and how to make one. In development
 * nothing is checked (`npm start` and the tests keep their defaults).
 */
export function productionSecrets<T extends { NODE_ENV?: string; PUBLIC_URL?: string }>(
  secrets: (Extract<keyof T, string> | SecretSpec<T>)[],
): (config: T, ctx: z.core.$RefinementCtx<T>) => void {
  const specs = secrets.map((s): SecretSpec<T> => (typeof s === 'string' ? { name: s } : s));
  return (config, ctx) => {
    if (!isProductionEnv(config)) return;
    for (const { name, when } of specs) {
      if (when && !when(config)) continue;
      const value = config[name];
      const problem = secretProblem(typeof value === 'string' ? value : undefined);
      if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
    }
  };
}

/**
 * Every secret value this repository publishes or once published: config defaults, docker-compose.yml's former
 * `${VAR:-default}`s (also the values of infra/k8s/base/env/secrets.env until it went), placeholders of the
 * example files. Anyone can read them, so outside development each is as good as none.
 */
export const PUBLISHED_SECRETS: readonly string[] = [
  DEV_SERVICE_TOKEN,
  'compose-dev-service-token-change-me',
  'compose-dev-otp-secret-change-me',
  'compose-dev-meili-master-key',
  'forgeline-minio-secret',
];

/** The shortest secret production takes, in bytes (`openssl rand -base64 48` makes 64). */
export const MIN_SECRET_BYTES = 32;
const HOW = `set it to a random secret of at least ${MIN_SECRET_BYTES} bytes (openssl rand -base64 48)`;

/**
 * What is wrong with a secret for production, or null. A schema's own default (SERVICE_TOKEN's) is published, and
 * is also what the value is when the variable is not set at all (loadConfig then adds "(not set)").
 */
export function secretProblem(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return `is not set; ${HOW}`;
  if (PUBLISHED_SECRETS.includes(value.trim())) return `is the published development default; ${HOW}`;
  if (/change-?me/i.test(value)) return `is a placeholder ("change me"); ${HOW}`;
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes < MIN_SECRET_BYTES) return `is ${bytes} bytes, too short to be a secret; ${HOW}`;
  return null;
}

const LOOPBACK_HOST = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|\[::1\]|::1)$/i;

/**
 * Production, as the secret check sees it: NODE_ENV=production (the images, compose and the cluster launcher set
 * it), or a PUBLIC_URL served over https on a host that is not loopback (a public site whatever NODE_ENV says).
 */
export function isProductionEnv(env: { NODE_ENV?: string; PUBLIC_URL?: string }): boolean {
  if (env.NODE_ENV === 'production') return true;
  if (!env.PUBLIC_URL) return false;
  let url: URL;
  try {
    url = new URL(env.PUBLIC_URL);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && !LOOPBACK_HOST.test(url.hostname);
}
