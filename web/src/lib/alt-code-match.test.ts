import { describe, expect, it } from 'vitest';
import { altCodeMatchLabel } from './alt-code-match.ts';

describe('altCodeMatchLabel', () => {
  it('says which older number a hit replaces, or which other maker\'s number it matched', () => {
    expect(altCodeMatchLabel({ kind: 'superseded', value: '1R-0716' })).toBe('Replaces 1R-0716');
    expect(altCodeMatchLabel({ kind: 'cross_reference', value: 'Fleetguard LF9080' })).toBe('Cross-ref: Fleetguard LF9080');
  });

  it('shows nothing for a hit found by its own number or words', () => {
    expect(altCodeMatchLabel(undefined)).toBeNull();
    expect(altCodeMatchLabel({ kind: 'superseded', value: '  ' })).toBeNull();
  });
});
