import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@forgeline/test-support/net';
import { SqliteProductRepository } from '../src/adapters/sqlite/sqlite-product-repository.ts';
import { fitKeyOf, fleetFits } from '../src/domain/part-history.ts';
import { describeProductRepository } from './product-repository.contract.ts';
import { PRODUCTS, id, makeProduct } from './fixtures.ts';

const dirs: Array<() => void> = [];
afterAll(() => {
  for (const remove of dirs) remove();
});

async function freshFile() {
  const tmp = tempDir('catalog-sqlite-');
  dirs.push(tmp.remove);
  return path.join(tmp.dir, 'catalog.sqlite');
}

describeProductRepository('sqlite', async () => SqliteProductRepository.open(await freshFile()));

describe('SqliteProductRepository', () => {
  it('sees totals written by another connection (the seed CLI writes while the service runs)', async () => {
    const file = await freshFile();
    const service = SqliteProductRepository.open(file);
    const seeder = SqliteProductRepository.open(file);
    try {
      await seeder.upsertMany(PRODUCTS.slice(0, 2));
      expect(await service.count()).toBe(2);
      await seeder.upsertMany([makeProduct({ id: id(50), name: 'Idler', sku: 'ID-1', category: 'Undercarriage', brandName: 'Hitachi' })]);
      expect(await service.count()).toBe(3);
      expect((await service.findBrand('hitachi'))?.productCount).toBe(1);
      expect((await service.listAll({ limit: 10, offset: 0 })).items.map((p) => p.name)).toContain('Idler');
      await seeder.upsertMany([{ ...PRODUCTS[0]!, name: 'Aardvark Filter' }]);
      expect((await service.listAll({ limit: 10, offset: 0 })).items[0]?.name).toBe('Aardvark Filter');
    } finally {
      await service.close();
      await seeder.close();
    }
  });

  it("pages a fleet's listing from its kept list until a write here or another connection's commit changes a fit", async () => {
    const file = await freshFile();
    const service = SqliteProductRepository.open(file);
    const editor = SqliteProductRepository.open(file);
    const part = (n: number, fits: { make: string; model: string; serialFrom?: string; serialTo?: string }[]) =>
      makeProduct({ id: id(800 + n), name: `Roller ${String(n).padStart(2, '0')}`, sku: `RL-${n}`, category: 'Undercarriage', brandName: 'Caterpillar', fits });
    const fleet = [
      { makeSlug: 'caterpillar', modelSlug: 'd9t', serial: 'RJS00100' },
      { makeSlug: 'komatsu', modelSlug: 'pc200' },
    ];
    const page = async (offset: number) => {
      const p = await service.listByCategory({ categorySlug: 'undercarriage', limit: 4, offset, fleet });
      return { total: p.total, items: p.items.map((i) => [i.name, i.fitsMachines]) };
    };
    try {
      const parts = Array.from({ length: 10 }, (_, n) => part(n, [{ make: n % 2 ? 'Komatsu' : 'Caterpillar', model: n % 2 ? 'PC200' : 'D9T' }]));
      await service.upsertMany(parts);
      // The first page reads the listing; the next, the listing asked again, reads it whole and keeps it.
      expect(await page(0)).toEqual({ total: 10, items: [['Roller 00', [0]], ['Roller 01', [1]], ['Roller 02', [0]], ['Roller 03', [1]]] });
      expect(await page(4)).toEqual({ total: 10, items: [['Roller 04', [0]], ['Roller 05', [1]], ['Roller 06', [0]], ['Roller 07', [1]]] });
      // An edit here: Roller 02's fit now stops short of the fleet's serial, Roller 03 fits both machines.
      await service.upsertMany([
        part(2, [{ make: 'Caterpillar', model: 'D9T', serialTo: 'RJS00050' }]),
        part(3, [{ make: 'Caterpillar', model: 'D9T' }, { make: 'Komatsu', model: 'PC200' }]),
      ]);
      expect(await page(0)).toEqual({ total: 9, items: [['Roller 00', [0]], ['Roller 01', [1]], ['Roller 03', [0, 1]], ['Roller 04', [0]]] });
      expect(await page(2)).toEqual({ total: 9, items: [['Roller 03', [0, 1]], ['Roller 04', [0]], ['Roller 05', [1]], ['Roller 06', [0]]] });
      expect(await page(4)).toEqual({ total: 9, items: [['Roller 05', [1]], ['Roller 06', [0]], ['Roller 07', [1]], ['Roller 08', [0]]] });
      // A commit by another connection: a new part, and Roller 00 no longer fits.
      await editor.upsertMany([part(0, [{ make: 'Volvo', model: 'EC480D' }]), part(10, [{ make: 'Komatsu', model: 'PC200' }])]);
      expect(await page(0)).toEqual({ total: 9, items: [['Roller 01', [1]], ['Roller 03', [0, 1]], ['Roller 04', [0]], ['Roller 05', [1]]] });
      expect(await page(2)).toEqual({ total: 9, items: [['Roller 04', [0]], ['Roller 05', [1]], ['Roller 06', [0]], ['Roller 07', [1]]] });
      expect(await page(8)).toEqual({ total: 9, items: [['Roller 10', [1]]] });
    } finally {
      await service.close();
      await editor.close();
    }
  });

  it.each(['sort', 'walk', 'cheaper'] as const)("checks a fleet's serials against the fits' ranges exactly as serialInRange does, whatever their shapes (%s)", async (fleetRead) => {
    const repo = SqliteProductRepository.open(await freshFile(), { fleetRead });
    // Serials and range ends of a few shapes that meet, often equal: the same letters and digits, fewer digits, other
    // letters, none, lower case and punctuation (codeKey's work), other text, empty ends.
    const serial = fc.oneof(
      { weight: 4, arbitrary: fc.tuple(fc.constantFrom('RJS', 'RJ', ''), fc.integer({ min: 0, max: 30 }), fc.constantFrom(2, 3, 5)).map(([p, n, w]) => `${p}${String(n).padStart(w, '0')}`) },
      fc.stringMatching(/^(rjs|RJS-|rj )[0-3][0-9]$/),
      fc.stringMatching(/^[A-Z0-9]{1,4}$/),
    );
    const end = fc.oneof({ weight: 4, arbitrary: serial }, fc.constant(undefined), fc.constant(''));
    const fits = fc.array(fc.record({ serialFrom: end, serialTo: end }), { minLength: 1, maxLength: 3 });
    try {
      const parts = fc.sample(fits, { numRuns: 80, seed: 35 }).map((ranges, n) =>
        makeProduct({
          id: id(900 + n),
          name: `Part ${String(n).padStart(3, '0')}`,
          sku: `SR-${n}`,
          category: 'Undercarriage',
          brandName: 'Caterpillar',
          fits: ranges.map((r) => ({ make: 'Caterpillar', model: 'D9T', ...(r.serialFrom !== undefined ? { serialFrom: r.serialFrom } : {}), ...(r.serialTo !== undefined ? { serialTo: r.serialTo } : {}) })),
        }),
      );
      await repo.upsertMany(parts);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.option(serial, { nil: undefined, freq: 4 }), { minLength: 1, maxLength: 4 }), async (serials) => {
          // Machines of one model, some without a serial (every range admits those), beside a model no part fits.
          const fleet = [
            ...serials.map((s) => ({ makeSlug: 'caterpillar', modelSlug: 'd9t', ...(s === undefined ? {} : { serial: s }) })),
            { makeSlug: 'caterpillar', modelSlug: 'd8t' },
          ];
          const expected = parts.flatMap((p) => {
            const which = fleetFits((p.fits ?? []).map(fitKeyOf), fleet);
            return which.length ? [[p.id, which]] : [];
          });
          const page = await repo.listAll({ limit: 100, offset: 0, fleet });
          expect(page.items.map((p) => [p.id, p.fitsMachines])).toEqual(expected);
          expect(page.total).toBe(expected.length);
          // A page in the middle, and one counted from the back (the back half is read in reverse).
          for (const offset of [3, Math.max(0, expected.length - 4)]) {
            const part = await repo.listByCategory({ categorySlug: 'undercarriage', limit: 3, offset, fleet });
            expect(part.items.map((p) => [p.id, p.fitsMachines]), `offset ${offset}`).toEqual(expected.slice(offset, offset + 3));
          }
        }),
        { numRuns: 150, seed: 35 },
      );
    } finally {
      await repo.close();
    }
  });

  it('keeps its data across a reopen', async () => {
    const file = await freshFile();
    const first = SqliteProductRepository.open(file);
    await first.upsertMany(PRODUCTS);
    await first.close();
    const again = SqliteProductRepository.open(file);
    try {
      expect(await again.count()).toBe(PRODUCTS.length);
      expect((await again.getById(id(1)))?.name).toBe('Hydraulic Oil Filter');
    } finally {
      await again.close();
    }
  });

  it("looks a typo's variants up only where the store may hold them, and sees another connection's new keys", async () => {
    const file = await freshFile();
    const service = SqliteProductRepository.open(file);
    const importer = SqliteProductRepository.open(file);
    // 600 variants, as a one-typo lookup of an 8-character number asks: one of them is an older number on file.
    const variants = (extra: string) => [...Array.from({ length: 599 }, (_, i) => `X${i}Y`), extra];
    try {
      await importer.upsertMany([makeProduct({ id: id(60), name: 'Oil Filter', sku: 'OF-1', category: 'Oil Filters', brandName: 'Caterpillar', replaces: ['1R-0716'], crossReferences: [{ brand: 'Fleetguard', partNumber: 'LF9080' }] })]);
      // Before the filter is built the lookup asks for every key (and finds the same).
      expect((await service.findAltCodes({ keys: variants('1R0716'), limit: 10 })).map((h) => h.value)).toEqual(['1R-0716']);
      expect(await service.codeKeyFilterReady()).toBe(2);
      expect((await service.findAltCodes({ keys: variants('1R0716'), limit: 10 })).map((h) => h.value)).toEqual(['1R-0716']);
      expect(await service.findAltCodes({ keys: variants('NOTONFILE'), limit: 10 })).toEqual([]);
      // A key written by another connection is found at once (the filter is stale, so not used), then by the new filter.
      await importer.upsertMany([makeProduct({ id: id(61), name: 'Air Filter', sku: 'AF-1', category: 'Air Filters', brandName: 'Caterpillar', crossReferences: [{ brand: 'Donaldson', partNumber: 'P181052' }] })]);
      expect((await service.findAltCodes({ keys: variants('P181052'), limit: 10 })).map((h) => h.productId)).toEqual([id(61)]);
      expect(await service.codeKeyFilterReady()).toBe(3);
      expect((await service.findAltCodes({ keys: variants('P181052'), limit: 10 })).map((h) => h.productId)).toEqual([id(61)]);
      // A piece inside a number: from the keys' piece index once built, by a scan before (the same answer).
      expect((await service.findAltCodes({ keys: [], infix: '1810', limit: 10 })).map((h) => h.value)).toEqual(['Donaldson P181052']);
      await importer.upsertMany([makeProduct({ id: id(62), name: 'Fuel Filter', sku: 'FF-1', category: 'Fuel Filters', brandName: 'Caterpillar', crossReferences: [{ brand: 'Baldwin', partNumber: 'BF-18104' }] })]);
      expect((await service.findAltCodes({ keys: [], infix: '1810', limit: 10 })).map((h) => h.value).sort()).toEqual(['Baldwin BF-18104', 'Donaldson P181052']);
      expect(await service.codeKeyFilterReady()).toBe(4);
      expect((await service.findAltCodes({ keys: [], infix: '1810', limit: 10 })).map((h) => h.value).sort()).toEqual(['Baldwin BF-18104', 'Donaldson P181052']);
    } finally {
      await service.close();
      await importer.close();
    }
  });
});
