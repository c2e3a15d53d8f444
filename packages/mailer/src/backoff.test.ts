import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './backoff.ts';

describe('retryDelayMs', () => {
  it('doubles from the base per attempt, up to the cap', () => {
    const noJitter = () => 0;
    expect([1, 2, 3, 4, 5].map((a) => retryDelayMs(a, 1_000, 10_000, noJitter))).toEqual([1_000, 2_000, 4_000, 8_000, 10_000]);
    expect(retryDelayMs(500, 1_000, 10_000, noJitter)).toBe(10_000);
  });

  it('takes off at most 20% as jitter', () => {
    expect(retryDelayMs(1, 1_000, 10_000, () => 0.999)).toBeGreaterThanOrEqual(800);
  });
});
