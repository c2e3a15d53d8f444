import { describe, expect, it } from 'vitest';
import { highlightCode, highlightWords, mergeRanges } from '../../src/domain/search/highlight.ts';
import { normalizeCode, parseQuery, tokenize, tokenizeWithOffsets, typoBudget } from '../../src/domain/search/normalize.ts';
import { boundedEditDistance, oneEditVariants } from '../../src/domain/search/part-numbers.ts';

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

describe('highlight ranges', () => {
  it('covers whole matched words and only the typed part of a prefix', () => {
    expect(highlightWords('Komatsu Hydraulic Filter', { words: new Set(['hydraulic']), prefixes: ['fil'] })).toEqual([
      [8, 17],
      [18, 21],
    ]);
  });
  it('maps a typed number prefix back over separators', () => {
    expect(highlightCode('1R-0750', 4)).toEqual([[0, 5]]);
    expect(highlightCode('600-211-1231')).toEqual([[0, 12]]);
  });
  it('joins touching ranges', () => {
    expect(mergeRanges([[5, 8], [0, 2], [2, 4]])).toEqual([[0, 4], [5, 8]]);
  });
});
