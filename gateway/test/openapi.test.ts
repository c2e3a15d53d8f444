import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@forgeline/contracts/openapi';
import { createLogger } from '@forgeline/service-kit/logger';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { freePort } from '@forgeline/test-support/net';
import { API_DOCS_PATH, OPENAPI_PATH, REDOC_SCRIPT_PATH } from '../src/api-docs.ts';
import { createGatewayApp } from '../src/app.ts';
import { matchRoute } from '../src/routes.ts';

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses?: Record<string, unknown>;
};
type Schema = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operationsOf(doc: Record<string, unknown>) {
  const paths = doc.paths as Record<string, Record<string, Operation>>;
  return Object.entries(paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
}

/** Subschemas that accept anything (what zod writes for what JSON Schema cannot say): a fuzzer learns nothing from them. */
function unconstrained(s: unknown, at: string): string[] {
  if (typeof s !== 'object' || s === null) return [];
  const o = s as Schema;
  const own = Object.keys(o).filter((k) => k !== 'description' && k !== 'default').length === 0 ? [at] : [];
  const children: [string, unknown][] = [
    ...Object.entries((o.properties as Schema | undefined) ?? {}).map(([k, v]) => [`${at}.${k}`, v] as [string, unknown]),
    ...(['items', 'additionalProperties', 'not'] as const).map((k) => [`${at}.${k}`, o[k]] as [string, unknown]),
    ...(['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const).flatMap((k) => ((o[k] as unknown[] | undefined) ?? []).map((v, i) => [`${at}.${k}[${i}]`, v] as [string, unknown])),
  ];
  return [...own, ...children.flatMap(([p, v]) => unconstrained(v, p))];
}

/** The API description for sellers' systems: a valid OpenAPI 3.1 document, generated from the contracts, served by the gateway. */
describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument();
  const operations = operationsOf(doc);

  it('is valid OpenAPI 3.1 and describes the catalogue, edit and inbox calls with their contracts', async () => {
    const result = await new Validator().validate(doc as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    const paths = doc.paths as Record<string, Record<string, any>>;
    for (const p of ['/api/admin/catalog/imports', '/api/admin/catalog/imports/{id}', '/api/admin/catalog/export.csv', '/api/admin/products/{id}', '/api/admin/quotes', '/api/parts/match']) {
      expect(paths, p).toHaveProperty([p]);
    }
    // Straight from the zod contracts: the PATCH body's fields and limits, the import's query.
    const patch = paths['/api/admin/products/{id}']!.patch.requestBody.content['application/json'].schema;
    expect(patch.properties.price).toMatchObject({ type: 'number', minimum: 0 });
    expect(patch.properties.name).toMatchObject({ type: 'string', maxLength: 300 });
    expect(patch.additionalProperties).toBe(false);
    const query = paths['/api/admin/catalog/imports']!.post.parameters.map((x: { name: string }) => x.name);
    expect(query).toEqual(['dryRun', 'missing']);
    expect(paths['/api/admin/products/{id}']!.patch.responses).toHaveProperty(['412']);
  });

  it('declares every path parameter of every path, and no other', () => {
    const wrong: string[] = [];
    for (const { path, method, op } of operations) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).sort();
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
      if (JSON.stringify(declared.map((p) => p.name).sort()) !== JSON.stringify(inPath)) wrong.push(`${method} ${path}: declares ${declared.map((p) => p.name).join(', ') || 'none'}`);
      for (const p of declared) if (p.required !== true) wrong.push(`${method} ${path}: path parameter ${p.name} is not required`);
      const names = (op.parameters ?? []).map((p) => `${p.in}:${p.name}`);
      if (new Set(names).size !== names.length) wrong.push(`${method} ${path}: a parameter twice`);
    }
    expect(wrong).toEqual([]);
  });

  it('gives every operation a unique operationId, a summary, a declared tag and a success answer', () => {
    const methods = operations.map((o) => o.method).filter((m) => !METHODS.includes(m));
    expect(methods, 'unknown methods').toEqual([]);
    const ids = operations.map((o) => o.op.operationId);
    expect(ids.filter((id) => typeof id !== 'string' || !/^[a-z][A-Za-z]+$/.test(id)), 'operations without a camelCase operationId').toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i), 'operationIds used twice').toEqual([]);
    const tags = new Set((doc.tags as { name: string }[]).map((t) => t.name));
    for (const { path, method, op } of operations) {
      const where = `${method} ${path}`;
      expect(op.summary, where).toMatch(/\S/);
      expect(op.tags?.length, where).toBeGreaterThan(0);
      for (const t of op.tags ?? []) expect(tags.has(t), `${where}: tag ${t} is not in the document's tags`).toBe(true);
      const codes = Object.keys(op.responses ?? {});
      expect(codes.some((c) => /^2\d\d$/.test(c)), `${where}: no 2xx answer`).toBe(true);
      for (const c of codes) expect(c, where).toMatch(/^[1-5]\d\d$/);
    }
  });

  it("names on every call the credentials the gateway's admin check really takes: none on public calls, a key only within its scope", () => {
    const open = new Set(['GET /api/admin/auth/config', 'POST /api/admin/auth/send-otp', 'POST /api/admin/auth/verify-otp']);
    const staff = [{ sessionCookie: [] }, { sessionToken: [] }];
    const wrong: string[] = [];
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      const concrete = path.replace(/\{(\w+)\}/g, (_m, name: string) => `${name}-1`);
      const rule = matchRoute(concrete);
      let expected: unknown[];
      // A buyer's account (issue 35): its own cookie, checked by auth (and by the gateway's buyer check); sign-in is open.
      if (/^\/api\/account(\/|$)/.test(path)) expected = /^\/api\/account\/(sign-in\/|session$|sign-out$)/.test(path) ? [] : [{ buyerCookie: [] }];
      else if (!path.startsWith('/api/admin/') || open.has(where)) expected = [];
      else if (path.startsWith('/api/admin/auth/')) expected = staff; // the session and sign-out: auth reads the session's token or cookie
      else if (rule?.keyScope) expected = [...staff, { apiKey: [`${rule.keyScope}:${method === 'get' || method === 'head' ? 'read' : 'write'}`] }];
      else expected = staff;
      if (JSON.stringify(op.security) !== JSON.stringify(expected)) wrong.push(`${where}: ${JSON.stringify(op.security)}, expected ${JSON.stringify(expected)}`);
    }
    expect(wrong).toEqual([]);
    expect(doc).toHaveProperty(['components', 'securitySchemes', 'sessionCookie'], expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'fl_admin' }));
    expect(doc).toHaveProperty(['components', 'securitySchemes', 'sessionToken', 'scheme'], 'bearer');
    expect(doc).toHaveProperty(['components', 'securitySchemes', 'apiKey', 'scheme'], 'bearer');
    expect(doc).toHaveProperty(['components', 'securitySchemes', 'buyerCookie'], expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'fl_buyer' }));
    // An admin call says what the gateway's check answers.
    for (const { path, method, op } of operations.filter((o) => (o.op.security ?? []).length > 0 && !o.path.startsWith('/api/admin/auth/'))) {
      expect(Object.keys(op.responses ?? {}), `${method} ${path}`).toEqual(expect.arrayContaining(['401', '403']));
    }
  });

  it('gives the fuzzer a schema for every parameter and request body: none that accepts anything', () => {
    const found: string[] = [];
    for (const { path, method, op } of operations) {
      for (const p of op.parameters ?? []) found.push(...unconstrained(p.schema, `${method} ${path} ${p.in}:${p.name}`));
      for (const [type, c] of Object.entries(op.requestBody?.content ?? {})) found.push(...unconstrained(c.schema, `${method} ${path} body(${type})`));
    }
    expect(found).toEqual([]);
    // An e-mail address checked after trimming (a pipe into z.email()) is still described as one.
    const paths = doc.paths as Record<string, Record<string, any>>;
    expect(paths['/api/admin/auth/send-otp']!.post.requestBody.content['application/json'].schema.properties.email).toMatchObject({ type: 'string', format: 'email' });
    expect(paths['/api/admin/sign-in-locks/{email}']!.delete.parameters[0].schema).toMatchObject({ type: 'string', format: 'email' });
  });

  it('describes uploads as multipart with the field names the services read, files as binary', () => {
    const paths = doc.paths as Record<string, Record<string, any>>;
    const form = (p: string) => paths[p]!.post.requestBody.content['multipart/form-data'].schema;
    expect(form('/api/admin/products/{id}/upload-image')).toMatchObject({ properties: { image: { type: 'string', format: 'binary' } }, required: ['image'] });
    expect(form('/api/admin/upload-bulk-zip')).toMatchObject({ properties: { zip: { type: 'string', format: 'binary' } }, required: ['zip'] });
    expect(form('/api/admin/catalog/imports')).toMatchObject({ properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] });
    expect(form('/api/parts/match')).toMatchObject({ properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] });
    const sku = form('/api/admin/upload-individual-sku');
    expect(sku.properties).toMatchObject({ sku: { type: 'string', maxLength: 80 }, productName: { type: 'string' }, images: { type: 'array', items: { type: 'string', format: 'binary' } } });
    expect(sku.required.sort()).toEqual(['images', 'sku']);
  });
});

