import { cataloguePaths } from './openapi/catalogue-paths.ts';
import { imagePaths } from './openapi/image-paths.ts';
import { inboxPaths } from './openapi/inbox-paths.ts';
import { ERROR_COMPONENT, type JsonSchema, type Paths } from './openapi/shared.ts';
import { staffPaths } from './openapi/staff-paths.ts';
import { storefrontPaths } from './openapi/storefront-paths.ts';

/**
 * The OpenAPI 3.1 document of every call the gateway answers under /api and /media: the storefront's public calls, the
 * images, the catalogue admin, the quote inbox, the staff sign-in, API keys and the audit log, generated from the same
 * zod contracts the services validate with, so it cannot drift from them (test/openapi-coverage.test.ts holds it to
 * the services' routes). Served at /api/openapi.json and /api/docs. Each area's paths are in ./openapi/.
 */

/** The areas, in the order /api/docs shows them. */
const TAGS = [
  { name: 'Storefront', description: 'Public: search, product pages, categories, brands, fitment, parts lists, quote requests, contact' },
  { name: 'Images', description: 'Product pictures (public), and the staff\'s photo uploads and their processing' },
  { name: 'Catalogue', description: 'The seller\'s parts: list, read, create, edit, import and export' },
  { name: 'Quote inbox', description: 'Quote requests and contact messages: work them, reply, export' },
  { name: 'Staff sign-in', description: 'The e-mailed-code sign-in (open), the session, and sign-in locks' },
  { name: 'API keys & audit', description: 'Keys for the seller\'s own systems, and the log of staff actions (signed-in staff only)' },
  { name: 'API description', description: 'This document' },
];

/** The gateway's own calls: this document, as JSON and as a page. */
const documentPaths: Paths = {
  '/api/openapi.json': {
    get: {
      tags: ['API description'],
      operationId: 'getOpenApiDocument',
      summary: 'This document (OpenAPI 3.1)',
      responses: { 200: { description: 'The document', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  },
  '/api/docs': {
    get: {
      tags: ['API description'],
      operationId: 'getApiDocsPage',
      summary: 'This document as a readable page',
      responses: { 200: { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } } },
    },
  },
};

export function buildOpenApiDocument(opts: { serverUrl?: string } = {}): JsonSchema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Forgeline Parts API',
      version: '1.0.0',
      description:
        'Every call the storefront\'s gateway answers under /api and /media: the public storefront (search, products, categories, brands, fitment, ' +
        'parts-list match, quote requests, contact) and product images; and for staff and the seller\'s own systems, the catalogue (import, export, edit), ' +
        'the quote inbox, image uploads, the staff sign-in, API keys and the audit log. ' +
        'Admin calls take `Authorization: Bearer <key>` with an API key made in the admin panel (API keys tab), or the token of a signed-in admin ' +
        '(the admin panel sends the session cookie instead); the sign-in calls themselves are open. ' +
        'A key works within its scopes: `catalog:read` (GET of /api/admin/products, /api/admin/search-products-by-code, /api/admin/catalog/*), ' +
        '`catalog:write` (the other methods there: imports, edits), `quotes:read` (GET of /api/admin/quotes/*), `quotes:write` (changes and replies); ' +
        'a call outside them, and any call to image uploads (and their jobs), API keys, sign-in locks or the audit log, is answered 403, ' +
        'and a key makes at most 600 calls a minute (429). Every call made with a key is in the audit log. ' +
        'Any call may be answered 502, 503 or 504 by the gateway when the service behind it cannot answer.',
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    tags: TAGS,
    components: {
      schemas: ERROR_COMPONENT,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key (flk_…) or a signed-in admin\'s session token' } },
    },
    paths: { ...storefrontPaths, ...imagePaths, ...cataloguePaths, ...inboxPaths, ...staffPaths, ...documentPaths },
  };
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** /api/docs: the document as a plain page (no script, no outside assets): each call by area, its parameters and shapes. */
export function renderApiDocsHtml(doc: JsonSchema): string {
  const paths = doc.paths as Record<string, Record<string, JsonSchema>>;
  const section = (p: string, method: string, op: JsonSchema) => {
    const params = ((op.parameters as JsonSchema[] | undefined) ?? [])
      .map((x) => `<li><code>${esc(String(x.name))}</code> (${esc(String(x.in))}${x.required ? ', required' : ''})${x.description ? `: ${esc(String(x.description))}` : ''}</li>`)
      .join('');
    const req = op.requestBody ? `<details><summary>Request body</summary><pre>${esc(JSON.stringify((op.requestBody as JsonSchema).content, null, 2))}</pre></details>` : '';
    const res = `<details><summary>Responses</summary><pre>${esc(JSON.stringify(op.responses, null, 2))}</pre></details>`;
    return `<section><h3><span class="m">${method.toUpperCase()}</span> <code>${esc(p)}</code></h3><p>${esc(String(op.summary ?? ''))}${op.security ? ' <em>(admin)</em>' : ''}</p>${params ? `<ul>${params}</ul>` : ''}${req}${res}</section>`;
  };
  // Each operation once, under its first tag; the tags in the document's order, then any it does not list.
  const tags = (doc.tags as { name: string; description?: string }[] | undefined) ?? [];
  const groups = new Map<string, string[]>(tags.map((t) => [t.name, []]));
  for (const [p, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = (op.tags as string[] | undefined)?.[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push(section(p, method, op));
    }
  }
  const descriptions = new Map(tags.map((t) => [t.name, t.description ?? '']));
  const body = [...groups]
    .filter(([, sections]) => sections.length > 0)
    .map(([tag, sections]) => `<h2>${esc(tag)}</h2>${descriptions.get(tag) ? `<p>${esc(descriptions.get(tag)!)}</p>` : ''}\n${sections.join('\n')}`)
    .join('\n');
  const info = doc.info as { title: string; version: string; description: string };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${esc(info.title)}</title><style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#17191c}h2{margin-top:2.5rem}section{border-top:1px solid #ddd;padding:.5rem 0}.m{display:inline-block;min-width:4.5rem;font-weight:700}pre{background:#f4f4f5;padding:.75rem;overflow:auto;font-size:.8rem}</style></head><body><h1>${esc(info.title)} <small>${esc(info.version)}</small></h1><p>${esc(info.description)}</p><p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>${body}</body></html>`;
}
