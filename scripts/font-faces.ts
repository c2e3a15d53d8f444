/**
 * npm run fonts: writes web/src/app/fonts.css, the storefront's type.
 *
 * - The brand's fonts, shipped with the app (woff2 from the @fontsource packages, latin and latin-ext subsets, the
 *   browser downloads only the subsets a page's text uses): Inter (variable, 100–900) for text, Barlow Condensed
 *   700 and 800 for headings. `font-display: swap`.
 * - The visit's first page paints with the adjusted fallbacks; the fonts load right after its largest paint (Inter
 *   first) and are switched on together (<html data-fonts>) at the next navigation, then from the first paint of
 *   every later page (web/vite.config.ts fontLoader says why).
 * - A metric-adjusted fallback face per font and per local system font, so the swap moves nothing: `size-adjust`
 *   makes the local font's average character as wide as the brand font's (capsize's English-weighted average), and
 *   the ascent/descent/line-gap overrides give its lines the brand font's height. The browser takes the first
 *   family in the stack whose `local()` font the machine has: Arial (Windows, macOS; Liberation Sans on Linux has
 *   its metrics), Roboto (Android), DejaVu Sans (plain Linux machines, such as CI's). Each has a regular face and a
 *   bold one, since bold letters are wider by a different factor in each font.
 *
 * font-faces.test.ts fails when the committed fonts.css differs from what this script writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import arial from '@capsizecss/metrics/arial';
import arialBold from '@capsizecss/metrics/arial/700';
import barlowCondensed700 from '@capsizecss/metrics/barlowCondensed/700';
import barlowCondensed800 from '@capsizecss/metrics/barlowCondensed/800';
import inter from '@capsizecss/metrics/inter';
import interBold from '@capsizecss/metrics/inter/700';
import roboto from '@capsizecss/metrics/roboto';
import robotoBold from '@capsizecss/metrics/roboto/700';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FONTS_CSS = path.join(repoRoot, 'web/src/app/fonts.css');

interface Metrics {
  ascent: number;
  descent: number;
  lineGap: number;
  unitsPerEm: number;
  xWidthAvg: number;
}

/** DejaVu Sans has no capsize entry: measured once from Debian's fonts-dejavu-core 2.37 with @capsizecss/unpack. */
const dejaVuSans: Metrics = { ascent: 1901, descent: -483, lineGap: 0, unitsPerEm: 2048, xWidthAvg: 1041 };
const dejaVuSansBold: Metrics = { ascent: 1901, descent: -483, lineGap: 0, unitsPerEm: 2048, xWidthAvg: 1176 };
const dejaVuSansCondensedBold: Metrics = { ascent: 1901, descent: -483, lineGap: 0, unitsPerEm: 2048, xWidthAvg: 1058 };

interface LocalFont {
  /** Suffix of the fallback family: 'Inter Fallback Arial'. */
  tag: string;
  /** local() names: full name and PostScript name, as browsers match either. */
  regular: { names: string[]; metrics: Metrics };
  bold: { names: string[]; metrics: Metrics };
}

const ARIAL: LocalFont = {
  tag: 'Arial',
  regular: { names: ['Arial', 'ArialMT', 'Liberation Sans', 'LiberationSans'], metrics: arial },
  bold: { names: ['Arial Bold', 'Arial-BoldMT', 'Liberation Sans Bold', 'LiberationSans-Bold'], metrics: arialBold },
};
const ROBOTO: LocalFont = {
  tag: 'Roboto',
  regular: { names: ['Roboto', 'Roboto-Regular'], metrics: roboto },
  bold: { names: ['Roboto Bold', 'Roboto-Bold'], metrics: robotoBold },
};
const DEJAVU: LocalFont = {
  tag: 'DejaVu',
  regular: { names: ['DejaVu Sans', 'DejaVuSans'], metrics: dejaVuSans },
  bold: { names: ['DejaVu Sans Bold', 'DejaVuSans-Bold'], metrics: dejaVuSansBold },
};
/** Barlow Condensed is only used bold: its fallbacks are the bold faces, DejaVu's condensed one where there is one. */
const DEJAVU_CONDENSED: LocalFont = {
  tag: 'DejaVu',
  regular: { names: ['DejaVu Sans Condensed Bold', 'DejaVuSansCondensed-Bold'], metrics: dejaVuSansCondensedBold },
  bold: { names: ['DejaVu Sans Condensed Bold', 'DejaVuSansCondensed-Bold'], metrics: dejaVuSansCondensedBold },
};

interface Shipped {
  family: string;
  /** Files per subset, as `@fontsource…/files/…` paths (Vite resolves them and emits hashed copies). */
  faces: { weight: string; subset: 'latin' | 'latin-ext'; file: string; format: string }[];
  /** The fonts' own metrics for text up to weight 550 and from 551 (what the fallbacks are adjusted to). */
  regular: Metrics;
  bold: Metrics;
  fallbacks: LocalFont[];
  generic: string;
}

export const INTER: Shipped = {
  family: 'Inter',
  faces: (['latin', 'latin-ext'] as const).map((subset) => ({
    weight: '100 900',
    subset,
    file: `@fontsource-variable/inter/files/inter-${subset}-wght-normal.woff2`,
    format: 'woff2-variations',
  })),
  regular: inter,
  bold: interBold,
  fallbacks: [ARIAL, ROBOTO, DEJAVU],
  generic: 'sans-serif',
};

