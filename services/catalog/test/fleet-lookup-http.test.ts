import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FLEET_MACHINES, MAX_FLEET_PARAM_CHARS, MAX_LOOKUP_ITEMS, ProductListResponseSchema, ProductLookupResponseSchema, type ProductLookupItem } from '@forgeline/contracts/products';
import { startFerretDb } from '@forgeline/test-support/ferretdb';
import { PRODUCTS, id, makeProduct } from './fixtures.ts';
import { startCatalog, storeAdapters, type CatalogUnderTest } from './harness.ts';

/**
 * Issue 35, the catalog's part, over HTTP on both stores (SQLite, and MongoDB's adapter on FerretDB) with the embedded
 * search: listings, the gallery and search narrowed to a buyer's fleet (`machines`), and the reorder lookup
 * (POST /api/products/lookup).
 */

// The fleet's parts. D9T units up to RJS04999 take D1, later ones D2; K2 fits a Komatsu and a Caterpillar model.
const D1 = makeProduct({ id: id(701), name: 'Final Drive Seal', sku: 'CAT-FD-1', category: 'Undercarriage', brandName: 'Caterpillar', fits: [{ make: 'Caterpillar', model: 'D9T Dozer', serialTo: 'RJS04999' }] });
const D2 = makeProduct({ id: id(702), name: 'Final Drive Seal Kit', sku: 'CAT-FD-2', category: 'Undercarriage', brandName: 'Caterpillar', fits: [{ make: 'Caterpillar', model: 'D9T Dozer', serialFrom: 'RJS05000' }] });
const E1 = makeProduct({ id: id(703), name: 'Bucket Tooth', sku: 'CAT-BT-1', category: 'Ground Engaging Tools', brandName: 'Caterpillar', fits: [{ make: 'Caterpillar', model: '320D Excavator' }] });
const K1 = makeProduct({ id: id(704), name: 'Track Roller', sku: 'KOM-TR-1', category: 'Undercarriage', brandName: 'Komatsu', fits: [{ make: 'Komatsu', model: 'PC200-8 Excavator' }] });
const K2 = makeProduct({
  id: id(705),
  name: 'Idler Group',
  sku: 'KOM-ID-1',
  category: 'Undercarriage',
  brandName: 'Komatsu',
  fits: [
    { make: 'Komatsu', model: 'PC200-8 Excavator' },
    { make: 'Caterpillar', model: '320D Excavator' },
  ],
});
const V1 = makeProduct({ id: id(706), name: 'Cab Air Filter', sku: 'VOL-CF-1', category: 'Undercarriage', brandName: 'Volvo', fits: [{ make: 'Volvo', model: 'EC480D' }] });

// The reorder's parts: A is replaced by B, B by C (today's part); R was taken off the storefront and L replaces it; X
// was taken off with nothing in its place.
const A = makeProduct({ id: id(711), name: 'Oil Filter (first issue)', sku: 'CAT-1R0716', partNumber: '1R-0716', category: 'Oil Filters', brandName: 'Caterpillar' });
const B = makeProduct({ id: id(712), name: 'Oil Filter (second issue)', sku: 'CAT-1R1807', partNumber: '1R-1807', category: 'Oil Filters', brandName: 'Caterpillar', replaces: ['1R-0716'] });
const C = makeProduct({ id: id(713), name: 'Oil Filter', sku: 'CAT-1R1808', partNumber: '1R-1808', category: 'Oil Filters', brandName: 'Caterpillar', replaces: ['1R-1807'] });
const R = makeProduct({ id: id(714), name: 'Water Pump (old)', sku: 'GEN-WP-1', partNumber: 'WP-100', category: 'Engine Parts', brandName: 'Generic' });
const L = makeProduct({ id: id(715), name: 'Water Pump', sku: 'GEN-WP-2', partNumber: 'WP-200', category: 'Engine Parts', brandName: 'Generic', replaces: ['WP-100'] });
const X = makeProduct({ id: id(716), name: 'Heater Core', sku: 'GEN-HC-1', partNumber: 'HC-1', category: 'Engine Parts', brandName: 'Generic' });

