import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@forgeline/contracts/openapi';
import { createLogger } from '@forgeline/service-kit/logger';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { freePort } from '@forgeline/test-support/net';
import { createGatewayApp } from './app.ts';

/** The API description for sellers' systems: a valid OpenAPI 3.1 document, generated from the contracts, served by the gateway. */
describe('OpenAPI document', () => {
  it('is valid OpenAPI 3.1 and describes the catalogue, edit and inbox calls with their contracts', async () => {
    const doc = buildOpenApiDocument();
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
    const json = await fetch(`${url}/api/openapi.json`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await json.json()) as { info: { title: string } }).info.title).toBe('Forgeline Parts API');
    const page = await fetch(`${url}/api/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<code>/api/admin/catalog/imports</code>');
    expect(html).not.toContain('<script');
  });
});