export const BARLOW_CONDENSED: Shipped = {
  family: 'Barlow Condensed',
  faces: (['700', '800'] as const).flatMap((weight) =>
    (['latin', 'latin-ext'] as const).map((subset) => ({
      weight,
      subset,
      file: `@fontsource/barlow-condensed/files/barlow-condensed-${subset}-${weight}-normal.woff2`,
      format: 'woff2',
    })),
  ),
  regular: barlowCondensed700,
  bold: barlowCondensed800,
  fallbacks: [ARIAL, ROBOTO, DEJAVU_CONDENSED],
  generic: 'sans-serif',
};

/** The unicode-range fontsource gives a subset (read from its own CSS, so it follows package updates). */
function unicodeRange(file: string, subset: string): string {
  const pkg = file.split('/files/')[0]!;
  const css = fs.readFileSync(path.join(repoRoot, 'node_modules', pkg, 'index.css'), 'utf8');
  const wght = fs.existsSync(path.join(repoRoot, 'node_modules', pkg, 'wght.css'))
    ? fs.readFileSync(path.join(repoRoot, 'node_modules', pkg, 'wght.css'), 'utf8')
    : '';
  // The comment fontsource puts above each face: /* inter-latin-wght-normal */, /* barlow-condensed-latin-ext-700-normal */
  const re = new RegExp(`/\\* [a-z-]*?-${subset}-(?:wght|\\d+)-normal \\*/[^}]*?unicode-range:\\s*([^;]+);`);
  const m = re.exec(wght) ?? re.exec(css);
  if (!m) throw new Error(`no unicode-range for ${subset} in ${pkg}`);
  return m[1]!.trim();
}

const pct = (n: number) => `${(n * 100).toFixed(2)}%`;

/** A fallback face: `local` metrics scaled to read as wide and as tall as `target`. */
function fallbackFace(family: string, weight: string, local: { names: string[]; metrics: Metrics }, target: Metrics): string {
  const sizeAdjust = target.xWidthAvg / target.unitsPerEm / (local.metrics.xWidthAvg / local.metrics.unitsPerEm);
  return [
    '@font-face {',
    `  font-family: '${family}';`,
    `  font-weight: ${weight};`,
    `  src: ${local.names.map((n) => `local('${n}')`).join(', ')};`,
    `  size-adjust: ${pct(sizeAdjust)};`,
    `  ascent-override: ${pct(target.ascent / target.unitsPerEm / sizeAdjust)};`,
    `  descent-override: ${pct(Math.abs(target.descent) / target.unitsPerEm / sizeAdjust)};`,
    `  line-gap-override: ${pct(target.lineGap / target.unitsPerEm / sizeAdjust)};`,
    '}',
  ].join('\n');
}

/** The font-family value: the shipped font, its fallbacks in order, the generic family. */
export const stack = (font: Shipped) => [`'${font.family}'`, fallbackStack(font)].join(', ');

/** The adjusted fallbacks alone (the first paint's stack, before the fonts have loaded). */
export const fallbackStack = (font: Shipped) => [...font.fallbacks.map((f) => `'${font.family} Fallback ${f.tag}'`), font.generic].join(', ');

export function fontsCss(): string {
  const blocks: string[] = [];
  for (const font of [INTER, BARLOW_CONDENSED]) {
    for (const face of font.faces) {
      blocks.push(
        [
          `/* ${font.family} ${face.weight} ${face.subset} */`,
          '@font-face {',
          `  font-family: '${font.family}';`,
          '  font-style: normal;',
          '  font-display: swap;',
          `  font-weight: ${face.weight};`,
          `  src: url('${face.file}') format('${face.format}');`,
          `  unicode-range: ${unicodeRange(face.file, face.subset)};`,
          '}',
        ].join('\n'),
      );
    }
    for (const local of font.fallbacks) {
      const family = `${font.family} Fallback ${local.tag}`;
      blocks.push(fallbackFace(family, '100 550', local.regular, font.regular));
      blocks.push(fallbackFace(family, '551 900', local.bold, font.bold));
    }
  }
  return [
    '/* Written by `npm run fonts` (scripts/font-faces.ts): edit that script, not this file. */',
    ...blocks,
    [
      '/* The brand stacks: in use once the fonts are switched on (<html data-fonts>, web/vite.config.ts fontLoader) or',
      '   without JavaScript (a <noscript> style). Until then pages paint with the adjusted fallbacks alone. */',
      ':root {',
      `  --font-sans-brand: ${stack(INTER)};`,
      `  --font-display-brand: ${stack(BARLOW_CONDENSED)};`,
      '}',
      '',
      '@theme {',
      `  --font-sans: ${fallbackStack(INTER)};`,
      `  --font-display: ${fallbackStack(BARLOW_CONDENSED)};`,
      '}',
      '',
      ':root[data-fonts] {',
      '  --font-sans: var(--font-sans-brand);',
      '  --font-display: var(--font-display-brand);',
      '}',
      '',
    ].join('\n'),
  ].join('\n\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  fs.writeFileSync(FONTS_CSS, fontsCss());
  console.log(`wrote ${path.relative(repoRoot, FONTS_CSS)}`);
}
