import { z } from 'zod';
import { baseEnv, port, productionSecrets } from '@forgeline/service-kit/config';
import { checkS3Env, s3Env } from '@forgeline/object-store/config';

const MB = 1024 * 1024;
const megabytes = (fallback: number) => z.coerce.number().positive().default(fallback).transform((n) => Math.round(n * MB));
const int = (fallback: number, min = 1, max = 1_000_000) => z.coerce.number().int().min(min).max(max).default(fallback);
const optional = z.string().trim().optional().transform((v) => (v ? v : undefined));

export const ConfigSchema = z
  .object({
    ...baseEnv,
    PORT: port(4004),
    /** api: uploads, status and serving; worker: image processing; all: both in one process (npm start). */
    MEDIA_ROLE: z.enum(['api', 'worker', 'all']).default('all'),
    CATALOG_URL: z.url().default('http://127.0.0.1:4001'),
    REDIS_URL: optional.pipe(z.url().optional()),
    ...s3Env,
    /** libvips threads per image (sharp.concurrency). One keeps workers from fighting over cores. */
    MEDIA_IMAGE_THREADS: int(1, 1, 64),
    /** SKU jobs one worker process runs at once. */
    MEDIA_WORKER_CONCURRENCY: int(1, 1, 64),
    MEDIA_MAX_FILE_MB: megabytes(25),
    MEDIA_MAX_REQUEST_MB: megabytes(200),
    MEDIA_MAX_ZIP_MB: megabytes(2048),
    MEDIA_ZIP_MAX_ENTRIES: int(20_000),
    MEDIA_ZIP_MAX_UNCOMPRESSED_MB: megabytes(8192),
    MEDIA_ZIP_MAX_RATIO: int(100),
    MEDIA_JOB_ATTEMPTS: int(5, 1, 100),
    MEDIA_JOB_BACKOFF_MS: int(2_000, 1, 3_600_000),
    /**
     * A running job's lock (BullMQ) or lease (SQLite queue): the worker renews it while alive; once a killed
     * worker's lock runs out, the stalled-job check gives the job to another worker.
     */
    MEDIA_JOB_LOCK_MS: int(30_000, 500, 3_600_000),
    /** How often a BullMQ worker looks for jobs whose lock ran out (BullMQ's stalledInterval). */
    MEDIA_JOB_STALLED_CHECK_MS: int(30_000, 200, 3_600_000),
    /**
     * Times a job may lose its worker (crash, SIGKILL, OOM) and be taken again before it fails as
     * "stalled more than allowable limit"; a stall does not use up an attempt. Two: a single kill (or a
     * rolling restart during a kill) never fails a job, an image that kills every worker does after three.
     */
    MEDIA_JOB_MAX_STALLED: int(2, 0, 100),
    /** How long the single-image upload waits for its processing before answering "queued". */
    MEDIA_UPLOAD_WAIT_MS: int(20_000, 0, 600_000),
  })
  .superRefine(checkS3Env)
  .superRefine(productionSecrets(['SERVICE_TOKEN', { name: 'S3_SECRET_KEY', when: (env) => Boolean(env.S3_ENDPOINT) }]));

export type Config = z.infer<typeof ConfigSchema>;
