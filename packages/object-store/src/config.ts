import { z } from 'zod';
import { allOrNone } from '@forgeline/service-kit/config';
import { createLocalObjectStore } from './local-fs.ts';
import { createMinioObjectStore } from './minio.ts';
import type { ObjectStore } from './ports.ts';

export const S3_VARS = ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET'] as const;
type S3Env = Partial<Record<(typeof S3_VARS)[number], string>>;

const optional = z.string().trim().optional().transform((v) => (v ? v : undefined));

/** A service's S3 settings (spread into its config schema): all four, or none for the folder under DATA_DIR. */
export const s3Env = {
  S3_ENDPOINT: optional.pipe(z.url().optional()),
  S3_ACCESS_KEY: optional,
  S3_SECRET_KEY: optional,
  S3_BUCKET: optional,
};

/** The schema's refinement: some S3 variables set but not all is a mistake, said at start-up. */
export function checkS3Env(env: S3Env, ctx: z.RefinementCtx): void {
  const problem = allOrNone(env, [...S3_VARS]);
  if (problem) ctx.addIssue({ code: 'custom', path: [S3_VARS.find((v) => !env[v]) ?? 'S3_ENDPOINT'], message: problem });
}

/** The bucket when S3_ENDPOINT is set, else the folder (the embedded default). */
export function objectStoreOf(env: S3Env, folder: string): ObjectStore {
  if (env.S3_ENDPOINT) {
    return createMinioObjectStore({ endpoint: env.S3_ENDPOINT, accessKey: env.S3_ACCESS_KEY!, secretKey: env.S3_SECRET_KEY!, bucket: env.S3_BUCKET! });
  }
  return createLocalObjectStore(folder);
}
