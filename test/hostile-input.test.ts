/**
 * Hostile input, generated: fast-check sends random and hostile request lines, path segments, query strings, headers,
 * JSON bodies and multipart parts to every public and admin route through the real gateway, in front of the real
 * services on their embedded adapters (one process each, as `npm start` runs them), signed out, with a staff session
 * (bearer or cookie) and with forged ones; then admin and internal paths spelled every way a caller might, through the
 * gateway and straight to each service. Every answer must come (no hang) and be below 500, and afterwards every
 * process must still be the one that started. Then the server limits, on the gateway and on a service directly: header
 * size (431), slow headers and slow bodies (408), and the body size of each kind of route (413, naming it).
 *
 * HOSTILE_RUNS (default 2000) sets the generated requests per property; a failure prints fast-check's seed and the
 * shrunk request, and `HOSTILE_SEED=<seed>` replays it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, rawRequest, type RawAnswer } from '@forgeline/test-support/raw-http';
import { concretePath, pathVariant } from '@forgeline/test-support/guarded-paths';
import { DEFAULT_ADMIN_EMAIL, ensureWebBuilt, repoRoot, startStack, type Stack } from '../scripts/lib/stack.ts';
import { signIn, signInBuyer } from './harness.ts';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 2000);
/**
 * `npm test` replays one fixed seed, so CI is the same run every time; `HOSTILE_SEED=random` explores new requests
 * (how the faults in this file were found), and `HOSTILE_SEED=<n>` replays a run a failure printed.
 */
const SEED = process.env.HOSTILE_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.HOSTILE_SEED || 20261125);
// Printed at the start: a fault that shows only in a later check (an error a process logged) names no seed itself.
if (process.env.HOSTILE_SEED === 'random') console.log(`[hostile] seed ${SEED}: HOSTILE_SEED=${SEED} replays this run`);
/**
 * Short server timeouts for the gateway, the catalog and the quotes service: the slow-client tests need them, and they
 * bound how long an incomplete generated request is waited for. Not for auth, which the suite signs in at directly:
 * a timeout this short is a clock every request races, and a CI machine busy with other suites once answered the
 * sign-in with 408.
 */
const HEADERS_TIMEOUT_MS = 1_500;
const REQUEST_TIMEOUT_MS = 3_000;
const shortTimeouts = { HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) };
/**
 * The services behind the gateway wait longer for a body than it does. Node checks its timeouts once a second
 * (connectionsCheckingInterval), each server on its own beat, so with equal timeouts a slow body proxied by the gateway
 * was cut by whichever server's check came first: a 408 from the gateway, or the service's reset and the gateway's 502
 * (CI, 2026-11-27, after the quotes service began to take half a second longer to start). 1.5 s more orders them.
 */
const SERVICE_REQUEST_TIMEOUT_MS = REQUEST_TIMEOUT_MS + 1_500;
const serviceTimeouts = { ...shortTimeouts, REQUEST_TIMEOUT_MS: String(SERVICE_REQUEST_TIMEOUT_MS) };
/** An answer slower than this is a hang (the gateway's own upstream timeout is 15 s). */
const HANG_MS = 20_000;

