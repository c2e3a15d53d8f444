import { z } from 'zod';

/**
 * The seller's catalogue calls (admin panel and API): imports of a CSV/XLSX file as a background job, its status
 * and errors, and the export in the same columns.
 */

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], 'must be true or false')
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));

/** POST /api/admin/catalog/imports?dryRun=&missing= (multipart field `file`). */
export const CatalogImportQuerySchema = z.object({
  /** Report what the import would do, change nothing. */
  dryRun: bool(false),
  /** keep: parts not in the file stay as they are; deactivate: they leave the storefront (kept, not deleted). */
  missing: z.enum(['keep', 'deactivate'], 'must be keep or deactivate').default('keep'),
});
export type CatalogImportQuery = z.infer<typeof CatalogImportQuerySchema>;

export const CatalogImportParamsSchema = z.object({ id: z.uuid('must be an import id (a UUID)') });

export const ImportRowErrorSchema = z.object({
  /** 1-based row of the file (the header is row 1). */
  row: z.number().int(),
  column: z.string(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof ImportRowErrorSchema>;

export const IMPORT_STATES = ['queued', 'running', 'completed', 'completed_with_errors', 'failed'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

/** At most this many errors travel with the job's status; errors.csv has all of them. */
export const IMPORT_ERRORS_SHOWN = 1000;

export const CatalogImportJobSchema = z.object({
  id: z.string(),
  state: z.enum(IMPORT_STATES),
  dryRun: z.boolean(),
  missing: z.enum(['keep', 'deactivate']),
  fileName: z.string(),
  /** Data rows in the file (known once it has been counted; 0 before). */
  total: z.number().int(),
  processed: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  deactivated: z.number().int(),
  errorCount: z.number().int(),
  errors: z.array(ImportRowErrorSchema),
  /** Header cells that are not catalogue columns: reported, not fatal. */
  unknownColumns: z.array(z.string()),
  /** Why a failed job failed. */
  message: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type CatalogImportJob = z.infer<typeof CatalogImportJobSchema>;

export const CatalogImportCreatedSchema = z.object({ id: z.string() });

/** One change to a part: who, when, through what (an import's id or "edit"), and which fields. */
export const CatalogAuditEntrySchema = z.object({
  at: z.string(),
  actor: z.string(),
  source: z.string(),
  productId: z.string(),
  sku: z.string(),
  action: z.enum(['created', 'updated', 'deactivated', 'reactivated']),
  fields: z.array(z.string()),
});
export type CatalogAuditEntry = z.infer<typeof CatalogAuditEntrySchema>;
