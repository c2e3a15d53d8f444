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
    return `  ${name}: ${i.message}${got === undefined ? ' (not set)' : ` (got "${got}")`}`;
  });
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** Variables every service reads. */
export const baseEnv = {
  DATA_DIR: z
    .string()
    .default('./data')
    .transform((d) => path.resolve(d)),
  /** 0.0.0.0 in containers (docker-compose.yml sets it); loopback otherwise, so a dev machine exposes nothing. */
  HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Shared secret on /internal routes. The launcher makes one per data folder; compose sets it. */
  SERVICE_TOKEN: z.string().min(16, 'must be at least 16 characters').default('dev-service-token-change-me'),
  /** A client must send its request line and headers within this (slow-header attacks end here with 408). */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  /** …and its whole request, body included, within this (5 min: a 180 MB import over a slow line; slow bodies end here). */
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
