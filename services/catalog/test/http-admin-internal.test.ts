import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminCodeSearchResponseSchema, AdminProductListSchema, ProductSchema } from '@forgeline/contracts/products';
import { PRODUCTS, id } from './fixtures.ts';
import { SERVICE_TOKEN, startCatalog, type CatalogUnderTest } from './harness.ts';

let catalog: CatalogUnderTest;
beforeAll(async () => {
  // "Water Pump" (id 7) is in the store but not yet in the search index.
  catalog = await startCatalog({ indexed: (p) => p.id !== id(7) });
});
afterAll(async () => {
  await catalog.stop();
});

const get = (path: string) => catalog.call(path);

describe('GET /api/admin/products', () => {
  it('lists admin rows', async () => {
    const res = await get('/api/admin/products?limit=3');
    expect(res.status).toBe(200);
    const rows = AdminProductListSchema.parse(res.body);
    expect(rows).toHaveLength(3);
    expect(Object.keys(rows[0]!).sort()).toEqual(['brandName', 'category', 'id', 'imageUrl', 'images', 'name', 'partNumber', 'sku']);
  });

  it('searches by text', async () => {
    const res = await get('/api/admin/products?search=filter');
    expect(res.status).toBe(200);
    AdminProductListSchema.parse(res.body);
  });

  it('refuses a bad limit', async () => {
    const res = await get('/api/admin/products?limit=lots');
    expect(res.status).toBe(400);
    expect(res.body.issues[0].path).toBe('limit');
  });
});

describe('GET /api/admin/search-products-by-code', () => {
  it('finds a part by its number typed without punctuation or case', async () => {
    const res = await get('/api/admin/search-products-by-code?q=1r0750');
    expect(res.status).toBe(200);
    const body = AdminCodeSearchResponseSchema.parse(res.body);
    expect(body.success).toBe(true);
    expect(body.products.map((p) => p.id)).toEqual([id(1)]);
    expect(body.products[0]).toMatchObject({ sku: 'CAT-1R0750', partNumber: '1R-0750', images: PRODUCTS[0]!.images });
  });

  it('finds parts by sku prefix', async () => {
    const res = await get('/api/admin/search-products-by-code?q=JD-RE');
    expect(res.body.products.map((p: { id: string }) => p.id).sort()).toEqual([id(5), id(6)]);
  });

  it('answers success with no products for an unknown code', async () => {
    const res = await get('/api/admin/search-products-by-code?q=ZZ-0000');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, products: [] });
  });

  it('requires q', async () => {
    for (const query of ['', '?q=', '?q=%20%20', '?q[$gt]=']) {
      const res = await get(`/api/admin/search-products-by-code${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.issues[0].path).toBe('q');
    }
  });
});

describe('GET /media/generated/:category/:brand/:part.svg', () => {
  it('draws the part picture, cached for a year', async () => {
    const res = await get('/media/generated/hydraulic-filters/caterpillar/hydraulic-oil-filter.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.text).toMatch(/<svg[\s>]/);
    const again = await get('/media/generated/hydraulic-filters/caterpillar/hydraulic-oil-filter.svg');
    expect(again.text).toBe(res.text);
  });

  it('refuses path parts that are not slugs', async () => {
    const res = await get('/media/generated/Hydraulic_Filters/caterpillar/x.svg');
    expect(res.status).toBe(400);
    expect(res.body.issues[0].path).toBe('category');
    expect((await get('/media/generated/a/b/..%2F..%2Fetc.svg')).status).toBe(400);
  });
});

describe('PUT /internal/products/:id/images', () => {
  const update = { images: ['/media/products/jcb-320-04133/1.webp', '/media/products/jcb-320-04133/2.webp'], imageUrl: '/media/products/jcb-320-04133/1.webp' };

  it('refuses a call without the service token', async () => {
    const res = await catalog.call(`/internal/products/${id(7)}/images`, { method: 'PUT', body: update });
    expect(res.status).toBe(401);
    const wrong = await catalog.call(`/internal/products/${id(7)}/images`, { method: 'PUT', body: update, token: 'x'.repeat(SERVICE_TOKEN.length) });
    expect(wrong.status).toBe(401);
  });

  it('stores the images and refreshes the search index', async () => {
    const before = await get('/api/products?search=Water%20Pump&limit=10');
    expect(before.body.products.map((p: { id: string }) => p.id)).not.toContain(id(7));
    // Read twice first, so the answers sit in the response cache the write must empty.
    for (let i = 0; i < 2; i++) expect((await get(`/api/products/${id(7)}`)).body).not.toMatchObject(update);

    const res = await catalog.call(`/internal/products/${id(7)}/images`, { method: 'PUT', body: update, token: SERVICE_TOKEN });
    expect(res.status).toBe(200);
    expect(ProductSchema.parse(res.body)).toMatchObject({ id: id(7), ...update });
    expect((await get(`/api/products/${id(7)}`)).body).toMatchObject(update);

    const after = await get('/api/products?search=Water%20Pump&limit=10');
    const hit = after.body.products.find((p: { id: string }) => p.id === id(7));
    expect(hit).toMatchObject({ images: update.images, imageUrl: update.imageUrl });
  });

  it('answers 404 for an unknown product and 400 for a bad id or body', async () => {
    const unknown = await catalog.call(`/internal/products/${id(9999)}/images`, { method: 'PUT', body: update, token: SERVICE_TOKEN });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Product not found');
    const badId = await catalog.call('/internal/products/abc/images', { method: 'PUT', body: update, token: SERVICE_TOKEN });
    expect(badId.status).toBe(400);
    const badBody = await catalog.call(`/internal/products/${id(1)}/images`, { method: 'PUT', body: { images: 'one.webp' }, token: SERVICE_TOKEN });
    expect(badBody.status).toBe(400);
    expect(badBody.body.issues.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(['images', 'imageUrl']));
  });
});

describe('GET /internal/products/by-sku/:sku', () => {
  it('returns the product for a sku', async () => {
    const res = await catalog.call('/internal/products/by-sku/KOM-600-211-1231', { token: SERVICE_TOKEN });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(id(4));
  });

  it('finds a sku written in another case', async () => {
    const res = await catalog.call('/internal/products/by-sku/kom-600-211-1231', { token: SERVICE_TOKEN });
    expect(res.body.id).toBe(id(4));
  });

  it('answers 404 for an unknown sku and 401 without the token', async () => {
    const res = await catalog.call('/internal/products/by-sku/NOPE-1', { token: SERVICE_TOKEN });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Product with SKU "NOPE-1" not found');
    expect((await catalog.call('/internal/products/by-sku/KOM-600-211-1231')).status).toBe(401);
  });
});
