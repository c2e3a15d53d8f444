import { z } from 'zod';
import {
  AdminProductFilterSchema,
  CatalogImportCreatedSchema,
  CatalogImportJobSchema,
  CatalogImportQuerySchema,
  ProductCreateSchema,
  ProductPatchSchema,
} from './catalog-admin.ts';
import { PartsMatchRequestSchema, PartsMatchResponseSchema } from './parts-match.ts';
import {
  AdminProductListSchema,
  AdminProductsQuerySchema,
  FitmentMakesResponseSchema,
  FitmentModelsQuerySchema,
  FitmentModelsResponseSchema,
  ProductListQuerySchema,
  ProductListResponseSchema,
  ProductSchema,
} from './products.ts';
import { InboxDetailSchema, InboxListResponseSchema, InboxPatchSchema, InboxQuerySchema, InboxReplySchema, InboxStatsSchema } from './quote-inbox.ts';
import { QuoteRequestInputSchema, QuoteRequestResponseSchema } from './quotes.ts';

/**
 * The OpenAPI 3.1 document of the calls a seller's own systems use (catalogue import, export and edit; the quote
 * inbox) and the public ones they may want (search, parts-list match, quote requests), generated from the same zod
 * contracts the services validate with, so it cannot drift from them. Served at /api/openapi.json and /api/docs.
 */

type JsonSchema = Record<string, unknown>;

/** A contract as JSON Schema (draft 2020-12, which OpenAPI 3.1 uses): what a client sends, or what it receives. */
const schema = (s: z.ZodType, io: 'input' | 'output' = 'output'): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

/** A zod object's fields as OpenAPI parameters of one location. */
function parameters(s: z.ZodObject, where: 'query' | 'path'): JsonSchema[] {
  const json = schema(s, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, p]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: p,
    ...(typeof p.description === 'string' ? { description: p.description } : {}),
  }));
}

