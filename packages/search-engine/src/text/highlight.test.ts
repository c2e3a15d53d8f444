import { describe, expect, it } from 'vitest';
import { highlightCode, highlightWords, mergeRanges } from './highlight.ts';

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
