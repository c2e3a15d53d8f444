/**
 * The API's description, served by the gateway: the OpenAPI document at /api/openapi.json, and a readable reference
 * of it at /api/docs, rendered in the browser by Redoc's standalone bundle (the `redoc` package, served from
 * node_modules at /api/docs/redoc.standalone.js: no CDN, and nothing added to the storefront's own bundles).
 *
 * The page lives under the site's usual Content-Security-Policy, unchanged: the bundle is a script of the site's own
 * origin ('self'), it fetches the document from the same origin (connect-src 'self'), and styled-components' inline
 * styles are allowed site-wide already. Redoc's search runs in a Worker made from a blob: URL, which that policy
 * refuses; rather than allow `worker-src blob:` the search is switched off (the side menu lists every call, by area).
 * Its footer's logo (an image on Redocly's CDN) is refused by img-src and hides itself.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Express } from 'express';
import { buildOpenApiDocument } from '@forgeline/contracts/openapi';

const require = createRequire(import.meta.url);
const redocRoot = path.dirname(require.resolve('redoc/package.json'));
const REDOC_VERSION = (JSON.parse(fs.readFileSync(path.join(redocRoot, 'package.json'), 'utf8')) as { version: string }).version;
const REDOC_BUNDLE = path.join(redocRoot, 'bundles', 'redoc.standalone.js');

export const API_DOCS_PATH = '/api/docs';
export const OPENAPI_PATH = '/api/openapi.json';
/** Its version in the query: a new Redoc is a new URL, so the bundle can be cached for a year. */
export const REDOC_SCRIPT_PATH = '/api/docs/redoc.standalone.js';
const redocScriptUrl = `${REDOC_SCRIPT_PATH}?v=${encodeURIComponent(REDOC_VERSION)}`;

/** Redoc's look, near the storefront's (web/src/app/styles.css): system fonts (no web font to fetch), its ink and amber. */
const THEME = {
  colors: { primary: { main: '#8a5a00' } },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
    code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
  },
  rightPanel: { backgroundColor: '#17191c' },
  sidebar: { backgroundColor: '#f5f5f3' },
};

const attr = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The page: Redoc's element (its options as attributes) and its script; a line for browsers without JavaScript. */
export function renderApiDocsPage(title: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${attr(title)} reference</title>`,
    '<style>body{margin:0}</style>',
    '</head>',
    '<body>',
    `<noscript><p>This reference needs JavaScript. The API's description is <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a> (OpenAPI 3.1).</p></noscript>`,
    `<redoc spec-url="${OPENAPI_PATH}" disable-search required-props-first expand-responses="200,201,202" theme="${attr(JSON.stringify(THEME))}"></redoc>`,
    `<script src="${attr(redocScriptUrl)}"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** Mounts /api/openapi.json, /api/docs and Redoc's bundle; the document is built once, on the first request. */
export function mountApiDocs(app: Express): void {
  let built: { json: string; html: string } | null = null;
  const docs = () => {
    if (!built) {
      const doc = buildOpenApiDocument();
      built = { json: JSON.stringify(doc, null, 2), html: renderApiDocsPage((doc.info as { title: string }).title) };
    }
    return built;
  };
  app.get(OPENAPI_PATH, (_req, res) => {
    res.type('application/json').setHeader('cache-control', 'public, max-age=300');
    res.send(docs().json);
  });
  app.get(API_DOCS_PATH, (_req, res) => {
    res.type('html').setHeader('cache-control', 'public, max-age=300');
    res.send(docs().html);
  });
  app.get(REDOC_SCRIPT_PATH, (_req, res, next) => {
    res.sendFile(REDOC_BUNDLE, { maxAge: '1y', immutable: true, headers: { 'content-type': 'text/javascript; charset=utf-8' } }, (err) => {
      if (err && !res.headersSent) next(err);
    });
  });
}
