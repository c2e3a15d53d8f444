import { describe, expect, it } from 'vitest';
import { bodyOf, clampPosition, contentOf, draftOf, emptyLine, errorsFromIssues, nextFreeNumber } from './callout-draft.ts';

const assembly = {
  name: 'Track roller frame',
  callouts: [
    { number: '1', positions: [{ x: 10, y: 20 }], partId: 'p-1', quantity: 2 },
    { number: '3', positions: [], partId: 'p-3', quantity: 1, serialFrom: 'RJS00001', note: 'upper' },
  ],
};
const parts = [{ id: 'p-1', name: 'Idler Seal', sku: 'CAT-IS-1', partNumber: '1R-0716', brandName: 'Caterpillar' }];

describe('the parts-diagram editor working copy', () => {
  it('is made from the assembly, with the parts it names, and reads as unchanged until edited', () => {
    const draft = draftOf(assembly, parts);
    expect(draft.lines.map((l) => [l.number, l.quantity, l.serialFrom, l.note, l.part?.name ?? null])).toEqual([
      ['1', '2', '', '', 'Idler Seal'],
      ['3', '1', 'RJS00001', 'upper', null],
    ]);
    expect(contentOf(draft)).toBe(contentOf(draftOf(assembly, [])));
    expect(contentOf({ ...draft, lines: [...draft.lines, emptyLine('4')] })).not.toBe(contentOf(draft));
  });

  it('gives the next hotspot the lowest number no line uses', () => {
    expect(nextFreeNumber([])).toBe('1');
    expect(nextFreeNumber([{ number: '1' }, { number: '3' }, { number: '2A' }])).toBe('2');
    expect(nextFreeNumber([{ number: '1' }, { number: '2' }])).toBe('3');
  });

  it('keeps a moved hotspot on the drawing, to 0.01 %', () => {
    expect(clampPosition({ x: -3, y: 104 })).toEqual({ x: 0, y: 100 });
    expect(clampPosition({ x: 12.3456, y: 50 })).toEqual({ x: 12.35, y: 50 });
  });

  it('turns the copy into the PUT body through the contract: numbers and serials as stored, empty fields left out', () => {
    const draft = draftOf(assembly, parts);
    draft.lines[1] = { ...draft.lines[1]!, number: ' 03 ', quantity: '4', serialFrom: 'rjs-00001', note: '  ' };
    const result = bodyOf(draft, 7);
    expect(result).toEqual({
      body: {
        version: 7,
        name: 'Track roller frame',
        callouts: [
          { number: '1', positions: [{ x: 10, y: 20 }], partId: 'p-1', quantity: 2 },
          { number: '3', positions: [], partId: 'p-3', quantity: 4, serialFrom: 'RJS00001' },
        ],
      },
    });
  });

  it('names each field the contract refuses, by line: no part, a quantity that is not a whole number, a bad callout number, no name', () => {
    const draft = draftOf(assembly, parts);
    const [a, b] = draft.lines;
    draft.name = ' ';
    draft.lines = [
      { ...a!, partId: '', quantity: 'two' },
      { ...b!, number: '7-B', quantity: '1.5' },
    ];
    const result = bodyOf(draft, 1);
    expect('errors' in result && result.errors).toEqual({
      name: 'is required',
      [`${a!.key}.partId`]: 'is required: the part this callout is',
      [`${a!.key}.quantity`]: 'must be a number',
      [`${b!.key}.number`]: 'must be a callout number such as 7 or 12A',
      [`${b!.key}.quantity`]: 'must be a whole number',
    });
  });

  it("maps a 400's issues to the lines as they were sent", () => {
    const draft = draftOf(assembly, parts);
    expect(
      errorsFromIssues(
        [
          { path: 'callouts.1.partId', message: 'is no part on the storefront (p-3)' },
          { path: 'callouts', message: 'must be at most 300 lines' },
        ],
        draft.lines,
      ),
    ).toEqual({ [`${draft.lines[1]!.key}.partId`]: 'is no part on the storefront (p-3)', form: 'Lines: must be at most 300 lines' });
  });
});
