import { describe, expect, it } from 'vitest';
import type { Product } from '@forgeline/contracts/products';
import { applyRow, exportRow, parseRow, readHeader } from './catalog-import.ts';
import { altCodesOf, fitsMachine, parseCrossReferences, parseFits, parseReplaces, serialInRange } from './part-history.ts';

describe('serial ranges', () => {
  it('compares letters-then-digits serials by their number within the same prefix', () => {
    expect(serialInRange('RJS01500', 'RJS00001', 'RJS09999')).toBe(true);
    expect(serialInRange('rjs-1500', 'RJS00001', 'RJS09999')).toBe(true); // case, separators, leading zeros
    expect(serialInRange('RJS10000', 'RJS00001', 'RJS09999')).toBe(false);
    expect(serialInRange('ABC01500', 'RJS00001', 'RJS09999')).toBe(false); // another production run
    expect(serialInRange('RJS00001', undefined, 'RJS00500')).toBe(true);
    expect(serialInRange('RJS99999', 'RJS10000')).toBe(true);
    expect(serialInRange('ANY', undefined, undefined)).toBe(true);
  });

  it('matches a machine by make, model and serial, ignoring case and punctuation of names', () => {
    const fits = [{ make: 'Caterpillar', model: 'D9T', serialFrom: 'RJS00001', serialTo: 'RJS09999' }, { make: 'Komatsu', model: 'PC200-8' }];
    expect(fitsMachine(fits, { makeSlug: 'caterpillar', modelSlug: 'd9t', serial: 'RJS02000' })).toBe(true);
    expect(fitsMachine(fits, { makeSlug: 'caterpillar', modelSlug: 'd9t', serial: 'RJS12000' })).toBe(false);
    expect(fitsMachine(fits, { makeSlug: 'komatsu', modelSlug: 'pc200-8', serial: 'K12345' })).toBe(true);
    expect(fitsMachine(fits, { makeSlug: 'volvo' })).toBe(false);
    expect(fitsMachine(undefined, { makeSlug: 'komatsu' })).toBe(false);
  });
});

describe('the import cells of a part\'s history', () => {
  it('reads replaces, cross-references and fits, and names what is wrong', () => {
    expect(parseReplaces('1R-0716 | 9Y-4419 |1R-0716')).toEqual({ value: ['1R-0716', '9Y-4419'] });
    expect(parseReplaces('---')).toEqual({ error: '"---" holds no letter or digit' });
    expect(parseCrossReferences('Fleetguard:LF9080|Donaldson: P551808')).toEqual({
      value: [
        { brand: 'Fleetguard', partNumber: 'LF9080' },
        { brand: 'Donaldson', partNumber: 'P551808' },
      ],
    });
    expect(parseCrossReferences('LF9080')).toEqual({ error: '"LF9080" is not Brand:Number' });
    expect(parseFits('Caterpillar:D9T:RJS00001-RJS09999|Komatsu:PC200-8|Volvo:EC210:-B20000')).toEqual({
      value: [
        { make: 'Caterpillar', model: 'D9T', serialFrom: 'RJS00001', serialTo: 'RJS09999' },
        { make: 'Komatsu', model: 'PC200-8' },
        { make: 'Volvo', model: 'EC210', serialTo: 'B20000' },
      ],
    });
    expect(parseFits('Caterpillar')).toMatchObject({ error: expect.stringMatching(/not Make:Model/) });
    expect(parseFits('Caterpillar:D9T:RJS-1-RJS-2')).toMatchObject({ error: expect.stringMatching(/not From-To/) });
    expect(parseFits('Caterpillar:D9T:RJS09999-RJS00001')).toMatchObject({ error: expect.stringMatching(/ends before it starts/) });
  });

  it('keys older numbers and cross-references as part numbers are keyed', () => {
    expect(altCodesOf({ replaces: ['1r-0716', '1R 0716'], crossReferences: [{ brand: 'Fleetguard', partNumber: 'lf-9080' }] })).toEqual([
      { kind: 'superseded', key: '1R0716', value: '1r-0716' },
      { kind: 'cross_reference', key: 'LF9080', value: 'Fleetguard lf-9080' },
    ]);
  });

  it('imports the three columns, reports a bad cell by row and column, and exports them back as imported', () => {
    const header = readHeader(['sku', 'name', 'category', 'Replaces', 'Cross References', 'Fitment']);
    const row = parseRow(['HX-1', 'Oil Filter', 'Filters', '1R-0716|9Y-4419', 'Fleetguard:LF9080', 'Caterpillar:D9T:RJS00001-RJS09999|Komatsu:PC200-8'], 2, header);
    if (!row || !('ok' in row)) throw new Error(JSON.stringify(row));
    const created = applyRow(row.ok, null, '2026-11-24T00:00:00.000Z');
    if (created.kind !== 'created') throw new Error(created.kind);
    const p = created.product as Product;
    expect(p).toMatchObject({
      replaces: ['1R-0716', '9Y-4419'],
      crossReferences: [{ brand: 'Fleetguard', partNumber: 'LF9080' }],
      fits: [{ make: 'Caterpillar', model: 'D9T', serialFrom: 'RJS00001', serialTo: 'RJS09999' }, { make: 'Komatsu', model: 'PC200-8' }],
    });
    const out = exportRow(p);
    expect(out.slice(-3)).toEqual(['1R-0716|9Y-4419', 'Fleetguard:LF9080', 'Caterpillar:D9T:RJS00001-RJS09999|Komatsu:PC200-8']);
    // The export read back changes nothing.
    const again = parseRow(out, 3, readHeader(['sku', 'name', 'part_number', 'brand', 'category', 'description', 'in_stock', 'availability', 'price', 'weight', 'dimensions', 'tags', 'specifications', 'images', 'replaces', 'cross_references', 'fits']));
    if (!again || !('ok' in again)) throw new Error(JSON.stringify(again));
    expect(applyRow(again.ok, p, '2026-11-25T00:00:00.000Z')).toEqual({ kind: 'unchanged' });
    // A changed fitment is a change of that field only.
    const moved = parseRow(['HX-1', '', '', '', '', 'Komatsu:PC200-8'], 4, header);
    if (!moved || !('ok' in moved)) throw new Error(JSON.stringify(moved));
    expect(applyRow(moved.ok, p, '2026-11-25T00:00:00.000Z')).toMatchObject({ kind: 'updated', changed: ['fits'], product: { fits: [{ make: 'Komatsu', model: 'PC200-8' }], replaces: ['1R-0716', '9Y-4419'] } });

    const bad = parseRow(['HX-2', 'Pump', 'Pumps', '', 'LF9080', 'Caterpillar'], 5, header);
    expect(bad).toEqual({
      errors: [
        { row: 5, column: 'cross_references', message: '"LF9080" is not Brand:Number' },
        { row: 5, column: 'fits', message: '"Caterpillar" is not Make:Model or Make:Model:From-To' },
      ],
    });
  });
});