/** Every route of the specification and the issues since, by method; `:x` segments get generated values. */
const ROUTES: { method: string; path: string; body?: 'json' | 'multipart' | 'form' | 'csv' }[] = [
  // Pages (server-rendered by the gateway) and files.
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/catalog' },
  { method: 'GET', path: '/categories' },
  { method: 'GET', path: '/category/:x' },
  { method: 'GET', path: '/category/:x/:x' },
  { method: 'GET', path: '/brands-available/:x' },
  { method: 'GET', path: '/products' },
  { method: 'GET', path: '/products/:x' },
  { method: 'GET', path: '/products/:x/:x' },
  { method: 'GET', path: '/quote' },
  { method: 'POST', path: '/quote-request', body: 'form' }, // the quote form without JavaScript
  { method: 'GET', path: '/quote/view/:x' }, // the buyer's quote page (issue 34), and its answers' forms
  { method: 'POST', path: '/quote/view/:x/:x', body: 'form' },
  { method: 'POST', path: '/quote/view/:x/accept', body: 'multipart' }, // with the buyer's PO document
  { method: 'GET', path: '/faq' },
  { method: 'GET', path: '/privacy' },
  { method: 'GET', path: '/contact' },
  { method: 'GET', path: '/admin' },
  { method: 'GET', path: '/admin/:x' },
  { method: 'GET', path: '/:x' },
  { method: 'GET', path: '/assets/:x' },
  { method: 'GET', path: '/robots.txt' },
  { method: 'GET', path: '/sitemap.xml' },
  { method: 'GET', path: '/sitemap-pages.xml' },
  { method: 'GET', path: '/sitemap-diagrams.xml' },
  // Machines' parts books (issue 38).
  { method: 'GET', path: '/machines/:x/:x' },
  { method: 'GET', path: '/machines/:x/:x/:x' },
  { method: 'GET', path: '/sitemap-products-:x.xml' },
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/readyz' },
  // Public API.
  { method: 'GET', path: '/api/products' },
  { method: 'GET', path: '/api/products/:x' },
  { method: 'GET', path: '/api/subcategories' },
  { method: 'GET', path: '/api/catalog/products' },
  { method: 'GET', path: '/api/brands/:x/products' },
  { method: 'GET', path: '/api/fitment/makes' },
  { method: 'GET', path: '/api/fitment/models' },
  { method: 'GET', path: '/api/testimonials' },
  { method: 'POST', path: '/api/parts/match', body: 'json' },
  { method: 'POST', path: '/api/parts/match', body: 'multipart' },
  { method: 'POST', path: '/api/products/lookup', body: 'json' }, // a reorder's parts by id or SKU (issue 35)
  { method: 'GET', path: '/api/captcha' },
  { method: 'POST', path: '/api/quote-requests', body: 'json' },
  { method: 'POST', path: '/api/contact', body: 'json' },
  // The buyer's quote page by its link (issue 34).
  { method: 'GET', path: '/api/quote-view/:x' },
  { method: 'GET', path: '/api/quote-view/:x/pdf' },
  { method: 'POST', path: '/api/quote-view/:x/accept', body: 'json' },
  { method: 'POST', path: '/api/quote-view/:x/accept', body: 'multipart' },
  { method: 'POST', path: '/api/quote-view/:x/changes', body: 'json' },
  { method: 'POST', path: '/api/quote-view/:x/decline', body: 'json' },
  { method: 'POST', path: '/api/quote-view/:x/reopen' },
  { method: 'GET', path: '/api/openapi.json' },
  { method: 'GET', path: '/api/docs' },
  { method: 'GET', path: '/api/docs/redoc.standalone.js' },
  { method: 'GET', path: '/media/products/:x' },
  { method: 'GET', path: '/media/generated/:x/:x/:x.svg' },
  { method: 'GET', path: '/media/generated/diagrams/:x/:x/:x.svg' },
  { method: 'GET', path: '/media/diagrams/:x' },
  { method: 'GET', path: '/api/machines/:x/:x' },
  { method: 'GET', path: '/api/machines/:x/:x/assemblies/:x' },
  // Never routed: services' internal calls.
  { method: 'POST', path: '/internal/sessions/verify', body: 'json' },
  { method: 'POST', path: '/internal/api-keys/verify', body: 'json' },
  { method: 'PUT', path: '/internal/products/:x/images', body: 'json' },
  { method: 'GET', path: '/internal/products/by-sku/:x' },
  { method: 'GET', path: '/internal/sitemap/products' },
  { method: 'GET', path: '/internal/sitemap/assemblies' },
  { method: 'GET', path: '/internal/assemblies/:x' },
  { method: 'PUT', path: '/internal/assemblies/:x/diagram', body: 'json' },
  { method: 'POST', path: '/internal/audit', body: 'json' },
  // Staff sign-in.
  { method: 'GET', path: '/api/admin/auth/config' },
  { method: 'POST', path: '/api/admin/auth/send-otp', body: 'json' },
  { method: 'POST', path: '/api/admin/auth/verify-otp', body: 'json' },
  { method: 'GET', path: '/api/admin/auth/session' },
  // A buyer's account (issue 35).
  { method: 'POST', path: '/api/account/sign-in/code', body: 'json' },
  { method: 'POST', path: '/api/account/sign-in/verify', body: 'json' },
  { method: 'GET', path: '/api/account/session' },
  { method: 'POST', path: '/api/account/sign-out' },
  { method: 'GET', path: '/api/account/company' },
  { method: 'PATCH', path: '/api/account/company', body: 'json' },
  { method: 'POST', path: '/api/account/company/invites', body: 'json' },
  { method: 'DELETE', path: '/api/account/company/invites/:x' },
  { method: 'PATCH', path: '/api/account/company/members/:x', body: 'json' },
  { method: 'DELETE', path: '/api/account/company/members/:x' },
  { method: 'GET', path: '/api/account/fleet' },
  { method: 'POST', path: '/api/account/fleet', body: 'json' },
  { method: 'PUT', path: '/api/account/fleet/:x', body: 'json' },
  { method: 'DELETE', path: '/api/account/fleet/:x' },
  { method: 'GET', path: '/api/account/fleet.csv' },
  { method: 'POST', path: '/api/account/fleet/import', body: 'csv' },
  { method: 'GET', path: '/api/account/lists' },
  { method: 'POST', path: '/api/account/lists', body: 'json' },
  { method: 'GET', path: '/api/account/lists/:x' },
  { method: 'PUT', path: '/api/account/lists/:x', body: 'json' },
  { method: 'DELETE', path: '/api/account/lists/:x' },
  { method: 'GET', path: '/api/account/export' },
  { method: 'GET', path: '/api/account/quotes' },
  { method: 'GET', path: '/api/account/quotes/:x' },
  { method: 'POST', path: '/api/account/quotes/:x/view-link' },
  { method: 'GET', path: '/api/account/orders' },
  { method: 'GET', path: '/api/account/orders/:x' },
  { method: 'GET', path: '/api/admin/buyer-accounts/lookup' },
  // Search analytics and the staff's search rules (issue 36).
  { method: 'POST', path: '/api/search/events', body: 'json' },
  { method: 'DELETE', path: '/api/search/visitors/:x' },
  { method: 'GET', path: '/api/admin/search/insights' },
  { method: 'GET', path: '/api/admin/search/demand' },
  { method: 'GET', path: '/api/admin/search/demand.csv' },
  { method: 'PUT', path: '/api/admin/search/queries/status', body: 'json' },
  { method: 'GET', path: '/api/admin/search/aliases' },
  { method: 'POST', path: '/api/admin/search/aliases', body: 'json' },
  { method: 'DELETE', path: '/api/admin/search/aliases/:x' },
  { method: 'GET', path: '/api/admin/search/aliases.csv' },
  { method: 'POST', path: '/api/admin/search/aliases.csv', body: 'csv' },
  { method: 'GET', path: '/api/admin/search/synonyms' },
  { method: 'POST', path: '/api/admin/search/synonyms', body: 'json' },
  { method: 'DELETE', path: '/api/admin/search/synonyms/:x' },
  { method: 'GET', path: '/api/admin/search/synonyms.csv' },
  { method: 'POST', path: '/api/admin/search/synonyms.csv', body: 'csv' },
  // Parts diagrams: the staff's editor, import and export (issue 38).
  { method: 'GET', path: '/api/admin/assemblies' },
  { method: 'POST', path: '/api/admin/assemblies', body: 'json' },
  { method: 'GET', path: '/api/admin/assemblies/:x' },
  { method: 'PUT', path: '/api/admin/assemblies/:x', body: 'json' },
  { method: 'DELETE', path: '/api/admin/assemblies/:x' },
  { method: 'GET', path: '/api/admin/assemblies/:x/history' },
  { method: 'GET', path: '/api/admin/assemblies/export.csv' },
  { method: 'POST', path: '/api/admin/assemblies/import', body: 'multipart' },
  { method: 'POST', path: '/api/admin/diagrams/:x', body: 'multipart' }, // a drawing's upload (media)
  // Admin API (logout is left out: it would end the session the rest run with).
  { method: 'GET', path: '/api/admin/products' },
  { method: 'POST', path: '/api/admin/products', body: 'json' },
  { method: 'GET', path: '/api/admin/products/:x' },
  { method: 'PATCH', path: '/api/admin/products/:x', body: 'json' },
  { method: 'GET', path: '/api/admin/search-products-by-code' },
  { method: 'POST', path: '/api/admin/products/:x/upload-image', body: 'multipart' },
  { method: 'POST', path: '/api/admin/upload-individual-sku', body: 'multipart' },
  { method: 'POST', path: '/api/admin/process-sku-images', body: 'json' },
  { method: 'POST', path: '/api/admin/upload-bulk-zip', body: 'multipart' },
  { method: 'GET', path: '/api/admin/media-jobs/:x' },
  { method: 'POST', path: '/api/admin/catalog/imports', body: 'multipart' },
  { method: 'GET', path: '/api/admin/catalog/imports/:x' },
  { method: 'GET', path: '/api/admin/catalog/imports/:x/errors.csv' },
  { method: 'GET', path: '/api/admin/catalog/export.csv' },
  { method: 'GET', path: '/api/admin/quotes' },
  { method: 'GET', path: '/api/admin/quotes/staff' },
  { method: 'GET', path: '/api/admin/quotes/stats' },
  { method: 'GET', path: '/api/admin/quotes/export.csv' },
  { method: 'GET', path: '/api/admin/quotes/:x' },
  { method: 'PATCH', path: '/api/admin/quotes/:x', body: 'json' },
  { method: 'POST', path: '/api/admin/quotes/:x/reply', body: 'json' },
  { method: 'POST', path: '/api/admin/quotes/:x/revoke-links' },
  { method: 'GET', path: '/api/admin/orders' },
  { method: 'GET', path: '/api/admin/orders/export.csv' },
  { method: 'GET', path: '/api/admin/orders/:x' },
  { method: 'PATCH', path: '/api/admin/orders/:x', body: 'json' },
  { method: 'GET', path: '/api/admin/webhooks' },
  { method: 'POST', path: '/api/admin/webhooks', body: 'json' },
  { method: 'DELETE', path: '/api/admin/webhooks/:x' },
  { method: 'GET', path: '/api/admin/api-keys' },
  { method: 'POST', path: '/api/admin/api-keys', body: 'json' },
  { method: 'DELETE', path: '/api/admin/api-keys/:x' },
  { method: 'GET', path: '/api/admin/audit' },
];

/** Known attack strings, mixed with random text below. */
const NASTY = [
  '',
  ' ',
  '..',
  '../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f',
  '%00',
  '%',
  '%zz',
  '%E0%A4%A',
  "' OR '1'='1",
  '"; DROP TABLE products; --',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '{"$gt":""}',
  '{"$where":"sleep(1000)"}',
  '__proto__',
  'constructor',
  'prototype',
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  '\u0000',
  '\uFEFF',
  '\uD800',
  'A'.repeat(3_000),
  '9'.repeat(400),
  '-1',
  '1e308',
  'NaN',
  'Infinity',
  '0x10',
  '[]',
  'null',
  '😀'.repeat(40),
  '\r\nX-Injected: 1',
  'ｓｋｕ',
  '*',
  '//',
  '\\',
  'C:\\windows\\win.ini',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  '(a+)+$',
  'a'.repeat(60) + '!',
];
const text = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9-]{1,24}$/) },
);
/** How a value goes into a URL: escaped, as it is (spaces and CR/LF break the request line: also a test), twice escaped. */
const inUrl = (s: string, how: 'escaped' | 'raw' | 'double') =>
  how === 'escaped' ? escape(s) : how === 'double' ? escape(escape(s)) : s;
