import type { Readable } from 'node:stream';
import type { Diagram } from '@forgeline/contracts/parts-diagrams';
import type { ProductImagesUpdate } from '@forgeline/contracts/products';
import type { JobName, JobPayloads, JobResults } from './jobs.ts';

export type { ObjectStore, StoredObject } from '@forgeline/object-store/ports';

export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

export interface JobInfo<N extends JobName = JobName> {
  id: string;
  name: N;
  payload: JobPayloads[N];
  state: JobState;
  /** 0-100, as last reported by the handler. */
  progress: number;
  /** Attempts started so far. */
  attemptsMade: number;
  result?: JobResults[N];
  failedReason?: string;
}

export interface JobContext {
  id: string;
  /** 1 on the first try. */
  attempt: number;
  progress(percent: number): Promise<void>;
}

export type JobHandlers = { [N in JobName]: (payload: JobPayloads[N], ctx: JobContext) => Promise<JobResults[N]> };

export interface WorkerHandle {
  close(): Promise<void>;
}

/**
 * Named jobs with typed payloads (see jobs.ts). Adding a job whose id exists already adds nothing
 * and returns the existing id (idempotent enqueueing), unless that job failed: then it runs again. A handler that throws is retried with
 * exponential backoff up to `attempts`, then the job is `failed` with the error's message; a
 * `PermanentJobError` fails it at once.
 */
export interface JobQueue {
  add<N extends JobName>(name: N, payload: JobPayloads[N], opts: { jobId: string }): Promise<{ id: string; created: boolean }>;
  get(id: string): Promise<JobInfo | null>;
  getMany(ids: string[]): Promise<(JobInfo | null)[]>;
  /** Start taking jobs. Refuses to start unless every job name has a handler. */
  work(handlers: JobHandlers, opts: { concurrency: number }): Promise<WorkerHandle>;
  counts(): Promise<Record<JobState, number>>;
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

export interface QueueRetryOptions {
  attempts: number;
  /** First retry waits this long, then 2x, 4x, ... */
  backoffMs: number;
}

/** A failure retrying cannot fix (the input is bad): the job fails at once. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export interface CatalogProduct {
  id: string;
  sku: string;
  name: string;
  images: string[];
  imageUrl: string;
}

/** A parts-diagram assembly (#38), as far as media needs it. */
export interface CatalogAssembly {
  id: string;
  name: string;
  version: number;
  diagram: Diagram | null;
}

/** What media needs from the catalog (its internal routes). */
export interface Catalog {
  productBySku(sku: string): Promise<CatalogProduct | null>;
  productById(id: string): Promise<CatalogProduct | null>;
  /** The product as it is after the write (null: no product has that id any more). */
  setImages(productId: string, update: ProductImagesUpdate): Promise<CatalogProduct | null>;
  assemblyById(id: string): Promise<CatalogAssembly | null>;
  /** Gives the assembly its drawing (a new version, in its history under `actor`); null: no assembly has that id any more. */
  setDiagram(assemblyId: string, diagram: Diagram & { actor: string }): Promise<CatalogAssembly | null>;
}