const json = (s: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema: schema(s) } } });
const csv = (description: string) => ({ description, content: { 'text/csv': { schema: { type: 'string' } } } });
const body = (s: z.ZodType) => ({ required: true, content: { 'application/json': { schema: schema(s, 'input') } } });
const ErrorSchema = z.object({
  message: z.string().describe('What was wrong, naming the field'),
  requestId: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
const errors = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((c) => [
      String(c),
      json(
        ErrorSchema,
        {
          400: 'Invalid input: the message names each bad field',
          401: 'No valid session or API credentials',
          404: 'Not found',
          409: 'Conflicts with what exists',
          410: 'Gone: taken off the storefront',
          412: 'Changed by someone else since it was read (If-Match did not match)',
          413: 'Too large: the message gives the limit',
          428: 'If-Match is required',
          429: 'Too many requests: try again in a minute',
        }[c] ?? 'Error',
      ),
    ]),
  );
const id = z.object({ id: z.string().describe('The UUID') });
/** Optimistic concurrency: the version (ETag) the client read. */
const ifMatch = { name: 'If-Match', in: 'header', required: true, schema: { type: 'string' } } as const;
const admin = [{ bearer: [] }];

export function buildOpenApiDocument(opts: { serverUrl?: string } = {}): JsonSchema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Forgeline Parts API',
      version: '1.0.0',
      description:
        'The storefront\'s calls for a seller\'s own systems: import, export and edit the catalogue; work the quote inbox. ' +
        'Admin calls take `Authorization: Bearer <key>` with an API key made in the admin panel (API keys tab), or the token of a signed-in admin. ' +
        'A key works within its scopes: `catalog:read` (GET of /api/admin/products, /api/admin/catalog/*), `catalog:write` (the other methods there: imports, edits), ' +
        '`quotes:read` (GET of /api/admin/quotes/*), `quotes:write` (changes and replies); a call outside them is answered 403 naming the scope, ' +
        'and a key makes at most 600 calls a minute (429). Every call made with a key is in the audit log.',
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key (flk_…) or a signed-in admin\'s session token' } },
    },
    paths: {
      '/api/products': {
        get: {
          tags: ['Storefront'],
          summary: 'Search the catalogue, or list a category or brand',
          parameters: parameters(ProductListQuerySchema as unknown as z.ZodObject, 'query'),
          responses: { 200: json(ProductListResponseSchema, 'A page of products'), ...errors(400, 404) },
        },
      },
      '/api/fitment/makes': {
        get: {
          tags: ['Storefront'],
          summary: 'The machine makes parts fit, with how many parts fit each',
          responses: { 200: json(FitmentMakesResponseSchema, 'Makes by name') },
        },
      },
      '/api/fitment/models': {
        get: {
          tags: ['Storefront'],
          summary: 'The models of one make parts fit; then narrow any list or search with make, model and serial',
          parameters: parameters(FitmentModelsQuerySchema, 'query'),
          responses: { 200: json(FitmentModelsResponseSchema, 'Models by name'), ...errors(400, 404) },
        },
      },
      '/api/parts/match': {
        post: {
          tags: ['Storefront'],
          summary: 'Match a pasted parts list (or a CSV/XLSX file, multipart field `file`) to the catalogue, line by line',
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: schema(PartsMatchRequestSchema, 'input') },
              'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } },
            },
          },
          responses: { 200: json(PartsMatchResponseSchema, 'Each line with what it matched'), ...errors(400, 413, 429) },
        },
      },
      '/api/quote-requests': {
        post: {
          tags: ['Storefront'],
          summary: 'Ask for a quote: one product, or up to 200 lines',
          requestBody: body(QuoteRequestInputSchema),
          responses: { 201: json(QuoteRequestResponseSchema, 'Received; the buyer and the seller are mailed'), ...errors(400, 429) },
        },
      },
      '/api/admin/catalog/imports': {
        post: {
          tags: ['Catalogue'],
          summary: 'Import a catalogue file (CSV or XLSX, one row per part keyed by sku) as a background job',
          security: admin,
          parameters: parameters(CatalogImportQuerySchema, 'query'),
          requestBody: {
            required: true,
            content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } } },
          },
          responses: { 202: json(CatalogImportCreatedSchema, 'Accepted: follow the job at /api/admin/catalog/imports/{id}'), ...errors(400, 401, 413) },
        },
      },
      '/api/admin/catalog/imports/{id}': {
        get: {
          tags: ['Catalogue'],
          summary: "An import's state, counts and first 1,000 errors",
          security: admin,
          parameters: parameters(id, 'path'),
          responses: { 200: json(CatalogImportJobSchema, 'The job'), ...errors(400, 401, 404) },
        },
      },
      '/api/admin/catalog/imports/{id}/errors.csv': {
        get: {
          tags: ['Catalogue'],
          summary: "Every error of an import (row, column, message)",
          security: admin,
          parameters: parameters(id, 'path'),
          responses: { 200: csv('row,column,message'), ...errors(401, 404) },
        },
      },
      '/api/admin/catalog/export.csv': {
        get: {
          tags: ['Catalogue'],
          summary: 'The whole catalogue in the import columns (importing it back changes nothing)',
          security: admin,
          responses: { 200: csv('sku,name,part_number,brand,category,description,in_stock,availability,price,weight,dimensions,tags,specifications,images,replaces,cross_references,fits'), ...errors(401) },
        },
      },
      '/api/admin/products': {
        get: {
          tags: ['Catalogue'],
          summary: 'List parts by name, narrowed by search, brand, category and stock',
          security: admin,
          parameters: [...parameters(AdminProductsQuerySchema, 'query'), ...parameters(AdminProductFilterSchema, 'query')],
          responses: { 200: json(AdminProductListSchema, 'Rows'), ...errors(400, 401) },
        },
        post: {
          tags: ['Catalogue'],
          summary: 'Create a part',
          security: admin,
          requestBody: body(ProductCreateSchema),
          responses: { 201: json(ProductSchema, 'Created (with its ETag)'), ...errors(400, 401, 409) },
        },
      },
      '/api/admin/products/{id}': {
        get: {
          tags: ['Catalogue'],
          summary: 'Read a part, with its ETag',
          security: admin,
          parameters: parameters(id, 'path'),
          responses: { 200: json(ProductSchema, 'The part (ETag header: its version)'), ...errors(401, 404, 410) },
        },
        patch: {
          tags: ['Catalogue'],
          summary: 'Change fields of a part (If-Match: the ETag as read)',
          security: admin,
          parameters: [...parameters(id, 'path'), ifMatch],
          requestBody: body(ProductPatchSchema),
          responses: { 200: json(ProductSchema, 'The part as it is now (with its new ETag)'), ...errors(400, 401, 404, 412, 428) },
        },
      },
      '/api/admin/quotes': {
        get: {
          tags: ['Quote inbox'],
          summary: 'Quote requests and contact messages, filtered and paged',
          security: admin,
          parameters: parameters(InboxQuerySchema as unknown as z.ZodObject, 'query'),
          responses: { 200: json(InboxListResponseSchema, 'A page of the inbox'), ...errors(400, 401) },
        },
      },
      '/api/admin/quotes/stats': {
        get: { tags: ['Quote inbox'], summary: 'Counts per status', security: admin, responses: { 200: json(InboxStatsSchema, 'Counts'), ...errors(401) } },
      },
      '/api/admin/quotes/export.csv': {
        get: {
          tags: ['Quote inbox'],
          summary: 'The filtered inbox as CSV',
          security: admin,
          parameters: parameters(InboxQuerySchema as unknown as z.ZodObject, 'query'),
          responses: { 200: csv('One row per request'), ...errors(400, 401) },
        },
      },
      '/api/admin/quotes/{id}': {
        get: {
          tags: ['Quote inbox'],
          summary: 'One request with its lines and history',
          security: admin,
          parameters: parameters(id, 'path'),
          responses: { 200: json(InboxDetailSchema, 'The request'), ...errors(401, 404) },
        },
        patch: {
          tags: ['Quote inbox'],
          summary: 'Change status, assignee or add a note (If-Match: the version as read)',
          security: admin,
          parameters: [...parameters(id, 'path'), ifMatch],
          requestBody: body(InboxPatchSchema),
          responses: { 200: json(InboxDetailSchema, 'The request as it is now'), ...errors(400, 401, 404, 409, 428) },
        },
      },
      '/api/admin/quotes/{id}/reply': {
        post: {
          tags: ['Quote inbox'],
          summary: 'Reply to the buyer by e-mail (with prices)',
          security: admin,
          parameters: parameters(id, 'path'),
          requestBody: body(InboxReplySchema),
          responses: { 200: json(InboxDetailSchema, 'The request with the reply in its history'), ...errors(400, 401, 404) },
        },
      },
    },
  };
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** /api/docs: the document as a plain page (no script, no outside assets): each call, its parameters and shapes. */
export function renderApiDocsHtml(doc: JsonSchema): string {
  const paths = doc.paths as Record<string, Record<string, JsonSchema>>;
  const sections = Object.entries(paths)
    .flatMap(([p, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        const params = ((op.parameters as JsonSchema[] | undefined) ?? [])
          .map((x) => `<li><code>${esc(String(x.name))}</code> (${esc(String(x.in))}${x.required ? ', required' : ''})${x.description ? `: ${esc(String(x.description))}` : ''}</li>`)
          .join('');
        const req = op.requestBody ? `<details><summary>Request body</summary><pre>${esc(JSON.stringify((op.requestBody as JsonSchema).content, null, 2))}</pre></details>` : '';
        const res = `<details><summary>Responses</summary><pre>${esc(JSON.stringify(op.responses, null, 2))}</pre></details>`;
        return `<section><h3><span class="m">${method.toUpperCase()}</span> <code>${esc(p)}</code></h3><p>${esc(String(op.summary ?? ''))}${op.security ? ' <em>(admin)</em>' : ''}</p>${params ? `<ul>${params}</ul>` : ''}${req}${res}</section>`;
      }),
    )
    .join('\n');
  const info = doc.info as { title: string; version: string; description: string };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${esc(info.title)}</title><style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#17191c}section{border-top:1px solid #ddd;padding:.5rem 0}.m{display:inline-block;min-width:4.5rem;font-weight:700}pre{background:#f4f4f5;padding:.75rem;overflow:auto;font-size:.8rem}</style></head><body><h1>${esc(info.title)} <small>${esc(info.version)}</small></h1><p>${esc(info.description)}</p><p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>${sections}</body></html>`;
}
