import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OFFSET, MAX_PAGE_LIMIT } from '@forgeline/contracts/common';
import { ProductListResponseSchema, ProductSchema, SubcategoryListSchema } from '@forgeline/contracts/products';
import { PRODUCTS, byName, id } from './fixtures.ts';
import { SERVICE_TOKEN, startCatalog, type CatalogUnderTest } from './harness.ts';

let catalog: CatalogUnderTest;
beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(async () => {
  await catalog.stop();
});

const get = (path: string) => catalog.call(path);
const names = (body: { products: { name: string }[] }) => body.products.map((p) => p.name);
const hydraulic = PRODUCTS.filter((p) => p.category === 'Hydraulic Filters').sort(byName).map((p) => p.name);

/** A 400 whose issues name `field`. */
function expectBadField(res: { status: number; body: any }, field: string) {
  expect(res.status).toBe(400);
  expect(res.body.message).toContain(field);
  expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
}

describe('GET /api/products (category pages)', () => {
  it('lists a category with the pagination object', async () => {
    const res = await get('/api/products?category=Hydraulic%20Filters&limit=75&offset=0');
    expect(res.status).toBe(200);
    const body = ProductListResponseSchema.parse(res.body);
    expect(names(body)).toEqual(hydraulic);
    expect(body.pagination).toMatchObject({
      totalProducts: 4,
      totalCount: 4,
      totalPages: 1,
      currentPage: 1,
      hasNextPage: false,
      hasPrevPage: false,
      limit: 75,
      offset: 0,
    });
    expect(res.body.products[0]).not.toHaveProperty('description');
  });

  it('matches the category by name or slug, ignoring case', async () => {
    for (const category of ['hydraulic-filters', 'HYDRAULIC FILTERS', 'Hydraulic-Filters']) {
      const res = await get(`/api/products?category=${encodeURIComponent(category)}`);
      expect(res.status, category).toBe(200);
      expect(names(res.body)).toEqual(hydraulic);
    }
  });

  it('matches brand and category ignoring accents', async () => {
    for (const [category, brand] of [
      ['rodillos-de-oruga', 'kassbohrer'],
      ['Rodillos de Oruga', 'Kässbohrer'],
      ['RODILLOS-DE-ORUGA', 'KASSBOHRER'],
    ]) {
      const res = await get(`/api/products?category=${encodeURIComponent(category!)}&brand=${encodeURIComponent(brand!)}`);
      expect(res.status, `${category} ${brand}`).toBe(200);
      expect(names(res.body)).toEqual(['Carrier Roller', 'Track Roller']);
    }
  });

  it('narrows a category to a brand', async () => {
    const res = await get('/api/products?category=hydraulic-filters&brand=Caterpillar');
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['Breather Element', 'Fuel Water Separator', 'Hydraulic Oil Filter']);
    expect(res.body.pagination.totalProducts).toBe(3);
  });

  it('answers an empty page for a known brand without parts in that category', async () => {
    const res = await get('/api/products?category=hydraulic-filters&brand=john-deere');
    expect(res.status).toBe(200);
    expect(res.body.products).toEqual([]);
    expect(res.body.pagination.totalProducts).toBe(0);
  });

  it('pages with limit and offset', async () => {
    const res = await get('/api/products?category=hydraulic-filters&limit=2&offset=2');
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(hydraulic.slice(2, 4));
    expect(res.body.pagination).toMatchObject({ currentPage: 2, totalPages: 2, hasNextPage: false, hasPrevPage: true });
    const first = await get('/api/products?category=hydraulic-filters&limit=2');
    expect(first.body.pagination).toMatchObject({ currentPage: 1, hasNextPage: true, hasPrevPage: false });
  });

  it('lists a brand alone', async () => {
    const res = await get('/api/products?brand=JCB');
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['Water Pump']);
  });

  it('answers 404 with a message for an unknown category or brand', async () => {
    const category = await get('/api/products?category=flux-capacitors');
    expect(category.status).toBe(404);
    expect(category.body.message).toBe('Category "flux-capacitors" not found');
    const brand = await get('/api/products?category=hydraulic-filters&brand=acme');
    expect(brand.status).toBe(404);
    expect(brand.body.message).toBe('Brand "acme" not found');
  });

  it('refuses a limit that is not a whole number', async () => {
    expectBadField(await get('/api/products?category=hydraulic-filters&limit=abc'), 'limit');
    expectBadField(await get('/api/products?category=hydraulic-filters&limit=1.5'), 'limit');
    expectBadField(await get('/api/products?category=hydraulic-filters&limit='), 'limit');
  });

  it('refuses a negative offset', async () => {
    expectBadField(await get('/api/products?category=hydraulic-filters&offset=-1'), 'offset');
  });

  it(`refuses a limit above the cap of ${MAX_PAGE_LIMIT} instead of serving it`, async () => {
    const res = await get(`/api/products?category=hydraulic-filters&limit=${MAX_PAGE_LIMIT + 1}`);
    expectBadField(res, 'limit');
    expect(res.body.message).toContain(String(MAX_PAGE_LIMIT));
    expectBadField(await get('/api/products?category=hydraulic-filters&limit=100000'), 'limit');
    expectBadField(await get('/api/products?category=hydraulic-filters&limit=0'), 'limit');
    expect((await get(`/api/products?category=hydraulic-filters&limit=${MAX_PAGE_LIMIT}`)).status).toBe(200);
  });

  it('never turns a query string into a database operator', async () => {
    const operator = await get('/api/products?category[$ne]=x');
    expect(operator.status).toBe(400);
    const nested = await get('/api/products?category[$regex]=.*&limit=5');
    expect(nested.status).toBe(400);
    const repeated = await get('/api/products?category=hydraulic-filters&category=engine-parts');
    expectBadField(repeated, 'category');
  });

  it('asks for a category or a search when given neither', async () => {
    const res = await get('/api/products');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/category/);
  });

  it('answers the header search in the same list shape', async () => {
    const res = await get('/api/products?search=Water%20Pump&limit=10');
    expect(res.status).toBe(200);
    const body = ProductListResponseSchema.parse(res.body);
    expect(body.products.map((p) => p.id)).toContain(id(7));
    expect(body.pagination.limit).toBe(10);
  });
});