const ALL = [...PRODUCTS, D1, D2, E1, K1, K2, V1, A, B, C, R, L, X];

/** komatsu PC200-8 (0), a D9T of the first production run (1), a 320D by its names (2). */
const FLEET = ['komatsu~pc200-8-excavator', 'caterpillar~d9t-dozer~RJS01000', 'Caterpillar~320D Excavator'];
const machines = (list: string[]) => `machines=${encodeURIComponent(list.join(','))}`;

const ferret = await startFerretDb();
if ('skip' in ferret) console.warn(`[catalog] fleet and lookup over HTTP: skipping the MongoDB adapter on FerretDB: ${ferret.skip}`);
else afterAll(() => ferret.stop());

const adapters = storeAdapters(ferret);

describe.each(adapters)('fleet filter and reorder lookup over HTTP: $name', ({ skip, mongoUrl }) => {
  let catalog: CatalogUnderTest;
  beforeAll(async () => {
    if (skip) return;
    catalog = await startCatalog({ products: ALL, mongoUrl: mongoUrl?.(), retired: [R.id, X.id] });
  }, 120_000);
  afterAll(() => catalog?.stop());

  const list = async (path: string) => {
    const res = await catalog.call(path);
    expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(200);
    return ProductListResponseSchema.parse(res.body);
  };
  /** id → fitsMachines of a list's products, in the list's order. */
  const fits = (body: { products: { id: string; fitsMachines?: number[] }[] }) => body.products.map((p) => [p.id, p.fitsMachines]);

  describe.skipIf(Boolean(skip))('machines: a buyer\'s fleet', () => {
    it('keeps the parts that fit any machine of the fleet, each saying which by its index in the list', async () => {
      const body = await list(`/api/catalog/products?limit=48&${machines(FLEET)}`);
      // By name: Bucket Tooth, Final Drive Seal, Idler Group, Track Roller.
      expect(fits(body)).toEqual([
        [E1.id, [2]],
        [D1.id, [1]],
        [K2.id, [0, 2]],
        [K1.id, [0]],
      ]);
      expect(body.pagination).toMatchObject({ totalProducts: 4, totalPages: 1 });
      // The same machine named twice is fitted under both indices.
      const twice = await list(`/api/catalog/products?${machines(['volvo~ec480d', 'komatsu~pc200-8-excavator', 'volvo~ec480d'])}`);
      expect(fits(twice)).toEqual([
        [V1.id, [0, 2]],
        [K2.id, [1]],
        [K1.id, [1]],
      ]);
    });

    it('follows the serial ranges as the single filter does, the serial written any way', async () => {
      const d9t = (serial: string) => list(`/api/catalog/products?${machines([`caterpillar~d9t-dozer~${serial}`])}`);
      expect(fits(await d9t('RJS01000'))).toEqual([[D1.id, [0]]]);
      expect(fits(await d9t('rjs-07000'))).toEqual([[D2.id, [0]]]);
      expect(fits(await d9t('RJS4999'))).toEqual([[D1.id, [0]]]); // fewer digits: compared as the single filter compares
      expect((await d9t('ZZZ01000')).products).toEqual([]); // another production run
      const noSerial = await list(`/api/catalog/products?${machines(['caterpillar~d9t-dozer'])}`);
      expect(fits(noSerial)).toEqual([
        [D1.id, [0]],
        [D2.id, [0]],
      ]);
      // The fleet answers as the single filter would, machine by machine.
      const single = await list('/api/catalog/products?make=caterpillar&model=d9t-dozer&serial=rjs-07000');
      expect(single.products.map((p) => p.id)).toEqual([D2.id]);
      expect(single.products[0]).not.toHaveProperty('fitsMachines');
    });

    it('counts and pages a category, a brand and a category within a brand by the fleet', async () => {
      const pages = await Promise.all([0, 1, 2, 3].map((offset) => list(`/api/products?category=undercarriage&limit=1&offset=${offset}&${machines(FLEET)}`)));
      expect(pages.map((p) => fits(p)[0] ?? null)).toEqual([[D1.id, [1]], [K2.id, [0, 2]], [K1.id, [0]], null]);
      expect(pages[0]!.pagination).toMatchObject({ totalProducts: 3, totalPages: 3, hasNextPage: true });
      expect(pages[2]!.pagination).toMatchObject({ totalProducts: 3, currentPage: 3, hasNextPage: false });
      const brand = await list(`/api/brands/komatsu/products?${machines(FLEET)}`);
      expect([fits(brand), brand.pagination.totalProducts]).toEqual([
        [
          [K2.id, [0, 2]],
          [K1.id, [0]],
        ],
        2,
      ]);
      const byBrand = await list(`/api/products?brand=caterpillar&${machines(FLEET)}`);
      expect(fits(byBrand)).toEqual([
        [E1.id, [2]],
        [D1.id, [1]],
      ]);
      const pair = await list(`/api/products?category=undercarriage&brand=caterpillar&${machines(FLEET)}`);
      expect([fits(pair), pair.pagination.totalProducts]).toEqual([[[D1.id, [1]]], 1]);
      const none = await list(`/api/products?category=undercarriage&${machines(['tonka~dump-truck'])}`);
      expect([none.products, none.pagination.totalProducts]).toEqual([[], 0]);
    });

    it('narrows search to the fleet, its hits saying which machines they fit', async () => {
      const seals = await list(`/api/products?search=${encodeURIComponent('final drive seal')}&${machines(FLEET)}`);
      expect(fits(seals)).toEqual([[D1.id, [1]]]);
      const gallery = await list(`/api/catalog/products?search=idler&${machines(FLEET)}`);
      expect(fits(gallery)).toEqual([[K2.id, [0, 2]]]);
      expect((await list(`/api/products?search=${encodeURIComponent('cab air filter')}&${machines(FLEET)}`)).products).toEqual([]);
    });

    it('refuses machines beside make, model or serial, and names each bad entry by its index', async () => {
      for (const extra of ['make=komatsu', 'model=pc200-8-excavator', 'serial=RJS01000']) {
        const both = await catalog.call(`/api/products?category=undercarriage&${machines(FLEET)}&${extra}`);
        expect(both.status, extra).toBe(400);
        expect(both.body.issues).toEqual([{ path: 'machines', message: 'give either machines or make/model, not both' }]);
      }
      for (const path of ['/api/catalog/products?', '/api/brands/komatsu/products?']) {
        expect((await catalog.call(`${path}make=komatsu&${machines(FLEET)}`)).status, path).toBe(400);
      }
      const bad = await catalog.call(`/api/catalog/products?${machines(['komatsu~pc200-8-excavator', 'caterpillar', '~d9t', 'a~b~c~d', `a~${'m'.repeat(121)}`])}`);
      expect(bad.status).toBe(400);
      expect(bad.body.issues.map((i: { path: string }) => i.path)).toEqual(['machines.1', 'machines.2', 'machines.3', 'machines.4']);
      expect(bad.body.message).toMatch(/machines\.1 must be make~model or make~model~serial/);
      const tooMany = await catalog.call(`/api/catalog/products?${machines(Array.from({ length: MAX_FLEET_MACHINES + 1 }, () => 'komatsu~pc200-8-excavator'))}`);
      expect([tooMany.status, tooMany.body.issues]).toEqual([400, [{ path: 'machines', message: `must list at most ${MAX_FLEET_MACHINES} machines` }]]);
      const tooLong = await catalog.call(`/api/catalog/products?${machines([`komatsu~${'pc200-8-excavator'.repeat(40)}`.slice(0, 120), ...Array.from({ length: 70 }, () => `a~${'m'.repeat(70)}`)])}`);
      expect([tooLong.status, tooLong.body.issues]).toEqual([400, [{ path: 'machines', message: `must be at most ${MAX_FLEET_PARAM_CHARS.toLocaleString('en-US')} characters (send makes and models as slugs)` }]]);
      const repeated = await catalog.call('/api/catalog/products?machines=komatsu~pc200-8-excavator&machines=volvo~ec480d');
      expect([repeated.status, repeated.body.issues[0].path]).toEqual([400, 'machines']);
      // As many as allowed is fine; an empty parameter is no filter.
      const full = await list(`/api/catalog/products?${machines(Array.from({ length: MAX_FLEET_MACHINES }, (_, i) => (i === 99 ? 'volvo~ec480d' : 'komatsu~pc200-8-excavator')))}`);
      expect(full.products.find((p) => p.id === V1.id)?.fitsMachines).toEqual([99]);
      expect((await list('/api/catalog/products?machines=&limit=5')).pagination.totalProducts).toBe(ALL.length - 2);
    });
  });

  describe.skipIf(Boolean(skip))('POST /api/products/lookup', () => {
    const lookup = (body: unknown) => catalog.call('/api/products/lookup', { method: 'POST', body });
    const ids = (item: ProductLookupItem) => [item.requested, item.status, item.product?.id ?? null, item.replacedBy?.id ?? null];

    it('answers each id and SKU asked, in order: current, superseded (by the end of the chain) or not sold', async () => {
      const unknown = '99999999-9999-4999-8999-999999999999';
      const res = await lookup({ ids: [C.id, A.id, unknown, R.id, A.id], skus: [B.sku, 'NOPE-1', 'cat-1r1808', X.sku, L.sku] });
      expect(res.status).toBe(200);
      const body = ProductLookupResponseSchema.parse(res.body);
      expect(body.items.map(ids)).toEqual([
        [C.id, 'current', C.id, null],
        [A.id, 'superseded', A.id, C.id],
        [unknown, 'not_sold', null, null],
        // Taken off the storefront: not sold, with the part that replaced it.
        [R.id, 'not_sold', null, L.id],
        [A.id, 'superseded', A.id, C.id],
        [B.sku, 'superseded', B.id, C.id],
        ['NOPE-1', 'not_sold', null, null],
        // As the quote form finds a SKU: case and punctuation aside, when only one part matches.
        ['cat-1r1808', 'current', C.id, null],
        [X.sku, 'not_sold', null, null],
        [L.sku, 'current', L.id, null],
      ]);
      // Summaries, as lists show parts.
      expect(body.items[1]!.product).toMatchObject({ id: A.id, name: A.name, sku: A.sku, partNumber: '1R-0716', slug: A.slug });
      expect(body.items[1]!.replacedBy).toMatchObject({ id: C.id, name: C.name, partNumber: '1R-1808' });
      expect(body.items[1]!.product).not.toHaveProperty('description');
    });

    it('takes up to 200 ids and SKUs together, at least one, and refuses what is no id', async () => {
      const many = await lookup({ ids: Array.from({ length: 150 }, () => C.id), skus: Array.from({ length: 50 }, () => C.sku) });
      expect([many.status, many.body.items.length]).toEqual([200, MAX_LOOKUP_ITEMS]);
      const over = await lookup({ ids: Array.from({ length: 150 }, () => C.id), skus: Array.from({ length: 51 }, () => C.sku) });
      expect([over.status, over.body.issues]).toEqual([400, [{ path: 'ids', message: `give at most ${MAX_LOOKUP_ITEMS} ids and skus together` }]]);
      const overIds = await lookup({ ids: Array.from({ length: 201 }, () => C.id) });
      expect(overIds.status).toBe(400);
      expect(overIds.body.message).toMatch(/ids/);
      for (const body of [{}, { ids: [], skus: [] }]) {
        const empty = await lookup(body);
        expect([empty.status, empty.body.issues], JSON.stringify(body)).toEqual([400, [{ path: 'ids', message: 'give at least one id or sku' }]]);
      }
      const notUuid = await lookup({ ids: [C.id, 'not-a-uuid'] });
      expect([notUuid.status, notUuid.body.issues[0].path]).toEqual([400, 'ids.1']);
      const blankSku = await lookup({ skus: ['  '] });
      expect([blankSku.status, blankSku.body.issues[0].path]).toEqual([400, 'skus.0']);
      for (const body of [{ ids: C.id }, { skus: [{ $ne: '' }] }, [C.id]]) {
        expect((await lookup(body)).status, JSON.stringify(body)).toBe(400);
      }
    });
  });
});
