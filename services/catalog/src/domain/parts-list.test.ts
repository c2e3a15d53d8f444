import { describe, expect, it } from 'vitest';
import { isHeaderRow, parsePartsLine, parsePartsList, PartsListError } from './parts-list.ts';

const one = (text: string) => {
  const l = parsePartsLine(text, 1)!;
  return { code: l.code, quantity: l.quantity, words: l.words, otherCodes: l.otherCodes };
};

describe('reading a buyer\'s parts list', () => {
  it.each([
    ['2 x 1R-0750', '1R-0750', 2, ''],
    ['2x 1R-0750', '1R-0750', 2, ''],
    ['1R-0750 x 4', '1R-0750', 4, ''],
    ['1R0750 qty 2', '1R0750', 2, ''],
    ['1R-0750, 2', '1R-0750', 2, ''],
    ['1R-0750;2;Oil filter', '1R-0750', 2, 'Oil filter'],
    ['1R-0750\t2\tOil filter', '1R-0750', 2, 'Oil filter'],
    ['CAT 1R0750 (2 pcs)', '1R0750', 2, 'CAT'],
    ['Qty: 3 — 6I-2503 seal kit', '6I-2503', 3, 'seal kit'],
    ['1r 0750', '1r 0750', 1, ''],
    ['1. 1R-0750 2 pcs', '1R-0750', 2, ''],
    ['a) 6I-2503', '6I-2503', 1, ''],
    ['- 7X-2546 x 10', '7X-2546', 10, ''],
    ['• 3G-4563, qty 5, bucket tooth', '3G-4563', 5, 'bucket tooth'],
    ['Komatsu 600-211-1340 fuel filter 6', '600-211-1340', 6, 'Komatsu fuel filter'],
    ['RE504836 John Deere oil filter', 'RE504836', 1, 'John Deere oil filter'],
    ['5 pcs AT-33 bucket teeth', 'AT-33', 5, 'bucket teeth'],
    ['seal kit for boom cylinder', null, 1, 'seal kit for boom cylinder'],
    ['12345678 | 3', '12345678', 3, ''],
    ['ABX4', 'ABX4', 1, ''],
    ['1R-0750 x2', '1R-0750', 2, ''],
    ['1R-0750 - 3', '1R-0750', 3, ''],
    ['LF3363 – 12', 'LF3363', 12, ''],
  ])('%s', (text, code, quantity, words) => {
    expect(one(text)).toMatchObject({ code, quantity, words });
  });

  it('tries a number written in groups as a whole', () => {
    expect(one('Mann-Filter WD 212/44 (7 pcs)')).toMatchObject({ code: '212/44', otherCodes: ['WD 212/44'], quantity: 7 });
    expect(one('Qty: 19 — 65 258 31-S air filters')).toMatchObject({ quantity: 19, words: 'air filters' });
    expect(one('Qty: 19 — 65 258 31-S air filters').otherCodes).toContain('65 258 31-S');
    expect(one('0 986 685 354, 4')).toMatchObject({ quantity: 4 });
    expect(parsePartsLine('0 986 685 354, 4', 1)!.otherCodes).toContain('0 986 685 354');
  });

  it('keeps a quantity after " - " when the number is written with spaces (#36)', () => {
    expect(one('1625 8335 62 Atlas Copco - 7')).toMatchObject({ quantity: 7, words: 'Atlas Copco' });
    expect(one('1625 8335 62 Atlas Copco - 7').code).toBe('1625 8335 62');
    // A dash inside a number is not a quantity's.
    expect(one('HD 501-58')).toMatchObject({ quantity: 1 });
  });

  it('keeps a second part number on the line for the matcher', () => {
    expect(one('1R-0750 replaces 1R-0749, 2')).toMatchObject({ code: '1R-0750', otherCodes: ['1R-0749'], quantity: 2 });
  });

  it('leaves out blank lines and a header row, and numbers lines as the buyer sees them', () => {
    const list = parsePartsList('Part No;Qty;Description\n\n1R-0750;2;Oil filter\r\n   \n6I-2503;1;Seal kit\n');
    expect(list.map((l) => [l.line, l.code, l.quantity])).toEqual([
      [3, '1R-0750', 2],
      [5, '6I-2503', 1],
    ]);
    expect(isHeaderRow('Part Number\tQuantity')).toBe(true);
    expect(isHeaderRow('1R-0750\t2')).toBe(false);
  });

  it('refuses what is not a list: empty, over 500 lines, a 10,000-character line, binary data', () => {
    expect(() => parsePartsList(' \n \n')).toThrow(/the list is empty/);
    expect(() => parsePartsList(Array.from({ length: 501 }, (_, i) => `AB-${i}`).join('\n'))).toThrow(/more than 500 lines/);
    let err: unknown;
    try {
      parsePartsList(`1R-0750\n${'x'.repeat(10_000)}`);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PartsListError);
    expect((err as PartsListError).line).toBe(2);
    expect(() => parsePartsList('PK\u0003\u0004\u0000\u0000binary')).toThrow(/not text/);
  });

  it('does not take a year, a price or a long number for a quantity', () => {
    expect(one('1R-0750 x 250000').quantity).toBe(1);
    expect(one('1R-0750, 0').quantity).toBe(1);
  });
});
