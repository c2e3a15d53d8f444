import { z } from 'zod';
import { ProductDetailSchema, ProductRefSchema } from './products.ts';

/**
 * Parts diagrams (#38): the illustrated parts catalogue of a machine model. A model (make + model, as the fitment data
 * names them) has assemblies ("Track roller frame"); an assembly has a drawing and numbered callouts, each a part with
 * its quantity per assembly, where it sits on the drawing, and optionally the serial range of the units it is on.
 */

export const DIAGRAM_LIMITS = {
  name: 120,
  note: 300,
  serial: 40,
  /** Lines of one assembly's table (a parts book page has 8-40; a big one some 150). */
  callouts: 300,
  /** Places one callout number is drawn (the same bolt at four corners). */
  positions: 12,
  quantity: 9_999,
  /** Assemblies of one machine model. */
  assemblies: 500,
  /** A diagram's upload (SVG, PNG or JPEG). */
  imageMb: 25,
  /** A diagram CSV's rows. */
  csvRows: 200_000,
  csvMb: 20,
} as const;

const text = (max: number, what = 'text') =>
  z
    .string(`must be ${what}`)
    .trim()
    .max(max, `must be at most ${max} characters`);
const named = (max: number) => text(max).min(1, 'is required');
const serial = z
  .string('must be a serial number')
  .trim()
  .max(DIAGRAM_LIMITS.serial, `must be at most ${DIAGRAM_LIMITS.serial} characters`)
  .regex(/^[A-Za-z0-9 -]*$/, 'must be letters and digits (a serial number such as 2FM01234)')
  .transform((s) => s.replace(/[\s-]/g, '').toUpperCase());

/** A callout's label as the drawing prints it: a number, sometimes with a letter ("7", "12A"). */
export const CalloutNumberSchema = z
  .string('must be a callout number')
  .trim()
  .regex(/^\d{1,3}[A-Za-z]?$/, 'must be a callout number such as 7 or 12A')
  .transform((s) => s.toUpperCase().replace(/^0+(?=\d)/, ''));

/** Where a callout sits: percent of the drawing's width (x) and height (y) from its top-left corner. */
export const PositionSchema = z
  .object({
    x: z.number('must be a number').finite().min(0, 'must be on the drawing (0 to 100 % of its width)').max(100, 'must be on the drawing (0 to 100 % of its width)'),
    y: z.number('must be a number').finite().min(0, 'must be on the drawing (0 to 100 % of its height)').max(100, 'must be on the drawing (0 to 100 % of its height)'),
  })
  .strict();
export type Position = z.infer<typeof PositionSchema>;

/** One line of an assembly's table, as staff edit it and the store keeps it. */
export const CalloutSchema = z
  .object({
    number: CalloutNumberSchema,
    positions: z.array(PositionSchema).max(DIAGRAM_LIMITS.positions, `must be at most ${DIAGRAM_LIMITS.positions} places`).default([]),
    partId: z.string('must be a part id').trim().min(1, 'is required: the part this callout is').max(100, 'must be a part id'),
    quantity: z.number('must be a number').int('must be a whole number').min(1, 'must be at least 1').max(DIAGRAM_LIMITS.quantity, `must be at most ${DIAGRAM_LIMITS.quantity}`).default(1),
    serialFrom: serial.optional(),
    serialTo: serial.optional(),
    note: text(DIAGRAM_LIMITS.note).optional(),
  })
  .strict()
  .transform((c) => ({
    number: c.number,
    positions: c.positions.map((p) => ({ x: round2(p.x), y: round2(p.y) })),
    partId: c.partId,
    quantity: c.quantity,
    ...(c.serialFrom ? { serialFrom: c.serialFrom } : {}),
    ...(c.serialTo ? { serialTo: c.serialTo } : {}),
    ...(c.note ? { note: c.note } : {}),
  }));
export type Callout = z.output<typeof CalloutSchema>;
export type CalloutInput = z.input<typeof CalloutSchema>;

/** Positions are kept to 0.01 %: finer than any screen, and the CSV round trip gives back what it took. */
export const round2 = (n: number) => Math.round(n * 100) / 100;