describe('GET /api/products/:id', () => {
  it('returns the whole product', async () => {
    const res = await get(`/api/products/${id(1)}`);
    expect(res.status).toBe(200);
    expect(ProductSchema.parse(res.body)).toEqual(PRODUCTS[0]);
  });

  it('answers 404 with a message for an unknown id', async () => {
    const res = await get(`/api/products/${id(424242)}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: 'Product not found' });
    expect(res.body.requestId).toEqual(expect.any(String));
  });

  it('refuses an id that is not a UUID', async () => {
    expectBadField(await get('/api/products/not-a-uuid'), 'id');
    expectBadField(await get(`/api/products/${encodeURIComponent('{"$ne":null}')}`), 'id');
  });
});

describe('GET /api/subcategories', () => {
  it('lists one item per brand and category pair with its product count', async () => {
    const res = await get('/api/subcategories');
    expect(res.status).toBe(200);
    const items = SubcategoryListSchema.parse(res.body);
    expect(items).toHaveLength(6);
    expect(items.find((s) => s.id === 'hydraulic-filters--caterpillar')).toMatchObject({
      brand: 'Caterpillar',
      category: 'Hydraulic Filters',
      productCount: 3,
    });
    expect(items.reduce((n, s) => n + s.productCount, 0)).toBe(PRODUCTS.length);
  });
});

describe('GET /api/catalog/products (gallery)', () => {
  it('pages through every product, 48 by default, with totalProducts and totalCount', async () => {
    const res = await get('/api/catalog/products');
    expect(res.status).toBe(200);
    expect(res.body.products).toHaveLength(PRODUCTS.length);
    expect(res.body.pagination).toMatchObject({ limit: 48, totalProducts: PRODUCTS.length, totalCount: PRODUCTS.length, totalPages: 1 });
    const page2 = await get('/api/catalog/products?limit=3&offset=3');
    expect(names(page2.body)).toEqual([...PRODUCTS].sort(byName).slice(3, 6).map((p) => p.name));
    expect(page2.body.pagination).toMatchObject({ currentPage: 2, totalPages: 4, hasNextPage: true, hasPrevPage: true });
  });

  it('answers an empty page past the end', async () => {
    const res = await get('/api/catalog/products?limit=48&offset=480');
    expect(res.status).toBe(200);
    expect(res.body.products).toEqual([]);
    expect(res.body.pagination.totalProducts).toBe(PRODUCTS.length);
  });

  it(`reaches pages past the millionth part (offsets up to ${MAX_OFFSET.toLocaleString('en-US')}), and every sitemap file`, async () => {
    // At 2,000,000 parts the gallery's last 20,000 pages and sitemap files 21-40 lay past a cap of 1,000,000.
    const deep = await get('/api/catalog/products?limit=48&offset=1999968');
    expect(deep.status).toBe(200);
    expect(deep.body.products).toEqual([]);
    const sitemap = await catalog.call('/internal/sitemap/products?offset=1950000&limit=50000', { token: SERVICE_TOKEN });
    expect(sitemap.status).toBe(200);
    expect(sitemap.body).toEqual({ items: [], total: PRODUCTS.length });
    expectBadField(await get(`/api/catalog/products?offset=${MAX_OFFSET + 1}`), 'offset');
  });

  it('searches when given search', async () => {
    const res = await get('/api/catalog/products?search=roller&limit=48&offset=0');
    expect(res.status).toBe(200);
    ProductListResponseSchema.parse(res.body);
  });

  it('refuses bad paging', async () => {
    expectBadField(await get('/api/catalog/products?limit=abc'), 'limit');
    expectBadField(await get('/api/catalog/products?offset=-48'), 'offset');
    expectBadField(await get('/api/catalog/products?limit=500'), 'limit');
    expectBadField(await get('/api/catalog/products?offset=99999999999'), 'offset');
    expectBadField(await get(`/api/catalog/products?search=${'x'.repeat(500)}`), 'search');
  });
});

describe('GET /api/brands/:brand/products', () => {
  it('lists a brand with its name and count, by name or slug in any case', async () => {
    for (const brand of ['John%20Deere', 'john-deere', 'JOHN-DEERE']) {
      const res = await get(`/api/brands/${brand}/products?page=1&limit=75`);
      expect(res.status, brand).toBe(200);
      expect(names(res.body)).toEqual(['Air Filter', 'Oil Filter']);
      expect(res.body.brand).toEqual({ name: 'John Deere', slug: 'john-deere', productCount: 2 });
      expect(res.body.pagination).toMatchObject({ totalProducts: 2, limit: 75, currentPage: 1 });
    }
  });

  it('matches a brand ignoring accents', async () => {
    for (const brand of ['kassbohrer', encodeURIComponent('Kässbohrer'), 'KASSBOHRER']) {
      const res = await get(`/api/brands/${brand}/products`);
      expect(res.status, brand).toBe(200);
      expect(res.body.brand.name).toBe('Kässbohrer');
    }
  });

  it('pages with page and limit', async () => {
    const res = await get('/api/brands/john-deere/products?page=2&limit=1');
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['Oil Filter']);
    expect(res.body.pagination).toMatchObject({ currentPage: 2, totalPages: 2, offset: 1, hasPrevPage: true, hasNextPage: false });
  });

  it('answers 404 with a message for an unknown brand', async () => {
    const res = await get('/api/brands/acme-rockets/products');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Brand "acme-rockets" not found');
  });

  it('refuses a bad page or limit', async () => {
    expectBadField(await get('/api/brands/john-deere/products?page=0'), 'page');
    expectBadField(await get('/api/brands/john-deere/products?page=two'), 'page');
    expectBadField(await get('/api/brands/john-deere/products?limit=1000'), 'limit');
    expectBadField(await get('/api/brands/john-deere/products?limit=-5'), 'limit');
  });
});

describe('GET /api/testimonials', () => {
  it('lists featured testimonials', async () => {
    const res = await get('/api/testimonials?featured=true');
    expect(res.status).toBe(200);
    expect(res.body.map((t: { id: string }) => t.id)).toEqual(['t-3', 't-1']);
    expect(res.body[1]).toMatchObject({ customerName: 'Ana Souza', rating: 5, featured: true, customerPhoto: null });
  });

  it('lists all without the filter', async () => {
    expect((await get('/api/testimonials')).body).toHaveLength(3);
    expect((await get('/api/testimonials?featured=false')).body).toHaveLength(1);
  });

  it('refuses a featured value other than true or false', async () => {
    expectBadField(await get('/api/testimonials?featured=yes'), 'featured');
  });
});

describe('service basics', () => {
  it('is ready when storage and search answer', async () => {
    expect((await get('/readyz')).status).toBe(200);
    expect((await get('/healthz')).body).toMatchObject({ status: 'ok', service: 'catalog' });
  });

  it('answers an unknown route with JSON 404', async () => {
    const res = await get('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('/api/nothing-here');
  });
});
