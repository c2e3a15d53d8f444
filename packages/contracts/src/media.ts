import { z } from 'zod';
import { AssemblyIdParamsSchema } from './parts-diagrams.ts';

/** A SKU as it may appear in a folder name, form field or JSON body. */
export const SkuSchema = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(80, 'must be at most 80 characters')
  .refine((s) => !/[\u0000-\u001f/\\]/.test(s), 'must not contain slashes or control characters');

/** Something that was not taken, and why (a ZIP entry, a file, a SKU). Never dropped silently. */
export const SkippedItemSchema = z.object({ entry: z.string(), reason: z.string() });
export type SkippedItem = z.infer<typeof SkippedItemSchema>;

/** POST /api/admin/products/{id}/upload-image (multipart field `image`, one file a call). */
export const UploadImageParamsSchema = z.object({ id: z.string().trim().min(1).max(100) });
export const UploadImageResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  /** The status call's id (GET /api/admin/media-jobs/{jobId}). */
  jobId: z.string(),
  /** Where the stored variant is (or will be, while processing is still running). */
  imageUrl: z.string(),
  /** True when the image was processed before the response was sent. */
  processed: z.boolean(),
  error: z.string().optional(),
});
export type UploadImageResponse = z.infer<typeof UploadImageResponseSchema>;

/** POST /api/admin/upload-individual-sku: multipart fields `sku`, `productName`, files `images` (images or .zip). */
export const UploadIndividualSkuFieldsSchema = z.object({
  sku: SkuSchema,
  productName: z.string().trim().max(300).optional().default(''),
});
export const UploadIndividualSkuResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  jobId: z.string(),
  sku: z.string(),
  filesAccepted: z.number().int(),
  skipped: z.array(SkippedItemSchema),
  error: z.string().optional(),
});
export type UploadIndividualSkuResponse = z.infer<typeof UploadIndividualSkuResponseSchema>;

/** POST /api/admin/process-sku-images */
export const ProcessSkuImagesBodySchema = z.object({
  skus: z
    .array(z.object({ sku: SkuSchema, productName: z.string().trim().max(300).optional().default('') }))
    .min(1, 'give at least one SKU')
    .max(1000, 'at most 1000 SKUs a call'),
  forceReprocess: z.boolean().optional().default(false),
});
export type ProcessSkuImagesBody = z.input<typeof ProcessSkuImagesBodySchema>;
export const ProcessSkuImagesResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  jobId: z.string(),
  skus: z.array(z.string()),
  skipped: z.array(SkippedItemSchema),
});
export type ProcessSkuImagesResponse = z.infer<typeof ProcessSkuImagesResponseSchema>;

/** POST /api/admin/upload-bulk-zip (multipart field `zip`, one folder per SKU). Spec section 3, Bulk ZIP result. */
export const BulkZipResultSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  skusProcessed: z.number().int(),
  filesExtracted: z.number().int(),
  skus: z.array(z.string()),
  jobId: z.string(),
  skipped: z.array(SkippedItemSchema),
  error: z.string().optional(),
});
export type BulkZipResult = z.infer<typeof BulkZipResultSchema>;

/**
 * POST /api/admin/diagrams/{assemblyId} (multipart field `file`: one SVG, PNG or JPEG drawing, up to
 * DIAGRAM_LIMITS.imageMb): 202 once the original is stored and its job queued. The workers make the drawing's web
 * copies, then the assembly has it (a new version); follow the job with GET /api/admin/media-jobs/{jobId}.
 */
export const DiagramUploadParamsSchema = z.object({ assemblyId: AssemblyIdParamsSchema.shape.id });
export const DiagramUploadResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  jobId: z.string(),
  assemblyId: z.string(),
});
export type DiagramUploadResponse = z.infer<typeof DiagramUploadResponseSchema>;

/** GET /api/admin/media-jobs/{id}: the progress of everything one upload call queued. */
export const MediaJobParamsSchema = z.object({ id: z.string().regex(/^[\w:.-]{1,200}$/, 'is not a job id') });
export const MediaJobStateSchema = z.enum(['queued', 'running', 'completed', 'completed_with_errors', 'failed']);
export type MediaJobState = z.infer<typeof MediaJobStateSchema>;
export const MediaJobFailureSchema = z.object({ sku: z.string(), file: z.string().optional(), reason: z.string() });
export const MediaJobStatusSchema = z.object({
  id: z.string(),
  /** A drawing's upload (`diagram`) is one job: its one "SKU" is the assembly's id, its one image the drawing. */
  kind: z.enum(['product-image', 'sku-upload', 'sku-process', 'bulk-zip', 'diagram']),
  state: MediaJobStateSchema,
  /** 0-100 over every image of every SKU in the job. */
  progress: z.number(),
  createdAt: z.string(),
  skus: z.object({
    total: z.number().int(),
    waiting: z.number().int(),
    active: z.number().int(),
    completed: z.number().int(),
    failed: z.number().int(),
  }),
  images: z.object({
    total: z.number().int(),
    processed: z.number().int(),
    unchanged: z.number().int(),
    failed: z.number().int(),
  }),
  failures: z.array(MediaJobFailureSchema),
  skipped: z.array(SkippedItemSchema),
});
export type MediaJobStatus = z.infer<typeof MediaJobStatusSchema>;
