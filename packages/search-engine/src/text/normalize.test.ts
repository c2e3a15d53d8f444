import { describe, expect, it } from 'vitest';
import { normalizeCode, parseQuery, tokenize, tokenizeWithOffsets, typoBudget } from './normalize.ts';

describe('query and text normalisation', () => {
  it('folds case and accents and splits on anything but letters and digits', () => {
    expect(tokenize('Hydraulic FILTER, Ölkühler/1R-0750')).toEqual(['hydraulic', 'filter', 'olkuhler', '1r', '0750']);
  });
  it('keeps positions in the original text', () => {
    expect(tokenizeWithOffsets('  Ölkühler 1R-0750')).toEqual([
      { term: 'olkuhler', start: 2, end: 10 },
      { term: '1r', start: 11, end: 13 },
      { term: '0750', start: 14, end: 18 },
    ]);
  });
  it('normalises part numbers whatever the separators', () => {
    for (const v of ['1R-0750', '1r 0750', '1R0750', ' 1r.07-50 ']) expect(normalizeCode(v)).toBe('1r0750');
  });
  it('forgives 1 typo from 5 characters and 2 from 9', () => {
    expect([4, 5, 8, 9].map(typoBudget)).toEqual([0, 1, 1, 2]);
  });
  it('caps a query at 10 words and ignores operators', () => {
    expect(parseQuery('$where .* "a" \\ b').tokens).toEqual(['where', 'a', 'b']);
    expect(parseQuery('a b c d e f g h i j k l').tokens).toHaveLength(10);
    expect(parseQuery('!!!').tokens).toEqual([]);
  });
});
