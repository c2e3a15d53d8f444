import { describe, expect, it } from 'vitest';
import { CodeKeyFilter } from './code-key-filter.ts';

describe('CodeKeyFilter', () => {
  it('holds every key added, through growing, and rejects nearly every other', () => {
    const filter = new CodeKeyFilter(4);
    const keys = Array.from({ length: 50_000 }, (_, i) => `LF${(i * 7919).toString(36).toUpperCase()}`);
    for (const k of keys) filter.add(k);
    for (const k of keys) filter.add(k); // again: counted once
    expect(filter.size).toBe(new Set(keys).size);
    expect(keys.every((k) => filter.mightHave(k))).toBe(true);
    const others = Array.from({ length: 50_000 }, (_, i) => `ZZ${i}`);
    const falsePositives = others.filter((k) => filter.mightHave(k)).length;
    // 32-bit hashes: about 50,000 / 2^32 per key asked, so none expected here
    expect(falsePositives).toBeLessThan(5);
  });

  it('answers no for anything while empty', () => {
    expect(new CodeKeyFilter().mightHave('1R0716')).toBe(false);
  });
});