describe('served by the gateway', () => {
  let gw: Served;
  let url: string;
  beforeAll(async () => {
    // Every service down: the document is the gateway's own.
    const closed = `http://127.0.0.1:${await freePort()}`;
    const logger = createLogger('openapi-test', 'silent');
    const app = createGatewayApp({
      logger,
      services: { catalog: closed, quotes: closed, auth: closed, media: closed },
      upstreamTimeoutMs: 2_000,
      uploadTimeoutMs: 2_000,
      webDistDir: '',
    });
    gw = await serve(app, { port: 0, logger, handleSignals: false });
    url = `http://127.0.0.1:${gw.port}`;
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('answers /api/openapi.json and a readable /api/docs page without a session', async () => {
    const json = await fetch(`${url}${OPENAPI_PATH}`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await json.json()) as { info: { title: string } }).info.title).toBe('Forgeline Parts API');
    const page = await fetch(`${url}${API_DOCS_PATH}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    // Redoc's element, pointed at the document, and its script from this origin (no CDN).
    expect(html).toMatch(new RegExp(`<redoc spec-url="${OPENAPI_PATH}"`));
    const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(new RegExp(`^${REDOC_SCRIPT_PATH.replace(/\./g, '\\.')}\\?v=`));
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script: the page needs no change to the CSP
    expect(html).not.toMatch(/https?:\/\//);
  });

  it("serves Redoc's bundle from its own origin as JavaScript, cached for a year", async () => {
    const html = await (await fetch(`${url}${API_DOCS_PATH}`)).text();
    const src = /<script\b[^>]*\bsrc="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    const script = await fetch(`${url}${src}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cache-control')).toMatch(/max-age=31536000/);
    expect(script.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const text = await script.text();
    expect(text.length).toBeGreaterThan(100_000);
    expect(text).toContain('Redoc');
  });
});
