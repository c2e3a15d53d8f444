import { describe, expect, it } from 'vitest';
import { parseQuoteListAdds, quoteListAddPath } from './quote-list-link.ts';

const A = '0b6f3c1e-4d2a-4f1b-9a7c-2e5d8f0a1b2c';
const B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const limits = { maxLines: 200, maxQuantity: 1_000_000 };

describe('parseQuoteListAdds', () => {
  it('reads <id>~<quantity> values in order, and a bare id as one', () => {
    expect(parseQuoteListAdds([`${A}~2`, B], limits)).toEqual([
      { productId: A, quantity: 2 },
      { productId: B, quantity: 1 },
    ]);
  });

  it('skips malformed values: not an id, a negative or fractional quantity, extra parts', () => {
    expect(parseQuoteListAdds(['', 'abc~2', `${A}~-1`, `${A}~1.5`, `${A}~2~3`, `${A}x~1`, `${B}~`, `${B}~3`], limits)).toEqual([{ productId: B, quantity: 3 }]);
  });

  it('adds up a part asked twice, and clamps quantities to 1..max', () => {
    expect(parseQuoteListAdds([`${A}~2`, `${B}~0`, `${A}~5`], limits)).toEqual([
      { productId: A, quantity: 7 },
      { productId: B, quantity: 1 },
    ]);
    expect(parseQuoteListAdds([`${A}~999999999999`], limits)).toEqual([{ productId: A, quantity: 1_000_000 }]);
  });

  it('keeps at most maxLines parts (more of a part already kept still counts)', () => {
    expect(parseQuoteListAdds([`${A}~1`, `${B}~1`, `${A}~1`], { ...limits, maxLines: 1 })).toEqual([{ productId: A, quantity: 2 }]);
  });

  it('is the inverse of quoteListAddPath', () => {
    const path = quoteListAddPath([{ productId: A, quantity: 2 }, { productId: B, quantity: 1 }]);
    expect(path).toBe(`/quote?add=${A}%7E2&add=${B}%7E1`);
    expect(parseQuoteListAdds(new URL(path, 'http://x').searchParams.getAll('add'), limits)).toHaveLength(2);
    expect(quoteListAddPath([])).toBe('/quote');
  });
});
