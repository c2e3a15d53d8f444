import { slugify } from '@forgeline/contracts/slug';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { BRANDS, CATEGORIES } from './catalogue-data.ts';
import { renderPartImageSvg } from './part-image.ts';

const wellFormed = (svg: string) => XMLValidator.validate(svg) === true;

describe('renderPartImageSvg', () => {
  it('draws every category as well-formed SVG under 4 kB, printing the part number', () => {
    CATEGORIES.forEach((c, i) => {
      const brand = BRANDS[i % BRANDS.length]!;
      const svg = renderPartImageSvg({ categorySlug: slugify(c.name), brandSlug: slugify(brand.name), partSlug: '1r-0750' });
      expect(wellFormed(svg), c.name).toBe(true);
      expect(Buffer.byteLength(svg), c.name).toBeLessThan(4096);
      expect(svg).toContain('>1R-0750<');
      expect(svg).toContain(brand.color);
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    });
  });

  it('draws different parts differently (a filter is not a gear)', () => {
    const draw = (category: string) => renderPartImageSvg({ categorySlug: category, brandSlug: 'caterpillar', partSlug: 'x' });
    expect(draw('oil-filters')).not.toBe(draw('sprockets'));
    expect(draw('bucket-teeth')).not.toBe(draw('track-rollers'));
  });

  it('escapes hostile text and still draws unknown brands and categories', () => {
    const svg = renderPartImageSvg({
      categorySlug: '<script>alert(1)</script>',
      brandSlug: 'a"b&c\'d',
      partSlug: '</text><script>x</script>',
    });
    expect(wellFormed(svg)).toBe(true);
    expect(svg).not.toMatch(/<script/i);
    expect(svg).toContain('&lt;');
    expect(Buffer.byteLength(svg)).toBeLessThan(4096);
  });

  it('keeps a long part number inside the picture', () => {
    const svg = renderPartImageSvg({ categorySlug: 'oil-filters', brandSlug: 'generic', partSlug: 'x'.repeat(500) });
    expect(wellFormed(svg)).toBe(true);
    expect(svg).not.toContain('x'.repeat(30));
  });

  it('gives the same picture for the same input', () => {
    const input = { categorySlug: 'turbochargers', brandSlug: 'garrett', partSlug: '465105-0002' };
    expect(renderPartImageSvg(input)).toBe(renderPartImageSvg(input));
  });
});
