import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Product } from '@forgeline/contracts/products';
import type { ProductRepository } from '../src/ports.ts';
import { PRODUCTS, TESTIMONIALS, byName, id, makeProduct } from './fixtures.ts';

/**
 * The one contract every ProductRepository keeps. `factory` gives a fresh, empty repository per test;
 * the suite closes it afterwards.
 */
export function describeProductRepository(name: string, factory: () => Promise<ProductRepository>, opts: { skip?: string } = {}) {
  describe.skipIf(Boolean(opts.skip))(`ProductRepository contract: ${name}`, () => {
    let repo: ProductRepository;

    beforeEach(async () => {
      repo = await factory();
      await repo.upsertMany(PRODUCTS);
      await repo.insertTestimonials(TESTIMONIALS);
    });
    afterEach(async () => {
      await repo.close();
    });

    const names = (items: { name: string }[]) => items.map((p) => p.name);
    const inCategory = (slugName: string) => PRODUCTS.filter((p) => p.category === slugName).sort(byName);

    it('returns a product by id with every field as stored', async () => {
      const p = await repo.getById(id(1));
      expect(p).toEqual(PRODUCTS[0]);
      const out = await repo.getById(id(3));
      expect(out?.inStock).toBe(false);
      expect(out?.availability).toBe('On Request');
    });

    it('returns null for an unknown id', async () => {
      expect(await repo.getById(id(999))).toBeNull();
    });

    it('finds a product by sku, exactly or ignoring case and punctuation when only one matches', async () => {
      expect((await repo.getBySku('KOM-600-211-1231'))?.id).toBe(id(4));
      expect((await repo.getBySku('kom6002111231'))?.id).toBe(id(4));
      expect(await repo.getBySku('NOPE-1')).toBeNull();
    });

    it('hydrates summaries in the order asked, leaving unknown ids out', async () => {
      const items = await repo.getSummaries([id(5), id(999), id(1)]);
      expect(items.map((p) => p.id)).toEqual([id(5), id(1)]);
      expect(items[1]).toMatchObject({ name: 'Hydraulic Oil Filter', partNumber: '1R-0750', images: PRODUCTS[0]!.images, tags: ['filter', 'hydraulic'] });
      expect(items[1]).not.toHaveProperty('description');
      expect(await repo.getSummaries([])).toEqual([]);
    });

    it('lists a category by name with its total, page by page', async () => {
      const expected = names(inCategory('Hydraulic Filters'));
      const first = await repo.listByCategory({ categorySlug: 'hydraulic-filters', limit: 3, offset: 0 });
      expect(first.total).toBe(4);
      expect(names(first.items)).toEqual(expected.slice(0, 3));
      const second = await repo.listByCategory({ categorySlug: 'hydraulic-filters', limit: 3, offset: 3 });
      expect(second.total).toBe(4);
      expect(names(second.items)).toEqual(expected.slice(3));
      const beyond = await repo.listByCategory({ categorySlug: 'hydraulic-filters', limit: 3, offset: 30 });
      expect(beyond).toEqual({ items: [], total: 4 });
    });

    it('narrows a category to one brand', async () => {
      const page = await repo.listByCategory({ categorySlug: 'hydraulic-filters', brandSlug: 'caterpillar', limit: 10, offset: 0 });
      expect(page.total).toBe(3);
      expect(names(page.items)).toEqual(['Breather Element', 'Fuel Water Separator', 'Hydraulic Oil Filter']);
      const none = await repo.listByCategory({ categorySlug: 'hydraulic-filters', brandSlug: 'john-deere', limit: 10, offset: 0 });
      expect(none).toEqual({ items: [], total: 0 });
    });

    it('lists parts for the admin by name, narrowed by category, brand and stock', async () => {
      const all = [...PRODUCTS].sort(byName);
      expect(names(await repo.listForAdmin({ limit: 3 }))).toEqual(names(all.slice(0, 3)));
      expect(names(await repo.listForAdmin({ categorySlug: 'hydraulic-filters', limit: 10 }))).toEqual(names(inCategory('Hydraulic Filters')));
      expect(names(await repo.listForAdmin({ categorySlug: 'hydraulic-filters', brandSlug: 'caterpillar', limit: 2 }))).toEqual(['Breather Element', 'Fuel Water Separator']);
      expect(names(await repo.listForAdmin({ brandSlug: 'kassbohrer', limit: 10 }))).toEqual(['Carrier Roller', 'Track Roller']);
      expect(names(await repo.listForAdmin({ inStock: false, limit: 10 }))).toEqual(names(all.filter((p) => !p.inStock)));
      expect(names(await repo.listForAdmin({ categorySlug: 'hydraulic-filters', inStock: true, limit: 10 }))).toEqual(
        names(inCategory('Hydraulic Filters').filter((p) => p.inStock)),
      );
    });

    it('answers an unknown category with an empty page', async () => {
      expect(await repo.listByCategory({ categorySlug: 'no-such-category', limit: 10, offset: 0 })).toEqual({ items: [], total: 0 });
    });

    it('lists a brand across categories', async () => {
      const page = await repo.listByBrand({ brandSlug: 'kassbohrer', limit: 10, offset: 0 });
      expect(page.total).toBe(2);
      expect(names(page.items)).toEqual(['Carrier Roller', 'Track Roller']);
      expect((await repo.listByBrand({ brandSlug: 'john-deere', limit: 1, offset: 1 })).items.map((p) => p.name)).toEqual(['Oil Filter']);
    });

    it('lists everything for the gallery with the total count', async () => {
      const page = await repo.listAll({ limit: 4, offset: 2 });
      expect(page.total).toBe(PRODUCTS.length);
      expect(names(page.items)).toEqual(names([...PRODUCTS].sort(byName)).slice(2, 6));
      expect(await repo.count()).toBe(PRODUCTS.length);
    });

    it('gives list pages the same summaries as getSummaries, also for text JSON must escape', async () => {
      const odd = makeProduct({
        id: id(900),
        sku: 'CAT-ODD-900',
        name: 'Aa Seal "Kit" \\ 1½" — Ø40 mm\ttab',
        category: 'Hydraulic Filters',
        brandName: 'Caterpillar',
        inStock: false,
        availability: 'On "Request"',
      });
      await repo.upsertMany([odd]);
      const pages = [
        await repo.listAll({ limit: 50, offset: 0 }),
        await repo.listByCategory({ categorySlug: 'hydraulic-filters', limit: 50, offset: 0 }),
        await repo.listByBrand({ brandSlug: 'caterpillar', limit: 50, offset: 1 }),
      ];
      for (const page of pages) {
        expect(page.items.length).toBeGreaterThan(0);
        // (SQLite composes list pages as JSON text in SQL, and getSummaries from row objects.)
        expect(page.items).toEqual(await repo.getSummaries(page.items.map((p) => p.id)));
      }
      expect(pages[0]!.items.find((p) => p.id === odd.id)).toMatchObject({ name: odd.name, tags: [], inStock: false, availability: 'On "Request"' });
    });

    it('finds categories and brands by slug with their display names and counts', async () => {
      expect(await repo.findCategory('rodillos-de-oruga')).toEqual({ name: 'Rodillos de Oruga', slug: 'rodillos-de-oruga', productCount: 2 });
      expect(await repo.findBrand('kassbohrer')).toEqual({ name: 'Kässbohrer', slug: 'kassbohrer', productCount: 2 });
      expect(await repo.findBrand('john-deere')).toMatchObject({ name: 'John Deere', productCount: 2 });
      expect(await repo.findCategory('nothing')).toBeNull();
      expect(await repo.findBrand('nothing')).toBeNull();
    });

    it('lists one subcategory per category and brand pair with its product count', async () => {
      const subs = await repo.listSubcategories();
      expect(subs.map((s) => [s.brandSlug, s.categorySlug, s.productCount])).toEqual([
        ['caterpillar', 'hydraulic-filters', 3],
        ['generic', 'engine-parts', 1],
        ['jcb', 'engine-parts', 1],
        ['john-deere', 'engine-parts', 2],
        ['kassbohrer', 'rodillos-de-oruga', 2],
        ['komatsu', 'hydraulic-filters', 1],
      ]);
      expect(subs[0]).toEqual({
        id: 'hydraulic-filters--caterpillar',
        name: 'Caterpillar Hydraulic Filters',
        brand: 'Caterpillar',
        category: 'Hydraulic Filters',
        brandSlug: 'caterpillar',
        categorySlug: 'hydraulic-filters',
        productCount: 3,
      });
    });

    it('replaces a product whose sku exists, moving the counts with it', async () => {
      const moved: Product = { ...PRODUCTS[3]!, category: 'Engine Parts', name: 'Return Filter Mk2' };
      await repo.upsertMany([moved]);
      expect(await repo.count()).toBe(PRODUCTS.length);
      expect((await repo.getById(id(4)))?.name).toBe('Return Filter Mk2');
      expect((await repo.findCategory('hydraulic-filters'))?.productCount).toBe(3);
      expect((await repo.findCategory('engine-parts'))?.productCount).toBe(5);
      const subs = await repo.listSubcategories();
      expect(subs.find((s) => s.id === 'hydraulic-filters--komatsu')).toBeUndefined();
      expect(subs.find((s) => s.id === 'engine-parts--komatsu')?.productCount).toBe(1);
      const page = await repo.listByCategory({ categorySlug: 'engine-parts', brandSlug: 'komatsu', limit: 10, offset: 0 });
      expect(names(page.items)).toEqual(['Return Filter Mk2']);
    });

    it('adds new products to every total at once', async () => {
      const extra = makeProduct({ id: id(11), name: 'Bucket Tooth', sku: 'CAT-1U3352', category: 'Ground Engaging Tools', brandName: 'CATERPILLAR' });
      await repo.upsertMany([extra]);
      expect(await repo.count()).toBe(PRODUCTS.length + 1);
      expect((await repo.listAll({ limit: 1, offset: 0 })).total).toBe(PRODUCTS.length + 1);
      expect((await repo.findBrand('caterpillar'))?.productCount).toBe(4);
      expect((await repo.listByBrand({ brandSlug: 'caterpillar', limit: 10, offset: 0 })).total).toBe(4);
      expect((await repo.findCategory('ground-engaging-tools'))?.productCount).toBe(1);
    });

    it('replaces a product whose id exists under another sku', async () => {
      await repo.upsertMany([{ ...PRODUCTS[4]!, sku: 'JD-RE504836-B' }]);
      expect(await repo.count()).toBe(PRODUCTS.length);
      expect(await repo.getBySku('JD-RE504836')).toBeNull();
      expect((await repo.getById(id(5)))?.sku).toBe('JD-RE504836-B');
    });

    it('writes many products in one call', async () => {
      const many = Array.from({ length: 250 }, (_, i) =>
        makeProduct({ id: id(1000 + i), name: `Seal Kit ${String(i).padStart(3, '0')}`, sku: `SK-${i}`, category: 'Seals', brandName: 'Volvo' }),
      );
      await repo.upsertMany(many);
      const page = await repo.listByCategory({ categorySlug: 'seals', brandSlug: 'volvo', limit: 100, offset: 200 });
      expect(page.total).toBe(250);
      expect(page.items.map((p) => p.name)).toEqual(many.slice(200).map((p) => p.name));
    });

    it('serves pages in the back half in the same order as from the front', async () => {
      const many = Array.from({ length: 41 }, (_, i) =>
        makeProduct({ id: id(2000 + i), name: `Pin ${String(i % 7)}`, sku: `PIN-${i}`, category: 'Pins', brandName: i % 2 ? 'Volvo' : 'Doosan' }),
      );
      await repo.upsertMany(many);
      const expected = [...many].sort(byName).map((p) => p.id);
      const pages: string[] = [];
      for (let offset = 0; offset < 41; offset += 6) {
        const page = await repo.listByCategory({ categorySlug: 'pins', limit: 6, offset });
        pages.push(...page.items.map((p) => p.id));
      }
      expect(pages).toEqual(expected);
      const last = await repo.listAll({ limit: 4, offset: PRODUCTS.length + 41 - 3 });
      expect(last.items.map((p) => p.id)).toEqual([...PRODUCTS, ...many].sort(byName).slice(-3).map((p) => p.id));
      const brandTail = await repo.listByBrand({ brandSlug: 'volvo', limit: 5, offset: 17 });
      expect(brandTail.items.map((p) => p.id)).toEqual(many.filter((p) => p.brandName === 'Volvo').sort(byName).slice(17).map((p) => p.id));
    });

    it('serves deep pages (past several page anchors) exactly as a walk from the start would, also after writes that shift them', async () => {
      // ANCHOR_STRIDE (256) keys apart: 1,300 parts span five anchors; names repeat so ties break by id.
      const many = Array.from({ length: 1_300 }, (_, i) =>
        makeProduct({ id: id(10_000 + i), name: `Bolt ${String(i % 97).padStart(2, '0')}`, sku: `BOLT-${i}`, category: 'Bolts', brandName: i % 3 ? 'Volvo' : 'Doosan' }),
      );
      await repo.upsertMany(many);
      const check = async (parts: Product[]) => {
        const sorted = [...parts].sort(byName).map((p) => p.id);
        for (const offset of [0, 255, 256, 257, 511, 700, 1_024, 1_250, sorted.length - 5]) {
          const page = await repo.listByCategory({ categorySlug: 'bolts', limit: 10, offset });
          expect(page.items.map((p) => p.id), `offset ${offset}`).toEqual(sorted.slice(offset, offset + 10));
          expect(page.total).toBe(sorted.length);
        }
        const volvo = parts.filter((p) => p.brandName === 'Volvo').sort(byName).map((p) => p.id);
        for (const offset of [300, 600, volvo.length - 3]) {
          expect((await repo.listByCategory({ categorySlug: 'bolts', brandSlug: 'volvo', limit: 7, offset })).items.map((p) => p.id)).toEqual(volvo.slice(offset, offset + 7));
          expect((await repo.listByBrand({ brandSlug: 'volvo', limit: 7, offset })).items.map((p) => p.id)).toEqual(
            [...parts, ...PRODUCTS].filter((p) => p.brandName === 'Volvo').sort(byName).map((p) => p.id).slice(offset, offset + 7),
          );
        }
        const all = [...PRODUCTS, ...parts].sort(byName).map((p) => p.id);
        expect((await repo.listAll({ limit: 12, offset: 900 })).items.map((p) => p.id)).toEqual(all.slice(900, 912));
      };
      await check(many);
      // New parts sorting first, and one renamed to the end, move every later part along.
      const early = Array.from({ length: 40 }, (_, i) => makeProduct({ id: id(20_000 + i), name: `Aa Bolt ${i}`, sku: `AA-${i}`, category: 'Bolts', brandName: 'Volvo' }));
      const renamed = { ...many[5]!, name: 'Zz Bolt' };
      await repo.upsertMany([...early, renamed]);
      await check([...many.filter((p) => p.id !== renamed.id), renamed, ...early]);
    });

    it('updates images and keeps the counts', async () => {
      const updated = await repo.updateImages(id(2), { images: ['/media/a.webp', '/media/b.webp'], imageUrl: '/media/a.webp' });
      expect(updated).toMatchObject({ id: id(2), images: ['/media/a.webp', '/media/b.webp'], imageUrl: '/media/a.webp', name: 'Fuel Water Separator' });
      expect((await repo.getSummaries([id(2)]))[0]?.images).toEqual(['/media/a.webp', '/media/b.webp']);
      expect(await repo.count()).toBe(PRODUCTS.length);
      expect(await repo.updateImages(id(999), { images: [], imageUrl: '' })).toBeNull();
    });

    it('shows new images and names in pages read before the write', async () => {
      const before = await repo.listByCategory({ categorySlug: 'hydraulic-filters', brandSlug: 'caterpillar', limit: 10, offset: 0 });
      expect(before.items.find((p) => p.id === id(2))?.images).toEqual([]);
      await repo.listAll({ limit: 5, offset: 0 });
      await repo.updateImages(id(2), { images: ['/media/new.webp'], imageUrl: '/media/new.webp' });
      const after = await repo.listByCategory({ categorySlug: 'hydraulic-filters', brandSlug: 'caterpillar', limit: 10, offset: 0 });
      expect(after.items.find((p) => p.id === id(2))?.images).toEqual(['/media/new.webp']);
      await repo.upsertMany([{ ...PRODUCTS[0]!, name: 'Aardvark Filter' }]);
      expect((await repo.listAll({ limit: 5, offset: 0 })).items[0]?.name).toBe('Aardvark Filter');
    });

    it('finds products by part number or sku prefix, ignoring case and punctuation', async () => {
      expect((await repo.findByCode('1r0750', 10)).map((p) => p.id)).toEqual([id(1)]);
      expect((await repo.findByCode('1R-07', 10)).map((p) => p.id).sort()).toEqual([id(1), id(2), id(3)]);
      expect((await repo.findByCode('600 211', 10)).map((p) => p.id)).toEqual([id(4)]);
      expect((await repo.findByCode('jd-re5', 10)).map((p) => p.id).sort()).toEqual([id(5), id(6)]);
      expect(await repo.findByCode('ZZZ999', 10)).toEqual([]);
      expect(await repo.findByCode('--', 10)).toEqual([]);
      expect(await repo.findByCode('1R07', 2)).toHaveLength(2);
    });

    it('lists testimonials newest first, optionally only featured ones', async () => {
      expect((await repo.listTestimonials({})).map((t) => t.id)).toEqual(['t-3', 't-1', 't-2']);
      const featured = await repo.listTestimonials({ featured: true });
      expect(featured.map((t) => t.id)).toEqual(['t-3', 't-1']);
      expect(featured[1]).toEqual(TESTIMONIALS[0]);
      expect((await repo.listTestimonials({ featured: false })).map((t) => t.id)).toEqual(['t-2']);
    });

    it('scans every product in batches', async () => {
      const seen: string[] = [];
      let batches = 0;
      for await (const batch of repo.scan(3)) {
        batches++;
        expect(batch.length).toBeLessThanOrEqual(3);
        seen.push(...batch.map((p) => p.id));
      }
      expect(batches).toBeGreaterThanOrEqual(4);
      expect(seen.sort()).toEqual(PRODUCTS.map((p) => p.id).sort());
      const full = await (async () => {
        for await (const batch of repo.scan(100)) return batch.find((p) => p.id === id(1));
      })();
      expect(full).toEqual(PRODUCTS[0]);
    });

    // The seller's catalogue: imports and edits write with an audit; parts leave the storefront and come back.
    const audit = (p: Product, action: 'created' | 'updated' | 'deactivated' | 'reactivated', fields: string[] = []) => ({
      at: '2026-11-23T10:00:00.000Z',
      actor: 'ops@example.com',
      source: 'import:test',
      productId: p.id,
      sku: p.sku,
      action,
      fields,
    });

    it('reads parts by SKU, writes changes with their audit, and takes parts off the storefront and back', async () => {
      const [a, b] = [PRODUCTS[0]!, PRODUCTS[1]!];
      const found = await repo.getBySkus([a.sku, b.sku, 'NO-SUCH-SKU']);
      expect([...found.keys()].sort()).toEqual([a.sku, b.sku].sort());
      expect(found.get(a.sku)).toEqual({ product: a, active: true });

      const fresh = makeProduct({ id: id(900), name: 'Swing Motor Seal Kit', sku: 'NEW-900', category: 'Swing Motors', brandName: 'Zeta Hydraulics' });
      await repo.applyChanges([{ ...a, price: 777 }, fresh], [audit(a, 'updated', ['price']), audit(fresh, 'created')]);
      expect((await repo.getById(a.id))?.price).toBe(777);
      expect((await repo.listSubcategories()).find((s) => s.brand === 'Zeta Hydraulics')).toMatchObject({ category: 'Swing Motors', productCount: 1 });
      const total = await repo.count();

      const moved = await repo.deactivate([fresh.id, id(999)], [audit(fresh, 'deactivated')]);
      expect(moved.map((p) => p.id)).toEqual([fresh.id]);
      expect(await repo.getById(fresh.id)).toBeNull();
      expect(await repo.getDeactivated(fresh.id)).toEqual(fresh);
      expect(await repo.count()).toBe(total - 1);
      expect((await repo.listSubcategories()).find((s) => s.brand === 'Zeta Hydraulics')).toBeUndefined();
      expect((await repo.getBySkus(['NEW-900'])).get('NEW-900')).toEqual({ product: fresh, active: false });
      const skus: string[] = [];
      for await (const page of repo.scanSkus(2)) skus.push(...page.map((p) => p.sku));
      expect(skus).toHaveLength(total - 1);
      expect(skus).not.toContain('NEW-900');

      await repo.applyChanges([fresh], [audit(fresh, 'reactivated')]);
      expect(await repo.getById(fresh.id)).toEqual(fresh);
      expect(await repo.getDeactivated(fresh.id)).toBeNull();
      expect(await repo.count()).toBe(total);

      const history = await repo.listAudit({ productId: fresh.id, limit: 10 });
      expect(history.map((h) => h.action)).toEqual(['reactivated', 'deactivated', 'created']);
      expect(history[2]).toEqual(audit(fresh, 'created'));
      expect((await repo.listAudit({ source: 'import:test', limit: 2 })).map((h) => h.action)).toEqual(['reactivated', 'deactivated']);
      expect((await repo.listAudit({ limit: 1 })).map((h) => h.action)).toEqual(['reactivated']);
    });

    describe('a part\'s history and the machines it fits', () => {
      const current = makeProduct({
        id: id(501),
        name: 'Engine Oil Filter (current)',
        sku: 'HX-C',
        partNumber: '1R-1808',
        category: 'Hydraulic Filters',
        brandName: 'Caterpillar',
        replaces: ['1R-0716', '9Y-4419'],
        crossReferences: [{ brand: 'Fleetguard', partNumber: 'LF9080' }],
        fits: [
          { make: 'Caterpillar', model: 'D9T', serialFrom: 'RJS00001', serialTo: 'RJS09999' },
          { make: 'Caterpillar', model: '320D' },
          { make: 'Komatsu', model: 'PC200-8' },
        ],
      });
      const older = makeProduct({
        id: id(502),
        name: 'Engine Oil Filter (old)',
        sku: 'HX-B',
        partNumber: '1R-0716',
        category: 'Hydraulic Filters',
        brandName: 'Caterpillar',
        fits: [{ make: 'Caterpillar', model: 'D9T', serialFrom: 'RJS10000' }],
      });

      it('stores replaces, cross-references and fits as given, and leaves them out when there are none', async () => {
        await repo.upsertMany([current, older]);
        expect(await repo.getById(id(501))).toEqual(current);
        expect(await repo.getById(id(502))).toEqual(older);
        const plain = await repo.getById(id(1));
        expect(plain).not.toHaveProperty('replaces');
        expect(plain).not.toHaveProperty('fits');
      });

      it('finds parts by an older number or a cross-reference key, exactly or by prefix, and forgets them when changed', async () => {
        await repo.upsertMany([current, older]);
        const byKey = await repo.findAltCodes({ keys: ['1R0716', 'LF9080', 'NOPE'], limit: 10 });
        expect(byKey.map((h) => [h.productId, h.kind, h.key, h.value]).sort()).toEqual(
          [
            [id(501), 'cross_reference', 'LF9080', 'Fleetguard LF9080'],
            [id(501), 'superseded', '1R0716', '1R-0716'],
          ].sort(),
        );
        expect((await repo.findAltCodes({ keys: ['1R0716'], kind: 'cross_reference', limit: 10 })).length).toBe(0);
        expect((await repo.findAltCodes({ keys: [], prefix: '9Y44', limit: 10 })).map((h) => h.value)).toEqual(['9Y-4419']);
        await repo.applyChanges([{ ...current, replaces: ['9Y-4419'], crossReferences: undefined }], []);
        expect((await repo.findAltCodes({ keys: ['1R0716', 'LF9080', '9Y4419'], limit: 10 })).map((h) => h.key)).toEqual(['9Y4419']);
        await repo.deactivate([id(501)], []);
        expect(await repo.findAltCodes({ keys: ['9Y4419'], limit: 10 })).toEqual([]);
      });

      it('finds parts by a piece inside an older number or a cross-reference (#36), and not by pieces of numbers changed away', async () => {
        await repo.upsertMany([current, older]);
        expect((await repo.findAltCodes({ keys: [], infix: '0716', limit: 10 })).map((h) => [h.productId, h.key])).toEqual([[id(501), '1R0716']]);
        expect((await repo.findAltCodes({ keys: [], infix: '9080', limit: 10 })).map((h) => h.value)).toEqual(['Fleetguard LF9080']);
        expect((await repo.findAltCodes({ keys: [], infix: 'F908', kind: 'superseded', limit: 10 }))).toEqual([]);
        expect(await repo.findAltCodes({ keys: [], infix: '7777', limit: 10 })).toEqual([]);
        await repo.applyChanges([{ ...current, replaces: ['9Y-4419'], crossReferences: undefined }], []);
        expect(await repo.findAltCodes({ keys: [], infix: '9080', limit: 10 })).toEqual([]);
        expect((await repo.findAltCodes({ keys: [], infix: '4419', limit: 10 })).map((h) => h.key)).toEqual(['9Y4419']);
      });

      it('lists the makes and models parts fit, with counts of parts', async () => {
        await repo.upsertMany([current, older]);
        expect(await repo.listMachineMakes()).toEqual([
          { name: 'Caterpillar', slug: 'caterpillar', productCount: 2 },
          { name: 'Komatsu', slug: 'komatsu', productCount: 1 },
        ]);
        expect(await repo.listMachineModels('caterpillar')).toEqual({
          make: { name: 'Caterpillar', slug: 'caterpillar', productCount: 2 },
          models: [
            { name: '320D', slug: '320d', productCount: 1 },
            { name: 'D9T', slug: 'd9t', productCount: 2 },
          ],
        });
        expect(await repo.listMachineModels('volvo')).toBeNull();
      });

      it('narrows lists to the parts that fit a machine, by make, model and serial, with counts that follow', async () => {
        await repo.upsertMany([current, older]);
        const d9t = { makeSlug: 'caterpillar', modelSlug: 'd9t' };
        const all = await repo.listAll({ limit: 10, offset: 0, machine: d9t });
        expect([all.total, names(all.items)]).toEqual([2, ['Engine Oil Filter (current)', 'Engine Oil Filter (old)']]);
        const early = await repo.listByCategory({ categorySlug: 'hydraulic-filters', limit: 10, offset: 0, machine: { ...d9t, serial: 'RJS01500' } });
        expect([early.total, names(early.items)]).toEqual([1, ['Engine Oil Filter (current)']]);
        const late = await repo.listByCategory({ categorySlug: 'hydraulic-filters', brandSlug: 'caterpillar', limit: 10, offset: 0, machine: { ...d9t, serial: 'RJS12000' } });
        expect(names(late.items)).toEqual(['Engine Oil Filter (old)']);
        const otherRun = await repo.listAll({ limit: 10, offset: 0, machine: { ...d9t, serial: 'ZZZ01500' } });
        expect(otherRun.total).toBe(0);
        const komatsu = await repo.listByBrand({ brandSlug: 'caterpillar', limit: 1, offset: 0, machine: { makeSlug: 'komatsu' } });
        expect([komatsu.total, names(komatsu.items)]).toEqual([1, ['Engine Oil Filter (current)']]);
        const page2 = await repo.listAll({ limit: 1, offset: 1, machine: d9t });
        expect(names(page2.items)).toEqual(['Engine Oil Filter (old)']);
        expect([...(await repo.idsFitting({ ...d9t, serial: 'RJS01500' }))]).toEqual([id(501)]);
        expect((await repo.idsFitting({ makeSlug: 'caterpillar' })).size).toBe(2);
        // A change of fitment shows at once.
        await repo.applyChanges([{ ...older, fits: undefined }], []);
        expect((await repo.listAll({ limit: 10, offset: 0, machine: d9t })).total).toBe(1);
      });
    });

    describe('a buyer\'s fleet', () => {
      const fits = (items: { name: string; fitsMachines?: number[] }[]) => items.map((p) => [p.name, p.fitsMachines]);
      const d9tEarly = makeProduct({ id: id(521), name: 'Final Drive Seal', sku: 'FL-1', category: 'Undercarriage', brandName: 'Caterpillar', fits: [{ make: 'Caterpillar', model: 'D9T', serialTo: 'RJS04999' }] });
      const d9tLate = makeProduct({ id: id(522), name: 'Final Drive Seal Kit', sku: 'FL-2', category: 'Undercarriage', brandName: 'Caterpillar', fits: [{ make: 'Caterpillar', model: 'D9T', serialFrom: 'RJS05000' }] });
      const both = makeProduct({
        id: id(523),
        name: 'Idler Group',
        sku: 'FL-3',
        category: 'Undercarriage',
        brandName: 'Komatsu',
        fits: [
          { make: 'Komatsu', model: 'PC200-8' },
          { make: 'Caterpillar', model: '320D', serialFrom: 'CBR00001' },
        ],
      });
      const komatsu = makeProduct({ id: id(524), name: 'Track Roller', sku: 'FL-4', category: 'Undercarriage', brandName: 'Komatsu', fits: [{ make: 'Komatsu', model: 'PC200-8' }] });
      const elsewhere = makeProduct({ id: id(525), name: 'Bucket Tooth', sku: 'FL-5', category: 'Ground Engaging Tools', brandName: 'Caterpillar', fits: [{ make: 'Caterpillar', model: '320D' }] });
      const parts = [d9tEarly, d9tLate, both, komatsu, elsewhere];
      /** PC200-8 (0), a D9T of the first run (1), a 320D (2). */
      const fleet = [
        { makeSlug: 'komatsu', modelSlug: 'pc200-8' },
        { makeSlug: 'caterpillar', modelSlug: 'd9t', serial: 'RJS01000' },
        { makeSlug: 'caterpillar', modelSlug: '320d', serial: 'CBR00500' },
      ];

      it('narrows lists to the parts that fit any of its machines, by serial too, each with the machines it fits, counts following', async () => {
        await repo.upsertMany(parts);
        const all = await repo.listAll({ limit: 10, offset: 0, fleet });
        expect([all.total, fits(all.items)]).toEqual([
          4,
          [
            ['Bucket Tooth', [2]],
            ['Final Drive Seal', [1]],
            ['Idler Group', [0, 2]],
            ['Track Roller', [0]],
          ],
        ]);
        const category = await repo.listByCategory({ categorySlug: 'undercarriage', limit: 2, offset: 1, fleet });
        expect([category.total, fits(category.items)]).toEqual([
          3,
          [
            ['Idler Group', [0, 2]],
            ['Track Roller', [0]],
          ],
        ]);
        const pair = await repo.listByCategory({ categorySlug: 'undercarriage', brandSlug: 'caterpillar', limit: 10, offset: 0, fleet });
        expect([pair.total, fits(pair.items)]).toEqual([1, [['Final Drive Seal', [1]]]]);
        const pairByKeys = await repo.listByCategory({ categorySlug: 'undercarriage', brandSlug: 'komatsu', limit: 10, offset: 0, fleet: [fleet[0]!] });
        expect(fits(pairByKeys.items)).toEqual([
          ['Idler Group', [0]],
          ['Track Roller', [0]],
        ]);
        const brand = await repo.listByBrand({ brandSlug: 'komatsu', limit: 1, offset: 1, fleet });
        expect([brand.total, fits(brand.items)]).toEqual([2, [['Track Roller', [0]]]]);
        // Without serials, by keys alone; a later run's serial; a serial of another run.
        const plain = fleet.map(({ makeSlug, modelSlug }) => ({ makeSlug, modelSlug }));
        expect((await repo.listAll({ limit: 10, offset: 0, fleet: plain })).total).toBe(5);
        const late = await repo.listByCategory({ categorySlug: 'undercarriage', limit: 10, offset: 0, fleet: [{ makeSlug: 'caterpillar', modelSlug: 'd9t', serial: 'RJS07000' }] });
        expect(fits(late.items)).toEqual([['Final Drive Seal Kit', [0]]]);
        expect((await repo.listAll({ limit: 10, offset: 0, fleet: [{ makeSlug: 'caterpillar', modelSlug: 'd9t', serial: 'ZZZ01000' }] })).total).toBe(0);
        expect(await repo.listAll({ limit: 10, offset: 10, fleet })).toEqual({ items: [], total: 4 });
        // A change of fitment shows at once.
        await repo.applyChanges([{ ...komatsu, fits: undefined }], []);
        expect((await repo.listAll({ limit: 10, offset: 0, fleet })).total).toBe(3);
      });

      it('gives the ids of the parts that fit any of its machines, and which machines given parts fit', async () => {
        await repo.upsertMany(parts);
        expect([...(await repo.idsFittingAny(fleet))].sort()).toEqual([d9tEarly.id, both.id, komatsu.id, elsewhere.id].sort());
        const which = await repo.fleetFits([both.id, d9tLate.id, elsewhere.id, id(1), id(999)], fleet);
        expect([...which.entries()].sort()).toEqual(
          [
            [both.id, [0, 2]],
            [elsewhere.id, [2]],
          ].sort(),
        );
      });
    });

    it('keeps import jobs and all their errors, and marks the unfinished ones failed', async () => {
      const job = {
        id: '11111111-1111-4111-8111-111111111111',
        state: 'running' as const,
        dryRun: false,
        missing: 'keep' as const,
        fileName: 'parts.csv',
        total: 10,
        processed: 4,
        created: 1,
        updated: 2,
        unchanged: 1,
        deactivated: 0,
        errorCount: 3,
        errors: [{ row: 2, column: 'price', message: 'is not a price' }],
        unknownColumns: ['Colour'],
        message: null,
        createdBy: 'ops@example.com',
        createdAt: '2026-11-23T10:00:00.000Z',
        startedAt: '2026-11-23T10:00:01.000Z',
        finishedAt: null,
      };
      await repo.saveImportJob(job);
      expect(await repo.getImportJob(job.id)).toEqual(job);
      expect(await repo.getImportJob('22222222-2222-4222-8222-222222222222')).toBeNull();
      await repo.addImportErrors(job.id, [
        { row: 2, column: 'price', message: 'is not a price' },
        { row: 5, column: 'sku', message: 'is empty' },
      ]);
      await repo.addImportErrors(job.id, [{ row: 9, column: 'name', message: 'is required' }]);
      const all = [];
      for await (const page of repo.importErrors(job.id, 2)) all.push(...page);
      expect(all.map((e) => e.row)).toEqual([2, 5, 9]);
      expect(await repo.failUnfinishedImports('stopped', '2026-11-23T11:00:00.000Z')).toBe(1);
      expect(await repo.getImportJob(job.id)).toEqual({ ...job, state: 'failed', message: 'stopped', finishedAt: '2026-11-23T11:00:00.000Z' });
      expect(await repo.failUnfinishedImports('stopped', '2026-11-23T11:00:00.000Z')).toBe(0);
    });
  });
}