/** encodeURIComponent, but a lone surrogate goes as its (invalid) UTF-8 bytes, %ED%A0%80, as a hostile client sends it. */
function escape(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')).replace(/%EF%BF%BD/g, '%ED%A0%80');
  }
}
const urlForm = fc.constantFrom<'escaped' | 'raw' | 'double'>('escaped', 'escaped', 'escaped', 'raw', 'double');

const QUERY_NAMES = ['search', 'limit', 'offset', 'page', 'category', 'brand', 'make', 'model', 'serial', 'machines', 'sort', 'dryRun', 'missing', 'state', 'status', 'cursor', 'from', 'to', 'actor', 'action', 'code', 'q', 'quote', 'limit[]', 'search[$ne]', '__proto__[polluted]', 'constructor[prototype][polluted]'];
const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), text), text, urlForm), { maxLength: 6 });

const FIELDS = ['email', 'sessionId', 'otp', 'name', 'company', 'phone', 'message', 'productId', 'items', 'lines', 'text', 'captchaToken', 'captchaAnswer', 'sku', 'partNumber', 'price', 'inStock', 'tags', 'specifications', 'images', 'replaces', 'crossReferences', 'fits', 'status', 'assignee', 'note', 'body', 'scopes', 'ids', 'skus', '__proto__', 'constructor'];
const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(text, fc.jsonValue({ maxDepth: 3 })), { maxKeys: 8 }).map((o) => JSON.stringify(o)),
  fc.integer({ min: 1_000, max: 60_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)), // nesting deeper than a parser's stack
  fc.integer({ min: 1_000, max: 30_000 }).map((n) => `{"a":${'{"a":'.repeat(n)}1${'}'.repeat(n + 1)}`),
  fc.string({ maxLength: 200 }), // not JSON at all
  fc.constant('{"email": "a@b.c", "email": "admin@forgeline-parts.example"}'), // duplicate keys
  fc.constant(''),
);