/** The drawing, once the media workers have made its web copies (or a generated demo drawing). */
export const DiagramSchema = z.object({
  /** The largest copy (an SVG: the sanitised drawing itself). */
  url: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Smaller copies for phones (raster drawings): `${url}` at these widths. */
  variants: z.array(z.object({ width: z.number().int().positive(), url: z.string() })).optional(),
});
export type Diagram = z.infer<typeof DiagramSchema>;

/** An assembly as stored. */
export const AssemblySchema = z.object({
  id: z.string(),
  make: z.string(),
  model: z.string(),
  makeSlug: z.string(),
  modelSlug: z.string(),
  slug: z.string(),
  name: z.string(),
  diagram: DiagramSchema.nullable(),
  callouts: z.array(z.object({
    number: z.string(),
    positions: z.array(PositionSchema),
    partId: z.string(),
    quantity: z.number().int(),
    serialFrom: z.string().optional(),
    serialTo: z.string().optional(),
    note: z.string().optional(),
  })),
  /** 1 when created; each change adds one (the editor sends it back: a change made meanwhile is not overwritten). */
  version: z.number().int(),
  updatedAt: z.string(),
  updatedBy: z.string(),
});
export type Assembly = z.infer<typeof AssemblySchema>;

/** POST /api/admin/assemblies */
export const AssemblyCreateSchema = z
  .object({ make: named(DIAGRAM_LIMITS.name), model: named(DIAGRAM_LIMITS.name), name: named(DIAGRAM_LIMITS.name) })
  .strict();
export type AssemblyCreate = z.infer<typeof AssemblyCreateSchema>;

/** PUT /api/admin/assemblies/:id: the name and the whole table, with the version it was made from. */
export const AssemblyUpdateSchema = z
  .object({
    version: z.number('must be the version you edited').int().min(1),
    name: named(DIAGRAM_LIMITS.name),
    callouts: z.array(CalloutSchema).max(DIAGRAM_LIMITS.callouts, `must be at most ${DIAGRAM_LIMITS.callouts} lines`),
  })
  .strict();
export type AssemblyUpdate = z.output<typeof AssemblyUpdateSchema>;

export const AssemblyIdParamsSchema = z.object({ id: z.string().regex(/^[a-z0-9-]{1,64}$/, 'must be an assembly id') });

const slugParam = (what: string) => z.string().trim().min(1, `is required: a ${what}`).max(DIAGRAM_LIMITS.name, `must be a ${what}`);
/** /api/machines/:make/:model (names or slugs). */
export const MachineParamsSchema = z.object({ make: slugParam('machine make'), model: slugParam('machine model') });
export const AssemblyParamsSchema = MachineParamsSchema.extend({ assembly: slugParam('assembly') });

/** GET /api/admin/assemblies?make=&model=&search= */
export const AdminAssembliesQuerySchema = z.object({
  make: text(DIAGRAM_LIMITS.name).optional(),
  model: text(DIAGRAM_LIMITS.name).optional(),
  search: text(DIAGRAM_LIMITS.name).optional(),
});

/** A part as an assembly's table shows it. */
export const AssemblyPartSchema = z.object({
  id: z.string(),
  name: z.string(),
  sku: z.string(),
  partNumber: z.string(),
  brandName: z.string(),
  slug: z.string(),
  inStock: z.boolean(),
  availability: z.string(),
  imageUrl: z.string(),
  images: z.array(z.string()),
  /** The part that supersedes it, when it has been superseded. */
  replacedBy: ProductRefSchema.nullable(),
  crossReferences: z.array(z.object({ brand: z.string(), partNumber: z.string() })),
});
export type AssemblyPart = z.infer<typeof AssemblyPartSchema>;

/** A line of the buyer's table: the callout and its part (null: taken off the storefront since). */
export const AssemblyLineSchema = AssemblySchema.shape.callouts.element.extend({ part: AssemblyPartSchema.nullable() });
export type AssemblyLine = z.infer<typeof AssemblyLineSchema>;

