import { z } from 'zod';
import {
  AdminAssembliesQuerySchema,
  AssemblyCreateSchema,
  AssemblyHistoryEntrySchema,
  AssemblyIdParamsSchema,
  AssemblyPageSchema,
  AssemblyParamsSchema,
  AssemblySchema,
  AssemblyUpdateSchema,
  DIAGRAM_EXPORT_HEADER,
  DIAGRAM_LIMITS,
  DiagramImportQuerySchema,
  DiagramImportReportSchema,
  GeneratedDiagramParamsSchema,
  MachineParamsSchema,
  MachinePageSchema,
} from '../parts-diagrams.ts';
import { binary, body, csv, errors, json, KEY_ERRORS, multipart, open, parameters, staffOrKey, type Paths } from './shared.ts';

const tags = ['Parts diagrams'];
const assemblyId = parameters(AssemblyIdParamsSchema, 'path', { id: "The assembly's id" });
const AdminAssemblyRowSchema = AssemblySchema.omit({ callouts: true }).extend({ calloutCount: z.number().int(), lineCount: z.number().int() });
const AdminPartSchema = z.object({ id: z.string(), name: z.string(), sku: z.string(), partNumber: z.string(), brandName: z.string() });

/**
 * Parts diagrams (#38): a machine model's assemblies, each a drawing with numbered callouts and their parts (public),
 * and the staff's editor, import and export (catalog service).
 */
export const diagramPaths: Paths = {
  '/api/machines/{make}/{model}': {
    get: {
      tags,
      operationId: 'getMachine',
      security: open,
      summary: "A machine model's parts book: its assemblies, and how many parts fit it (make and model as names or slugs)",
      parameters: parameters(MachineParamsSchema, 'path'),
      responses: { 200: json(MachinePageSchema, 'The machine'), ...errors(400, [404, 'No such machine: no part fits it and it has no assemblies']) },
    },
  },
  '/api/machines/{make}/{model}/assemblies/{assembly}': {
    get: {
      tags,
      operationId: 'getAssembly',
      security: open,
      summary: 'An assembly: its drawing, and each callout with its part as it stands today (null: taken off the storefront)',
      parameters: parameters(AssemblyParamsSchema, 'path'),
      responses: { 200: json(AssemblyPageSchema, 'The assembly'), ...errors(400, 404) },
    },
  },
  '/media/generated/diagrams/{make}/{model}/{file}.svg': {
    get: {
      tags,
      operationId: 'getGeneratedDiagram',
      security: open,
      summary: "A demo assembly's drawn exploded view; the same address gives the same drawing",
      parameters: parameters(GeneratedDiagramParamsSchema, 'path'),
      responses: { 200: { description: 'The drawing', content: { 'image/svg+xml': { schema: { type: 'string' } } } }, ...errors(400) },
    },
  },
  '/api/admin/assemblies': {
    get: {
      tags,
      operationId: 'listAssemblies',
      security: staffOrKey('catalog:read'),
      summary: 'Assemblies by make, model and name (at most 200), without their tables',
      parameters: parameters(AdminAssembliesQuerySchema, 'query'),
      responses: { 200: json(z.object({ assemblies: z.array(AdminAssemblyRowSchema) }), 'The assemblies'), ...errors(400, ...KEY_ERRORS) },
    },
    post: {
      tags,
      operationId: 'createAssembly',
      security: staffOrKey('catalog:write'),
      summary: 'A new assembly of a machine model, with no drawing and no lines yet',
      requestBody: body(AssemblyCreateSchema),
      responses: { 201: json(AssemblySchema, 'Created'), ...errors(400, [409, 'The model has an assembly of that name'], ...KEY_ERRORS) },
    },
  },
  '/api/admin/assemblies/export.csv': {
    get: {
      tags,
      operationId: 'exportAssemblies',
      security: staffOrKey('catalog:read'),
      summary: 'Every assembly\'s table as CSV, one row per place a callout is drawn: import it again and nothing changes',
      responses: { 200: csv(DIAGRAM_EXPORT_HEADER), ...errors(...KEY_ERRORS) },
    },
  },
  '/api/admin/assemblies/import': {
    post: {
      tags,
      operationId: 'importAssemblies',
      security: staffOrKey('catalog:write'),
      summary: 'Replace the tables of the assemblies a file names (new ones are created); an assembly with a bad row is left as it was',
      parameters: parameters(DiagramImportQuerySchema, 'query'),
      requestBody: multipart({ file: binary(`CSV or XLSX with the export's columns (at most ${DIAGRAM_LIMITS.csvMb} MB, ${DIAGRAM_LIMITS.csvRows.toLocaleString('en-US')} rows)`) }, ['file']),
      responses: { 200: json(DiagramImportReportSchema, 'What the file did (or, dryRun, would do), with every bad row by row and column'), ...errors([400, 'No file, or not a diagrams file'], [409, 'An assembly changed while the file was read'], ...KEY_ERRORS, 413) },
    },
  },
  '/api/admin/assemblies/{id}': {
    get: {
      tags,
      operationId: 'getAdminAssembly',
      security: staffOrKey('catalog:read'),
      summary: 'An assembly with its table, and the parts its lines name',
      parameters: assemblyId,
      responses: { 200: json(z.object({ assembly: AssemblySchema, parts: z.array(AdminPartSchema) }), 'The assembly'), ...errors(400, 404, ...KEY_ERRORS) },
    },
    put: {
      tags,
      operationId: 'updateAssembly',
      security: staffOrKey('catalog:write'),
      summary: 'Its name and whole table, from the version read (a new version; the same content keeps the version)',
      parameters: assemblyId,
      requestBody: body(AssemblyUpdateSchema),
      responses: { 200: json(AssemblySchema, 'Saved'), ...errors([400, 'A field, or a callout naming no part on the storefront (callouts.N.partId)'], 404, [409, 'Changed by someone else since that version'], ...KEY_ERRORS) },
    },
    delete: {
      tags,
      operationId: 'deleteAssembly',
      security: staffOrKey('catalog:write'),
      summary: 'Delete an assembly (its history stays)',
      parameters: assemblyId,
      responses: { 204: { description: 'Deleted' }, ...errors(400, 404, ...KEY_ERRORS) },
    },
  },
  '/api/admin/assemblies/{id}/history': {
    get: {
      tags,
      operationId: 'getAssemblyHistory',
      security: staffOrKey('catalog:read'),
      summary: 'Every change to an assembly, newest first: who, when, what',
      parameters: assemblyId,
      responses: { 200: json(z.object({ entries: z.array(AssemblyHistoryEntrySchema) }), 'The history'), ...errors(400, 404, ...KEY_ERRORS) },
    },
  },
};
