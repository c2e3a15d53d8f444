import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FitmentMakesResponse, FitmentModelsResponse, ProductDetail, ProductListResponse } from '@forgeline/contracts/products';
import { PRODUCTS, id, makeProduct } from './fixtures.ts';
import { startCatalog, type CatalogUnderTest } from './harness.ts';

/**
 * A part's history and the machines it fits, over HTTP on the embedded adapters: A (1R-0716) is replaced by B
 * (1R-1807), B by C (1R-1808); C is also sold as Fleetguard LF9080 and Donaldson P551808.
 */
const A = makeProduct({ id: id(601), name: 'Oil Filter Element (first issue)', sku: 'CAT-1R0716', partNumber: '1R-0716', category: 'Hydraulic Filters', brandName: 'Caterpillar' });
const B = makeProduct({
  id: id(602),
  name: 'Oil Filter Element (second issue)',
  sku: 'CAT-1R1807',
  partNumber: '1R-1807',
  category: 'Hydraulic Filters',
  brandName: 'Caterpillar',
  replaces: ['1R-0716'],
  fits: [{ make: 'Caterpillar', model: 'D9T Dozer', serialTo: 'RJS04999' }],
});
const C = makeProduct({
  id: id(603),
  name: 'Advanced Efficiency Oil Filter',
  sku: 'CAT-1R1808',
  partNumber: '1R-1808',
  category: 'Hydraulic Filters',
  brandName: 'Caterpillar',
  replaces: ['1R-1807', '9Y-4419'],
  crossReferences: [
    { brand: 'Fleetguard', partNumber: 'LF9080' },
    { brand: 'Donaldson', partNumber: 'P551808' },
  ],
  fits: [
    { make: 'Caterpillar', model: 'D9T Dozer', serialFrom: 'RJS05000' },
    { make: 'Caterpillar', model: '320D Excavator' },
  ],
});
const K = makeProduct({
  id: id(604),
  name: 'Track Roller',
  sku: 'KOM-20Y-30-00321',
  partNumber: '20Y-30-00321',
  category: 'Undercarriage',
  brandName: 'Komatsu',
  fits: [{ make: 'Komatsu', model: 'PC200-8 Excavator' }],
});

let catalog: CatalogUnderTest;
beforeAll(async () => {
  catalog = await startCatalog({ products: [...PRODUCTS, A, B, C, K] });
});
afterAll(() => catalog?.stop());

const search = async (q: string, extra = '') =>
  ((await catalog.call(`/api/products?search=${encodeURIComponent(q)}&limit=10${extra}`)).body as ProductListResponse).products;

describe('search by a part\'s history', () => {
  it('finds today\'s part first for an old number, following the chain, and says how it matched', async () => {
    for (const q of ['1R-0716', '1r0716', '1R 0716', 'cat 1R-0716']) {
      const hits = await search(q);
      expect(hits[0], q).toMatchObject({ id: C.id, match: { kind: 'superseded', value: '1R-0716' } });
      expect(hits.map((h) => h.id), q).toEqual(expect.arrayContaining([A.id, B.id]));
    }
    const second = await search('1R-1807');
    expect(second[0]).toMatchObject({ id: C.id, match: { kind: 'superseded', value: '1R-1807' } });
    expect(second[1]?.id).toBe(B.id); // the part itself stays findable, right after
    // An older number no longer sold as a part of its own.
    expect((await search('9Y4419'))[0]).toMatchObject({ id: C.id, match: { kind: 'superseded', value: '9Y-4419' } });
  });

  it('forgives one typo and finds by prefix as the buyer types, as part numbers do', async () => {
    // As close as the engine's own typos and prefixes: among the first results, not necessarily the first.
    const typo = await search('1R-0761'); // swapped digits
    expect(typo.slice(0, 3).find((h) => h.id === C.id)).toMatchObject({ match: { kind: 'superseded' } });
    const typing = await search('9Y441');
    expect(typing.slice(0, 3).find((h) => h.id === C.id)).toMatchObject({ match: { kind: 'superseded', value: '9Y-4419' } });
  });

  it('finds a part by another maker\'s number', async () => {
    for (const q of ['LF9080', 'lf-9080', 'Fleetguard LF9080', 'P551808', 'P55I808'.replace('I', '1')]) {
      expect((await search(q))[0], q).toMatchObject({ id: C.id, match: { kind: 'cross_reference' } });
    }
    expect((await search('LF9080'))[0]?.match?.value).toBe('Fleetguard LF9080');
    expect((await search('LF9O80'.replace('O', '0')))[0]?.id).toBe(C.id);
  });

  it('keeps a part\'s own number first when it is one, and leaves word searches as they were', async () => {
    expect((await search('1R-1808'))[0]).toMatchObject({ id: C.id });
    expect((await search('1R-1808'))[0]?.match).toBeUndefined();
    const words = await search('oil filter');
    expect(words.every((h) => h.match === undefined)).toBe(true);
  });

  it('narrows history hits by category and brand like the rest', async () => {
    expect(await search('LF9080', '&category=undercarriage')).toEqual([]);
    expect((await search('LF9080', '&brand=caterpillar'))[0]?.id).toBe(C.id);
  });

  it('tells an old part\'s page which part replaced it, at the end of the chain', async () => {
    const a = (await catalog.call(`/api/products/${A.id}`)).body as ProductDetail;
    expect(a.replacedBy).toEqual({ id: C.id, name: C.name, partNumber: '1R-1808', slug: C.slug });
    const b = (await catalog.call(`/api/products/${B.id}`)).body as ProductDetail;
    expect(b.replacedBy?.id).toBe(C.id);
    const c = (await catalog.call(`/api/products/${C.id}`)).body as ProductDetail;
    expect(c.replacedBy).toBeNull();
    expect(c).toMatchObject({ replaces: ['1R-1807', '9Y-4419'], crossReferences: C.crossReferences, fits: C.fits });
  });
});

