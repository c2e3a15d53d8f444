import { describe, expect, it } from 'vitest';
import { formatCount } from './format-count.ts';

describe('formatCount', () => {
  it('groups thousands the way en-US does', () => {
    for (const n of [0, 7, 999, 1000, 12345, 500000, 1234567, 1000000000, -4321]) {
      expect(formatCount(n)).toBe(new Intl.NumberFormat('en-US', { maximumFractionDigits: 0, roundingMode: 'trunc' }).format(n));
    }
  });
  it('keeps what is not a finite number readable', () => {
    expect(formatCount(Number.NaN)).toBe('NaN');
  });
});
