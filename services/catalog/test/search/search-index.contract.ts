/**
 * The SearchIndex contract: the relevance rules of the README ("Search relevance"), run against
 * every adapter (embedded always; Meilisearch where Docker can start it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '@forgeline/contracts/products';
import type { SearchHit, SearchIndex } from '../../src/ports.ts';
import { batches, fixtureProducts } from './fixtures.ts';

export interface SearchIndexHandle {
  index: SearchIndex;
  cleanup: () => Promise<void>;
}

export function describeSearchIndex(name: string, factory: () => Promise<SearchIndexHandle>, opts: { skip?: string } = {}): void {
  describe.skipIf(Boolean(opts.skip))(`SearchIndex contract: ${name}`, () => {
    let handle: SearchIndexHandle;
    let index: SearchIndex;
    const products = fixtureProducts();
    const byId = new Map(products.map((p) => [p.id, p]));
    const ids = async (q: string, extra: { limit?: number; offset?: number; brandSlug?: string; categorySlug?: string } = {}) =>
      (await index.search(q, { limit: 10, offset: 0, ...extra })).hits.map((h) => h.id);
    const first = async (q: string) => (await ids(q))[0];

    beforeAll(async () => {
      handle = await factory();
      index = handle.index;
      await index.rebuild(batches(products, 5));
    }, 120_000);
    afterAll(async () => {
      await handle?.cleanup();
    });

    it('counts what it indexed', async () => {
      expect(await index.size()).toBe(products.length);
      expect(await index.ready()).toBe(true);
    });

    describe('a part number or SKU with separators, spaces and case ignored ranks that part first', () => {
      it.each([
        ['1R-0750', 'p-cat-0750'],
        ['1R0750', 'p-cat-0750'],
        ['1r-0750', 'p-cat-0750'],
        ['1R 0750', 'p-cat-0750'],
        ['  1r0750  ', 'p-cat-0750'],
        ['600 211 1231', 'p-kom-1231'],
        ['6002111231', 'p-kom-1231'],
        ['600-211-1340', 'p-kom-1340'],
        ['RE 504836', 'p-jd-oil'],
        ['re-504836', 'p-jd-oil'],
        ['cat-1r-0716', 'p-cat-0716'],
        ['CAT1R0716', 'p-cat-0716'],
        ['0706301054', 'p-kom-hyd'],
      ])('%s', async (q, want) => {
        expect(await first(q)).toBe(want);
      });
    });

    describe('prefixes match as the buyer types', () => {
      it('1R-07 finds 1R-0750 and 1R-0716', async () => {
        const found = await ids('1R-07');
        expect(found.slice(0, 2).sort()).toEqual(['p-cat-0716', 'p-cat-0750']);
      });
      it('600-211 finds both Komatsu filters first', async () => {
        expect((await ids('600-211')).slice(0, 2).sort()).toEqual(['p-kom-1231', 'p-kom-1340']);
      });
      it('RE50 finds RE504836', async () => {
        expect(await first('RE50')).toBe('p-jd-oil');
      });
      it('a word prefix matches: "hydraul" finds hydraulic parts', async () => {
        const found = await ids('hydraul');
        expect(found).toContain('p-kom-hyd');
        expect(found).toContain('p-don-hyd');
      });
    });

    describe('word typos: 1 from 5 characters, 2 from 9, also in brand and category names', () => {
      it('one typo in a long word ("hydralic")', async () => {
        expect(await ids('hydralic')).toContain('p-kom-hyd');
      });
      it('one typo in a 5-letter word ("filtr")', async () => {
        expect(await ids('komatsu filtr')).toContain('p-kom-1231');
      });
      it('two typos from 9 letters ("hidraulyc")', async () => {
        expect(await ids('hidraulyc')).toContain('p-kom-hyd');
      });
      it('a brand with a typo ("komatsi", "caterpilar")', async () => {
        expect(await ids('komatsi')).toContain('p-kom-1231');
        expect(await ids('caterpilar')).toContain('p-cat-0750');
      });
      it('a category with a typo ("rollrs")', async () => {
        expect(await ids('track rollrs')).toContain('p-cat-track');
      });
      it('no typo under 5 letters ("pimp" is not "pump")', async () => {
        expect(await ids('pimp')).toEqual([]);
      });
      it('no second typo under 9 letters ("hidraulc")', async () => {
        expect(await ids('hidraulc')).not.toContain('p-kom-hyd');
      });
    });

    describe('a part number of 6+ characters with one wrong, missing, extra or swapped character', () => {
      it.each([
        ['1R0705', 'p-cat-0750'], // swapped
        ['1R-075', 'p-cat-0750'], // missing (the number has 6 characters)
        ['1R07500', 'p-cat-0750'], // extra
        ['1R0759', 'p-cat-0750'], // wrong
        ['600 211 1213', 'p-kom-1231'],
        ['RE504863', 'p-jd-oil'],
      ])('%s', async (q, want) => {
        expect(await ids(q)).toContain(want);
      });
      it('but not on numbers under 6 characters (AB124 is not AB123)', async () => {
        expect(await ids('AB124')).not.toContain('p-volvo-short');
      });
    });

    describe('any part of a part number of 4+ characters, separators ignored (a worn tag)', () => {
      it.each([
        ['4836', 'p-jd-oil'], // RE50[4836]
        ['0716', 'p-cat-0716'], // 1R-[0716]
        ['R-0716', 'p-cat-0716'],
        ['2603723', 'p-bosch-unicode'], // R90[2603723]
        ['2L-003', 'p-kom-pump'], // 708-[2L-003]00
        ['1315', 'p-don-hyd'], // P55[1315]
      ])('%s', async (q, want) => {
        expect((await ids(q)).slice(0, 5)).toContain(want);
      });
      it('highlights the piece inside the number', async () => {
        const hit = (await index.search('4836', { limit: 5, offset: 0 })).hits.find((h) => h.id === 'p-jd-oil')!;
        expect(hit.matches.find((m) => m.field === 'partNumber')?.ranges).toEqual([[4, 8]]);
      });
      it('not under 4 characters', async () => {
        expect(await ids('836')).not.toContain('p-jd-oil');
      });
    });

    describe('words and numbers combine; brand and category words narrow', () => {
      it('cat 1r0750 filter', async () => {
        expect(await first('cat 1r0750 filter')).toBe('p-cat-0750');
      });
      it('komatsu fuel filter gives only Komatsu fuel filters', async () => {
        const r = await index.search('komatsu fuel filter', { limit: 10, offset: 0 });
        expect(r.hits.map((h) => h.id).sort()).toEqual(['p-kom-1231', 'p-kom-1340']);
        expect(r.total).toBe(2);
      });
      it('hydralic filtr komatsu gives the Komatsu hydraulic filter first', async () => {
        expect(await first('hydralic filtr komatsu')).toBe('p-kom-hyd');
      });
      it('fuel filter finds every brand', async () => {
        const found = await ids('fuel filter');
        expect(found).toEqual(expect.arrayContaining(['p-cat-0750', 'p-kom-1231', 'p-kom-1340']));
      });
    });

    describe('results carry where the query matched', () => {
      const slices = (hit: SearchHit, product: Product) =>
        Object.fromEntries(hit.matches.map((m) => [m.field, m.ranges.map(([a, b]) => String(product[m.field as keyof Product]).slice(a, b))]));

      it('a typed prefix highlights the typed part of the number', async () => {
        const hit = (await index.search('1R-07', { limit: 5, offset: 0 })).hits.find((h) => h.id === 'p-cat-0750')!;
        const s = slices(hit, byId.get('p-cat-0750')!);
        expect(s.partNumber?.[0]).toMatch(/^1R-07/);
      });
      it('a word with a typo highlights the whole word in the name', async () => {
        const hit = (await index.search('hydralic', { limit: 5, offset: 0 })).hits.find((h) => h.id === 'p-kom-hyd')!;
        expect(slices(hit, byId.get('p-kom-hyd')!).name).toEqual(['Hydraulic']);
      });
      it('an exact number highlights the number', async () => {
        const hit = (await index.search('6002111231', { limit: 5, offset: 0 })).hits[0]!;
        expect(slices(hit, byId.get('p-kom-1231')!).partNumber).toEqual(['600-211-1231']);
      });
      it('ranges stay inside the field text', async () => {
        for (const q of ['komatsu fuel', 'ölkühler', 'r902603723', 'hydraulic pump']) {
          for (const hit of (await index.search(q, { limit: 10, offset: 0 })).hits) {
            const p = byId.get(hit.id)!;
            for (const m of hit.matches) {
              const text = String(p[m.field as keyof Product]);
              for (const [a, b] of m.ranges) {
                expect(a).toBeGreaterThanOrEqual(0);
                expect(b).toBeLessThanOrEqual(text.length);
                expect(a).toBeLessThan(b);
              }
            }
          }
        }
      });
    });

    describe('filters, paging and totals', () => {
      it('narrows to the parts that fit a machine: by its make and model, and by the store\'s ids where a serial decides', async () => {
        const base = byId.get('p-kom-1231')!;
        const fitting = [
          { ...base, id: 'fit-a', sku: 'FIT-A', partNumber: 'FA-100', name: 'Sprocket Segment A', fits: [{ make: 'Caterpillar', model: 'D9T', serialFrom: 'RJS00001', serialTo: 'RJS04999' }] },
          { ...base, id: 'fit-b', sku: 'FIT-B', partNumber: 'FB-100', name: 'Sprocket Segment B', fits: [{ make: 'Caterpillar', model: 'D9T' }] },
          { ...base, id: 'fit-c', sku: 'FIT-C', partNumber: 'FC-100', name: 'Sprocket Segment C', fits: [{ make: 'Caterpillar', model: '320D' }] },
        ];
        await index.upsert(fitting);
        try {
          const machine = { makeSlug: 'caterpillar', modelSlug: 'd9t' };
          const d9t = await index.search('sprocket segment', { limit: 10, offset: 0, machine, onlyIds: new Set(['fit-a', 'fit-b']) });
          expect(d9t.hits.map((h) => h.id).sort()).toEqual(['fit-a', 'fit-b']);
          expect(d9t.total).toBe(2);
          const serial = await index.search('sprocket segment', { limit: 10, offset: 0, machine: { ...machine, serial: 'RJS01000' }, onlyIds: new Set(['fit-a']) });
          expect(serial.hits.map((h) => h.id)).toEqual(['fit-a']);
          const none = await index.search('sprocket segment', { limit: 10, offset: 0, machine: { makeSlug: 'volvo' }, onlyIds: new Set() });
          expect(none.hits).toEqual([]);
        } finally {
          await index.remove(fitting.map((p) => p.id));
        }
      });

      it('narrows to the parts that fit any machine of a fleet: by their models, and by the store\'s ids where serials decide', async () => {
        const base = byId.get('p-kom-1231')!;
        const fitting = [
          { ...base, id: 'fleet-a', sku: 'FLEET-A', partNumber: 'FLA-100', name: 'Sprocket Segment A', fits: [{ make: 'Caterpillar', model: 'D9T', serialFrom: 'RJS00001', serialTo: 'RJS04999' }] },
          { ...base, id: 'fleet-b', sku: 'FLEET-B', partNumber: 'FLB-100', name: 'Sprocket Segment B', fits: [{ make: 'Caterpillar', model: 'D9T' }] },
          { ...base, id: 'fleet-c', sku: 'FLEET-C', partNumber: 'FLC-100', name: 'Sprocket Segment C', fits: [{ make: 'Caterpillar', model: '320D' }] },
          { ...base, id: 'fleet-d', sku: 'FLEET-D', partNumber: 'FLD-100', name: 'Sprocket Segment D', fits: [{ make: 'Volvo', model: 'EC480D' }] },
        ];
        await index.upsert(fitting);
        try {
          const fleet = [
            { makeSlug: 'caterpillar', modelSlug: '320d' },
            { makeSlug: 'caterpillar', modelSlug: 'd9t' },
          ];
          const any = await index.search('sprocket segment', { limit: 10, offset: 0, fleet, onlyIds: new Set(['fleet-a', 'fleet-b', 'fleet-c']) });
          expect(any.hits.map((h) => h.id).sort()).toEqual(['fleet-a', 'fleet-b', 'fleet-c']);
          expect(any.total).toBe(3);
          const later = [fleet[0]!, { ...fleet[1]!, serial: 'RJS07000' }];
          const serial = await index.search('sprocket segment', { limit: 10, offset: 0, fleet: later, onlyIds: new Set(['fleet-b', 'fleet-c']) });
          expect(serial.hits.map((h) => h.id).sort()).toEqual(['fleet-b', 'fleet-c']);
          const none = await index.search('sprocket segment', { limit: 10, offset: 0, fleet: [{ makeSlug: 'komatsu', modelSlug: 'pc200-8' }], onlyIds: new Set() });
          expect(none.hits).toEqual([]);
        } finally {
          await index.remove(fitting.map((p) => p.id));
        }
      });

      it('narrows to a brand slug', async () => {
        const found = await ids('filter', { brandSlug: 'komatsu' });
        expect(found.length).toBeGreaterThan(0);
        for (const id of found) expect(byId.get(id)!.brandName).toBe('Komatsu');
      });
      it('narrows to a category slug', async () => {
        const found = await ids('filter', { categorySlug: 'hydraulic-filters' });
        expect(found.sort()).toEqual(['p-don-hyd', 'p-kom-hyd']);
      });
      it('an unknown slug finds nothing', async () => {
        expect(await index.search('filter', { limit: 10, offset: 0, brandSlug: 'nope' })).toEqual({ hits: [], total: 0 });
      });
      it('pages are disjoint and the total is exact', async () => {
        const all = await index.search('filter', { limit: 50, offset: 0 });
        const p1 = await index.search('filter', { limit: 3, offset: 0 });
        const p2 = await index.search('filter', { limit: 3, offset: 3 });
        expect(p1.total).toBe(all.total);
        expect(p2.total).toBe(all.total);
        expect(all.total).toBe(all.hits.length);
        expect([...p1.hits, ...p2.hits].map((h) => h.id)).toEqual(all.hits.slice(0, 6).map((h) => h.id));
      });
    });

    describe('bad input gets a well-formed answer', () => {
      it.each(['', ' ', 'x', '.*', '$where', '"', '\\', '((', 'ölkühler', '日本語', '🙂🙂', '-1R0750', 'a'.repeat(500), '1'.repeat(200), 'a b c d e f g h i j k l m n'])(
        '%j',
        async (q) => {
          const r = await index.search(q, { limit: 10, offset: 0 });
          expect(Array.isArray(r.hits)).toBe(true);
          expect(r.total).toBeGreaterThanOrEqual(r.hits.length);
        },
      );
      it('accented words match without accents', async () => {
        expect(await ids('olkuhler')).toContain('p-bosch-unicode');
      });
    });

    describe('staying in sync', () => {
      it('finds an upserted product, follows a rename and forgets a removed one', async () => {
        const base = fixtureProducts()[0]!;
        const extra: Product = { ...base, id: 'p-new', name: 'Liebherr 10044321 Turntable Bearing', partNumber: '10044321', sku: 'LIE-10044321', brandName: 'Liebherr', brand: 'Liebherr', category: 'Swing Gears' };
        await index.upsert([extra]);
        expect(await first('10044321')).toBe('p-new');
        expect(await ids('turntable')).toEqual(['p-new']);
        expect(await index.size()).toBe(products.length + 1);
        await index.upsert([{ ...extra, name: 'Liebherr 10044321 Slewing Ring' }]);
        expect(await ids('slewing')).toEqual(['p-new']);
        expect(await ids('turntable')).toEqual([]);
        expect(await index.size()).toBe(products.length + 1);
        await index.remove(['p-new']);
        expect(await ids('10044321')).toEqual([]);
        expect(await index.size()).toBe(products.length);
      });
    });
  });
}
