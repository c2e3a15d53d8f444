import { z } from 'zod';
import type { Diagram } from '@forgeline/contracts/parts-diagrams';

/**
 * Every job's payload may carry the W3C `traceparent` of the request that queued it (#37): the job's own trace links
 * to the upload's. Only when tracing is on; a malformed one is refused like any bad payload field.
 */
const queuedBy = { traceparent: z.string().regex(/^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/).optional() };

/**
 * The job registry: every job the media queue carries, its payload schema and its result.
 * A worker refuses to start unless it has a handler for each name here.
 */
export const jobRegistry = {
  /**
   * Make the variants of every original stored for one SKU (skipping those done already unless
   * `forceReprocess`), then tell the catalog the product's images.
   */
  'process-sku': {
    payload: z.object({
      sku: z.string(),
      productId: z.string(),
      batchId: z.string(),
      forceReprocess: z.boolean(),
      ...queuedBy,
    }),
  },
  /**
   * Make the web copies of one uploaded parts drawing (#38), then give it to its assembly in the catalog, unless a
   * newer drawing was uploaded for it meanwhile.
   */
  'process-diagram': {
    payload: z.object({
      assemblyId: z.string(),
      /** The stored original (diagram-originals/<assembly>/<ms>-<hash>.<ext>). */
      originalKey: z.string(),
      hash: z.string(),
      format: z.enum(['svg', 'png', 'jpeg']),
      batchId: z.string(),
      /** Who uploaded it: the assembly's history names them. */
      actor: z.string(),
      ...queuedBy,
    }),
  },
} as const;

export type JobName = keyof typeof jobRegistry;
export const JOB_NAMES = Object.keys(jobRegistry) as JobName[];

export interface ProcessSkuResult {
  sku: string;
  productId: string;
  /** Originals turned into variants by this run. */
  processed: number;
  /** Originals whose variants were there already. */
  unchanged: number;
  /** Originals that did not decode as an image (each removed, so it is not retried forever). */
  failed: { file: string; reason: string }[];
  /** The product's images after this run. */
  images: string[];
  catalogUpdated: boolean;
}

export interface ProcessDiagramResult {
  assemblyId: string;
  /** The drawing as the assembly has it (null: superseded, so not given to the assembly). */
  diagram: Diagram | null;
  /** A newer drawing of the assembly was uploaded before this one was done: that one wins. */
  superseded: boolean;
  /** False when the assembly had this drawing already (a job run again after its catalog call went through). */
  catalogUpdated: boolean;
}

export type JobPayloads = { [N in JobName]: z.infer<(typeof jobRegistry)[N]['payload']> };
export type JobResults = { 'process-sku': ProcessSkuResult; 'process-diagram': ProcessDiagramResult };

export function parsePayload<N extends JobName>(name: N, payload: unknown): JobPayloads[N] {
  const entry = jobRegistry[name];
  if (!entry) throw new Error(`Unknown job name "${String(name)}"`);
  return entry.payload.parse(payload) as JobPayloads[N];
}

/** Throws naming every registered job that has no handler (Immich's rule: refuse to start half-wired). */
export function assertHandlers(handlers: Record<string, unknown>): void {
  const missing = JOB_NAMES.filter((n) => typeof handlers[n] !== 'function');
  if (missing.length) throw new Error(`No handler for job(s): ${missing.join(', ')}; the worker refuses to start`);
}
