import type { AssemblyLine, AssemblyPart } from '@forgeline/contracts/parts-diagrams';
import { describe, expect, it } from 'vitest';
import { hotspotsOf, lineViews, partsToAdd, serialFor } from './assembly-lines.ts';

const part = (id: string, name = `Part ${id}`): AssemblyPart => ({
  id,
  name,
  sku: `SKU-${id}`,
  partNumber: `PN-${id}`,
  brandName: 'Caterpillar',
  slug: name.toLowerCase().replace(/\s+/g, '-'),
  inStock: true,
  availability: 'In Stock',
  imageUrl: '',
  images: [],
  replacedBy: null,
  crossReferences: [],
});

const line = (number: string, p: AssemblyPart | null, over: Partial<AssemblyLine> = {}): AssemblyLine => ({
  number,
  positions: [{ x: 10, y: 20 }],
  partId: p?.id ?? 'gone',
  quantity: 1,
  part: p,
  ...over,
});

const page = { makeSlug: 'caterpillar', modelSlug: 'd6t-dozer' };

describe('the serial an assembly page checks its lines against', () => {
  it("is the buyer's machine's serial when the machine is this model, compared by slug", () => {
    expect(serialFor({ make: 'Caterpillar', model: 'D6T Dozer', serial: 'RJS05000' }, page)).toBe('RJS05000');
    expect(serialFor({ make: 'caterpillar', model: 'd6t dozer', serial: 'RJS05000' }, page)).toBe('RJS05000');
  });

  it('is none for another model, a machine without a serial, or no machine', () => {
    expect(serialFor({ make: 'Caterpillar', model: 'D9R Dozer', serial: 'RJS05000' }, page)).toBeNull();
    expect(serialFor({ make: 'Caterpillar', model: 'D6T Dozer' }, page)).toBeNull();
    expect(serialFor(null, page)).toBeNull();
  });

  it("takes a fleet's serial only when its units of this model have just one", () => {
    const unit = (serial: string, unitName: string) => ({ make: 'Caterpillar', model: 'D6T Dozer', serial, unit: unitName });
    expect(serialFor({ fleet: [unit('RJS05000', 'Dozer 1'), { make: 'Komatsu', model: 'PC200', unit: 'Digger', serial: 'K1' }] }, page)).toBe('RJS05000');
    expect(serialFor({ fleet: [unit('RJS05000', 'Dozer 1'), unit('RJS01000', 'Dozer 2')] }, page)).toBeNull();
  });

  it("prefers the address's ?serial= (the page's form without JavaScript) to the stored machine", () => {
    expect(serialFor({ make: 'Caterpillar', model: 'D6T Dozer', serial: 'RJS05000' }, page, ' RJS00042 ')).toBe('RJS00042');
    expect(serialFor({ make: 'Caterpillar', model: 'D6T Dozer', serial: 'RJS05000' }, page, '')).toBe('RJS05000');
  });
});

describe("an assembly's lines for a serial", () => {
  const lines = [
    line('1', part('a')),
    line('2', part('b'), { serialTo: 'RJS04999' }),
    line('2', part('c'), { serialFrom: 'RJS05000' }),
    line('3', part('d'), { serialFrom: 'RJS00001', serialTo: 'RJS09999' }),
  ];

  it('dims the lines whose serial range leaves the serial out; open ends admit everything on their side', () => {
    expect(lineViews(lines, 'RJS05000').map((v) => v.fits)).toEqual([true, false, true, true]);
    expect(lineViews(lines, 'RJS04000').map((v) => v.fits)).toEqual([true, true, false, true]);
  });

  it('reads a serial as typed (spaces, dashes, lower case) and compares it within its prefix', () => {
    expect(lineViews(lines, 'rjs-05 000').map((v) => v.fits)).toEqual([true, false, true, true]);
    expect(lineViews(lines, 'ABC05000').map((v) => v.fits)).toEqual([true, false, false, false]);
  });

  it('dims nothing without a serial', () => {
    expect(lineViews(lines, null).every((v) => v.fits)).toBe(true);
  });
});

describe("the drawing's hotspots", () => {
  it('puts one button per callout number and place: lines sharing a number share its places, a place drawn twice counts once', () => {
    const views = lineViews(
      [
        line('1', part('a'), { positions: [{ x: 10, y: 20 }, { x: 80, y: 20 }] }),
        line('2', part('b'), { serialTo: 'RJS04999', positions: [{ x: 30, y: 40 }] }),
        line('2', part('c'), { serialFrom: 'RJS05000', positions: [{ x: 30, y: 40 }] }),
        line('5', part('e'), { positions: [] }),
      ],
      'RJS01000',
    );
    const spots = hotspotsOf(views);
    expect(spots.map((h) => [h.number, h.x, h.y, h.lines.length])).toEqual([
      ['1', 10, 20, 1],
      ['1', 80, 20, 1],
      ['2', 30, 40, 2],
    ]);
  });

  it('is dimmed only when none of its lines is for the serial', () => {
    const views = lineViews([line('2', part('b'), { serialTo: 'RJS04999' }), line('2', part('c'), { serialFrom: 'RJS05000' }), line('4', part('d'), { serialTo: 'RJS00010' })], 'RJS05000');
    expect(hotspotsOf(views).map((h) => [h.number, h.fits])).toEqual([
      ['2', true],
      ['4', false],
    ]);
  });
});

describe('what "Add all" puts on the quote list', () => {
  it('adds each part once with the quantities of its lines added up, and leaves out parts no longer sold', () => {
    const bolt = part('bolt');
    const views = lineViews([line('1', bolt, { quantity: 4 }), line('2', part('seal'), { quantity: 2 }), line('7', bolt, { quantity: 8 }), line('9', null)], null);
    expect(partsToAdd(views).map((a) => [a.part.id, a.quantity])).toEqual([
      ['bolt', 12],
      ['seal', 2],
    ]);
  });
});
