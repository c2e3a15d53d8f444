import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FONTS_CSS, fontsCss } from './font-faces.ts';

describe('web/src/app/fonts.css', () => {
  it('is what `npm run fonts` writes (run it after changing scripts/font-faces.ts or a font package)', () => {
    expect(fs.readFileSync(FONTS_CSS, 'utf8')).toBe(fontsCss());
  });

  it('ships latin and latin-ext woff2 files for every font the stylesheet names, with swap', () => {
    const css = fontsCss();
    for (const file of [
      'inter-latin-wght-normal',
      'inter-latin-ext-wght-normal',
      'barlow-condensed-latin-700-normal',
      'barlow-condensed-latin-ext-800-normal',
    ]) {
      expect(css).toContain(`/files/${file}.woff2`);
    }
    const shipped = css.split('@font-face').filter((b) => b.includes("url('"));
    expect(shipped).toHaveLength(6);
    for (const face of shipped) expect(face).toContain('font-display: swap;');
  });

  it('adjusts each fallback so its average letter is as wide as the brand font’s', () => {
    // DejaVu Sans (Debian's default) is wider than Inter: it is scaled down; Arial is narrower: scaled up.
    const face = (family: string, weight: string) => {
      const block = fontsCss()
        .split('@font-face')
        .find((b) => b.includes(`font-family: '${family}';`) && b.includes(`font-weight: ${weight};`));
      return Number(/size-adjust: ([\d.]+)%/.exec(block ?? '')?.[1]);
    };
    expect(face('Inter Fallback DejaVu', '100 550')).toBeCloseTo((978 / 2048 / (1041 / 2048)) * 100, 1);
    expect(face('Inter Fallback Arial', '100 550')).toBeGreaterThan(100);
    expect(face('Barlow Condensed Fallback DejaVu', '551 900')).toBeLessThan(80);
  });
});
