import { describe, expect, it } from 'vitest';
import { formatSerialRange, sortFits } from './serial-range.ts';

describe('formatSerialRange', () => {
  it('shows "All" for a fit without a serial range', () => {
    expect(formatSerialRange({})).toBe('All');
    expect(formatSerialRange({ serialFrom: ' ', serialTo: '' })).toBe('All');
  });

  it('joins both ends with a dash, and names a single unit once', () => {
    expect(formatSerialRange({ serialFrom: 'RJS00001', serialTo: 'RJS04999' })).toBe('RJS00001–RJS04999');
    expect(formatSerialRange({ serialFrom: 'RJS00001', serialTo: 'RJS00001' })).toBe('RJS00001');
  });

  it('says an open end in words', () => {
    expect(formatSerialRange({ serialFrom: 'RJS05000' })).toBe('From RJS05000');
    expect(formatSerialRange({ serialTo: 'RJS04999' })).toBe('Up to RJS04999');
  });
});

describe('sortFits', () => {
  it('orders by make, model (numbers as numbers) and range start, each fit once', () => {
    const fits = [
      { make: 'Komatsu', model: 'PC200-8' },
      { make: 'Caterpillar', model: 'D9T Dozer', serialFrom: 'RJS05000' },
      { make: 'Caterpillar', model: '320D Excavator' },
      { make: 'Caterpillar', model: 'D9T Dozer', serialTo: 'RJS04999' },
      { make: 'Caterpillar', model: '3208 Engine' },
      { make: 'caterpillar', model: '320d excavator' },
    ];
    expect(sortFits(fits)).toEqual([
      { make: 'Caterpillar', model: '320D Excavator' },
      { make: 'Caterpillar', model: '3208 Engine' },
      { make: 'Caterpillar', model: 'D9T Dozer', serialTo: 'RJS04999' },
      { make: 'Caterpillar', model: 'D9T Dozer', serialFrom: 'RJS05000' },
      { make: 'Komatsu', model: 'PC200-8' },
    ]);
  });
});