describe('the machines parts fit', () => {
  it('lists makes and a make\'s models with part counts, and names an unknown make', async () => {
    const makes = (await catalog.call('/api/fitment/makes')).body as FitmentMakesResponse;
    expect(makes.makes).toEqual([
      { make: 'Caterpillar', slug: 'caterpillar', productCount: 2 },
      { make: 'Komatsu', slug: 'komatsu', productCount: 1 },
    ]);
    const models = (await catalog.call('/api/fitment/models?make=Caterpillar')).body as FitmentModelsResponse;
    expect(models).toEqual({
      make: 'Caterpillar',
      slug: 'caterpillar',
      models: [
        { model: '320D Excavator', slug: '320d-excavator', productCount: 1 },
        { model: 'D9T Dozer', slug: 'd9t-dozer', productCount: 2 },
      ],
    });
    const unknown = await catalog.call('/api/fitment/models?make=Tonka');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/Tonka/);
    const missing = await catalog.call('/api/fitment/models');
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body.issues)).toMatch(/make/);
  });

  it('narrows listings, the gallery and search to parts that fit, by serial too, with totals that follow', async () => {
    const list = async (path: string) => (await catalog.call(path)).body as ProductListResponse;
    const d9t = '&make=Caterpillar&model=D9T%20Dozer';
    const cat = await list(`/api/products?category=hydraulic-filters&limit=50${d9t}`);
    expect(cat.products.map((p) => p.id).sort()).toEqual([B.id, C.id]);
    expect(cat.pagination.totalProducts).toBe(2);
    const early = await list(`/api/products?category=hydraulic-filters&limit=50${d9t}&serial=RJS01000`);
    expect(early.products.map((p) => p.id)).toEqual([B.id]);
    const late = await list(`/api/catalog/products?limit=50${d9t}&serial=rjs-07000`);
    expect(late.products.map((p) => p.id)).toEqual([C.id]);
    expect(late.pagination.totalProducts).toBe(1);
    const brand = (await catalog.call('/api/brands/komatsu/products?make=komatsu')).body as ProductListResponse;
    expect(brand.products.map((p) => p.id)).toEqual([K.id]);
    const searched = await search('filter', `${d9t}&serial=RJS01000`);
    expect(searched.map((p) => p.id)).toEqual([B.id]);
    // An old number's part, narrowed to a machine it does not fit, is not shown.
    expect((await search('LF9080', '&make=komatsu')).map((p) => p.id)).toEqual([]);
    const none = await list('/api/catalog/products?make=Tonka');
    expect(none.products).toEqual([]);
    expect(none.pagination.totalProducts).toBe(0);
  });
});
