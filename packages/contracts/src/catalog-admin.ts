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

/** How long each field of a part may be: the import's cells and the edit calls are held to the same limits. */
export const CATALOG_LIMITS = {
  sku: 80,
  name: 300,
  partNumber: 120,
  brand: 120,
  category: 120,
  description: 10_000,
  availability: 120,
  weight: 120,
  dimensions: 120,
  tag: 80,
  tags: 50,
  specName: 120,
  specValue: 500,
  specs: 100,
  image: 1000,
  images: 20,
  maxPrice: 1_000_000_000,
  oldNumbers: 50,
  model: 120,
  serial: 40,
  fits: 200,
} as const;

/**
 * A catalogue file may be this large: a 500,000-row CSV with descriptions, part history and fitment is about 152 MB and
 * a 2,000,000-row one about 610 MB (the largest catalogue the embedded default is measured at), so the seller's whole
 * catalogue goes in one file, while an 800 MB upload is refused (413).
 */
export const CATALOG_IMPORT_MAX_MB = 700;

const NO_CONTROL = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/;
const text = (max: number) =>
  z.string('must be text').trim().max(max, `must be at most ${max} characters`).regex(NO_CONTROL, 'must not hold control characters');
const named = (max: number) => text(max).min(1, 'must not be empty').regex(/[\p{L}\p{N}]/u, 'must hold a letter or digit');
const imageRef = z
  .string()
  .trim()
  .max(CATALOG_LIMITS.image, `must be at most ${CATALOG_LIMITS.image} characters`)
  .regex(/^(https?:\/\/\S+|\/\S*)$/i, 'must be an http(s) URL or a stored path starting with /');

/**
 * The fields of a part a seller sets: the PATCH body (any subset), the POST body (with sku, name and category), and
 * the gate every import row passes, so a file and the API accept exactly the same parts.
 */
export const ProductFieldsSchema = z.object({
  name: named(CATALOG_LIMITS.name),
  partNumber: text(CATALOG_LIMITS.partNumber),
  brandName: named(CATALOG_LIMITS.brand),
  category: named(CATALOG_LIMITS.category),
  description: text(CATALOG_LIMITS.description),
  inStock: z.boolean('must be true or false'),
  availability: text(CATALOG_LIMITS.availability),
  price: z
    .number('must be a number')
    .min(0, 'must not be negative')
    .max(CATALOG_LIMITS.maxPrice, `must be at most ${CATALOG_LIMITS.maxPrice}`),
  weight: text(CATALOG_LIMITS.weight),
  dimensions: text(CATALOG_LIMITS.dimensions),
  tags: z.array(text(CATALOG_LIMITS.tag).min(1, 'must not be empty')).max(CATALOG_LIMITS.tags, `must have at most ${CATALOG_LIMITS.tags} tags`),
  specifications: z
    .record(named(CATALOG_LIMITS.specName), text(CATALOG_LIMITS.specValue))
    .refine((r) => Object.keys(r).length <= CATALOG_LIMITS.specs, `must have at most ${CATALOG_LIMITS.specs} entries`),
  images: z.array(imageRef).max(CATALOG_LIMITS.images, `must have at most ${CATALOG_LIMITS.images} images`),
  /** Older part numbers this part supersedes. */
  replaces: z.array(named(CATALOG_LIMITS.partNumber)).max(CATALOG_LIMITS.oldNumbers, `must list at most ${CATALOG_LIMITS.oldNumbers} numbers`),
  crossReferences: z
    .array(z.object({ brand: named(CATALOG_LIMITS.brand), partNumber: named(CATALOG_LIMITS.partNumber) }).strict())
    .max(CATALOG_LIMITS.oldNumbers, `must list at most ${CATALOG_LIMITS.oldNumbers} cross-references`),
  fits: z
    .array(
      z
        .object({
          make: named(CATALOG_LIMITS.brand),
          model: named(CATALOG_LIMITS.model),
          serialFrom: text(CATALOG_LIMITS.serial).optional(),
          serialTo: text(CATALOG_LIMITS.serial).optional(),
        })
        .strict(),
    )
    .max(CATALOG_LIMITS.fits, `must list at most ${CATALOG_LIMITS.fits} machines`),
});
export type ProductFields = z.infer<typeof ProductFieldsSchema>;

/** PATCH /api/admin/products/{id} (with If-Match): the fields to change. */
export const ProductPatchSchema = ProductFieldsSchema.partial()
  .strict()
  .refine((p) => Object.keys(p).length > 0, 'must change at least one field');
/** POST /api/admin/products: a new part. */
export const ProductCreateSchema = ProductFieldsSchema.partial()
  .extend({ sku: named(CATALOG_LIMITS.sku), name: named(CATALOG_LIMITS.name), category: named(CATALOG_LIMITS.category) })
  .strict();
export type ProductCreate = z.infer<typeof ProductCreateSchema>;

/** GET /api/admin/products: the panel's list, narrowed by brand, category and stock. */
export const AdminProductFilterSchema = z.object({
  brand: z.string().trim().max(120).optional(),
  category: z.string().trim().max(120).optional(),
  inStock: z.enum(['true', 'false'], 'must be true or false').optional(),
});

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