/** A multipart body: its bytes and the boundary its Content-Type should name (sometimes a different one, or none). */
const FILE_STARTS = [
  '',
  'PK\u0003\u0004', // a ZIP's magic, then junk
  '\u0089PNG\r\n\u001a\n',
  '\u00ff\u00d8\u00ff\u00e0',
  'sku,name,price\n=cmd|" /c calc"!A0,x,1\n"unterminated,\n',
  'sku;name\r\n',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
];
const multipart = fc
  .record({
    boundary: fc.oneof(fc.stringMatching(/^[A-Za-z0-9'()+_,.-]{1,70}$/), fc.constantFrom('', ' ', '--', 'a'.repeat(200))),
    parts: fc.array(
      fc.record({
        name: fc.oneof(fc.constantFrom('file', 'files', 'image', 'images', 'zip', 'sku', 'skus', 'dryRun', 'missing'), text),
        filename: fc.option(fc.oneof(fc.constantFrom('a.png', 'parts.csv', 'x.zip', '../../../etc/passwd', 'AB-123.jpg', 'a.xlsx'), text), { nil: undefined }),
        type: fc.option(fc.constantFrom('image/png', 'image/jpeg', 'text/csv', 'application/zip', 'application/octet-stream', 'text/html', ''), { nil: undefined }),
        data: fc.tuple(fc.constantFrom(...FILE_STARTS), fc.uint8Array({ maxLength: 600 })),
        // A header line of raw bytes (control characters, invalid UTF-8): what an outside fuzzer took the catalog down with.
        rawHeader: fc.option(fc.uint8Array({ minLength: 1, maxLength: 24 }), { freq: 3, nil: undefined }),
      }),
      { maxLength: 4 },
    ),
    closed: fc.boolean(),
    contentTypeBoundary: fc.constantFrom('same', 'same', 'same', 'other', 'none'),
  })
  .map(({ boundary, parts, closed, contentTypeBoundary }) => {
    const chunks: Buffer[] = [];
    for (const p of parts) {
      const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type !== undefined ? `Content-Type: ${p.type}\r\n` : ''}`, 'utf8'),
        p.rawHeader ? Buffer.concat([Buffer.from(p.rawHeader), Buffer.from('\r\n')]) : Buffer.alloc(0),
        Buffer.from('\r\n'),
        Buffer.from(p.data[0], 'latin1'),
        Buffer.from(p.data[1]),
        Buffer.from('\r\n'),
      );
    }
    if (closed) chunks.push(Buffer.from(`--${boundary}--\r\n`));
    const contentType =
      contentTypeBoundary === 'none' ? 'multipart/form-data' : `multipart/form-data; boundary=${contentTypeBoundary === 'same' ? boundary : 'other'}`;
    return { body: Buffer.concat(chunks), contentType };
  });

const headerPair = fc.oneof(
  fc.tuple(fc.constant('Content-Type'), fc.oneof(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/json; charset=utf-16', 'application/json; charset=bogus', 'application/xml'), text)),
  fc.tuple(fc.constant('Accept'), fc.oneof(fc.constantFrom('*/*', 'text/html', 'application/json', 'image/avif,image/webp', ''), text)),
  fc.tuple(fc.constant('Accept-Encoding'), fc.constantFrom('gzip', 'br', 'gzip;q=0, identity;q=0', 'x-unknown', 'gzip, '.repeat(200))),
  fc.tuple(fc.constant('Content-Encoding'), fc.constantFrom('gzip', 'deflate', 'br', 'x-unknown')), // the body is not compressed
  fc.tuple(fc.constant('Range'), fc.oneof(fc.constantFrom('bytes=0-0', 'bytes=999999999-', 'bytes=-1', `bytes=${Array.from({ length: 300 }, (_, i) => `${i}-${i}`).join(',')}`), text)),
  fc.tuple(fc.constantFrom('If-None-Match', 'If-Match', 'If-Modified-Since'), text),
  fc.tuple(fc.constantFrom('X-Forwarded-For', 'X-Forwarded-Host', 'X-Forwarded-Proto', 'X-Real-IP', 'Forwarded'), text),
  fc.tuple(fc.constant('Origin'), fc.oneof(fc.constantFrom('https://evil.example', 'null'), text)),
  fc.tuple(fc.constant('Sec-Fetch-Site'), fc.constantFrom('cross-site', 'same-site', 'none', 'same-origin')),
  fc.tuple(fc.constant('Cookie'), text.map((t) => `fl_admin=${t}`)),
  fc.tuple(fc.constant('Authorization'), fc.oneof(text.map((t) => `Bearer ${t}`), text.map((t) => `Bearer flk_${t}`), text.map((t) => `Basic ${t}`), text)),
  fc.tuple(fc.constant('x-admin-email'), fc.constant(DEFAULT_ADMIN_EMAIL)), // what services once trusted
  fc.tuple(fc.constantFrom('x-gateway-assertion', 'x-service-token'), text),
  fc.tuple(fc.constant('X-HTTP-Method-Override'), fc.constantFrom('DELETE', 'PUT', 'PATCH')),
  fc.tuple(fc.constant('Expect'), fc.constantFrom('100-continue', 'bogus')),
  fc.tuple(fc.constant('Upgrade'), fc.constantFrom('websocket', 'h2c')),
  fc.tuple(fc.constant('Transfer-Encoding'), fc.constantFrom('chunked', 'gzip, chunked', 'identity')), // beside Content-Length: smuggling's shape
  fc.tuple(fc.constant('Host'), text),
  fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,30}$/), text),
  fc.tuple(text, text), // names that are no token at all
);

type Auth = 'none' | 'bearer' | 'cookie' | 'cookie-cross-site';
const hostileRequest = fc.record({
  route: fc.constantFrom(...ROUTES),
  method: fc.option(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'X'.repeat(40)), { freq: 4, nil: undefined }),
  segments: fc.array(fc.tuple(text, urlForm), { minLength: 4, maxLength: 4 }),
  extraPath: fc.option(fc.tuple(text, urlForm), { freq: 6, nil: undefined }),
  query,
  headers: fc.array(headerPair, { maxLength: 5 }),
  auth: fc.constantFrom<Auth>('none', 'bearer', 'bearer', 'cookie', 'cookie-cross-site'),
  json: jsonBody,
  multipart,
  form: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...FIELDS), text), text, urlForm), { maxLength: 60 }),
  chunked: fc.constantFrom<'no' | 'good' | 'broken'>('no', 'no', 'no', 'good', 'broken'),
});
type HostileRequest = typeof hostileRequest extends fc.Arbitrary<infer T> ? T : never;

let stack: Stack;
let gatewayPort: number;
let token: string;
/** A buyer's session (issue 35), for the account routes. */
let buyerToken: string;
let startPids: Map<string, number | undefined>;
/** Every error a process logged (a 5xx, a failed render, a crash): hostile input is the client's fault, never an error. */
const errorLines: string[] = [];
/** Status classes seen, per route kind, for the closing note's table. */
const tally = new Map<string, Map<string, number>>();

function count(kind: string, answer: RawAnswer) {
  const row = tally.get(kind) ?? new Map<string, number>();
  const key = answer.hung ? 'hang' : answer.status === null ? 'closed' : `${String(answer.status)[0]}xx`;
  row.set(key, (row.get(key) ?? 0) + 1);
  tally.set(kind, row);
}

function build(r: HostileRequest): { bytes: Buffer; kind: string } {
  let i = 0;
  let target = r.route.path.replace(/:x/g, () => {
    const [s, how] = r.segments[i++ % r.segments.length]!;
    return inUrl(s, how);
  });
  if (r.extraPath) target += `/${inUrl(...r.extraPath)}`;
  if (r.query.length) target += `?${r.query.map(([k, v, how]) => `${inUrl(k, how)}=${inUrl(v, how)}`).join('&')}`;
  const method = r.method ?? r.route.method;
  const headers: [string, string][] = [['Host', `127.0.0.1:${gatewayPort}`]];
  let body: Buffer = Buffer.alloc(0);
  if (r.route.body === 'json') {
    body = Buffer.from(r.json, 'utf8');
    headers.push(['Content-Type', 'application/json']);
  } else if (r.route.body === 'form') {
    body = Buffer.from(r.form.map(([k, v, how]) => `${inUrl(k, how)}=${inUrl(v, how)}`).join('&'), 'utf8');
    headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  } else if (r.route.body === 'csv') {
    body = Buffer.from(r.form.map(([k, v]) => `${k};${v}`).join('\n'), 'utf8');
    headers.push(['Content-Type', 'text/csv']);
  } else if (r.route.body === 'multipart') {
    body = r.multipart.body;
    headers.push(['Content-Type', r.multipart.contentType]);
  }
  if (r.auth === 'bearer') headers.push(['Authorization', `Bearer ${token}`]);
  if (r.auth === 'cookie' || r.auth === 'cookie-cross-site') {
    // An account route is tried with the buyer's cookie (deleting the account or company is left out: the rest run with it).
    const buyerRoute = r.route.path.startsWith('/api/account/') && !(method === 'DELETE' && erasesAccount(target));
    headers.push(['Cookie', buyerRoute ? `fl_buyer=${buyerToken}` : `fl_admin=${token}`]);
    headers.push(['Origin', r.auth === 'cookie' ? `http://127.0.0.1:${gatewayPort}` : 'https://evil.example']);
  }
  for (const h of r.headers) {
    // A generated header replaces ours of the same name (a second Host, Content-Type... is a test of its own).
    const at = headers.findIndex(([n]) => n.toLowerCase() === h[0].toLowerCase());
    if (at >= 0 && h[0].toLowerCase() !== 'host') headers.splice(at, 1);
    headers.push(h);
  }
  if (r.chunked !== 'no') {
    const chunks = r.chunked === 'good' ? `${body.length.toString(16)}\r\n${body.toString('latin1')}\r\n0\r\n\r\n` : `zz\r\n${body.toString('latin1')}\r\n`;
    const withoutLength = headers.filter(([n]) => !/^(content-length|transfer-encoding)$/i.test(n));
    return {
      bytes: Buffer.concat([httpRequest(method, target, [...withoutLength, ['Transfer-Encoding', 'chunked']]), Buffer.from(chunks, 'latin1')]),
      kind: kindOf(r.route.path),
    };
  }
  return { bytes: httpRequest(method, target, headers, body), kind: kindOf(r.route.path) };
}

/** A deletion of the buyer's account or company, however spelled (the router is case-insensitive and decodes). */
function erasesAccount(target: string): boolean {
  let p = target.split('?')[0]!;
  try {
    p = decodeURIComponent(p);
  } catch {
    // not decodable: not a path the router takes for it either
  }
  return /^\/api\/account(\/company)?\/*$/i.test(p);
}

function kindOf(routePath: string): string {
  if (routePath.startsWith('/api/admin/auth')) return 'staff sign-in';
  if (routePath.startsWith('/api/account')) return 'buyer account';
  if (routePath.startsWith('/api/admin')) return 'admin API';
  if (routePath.startsWith('/internal')) return 'internal (never routed)';
  if (routePath.startsWith('/api/')) return 'public API';
  if (routePath.startsWith('/media')) return 'media files';
  return 'pages and files';
}

beforeAll(async () => {
  ensureWebBuilt(() => {}); // the pages are server-rendered from the built app: fuzzed too
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forgeline-hostile-'));
  // Its own copy of the build, so a rebuild of web/dist meanwhile (another terminal) cannot turn pages into 503s.
  const webDist = path.join(dataDir, 'web-dist');
  fs.cpSync(path.join(repoRoot, 'web/dist'), webDist, { recursive: true });
  stack = await startStack({
    dataDir,
    port: 0,
    seedProducts: 300,
    quiet: true,
    // Quiet: only errors (and the seeding notice) come here, and no error is expected.
    log: (line) => {
      if (!line.startsWith('Seeding')) errorLines.push(line);
    },
    env: {
      LOG_LEVEL: 'error',
      RATE_LIMIT_MULTIPLIER: '10000', // the limits are tested on their own; here every request must reach its route
      API_KEY_RATE_LIMIT_PER_MINUTE: '1000000',
      WEB_DIST_DIR: webDist,
      MEDIA_MAX_FILE_MB: '1',
      MEDIA_MAX_REQUEST_MB: '2',
    },
    processEnv: { gateway: shortTimeouts, catalog: serviceTimeouts, quotes: serviceTimeouts },
  });
  gatewayPort = Number(new URL(stack.url).port);
  // At the auth service itself (the session works through the gateway): no short timeout on the way.
  token = await signIn(stack.serviceUrls.auth!, stack.dataDir);
  buyerToken = await signInBuyer(stack.url, stack.dataDir, 'fuzz@fuzz-quarry.example');
  startPids = new Map(stack.processes().map((p) => [p.name, p.pid]));
}, 300_000);

afterAll(async () => {
  if (tally.size) {
    const cols = ['2xx', '3xx', '4xx', '5xx', 'closed', 'hang'];
    const lines = [...tally].map(([kind, row]) => `| ${kind} | ${cols.map((c) => row.get(c) ?? 0).join(' | ')} |`);
    console.log(`Hostile requests through the gateway (${RUNS} per property):\n| route kind | ${cols.join(' | ')} |\n${lines.join('\n')}`);
  }
  await stack?.stop();
  if (stack) fs.rmSync(stack.dataDir, { recursive: true, force: true });
});

/** Every process is the one that started, alive and ready, and none logged an error. */
async function expectAllUp() {
  // The first few only: CI shows the end of its output, and a cascade of later lines hid the first cause once.
  expect(errorLines.slice(0, 6), `errors the processes logged (${errorLines.length}), the first of them`).toEqual([]);
  for (const p of stack.processes()) {
    expect(p.restarts, `${p.name} was restarted`).toBe(0);
    expect(p.pid, `${p.name}'s pid`).toBe(startPids.get(p.name));
    expect(() => process.kill(p.pid!, 0), `${p.name} is alive`).not.toThrow();
  }
  // Ready again once each has caught up (polled: a busy machine may answer a probe late, even 408 under the short
  // header timeout; the pid checks above are what prove nothing restarted).
  for (const url of [stack.url, ...Object.values(stack.serviceUrls)]) {
    while ((await fetch(`${url}/readyz`).then((r) => r.status, () => 0)) !== 200) await new Promise((r) => setTimeout(r, 100));
  }
}

const describeOpts = (seedOffset: number) => ({ numRuns: RUNS, seed: SEED + seedOffset });

describe('hostile input through the gateway, generated', () => {
  it('every route answers every generated request below 500, and in time', async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async (r) => {
        const { bytes, kind } = build(r);
        const answer = await rawRequest(gatewayPort, bytes, { timeoutMs: HANG_MS });
        count(kind, answer);
        expect(answer.hung, 'no answer in time').toBe(false);
        // No status: the server closed without one, which it may do only for bytes that are no HTTP request.
        if (answer.status === null) expect(answer.text).toBe('');
        else expect(answer.status, answer.text.slice(0, 600)).toBeLessThan(500);
      }),
      describeOpts(0),
    );
    await expectAllUp();
  }, 600_000);

  it('garbage and broken request lines get a 4xx (or the connection closed), never a 5xx or a hang', async () => {
    const garbage = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 3_000 }).map((b) => Buffer.from(b)),
      fc.tuple(fc.constantFrom('GET', 'POST', 'G\u0000T', ''), text, fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9', 'http/1.1', '')).map(
        ([m, t, v]) => Buffer.from(`${m} /${t} ${v}\r\nHost: x\r\nConnection: close\r\n\r\n`, 'utf8'),
      ),
      fc.tuple(text, text).map(([n, v]) => Buffer.from(`GET / HTTP/1.1\r\nHost: x\r\n${n}: ${v}\r\nConnection: close\r\n\r\n`, 'utf8')),
      // Request smuggling's shapes: both lengths, two lengths, a bare LF, an obs-fold.
      fc.constantFrom(
        'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\nGET /admin HTTP/1.1\r\n\r\n',
        'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 40\r\nConnection: close\r\n\r\nabcd',
        'GET / HTTP/1.1\nHost: x\nConnection: close\n\n',
        'GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\nConnection: close\r\n\r\n',
        'GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n',
        'GET /api/products HTTP/1.1\r\nConnection: close\r\n\r\n',
      ).map((s) => Buffer.from(s, 'latin1')),
    );
    await fc.assert(
      fc.asyncProperty(garbage, async (bytes) => {
        const answer = await rawRequest(gatewayPort, bytes, { timeoutMs: HANG_MS });
        count('malformed requests', answer);
        expect(answer.hung, 'no answer in time').toBe(false);
        if (answer.status !== null) expect(answer.status, answer.text.slice(0, 400)).toBeLessThan(500);
      }),
      { ...describeOpts(1), numRuns: Math.ceil(RUNS / 4) },
    );
    await expectAllUp();
  }, 600_000);
});