/** An assembly in a machine's list. */
export const AssemblySummarySchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  calloutCount: z.number().int(),
  diagram: DiagramSchema.nullable(),
});
export type AssemblySummary = z.infer<typeof AssemblySummarySchema>;

/** GET /api/machines/:make/:model */
export const MachinePageSchema = z.object({
  make: z.string(),
  model: z.string(),
  makeSlug: z.string(),
  modelSlug: z.string(),
  /** Live parts that fit the model. */
  productCount: z.number().int(),
  assemblies: z.array(AssemblySummarySchema),
});
export type MachinePage = z.infer<typeof MachinePageSchema>;

/** GET /api/machines/:make/:model/assemblies/:assembly */
export const AssemblyPageSchema = AssemblySchema.pick({ id: true, make: true, model: true, makeSlug: true, modelSlug: true, slug: true, name: true, diagram: true, version: true, updatedAt: true }).extend({
  lines: z.array(AssemblyLineSchema),
  /** The model's other assemblies, for the page's navigation. */
  siblings: z.array(AssemblySummarySchema.pick({ slug: true, name: true })),
});
export type AssemblyPage = z.infer<typeof AssemblyPageSchema>;

/** Where a part is drawn: a part page's "Where used" (the product detail's `whereUsed`). */
export const WhereUsedResponseSchema = ProductDetailSchema.shape.whereUsed.unwrap();
export const WhereUsedSchema = WhereUsedResponseSchema.shape.assemblies.element;
export type WhereUsed = z.infer<typeof WhereUsedSchema>;
export type WhereUsedResponse = z.infer<typeof WhereUsedResponseSchema>;
/** A part page lists at most this many (the busiest parts are in hundreds of assemblies). */
export const WHERE_USED_LIMIT = 50;

/** One change to an assembly: the record staff read in its history. */
export const AssemblyHistoryEntrySchema = z.object({
  version: z.number().int(),
  at: z.string(),
  actor: z.string(),
  /** create, edit, import (with the import's file name), diagram, delete. */
  action: z.enum(['create', 'edit', 'import', 'diagram', 'delete']),
  summary: z.string(),
});
export type AssemblyHistoryEntry = z.infer<typeof AssemblyHistoryEntrySchema>;

/** POST /api/admin/assemblies/import?dryRun= : what the file did (or would do). */
export const DiagramImportReportSchema = z.object({
  dryRun: z.boolean(),
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  errorCount: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), column: z.string(), message: z.string() })),
  unknownColumns: z.array(z.string()),
});
export type DiagramImportReport = z.infer<typeof DiagramImportReportSchema>;
export const DiagramImportQuerySchema = z.object({
  dryRun: z
    .enum(['true', 'false', '1', '0'], 'must be true or false')
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

/** The diagram CSV's columns, in the export's order (the import takes them in any order). */
export const DIAGRAM_CSV_COLUMNS = ['make', 'model', 'assembly', 'callout', 'part_number', 'quantity', 'x', 'y', 'serial_from', 'serial_to', 'note'] as const;
export type DiagramCsvColumn = (typeof DIAGRAM_CSV_COLUMNS)[number];
/** The export's header: the columns with `sku` after `part_number` (which part exactly, when numbers repeat across brands). */
export const DIAGRAM_EXPORT_COLUMNS = ['make', 'model', 'assembly', 'callout', 'part_number', 'sku', 'quantity', 'x', 'y', 'serial_from', 'serial_to', 'note'] as const;
export const DIAGRAM_EXPORT_HEADER = DIAGRAM_EXPORT_COLUMNS.join(',');

/** The buyer's pages (defined beside the other page paths, zod-free, for the web app's chunks). */
export { assemblyPath, machinePath } from './slug.ts';

const slugPart = z.string().regex(/^[a-z0-9-]{1,80}$/, 'must be a slug');
/** GET /media/generated/diagrams/:make/:model/:file.svg: a demo assembly's drawing (file: `<assembly>-<callouts>`). */
export const GeneratedDiagramParamsSchema = z.object({
  make: slugPart,
  model: slugPart,
  file: z.string().regex(/^[a-z0-9-]{1,80}-\d{1,2}$/, 'must be <assembly>-<callouts>'),
});
