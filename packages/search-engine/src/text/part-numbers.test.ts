import { describe, expect, it } from 'vitest';
import { boundedEditDistance, oneEditVariants } from './part-numbers.ts';

describe('part-number typos', () => {
  it('lists the one-edit neighbours of a number (swap, wrong, missing, extra)', () => {
    const v = new Set(oneEditVariants('1r0705'));
    expect(v.has('1r0750')).toBe(true); // swap
    expect(v.has('1r0706')).toBe(true); // wrong
    expect(v.has('1r07051')).toBe(true); // extra
    expect(v.has('1r0705')).toBe(false);
  });
  it('a 5-character query can be a 6-character number missing one', () => {
    expect(oneEditVariants('1r075')).toContain('1r0750');
    expect(oneEditVariants('1r075').every((x) => x.length >= 6)).toBe(true);
    expect(oneEditVariants('ab12')).toEqual([]);
  });
  it('measures edit distance with swaps counted once', () => {
    expect(boundedEditDistance('hydraulic', 'hydrualic', 2)).toBe(1);
    expect(boundedEditDistance('hydraulic', 'hidraulyc', 2)).toBe(2);
    expect(boundedEditDistance('hydraulic', 'pump', 2)).toBe(3);
  });
});