/**
 * Admin and internal paths spelled every way a caller might (letter case, doubled and trailing slashes, dot segments,
 * escapes, `;` parameters), without a session, with the headers services once believed: through the gateway never an
 * admin answer, and straight to every service's port (a caller inside the network) 401 or 404, nothing else.
 */
describe('admin and internal paths, however they are spelled', () => {
  const guarded = ROUTES.filter((r) => /^\/(api\/admin|internal)\//.test(r.path) && !r.path.startsWith('/api/admin/auth/'));
  const forged = fc.subarray([
    ['x-admin-email', DEFAULT_ADMIN_EMAIL],
    ['x-gateway-assertion', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.forged'],
    ['x-service-token', 'dev-service-token-change-me'],
    ['Cookie', 'fl_admin=forged'],
  ] as [string, string][]);
  const variant = fc.constantFrom(...guarded).chain((r) => fc.tuple(fc.constant(r), pathVariant(concretePath(r.path)), forged));
  const send = (port: number, r: (typeof ROUTES)[number], target: string, headers: [string, string][]) =>
    rawRequest(
      port,
      httpRequest(r.method, target, [['Host', `127.0.0.1:${port}`], ...headers, ...(r.method === 'GET' ? [] : ([['Content-Type', 'application/json']] as [string, string][]))], r.method === 'GET' ? '' : '{}'),
      { timeoutMs: HANG_MS },
    );

  it('through the gateway: no admin answer, no 5xx, no hang', async () => {
    await fc.assert(
      fc.asyncProperty(variant, async ([r, target, headers]) => {
        const answer = await send(gatewayPort, r, target, headers);
        count('admin path variants (gateway)', answer);
        expect(answer.hung, 'no answer in time').toBe(false);
        expect(answer.status, answer.text.slice(0, 400)).toBeLessThan(500);
        // A 2xx may only be a page (the app's shell for a path it does not know), never the API's JSON.
        if (answer.status! < 300) expect(answer.text, `${r.method} ${target}`).not.toMatch(/^content-type: application\/json/im);
      }),
      { ...describeOpts(2), numRuns: Math.ceil(RUNS / 4) },
    );
    await expectAllUp();
  }, 600_000);

  it("a buyer's session opens no staff route, as the staff cookie, a bearer token or its own cookie: 401 (404 for /internal)", async () => {
    const buyer = await signInBuyer(stack.url, stack.dataDir, 'planner@quarry.example');
    expect((await fetch(`${stack.url}/api/account/session`, { headers: { cookie: `fl_buyer=${buyer}` } })).status).toBe(200);
    for (const r of guarded) {
      const target = concretePath(r.path);
      // Same-origin, so a cookie's write passes the cross-site check and reaches the session check.
      const origin: [string, string] = ['Origin', `http://127.0.0.1:${gatewayPort}`];
      for (const headers of [[['Cookie', `fl_admin=${buyer}`], origin], [['Authorization', `Bearer ${buyer}`]], [['Cookie', `fl_buyer=${buyer}`], origin]] as [string, string][][]) {
        const bodyless = r.method === 'GET' || r.method === 'DELETE';
        const head: [string, string][] = [['Host', `127.0.0.1:${gatewayPort}`], ...headers, ...(bodyless ? [] : ([['Content-Type', 'application/json']] as [string, string][]))];
        const answer = await rawRequest(gatewayPort, httpRequest(r.method, target, head, bodyless ? '' : '{}'), { timeoutMs: HANG_MS });
        expect(answer.status, `${r.method} ${target} with ${headers[0]![0]}: ${answer.text.slice(0, 300)}`).toBe(target.startsWith('/internal/') ? 404 : 401);
      }
    }
    await expectAllUp();
  });

  it("one company's ids from another company's session: 404, never data; a buyer's change from another site: 403", async () => {
    const origin: Record<string, string> = { Origin: `http://127.0.0.1:${gatewayPort}` };
    const as = (cookie: string) => async (method: string, p: string, body?: unknown, extra: Record<string, string> = origin) => {
      const res = await fetch(`${stack.url}${p}`, {
        method,
        headers: { cookie: `fl_buyer=${cookie}`, ...extra, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const a = as(await signInBuyer(stack.url, stack.dataDir, 'planner@iso-a.example'));
    const b = as(await signInBuyer(stack.url, stack.dataDir, 'planner@iso-b.example'));
    const product = ((await (await fetch(`${stack.url}/api/products?search=filter&limit=1`)).json()) as { products: { id: string }[] }).products[0]!;
    const asked = await fetch(`${stack.url}/api/quote-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ productId: product.id, customerName: 'Iso A', customerEmail: 'planner@iso-a.example', customerCountry: 'Chile', quantity: 2 }),
    });
    expect(asked.status, await asked.clone().text()).toBe(201);

    const unit = JSON.parse((await a('POST', '/api/account/fleet', { unitName: 'Secret truck', make: 'Caterpillar', model: '777G' })).text) as { id: string };
    const list = JSON.parse((await a('POST', '/api/account/lists', { name: 'Secret list', lines: [{ text: 'Secret part', quantity: 1 }] })).text) as { id: string };
    const quotes = JSON.parse((await a('GET', '/api/account/quotes')).text) as { items: { id: string }[] };
    expect(quotes.items).toHaveLength(1);
    const quoteId = quotes.items[0]!.id;

    for (const [method, p, body] of [
      ['GET', `/api/account/lists/${list.id}`],
      ['PUT', `/api/account/lists/${list.id}`, { name: 'x', lines: [] }],
      ['DELETE', `/api/account/lists/${list.id}`],
      ['PUT', `/api/account/fleet/${unit.id}`, { unitName: 'x', make: 'A', model: 'B' }],
      ['DELETE', `/api/account/fleet/${unit.id}`],
      ['GET', `/api/account/quotes/${quoteId}`],
      ['POST', `/api/account/quotes/${quoteId}/view-link`],
    ] as const) {
      const answer = await b(method, p, body);
      expect(answer.status, `${method} ${p}: ${answer.text.slice(0, 200)}`).toBe(404);
      expect(answer.text).not.toMatch(/Secret|iso-a/);
    }
    for (const p of ['/api/account/lists', '/api/account/fleet', '/api/account/quotes', '/api/account/orders', '/api/account/export', '/api/account/company']) {
      const answer = await b('GET', p);
      expect(answer.status, p).toBe(200);
      expect(answer.text, p).not.toMatch(/Secret|iso-a/);
    }
    // A's things are still there, and a change from another site never reaches them.
    expect((await a('GET', `/api/account/lists/${list.id}`)).status).toBe(200);
    expect((await a('DELETE', `/api/account/lists/${list.id}`, undefined, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await a('DELETE', '/api/account', undefined, { Origin: 'https://evil.example' })).status).toBe(403);
    // A staff session is no buyer's.
    expect((await as(token)('GET', '/api/account/quotes')).status).toBe(401);
    expect((await fetch(`${stack.url}/api/account/quotes`, { headers: { 'x-buyer-assertion': 'forged' } })).status).toBe(401);
    await expectAllUp();
  });

  it("a buyer's data download holds the account and their requests; deleting the account keeps the request, anonymised", async () => {
    const email = `leaver-${Date.now()}@iso-c.example`;
    const cookie = `fl_buyer=${await signInBuyer(stack.url, stack.dataDir, email)}`;
    const same = { Origin: `http://127.0.0.1:${gatewayPort}` };
    const product = ((await (await fetch(`${stack.url}/api/products?search=filter&limit=1`)).json()) as { products: { id: string }[] }).products[0]!;
    const asked = await fetch(`${stack.url}/api/quote-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ productId: product.id, customerName: 'Leaving Buyer', customerEmail: email, customerCountry: 'Chile', quantity: 2 }),
    });
    const id = ((await asked.json()) as { id: string }).id;
    await fetch(`${stack.url}/api/account/fleet`, { method: 'POST', headers: { cookie, ...same, 'content-type': 'application/json' }, body: JSON.stringify({ unitName: 'Loader 9', make: 'Volvo', model: 'L90' }) });

    const exported = await fetch(`${stack.url}/api/account/export`, { headers: { cookie } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(/attachment/);
    const data = (await exported.json()) as { you: { email: string }; fleet: { unitName: string }[]; quoteRequests: { id: string; customerName: string }[]; orders: unknown[] };
    expect(data.you.email).toBe(email);
    expect(data.fleet.map((u) => u.unitName)).toEqual(['Loader 9']);
    expect(data.quoteRequests.map((q) => [q.id, q.customerName])).toEqual([[id, 'Leaving Buyer']]);

    const deleted = await fetch(`${stack.url}/api/account`, { method: 'DELETE', headers: { cookie, ...same } });
    expect(deleted.status, await deleted.clone().text()).toBe(200);
    expect((await fetch(`${stack.url}/api/account/session`, { headers: { cookie } })).status).toBe(401);
    const kept = (await (await fetch(`${stack.url}/api/admin/quotes/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { customerName: string; customerEmail: string; lines: unknown[] };
    expect(kept.customerName).toBe('Deleted buyer');
    expect(kept.customerEmail).toMatch(/@deleted\.invalid$/);
    expect(kept.lines).toHaveLength(1);
    await expectAllUp();
  });

  it('straight to each service: 401 or 404', async () => {
    const ports = Object.values(stack.serviceUrls).map((u) => Number(new URL(u).port));
    await fc.assert(
      fc.asyncProperty(variant, async ([r, target, headers]) => {
        for (const port of ports) {
          const answer = await send(port, r, target, headers);
          count('admin path variants (services)', answer);
          expect([401, 404], `${r.method} ${target} at :${port}: ${answer.text.slice(0, 400)}`).toContain(answer.status);
        }
      }),
      { ...describeOpts(3), numRuns: Math.ceil(RUNS / 4) },
    );
    await expectAllUp();
  }, 600_000);
});

/** What the generated requests found once, kept as fixed cases so they stay fixed whatever the seed. */
describe('hostile input the generator found', () => {
  const at = () => `127.0.0.1:${gatewayPort}`;
  it('a page path starting with // is a page, not another host', async () => {
    for (const target of ['//', '//evil.example/x', '//%2522%253B', '/x/..//', '/catalog/..//evil.example']) {
      const answer = await rawRequest(gatewayPort, httpRequest('GET', target, [['Host', at()], ['Accept', 'text/html']]));
      expect(answer.status, target).toBeLessThan(500);
    }
    await expectAllUp();
  });

  it('a body on GET, OPTIONS or DELETE, chunked or not, is refused with 400 before it reaches a service', async () => {
    const body = JSON.stringify({ a: 'x'.repeat(50_000) });
    for (const method of ['GET', 'OPTIONS', 'DELETE']) {
      const head = httpRequest(method, '/api/admin/api-keys/k1', [['Host', at()], ['Authorization', `Bearer ${token}`], ['Transfer-Encoding', 'chunked']]);
      const chunked = await rawRequest(gatewayPort, Buffer.concat([head, Buffer.from(`${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`)]));
      expect(chunked.status, `${method} chunked`).toBe(400);
      expect(chunked.text).toContain(`${method} requests take no body`);
      const sized = await rawRequest(gatewayPort, httpRequest(method, '/api/products', [['Host', at()]], body));
      expect(sized.status, `${method} with Content-Length`).toBe(400);
    }
    await expectAllUp();
  });

  it('an X-Forwarded-For that is no address is never taken for one: no limiter error, no made-up client', async () => {
    // The client connects from loopback, which the gateway and the services trust as a proxy, so Express believes its
    // X-Forwarded-For: the limiters and the audit use the connection's own address instead of the text.
    const forms: [string, string, string][] = [
      ['/api/quote-requests', 'application/json', JSON.stringify({ productId: 'x', customerName: 'A', customerEmail: 'a@b.co', quantity: 1 })],
      ['/api/contact', 'application/json', JSON.stringify({ name: 'A', email: 'a@b.co', message: 'hello there' })],
      ['/quote-request', 'application/x-www-form-urlencoded', 'productId=x&customerName=A&customerEmail=a%40b.co&quantity=1'],
      ['/api/admin/auth/send-otp', 'application/json', JSON.stringify({ email: 'nobody@example.com' })],
    ];
    for (const forwarded of ['vp-73-a-K-6-', 'A'.repeat(300), '1.2.3.4, not-an-ip', '::ffff:zz']) {
      for (const [route, type, body] of forms) {
        const answer = await rawRequest(
          gatewayPort,
          httpRequest('POST', route, [['Host', at()], ['Content-Type', type], ['X-Forwarded-For', forwarded], ['Accept', 'application/json']], body),
        );
        expect(answer.status, `${route} with X-Forwarded-For ${forwarded.slice(0, 20)}: ${answer.text.slice(-200)}`).toBeLessThan(500);
      }
    }
    await expectAllUp();
  });

  it('an Expect header stays with the gateway: the service reads the body and answers it, never a 417 that closes under it', async () => {
    // Found in CI (seed 20261125): over HTTP/1.0 Node leaves `Expect: bogus` alone, the gateway passed it on, and the
    // auth service answered 417 and closed its connection under the 30 kB body still being written: a 502.
    const body = `{"a":${'{"a":'.repeat(30_000)}1${'}'.repeat(30_001)}`;
    for (const version of ['HTTP/1.0', 'HTTP/1.1']) {
      for (const expectation of ['bogus', '100-continue']) {
        const head = `POST /api/admin/auth/send-otp ${version}\r\nHost: ${at()}\r\nContent-Type: application/json\r\nExpect: ${expectation}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
        const answer = await rawRequest(gatewayPort, Buffer.concat([Buffer.from(head), Buffer.from(body)]));
        // HTTP/1.1 with an expectation Node does not know: Node's own 417 at the gateway. Otherwise the service's 413.
        expect(answer.status, `${version} Expect: ${expectation}: ${answer.text.slice(0, 200)}`).toBe(version === 'HTTP/1.1' && expectation === 'bogus' ? 417 : 413);
      }
    }
    await expectAllUp();
  });

  it('part headers with control characters and invalid UTF-8, part after part, are a 400, and the catalog lives on', async () => {
    // Found by an outside fuzzer (schemathesis): busboy reports each such part, and the second report went unheard.
    const body = Buffer.from(
      '--b\r\nContent-Disposition: form-data; name="f\x01\xff"; filename="\x00.csv"\r\n\r\nx\r\n--b\r\n\x02\xfe\r\n\r\ny\r\n--b\r\n\x03\r\n\r\nz\r\n--b--\r\n',
      'latin1',
    );
    for (let i = 0; i < 3; i++) {
      const answer = await rawRequest(gatewayPort, httpRequest('POST', '/api/parts/match', [['Host', at()], ['Content-Type', 'multipart/form-data; boundary=b']], body));
      expect(answer.status, answer.text.slice(-300)).toBe(400);
      expect(answer.text).toContain('Malformed part header');
    }
    await expectAllUp();
  });

  it('a multipart form cut off inside a part the route does not take is a 400, and the service lives on', async () => {
    const cut = Buffer.from('--b\r\nContent-Disposition: form-data; name="other"; filename="a.bin"\r\n\r\nsome bytes, then the form just ends');
    for (const route of ['/api/admin/upload-bulk-zip', '/api/admin/upload-individual-sku', '/api/admin/catalog/imports', '/api/parts/match']) {
      const answer = await rawRequest(
        gatewayPort,
        httpRequest('POST', route, [['Host', at()], ['Authorization', `Bearer ${token}`], ['Content-Type', 'multipart/form-data; boundary=b']], cut),
      );
      expect(answer.status, `${route}: ${answer.text.slice(-200)}`).toBe(400);
    }
    await expectAllUp();
  });
});

describe("a buyer's fleet filter and the reorder lookup at their limits", () => {
  const at = () => `127.0.0.1:${gatewayPort}`;
  const get = (target: string) => rawRequest(gatewayPort, httpRequest('GET', target, [['Host', at()], ['Accept', 'application/json']]));
  const lookup = (body: string) =>
    rawRequest(gatewayPort, httpRequest('POST', '/api/products/lookup', [['Host', at()], ['Content-Type', 'application/json']], body));

  it('machines: as many as allowed, one more, hostile entries and a request line past the limit: 200, 400 or 431, never a 5xx', async () => {
    const list = (entries: string[]) => `/api/products?category=x&machines=${escape(entries.join(','))}`;
    const cases: [string, number[]][] = [
      [`/api/catalog/products?machines=${encodeURIComponent(Array.from({ length: 100 }, (_, i) => `make-${i}~model-${i}~S${i}`).join(','))}`, [200]],
      [list(Array.from({ length: 101 }, () => 'a~b')), [400]],
      [list(NASTY.slice(0, 30)), [400]],
      [list(NASTY.slice(10, 40).map((n) => `a~b~${n}`)), [400, 404]], // serials are free text: a 404 for the unknown category
      [list(['~', ',', '~~~', 'a~~b', `a~${'b'.repeat(121)}`]), [400]],
      [`/api/products?category=x&machines=${encodeURIComponent('a~b')}&machines=${encodeURIComponent('c~d')}`, [400]],
      [list(Array.from({ length: 100 }, () => `${'m'.repeat(120)}~${'n'.repeat(120)}`)), [431]],
    ];
    for (const [target, statuses] of cases) {
      const answer = await get(target);
      expect(statuses, `${target.slice(0, 120)}: ${answer.status} ${answer.text.slice(-200)}`).toContain(answer.status);
    }
    await expectAllUp();
  });

  it('the lookup: 200 ids, too many, operators, nesting and wrong types are a 200 or a 400, never a 5xx', async () => {
    const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const cases: [string, number][] = [
      [JSON.stringify({ ids: Array.from({ length: 100 }, (_, i) => uuid(i)), skus: Array.from({ length: 100 }, (_, i) => `SKU-${i}`) }), 200],
      [JSON.stringify({ ids: Array.from({ length: 1_000 }, (_, i) => uuid(i)) }), 400],
      [JSON.stringify({ ids: Array.from({ length: 10_000 }, (_, i) => uuid(i)) }), 413],
      [JSON.stringify({ skus: [{ $ne: '' }], ids: [{ $gt: '' }] }), 400],
      [JSON.stringify({ skus: NASTY.filter((n) => n.trim() && n.length <= 80) }), 200],
      [JSON.stringify({ ids: NASTY }), 400],
      [`{"__proto__":{"ids":["${uuid(1)}"]},"constructor":{"prototype":{"skus":["x"]}}}`, 400],
      [`{"skus":${'['.repeat(5_000)}${']'.repeat(5_000)}}`, 400],
      ['"ids"', 400],
    ];
    for (const [body, status] of cases) {
      const answer = await lookup(body);
      expect(answer.status, `${body.slice(0, 80)}: ${answer.text.slice(-200)}`).toBe(status);
    }
    await expectAllUp();
  });
});

describe("a company's quotes and orders: the page, the limit and the status taken as data", () => {
  const at = () => `127.0.0.1:${gatewayPort}`;
  const get = (target: string) => rawRequest(gatewayPort, httpRequest('GET', target, [['Host', at()], ['Accept', 'application/json'], ['Cookie', `fl_buyer=${buyerToken}`]]));

  it('repeated, huge, negative, spam or operator-shaped parameters: a 400 naming the field, or the plain list; never a 5xx', async () => {
    const cases: [string, number, string?][] = [
      ['/api/account/quotes?page=1&limit=100', 200],
      ['/api/account/quotes?status=spam', 400, 'status'], // the seller's call, never a buyer's filter
      ['/api/account/quotes?status=won&status=lost', 400, 'status'],
      ['/api/account/quotes?page=1&page=2', 400, 'page'],
      ['/api/account/quotes?page=1e400', 400, 'page'],
      ['/api/account/quotes?page=100001', 400, 'page'],
      ['/api/account/quotes?limit=-1', 400, 'limit'],
      [`/api/account/quotes?status=${encodeURIComponent('{"$ne":"spam"}')}`, 400, 'status'],
      ['/api/account/orders?limit=101', 400, 'limit'],
      ['/api/account/orders?page=%00', 400, 'page'],
      // No nested query objects reach a store: `status[$ne]` is a name of its own, ignored.
      ['/api/account/quotes?status[$ne]=won&emailKey[$regex]=.', 200],
      ['/api/account/orders?page[$gt]=0', 200],
      ['/api/account/quotes/%7B%22%24ne%22%3A%22%22%7D', 404],
      [`/api/account/orders/${'x'.repeat(101)}`, 400, 'id'],
    ];
    for (const [target, status, field] of cases) {
      const answer = await get(target);
      expect(answer.status, `${target}: ${answer.text.slice(-200)}`).toBe(status);
      if (field) expect((JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4)) as { message: string }).message, target).toContain(field);
    }
    await expectAllUp();
  });
});

describe('server limits', () => {
  const targets = () => [
    ['the gateway', gatewayPort, '/healthz'],
    ['a service (catalog)', Number(new URL(stack.serviceUrls.catalog!).port), '/healthz'],
  ] as const;

  it('headers up to 16 kB are read at the gateway (24 kB at a service behind it); bigger ones get 431', async () => {
    for (const [who, port, route, fits, over] of [
      [...targets()[0], 15_000, 17_000],
      [...targets()[1], 23_000, 25_000],
    ] as const) {
      const read = await rawRequest(port, httpRequest('GET', route, [['Host', 'x'], ['X-Pad', 'a'.repeat(fits)]]));
      expect(read.status, who).toBe(200);
      const big = await rawRequest(port, httpRequest('GET', route, [['Host', 'x'], ['X-Pad', 'a'.repeat(over)]]));
      expect(big.status, who).toBe(431);
    }
  });

  it('a request the gateway takes with headers at its limit is answered by the service, body and all, never a 502', async () => {
    // The gateway adds X-Forwarded-* and the request id on the way: with the service's limit equal to its own, 16.1 kB
    // of headers became a 431 that closed the connection under the body (CI, 2026-11-27: a 502 for each shrunk request).
    const body = JSON.stringify({ email: 'nobody@example.com', note: 'x'.repeat(60_000) });
    for (const pad of [16_000, 16_150, 16_250, 16_300]) {
      const headers: [string, string][] = [['Host', `127.0.0.1:${gatewayPort}`], ['Content-Type', 'application/json'], ['X-Pad', 'a'.repeat(pad)]];
      const answer = await rawRequest(gatewayPort, httpRequest('POST', '/api/admin/auth/send-otp', headers, body));
      expect(answer.status, `${pad} bytes of padding: ${answer.text.slice(-200)}`).toBeLessThan(500);
    }
    await expectAllUp();
  });

  it('a client that sends its headers slowly is cut off at HEADERS_TIMEOUT_MS with 408', async () => {
    for (const [who, port, route] of targets()) {
      // Slowloris: a header line every 300 ms, never the blank line that ends them.
      const trickle = [`GET ${route} HTTP/1.1\r\nHost: x\r\n`, ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: 1\r\n`)];
      const answer = await rawRequest(port, trickle, { paceMs: 300, timeoutMs: 15_000 });
      expect(answer.hung, who).toBe(false);
      expect(answer.status, who).toBe(408);
      expect(answer.ms, who).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    }
  });

  it('a client that sends its body slowly is cut off at REQUEST_TIMEOUT_MS with 408', async () => {
    for (const [who, port, route, timeoutMs] of [
      ['the gateway', gatewayPort, '/api/contact', REQUEST_TIMEOUT_MS],
      ['a service (quotes)', Number(new URL(stack.serviceUrls.quotes!).port), '/api/contact', SERVICE_REQUEST_TIMEOUT_MS],
    ] as const) {
      const head = `POST ${route} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2000\r\nConnection: close\r\n\r\n`;
      const answer = await rawRequest(port, [head, ...Array.from({ length: 60 }, () => '          ')], { paceMs: 250, timeoutMs: 15_000 });
      expect(answer.hung, who).toBe(false);
      expect(answer.status, who).toBe(408);
      expect(answer.ms, who).toBeGreaterThanOrEqual(timeoutMs - 100);
    }
  });

  it('each kind of route refuses a body over its size with 413 naming the limit, through the gateway', async () => {
    const json = (bytes: number) => JSON.stringify({ message: 'x'.repeat(bytes) });
    const cases: { route: string; method: string; body: Buffer | string; type: string; auth?: boolean; says: RegExp }[] = [
      { method: 'POST', route: '/api/quote-requests', body: json(17 * 1024), type: 'application/json', says: /at most 16 kB/ },
      { method: 'POST', route: '/api/contact', body: json(17 * 1024), type: 'application/json', says: /at most 16 kB/ },
      { method: 'POST', route: `/api/quote-view/${'A'.repeat(43)}/accept`, body: json(17 * 1024), type: 'application/json', says: /at most 16 kB/ },
      { method: 'POST', route: '/api/admin/auth/send-otp', body: json(101 * 1024), type: 'application/json', says: /at most 100 kB/ },
      { method: 'POST', route: '/api/parts/match', body: json(301 * 1024), type: 'application/json', says: /at most 300 kB/ },
      { method: 'POST', route: '/api/admin/products', body: json(301 * 1024), type: 'application/json', auth: true, says: /at most 300 kB/ },
      { method: 'PATCH', route: '/api/admin/quotes/q1', body: json(129 * 1024), type: 'application/json', auth: true, says: /at most 128 kB/ },
      { method: 'POST', route: '/api/admin/api-keys', body: json(101 * 1024), type: 'application/json', auth: true, says: /at most 100 kB/ },
      { method: 'POST', route: '/api/search/events', body: json(17 * 1024), type: 'application/json', says: /at most 16 kB/ },
      { method: 'POST', route: '/api/admin/search/synonyms.csv', body: `words,mode\n${'"a, b",both\n'.repeat(200_000)}`, type: 'text/csv', auth: true, says: /at most 2048 kB/ },
    ];
    // An image over MEDIA_MAX_FILE_MB (1 MB here).
    const boundary = 'hostile-limit';
    const image = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="AB-1.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.alloc(1_200_000, 7),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    cases.push({ method: 'POST', route: '/api/admin/products/p1/upload-image', body: image, type: `multipart/form-data; boundary=${boundary}`, auth: true, says: /larger than 1 MB/ });
    // A PO document over 10 MB with the quote page's accept form: the page again, saying the limit.
    const po = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="poNumber"\r\n\r\nPO-1\r\n--${boundary}\r\nContent-Disposition: form-data; name="poDocument"; filename="po.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`),
      Buffer.alloc(10 * 1024 * 1024 + 200_000, 0x20),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    cases.push({ method: 'POST', route: `/quote/view/${'A'.repeat(43)}/accept`, body: po, type: `multipart/form-data; boundary=${boundary}`, says: /at most 10\.1 MB/ });
    for (const c of cases) {
      const headers: [string, string][] = [['Host', `127.0.0.1:${gatewayPort}`], ['Content-Type', c.type]];
      if (c.auth) headers.push(['Authorization', `Bearer ${token}`]);
      const answer = await rawRequest(gatewayPort, httpRequest(c.method, c.route, headers, c.body));
      expect(answer.status, `${c.method} ${c.route}: ${answer.text.slice(0, 300)}`).toBe(413);
      expect(answer.text, `${c.method} ${c.route}`).toMatch(c.says);
    }
    // A catalogue file declared over the import limit (700 MB) is refused before a byte of it is read.
    const declared = await rawRequest(
      gatewayPort,
      httpRequest('POST', '/api/admin/catalog/imports', [
        ['Host', `127.0.0.1:${gatewayPort}`],
        ['Authorization', `Bearer ${token}`],
        ['Content-Type', `multipart/form-data; boundary=${boundary}`],
        ['Content-Length', String(800 * 1024 * 1024)],
      ]),
      { timeoutMs: 15_000 },
    );
    expect(declared.status, declared.text.slice(0, 300)).toBe(413);
    expect(declared.text).toMatch(/The upload is 800 MB; at most 701 MB/);
    await expectAllUp();
  });
});
