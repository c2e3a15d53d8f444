import { accountDataPaths, accountHistoryPaths, accountPaths, accountStaffPaths } from './openapi/account-paths.ts';
import { cataloguePaths } from './openapi/catalogue-paths.ts';
import { diagramPaths } from './openapi/diagram-paths.ts';
import { imagePaths } from './openapi/image-paths.ts';
import { inboxPaths } from './openapi/inbox-paths.ts';
import { quoteViewPaths } from './openapi/quote-view-paths.ts';
import { searchInsightPaths } from './openapi/search-insight-paths.ts';
import { orderPaths } from './openapi/order-paths.ts';
import { webhookPaths } from './openapi/webhook-paths.ts';
import { ERROR_COMPONENT, HEADERS_TOO_LARGE, open, SECURITY_SCHEMES, type JsonSchema, type Paths } from './openapi/shared.ts';
import { staffPaths } from './openapi/staff-paths.ts';
import { storefrontPaths } from './openapi/storefront-paths.ts';

/**
 * The OpenAPI 3.1 document of every call the gateway answers under /api and /media: the storefront's public calls, the
 * images, the catalogue admin, the quote inbox, the staff sign-in, API keys and the audit log, generated from the same
 * zod contracts the services validate with, so it cannot drift from them (test/openapi-coverage.test.ts holds it to
 * the services' routes). Served at /api/openapi.json and, rendered by Redoc, at /api/docs (gateway/src/api-docs.ts);
 * `npm run lint:openapi` lints it with Redocly's recommended rules. Each area's paths are in ./openapi/.
 */

/** The areas, in the order /api/docs shows them. */
const TAGS = [
  { name: 'Storefront', description: 'Public: search, product pages, categories, brands, fitment, parts lists, quote requests, contact' },
  { name: 'Images', description: 'Product pictures (public), and the staff\'s photo uploads and their processing' },
  { name: 'Catalogue', description: 'The seller\'s parts: list, read, create, edit, import and export' },
  { name: 'Parts diagrams', description: "Machines' parts books: assemblies with a drawing and numbered callouts (public), and the staff's editor, import and export" },
  { name: 'Quote inbox', description: 'Quote requests and contact messages: work them, reply, export' },
  { name: 'Orders', description: "The buyers' accepted quotes, fulfilled by staff: list, export, ship, deliver, cancel" },
  { name: 'Webhooks', description: "The seller's ERP told of replies, accepts, declines and order changes: signed, retried (signed-in staff only)" },
  { name: 'Buyer quote page', description: "Public, by the link in a quote reply: the buyer's quote, accept (an order), ask for changes, decline" },
  { name: 'Search insights', description: 'What buyers search (no personal data), and the aliases, synonyms and query statuses staff keep' },
  { name: 'Buyer account', description: "A buyer's sign-in by e-mailed code, into a session of its own (no staff route takes it)" },
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
      security: open,
      summary: 'This document (OpenAPI 3.1)',
      responses: { 200: { description: 'The document', content: { 'application/json': { schema: { type: 'object' } } } }, ...HEADERS_TOO_LARGE },
    },
  },
  '/api/docs': {
    get: {
      tags: ['API description'],
      operationId: 'getApiDocsPage',
      security: open,
      summary: 'This document as a readable page (Redoc, served by the gateway with its script)',
      responses: { 200: { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } }, ...HEADERS_TOO_LARGE },
    },
  },
};

/** How a client signs in and what a key may do, as the page's introduction shows it (Markdown). */
const DESCRIPTION = [
  "Every call the storefront's gateway answers under `/api` and `/media`: the public storefront (search, products, categories, brands, " +
    'fitment, parts-list match, quote requests, contact) and product images; and, for staff and the seller\'s own systems, the catalogue ' +
    '(import, export, edit), the quote inbox, image uploads, the staff sign-in, API keys and the audit log.',
  '**Signing in.** The public calls and the sign-in calls need nothing. The others name, under *Authorizations*, the credentials they take: ' +
    "the admin panel's session cookie, a signed-in member of staff's session token (`Authorization: Bearer <token>`), and on the catalogue " +
    "and quote-inbox calls an API key made in the admin panel's API keys tab (`Authorization: Bearer flk_…`).",
  '**API keys** work within their scopes: `catalog:read` (GET of `/api/admin/products`, `/api/admin/search-products-by-code` and ' +
    '`/api/admin/catalog/…`), `catalog:write` (the other methods there: imports, edits), `quotes:read` (GET of `/api/admin/quotes/…`) and ' +
    '`quotes:write` (changes and replies). A call outside them, and any call to image uploads (and their jobs), API keys, sign-in locks or ' +
    'the audit log, is answered 403; a key makes at most 600 calls a minute (429). Every call made with a key is in the audit log.',
  'Any call may be answered 502, 503 or 504 by the gateway when the service behind it cannot answer.',
].join('\n\n');

export function buildOpenApiDocument(opts: { serverUrl?: string } = {}): JsonSchema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Forgeline Parts API',
      version: '1.0.0',
      description: DESCRIPTION,
      // The seller's own API, for its systems and its staff: no open licence is granted (SPDX's form for a licence of one's own).
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the site this document is served from (OpenAPI resolves it against the document's own URL).
    servers: [{ url: opts.serverUrl ?? '/', description: opts.serverUrl ? 'The site' : 'The site this document was served from' }],
    tags: TAGS,
    components: {
      schemas: ERROR_COMPONENT,
      securitySchemes: SECURITY_SCHEMES,
    },
    paths: { ...storefrontPaths, ...imagePaths, ...cataloguePaths, ...diagramPaths, ...inboxPaths, ...orderPaths, ...webhookPaths, ...quoteViewPaths, ...accountPaths, ...accountDataPaths, ...accountHistoryPaths, ...accountStaffPaths, ...searchInsightPaths, ...staffPaths, ...documentPaths },
  };
}
