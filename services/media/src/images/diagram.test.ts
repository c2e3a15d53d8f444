import { describe, expect, it } from 'vitest';
import { startsAsSvg } from './diagram.ts';

describe('startsAsSvg', () => {
  it('finds the root after any prolog, and nothing else', () => {
    const yes = [
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      '\uFEFF<svg>',
      '<?xml version="1.0"?>\n<!-- drawn by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<svg width="1">',
      '<!DOCTYPE svg [ <!ENTITY a "b"> ]><svg>',
      '<svg:svg xmlns:svg="http://www.w3.org/2000/svg">',
    ];
    const no = ['<html><svg>', '<?xml?><svgx>', '<!-- <svg> ', '<?xml ', 'GIF89a', ''];
    for (const text of yes) expect(startsAsSvg(text), text).toBe(true);
    for (const text of no) expect(startsAsSvg(text), text).toBe(false);
  });

  it('reads a hostile prolog in linear time (a regular expression backtracked for minutes on 64 kB of "<?a?>")', () => {
    for (const unit of ['<?', '<!--', '<?a?>', '<!DOCTYPE a [', '<!-- -->', '<!DOCTYPE a>', ' ']) {
      const text = unit.repeat(Math.floor(65_536 / unit.length));
      // Correctness, not speed, is asserted: a backtracking scan would not return within the suite's timeout.
      expect(startsAsSvg(text)).toBe(false);
    }
  });
});
