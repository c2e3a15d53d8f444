/**
 * The generated product picture: a small technical illustration of the part's kind (filter,
 * gear, piston, roller, tooth...), tinted with the brand's colour, with the part number printed
 * under it. Served at GET /media/generated/:category/:brand/:part.svg until staff upload photos.
 * Pure function, no I/O; every text is XML-escaped; output stays under 4 kB.
 */
import { slugify, titleFromSlug } from '@forgeline/contracts/slug';
import { BRANDS, CATEGORIES, type Shape } from './catalogue-data.ts';

export interface PartImageInput {
  categorySlug: string;
  brandSlug: string;
  partSlug: string;
}

const SHAPE_BY_CATEGORY = new Map(CATEGORIES.map((c) => [slugify(c.name), c.shape] as const));
const CATEGORY_NAME = new Map(CATEGORIES.map((c) => [slugify(c.name), c.name] as const));
const BRAND_BY_SLUG = new Map(BRANDS.map((b) => [slugify(b.name), b] as const));

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[ch]};`);
}

/** Keep what the picture prints short and printable (no control characters). */
const clean = (s: string, max: number) => {
  const t = s.replace(/[\u0000-\u001f\u007f\ufffe\uffff]/g, '').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

function hueColor(seed: string): string {
  let h = 0;
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) >>> 0;
  return `hsl(${h % 360},55%,42%)`;
}

function polygonPoints(n: number, rOuter: number, rInner: number, cx: number, cy: number): string {
  const pts: string[] = [];
  for (let i = 0; i < n * 4; i++) {
    const a = (i / (n * 4)) * Math.PI * 2;
    const r = i % 4 < 2 ? rOuter : rInner;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(' ');
}

function ringOf(n: number, radius: number, r: number, cx: number, cy: number, cls: string): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    const a = (i / n) * Math.PI * 2;
    out += `<circle class="${cls}" cx="${(cx + radius * Math.cos(a)).toFixed(1)}" cy="${(cy + radius * Math.sin(a)).toFixed(1)}" r="${r}"/>`;
  }
  return out;
}

const GEAR = `<polygon class="p" points="${polygonPoints(18, 66, 54, 160, 96)}"/><circle class="m" cx="160" cy="96" r="30"/><circle class="d" cx="160" cy="96" r="13"/>`;

/** Each drawing sits in the 320 x 170 area above the label. Classes: p brand part, m metal, d dark, l highlight, b background. */
const DRAWINGS: Record<Shape, string> = {
  filter:
    '<rect class="p" x="112" y="34" width="96" height="120" rx="10"/><rect class="l" x="112" y="70" width="96" height="44"/><ellipse class="m" cx="160" cy="34" rx="48" ry="12"/><ellipse class="d" cx="160" cy="34" rx="16" ry="4"/><path class="s" d="M124 128h72M124 140h72"/>',
  injector:
    '<rect class="m" x="146" y="26" width="28" height="96" rx="4"/><rect class="p" x="138" y="58" width="44" height="30" rx="4"/><rect class="p" x="174" y="32" width="34" height="18" rx="3"/><polygon class="d" points="150,122 170,122 164,160 156,160"/>',
  turbo:
    '<circle class="m" cx="118" cy="96" r="52"/><circle class="d" cx="118" cy="96" r="20"/><rect class="m" x="160" y="82" width="30" height="28"/><circle class="p" cx="214" cy="100" r="44"/><circle class="d" cx="214" cy="100" r="15"/><rect class="p" x="228" y="34" width="22" height="30"/>',
  piston:
    '<rect class="m" x="116" y="28" width="88" height="74" rx="8"/><path class="s" d="M116 44h88M116 56h88"/><polygon class="p" points="148,96 172,96 178,150 142,150"/><circle class="p" cx="160" cy="158" r="24"/><circle class="b" cx="160" cy="158" r="12"/><circle class="d" cx="160" cy="80" r="8"/>',
  gear: GEAR,
  shaft:
    '<rect class="m" x="40" y="86" width="240" height="22" rx="6"/><rect class="p" x="70" y="66" width="26" height="62" rx="5"/><rect class="p" x="134" y="66" width="26" height="62" rx="5"/><rect class="p" x="198" y="66" width="26" height="62" rx="5"/><rect class="d" x="262" y="90" width="26" height="14"/>',
  bearing: `<circle class="p" cx="160" cy="96" r="68"/><circle class="b" cx="160" cy="96" r="56"/>${ringOf(12, 46, 10, 160, 96, 'm')}<circle class="p" cx="160" cy="96" r="34"/><circle class="b" cx="160" cy="96" r="22"/>`,
  ring:
    '<ellipse class="p" cx="160" cy="110" rx="92" ry="36"/><ellipse class="p" cx="160" cy="96" rx="92" ry="36"/><ellipse class="b" cx="160" cy="96" rx="70" ry="24"/>',
  roller:
    '<rect class="m" x="46" y="88" width="228" height="18" rx="4"/><rect class="p" x="86" y="56" width="148" height="82" rx="6"/><rect class="p" x="74" y="44" width="20" height="106" rx="5"/><rect class="p" x="226" y="44" width="20" height="106" rx="5"/><rect class="l" x="100" y="64" width="118" height="14"/>',
  chain: `${[46, 114, 182].map((x) => `<rect class="p" x="${x}" y="72" width="92" height="48" rx="22"/><circle class="m" cx="${x + 22}" cy="96" r="9"/><circle class="m" cx="${x + 70}" cy="96" r="9"/>`).join('')}`,
  tooth:
    '<polygon class="p" points="52,60 176,56 276,94 276,104 176,140 52,134"/><rect class="m" x="52" y="60" width="40" height="74"/><circle class="d" cx="120" cy="97" r="11"/><path class="s" d="M176 56l0 84"/>',
  edge: `<polygon class="p" points="34,80 286,80 286,122 34,134"/>${[70, 120, 170, 220, 260].map((x) => `<circle class="d" cx="${x}" cy="98" r="6"/>`).join('')}<path class="s" d="M34 122h252"/>`,
  hose:
    '<path d="M70 146C90 30 230 30 250 146" fill="none" stroke="#263238" stroke-width="26" stroke-linecap="round"/><path d="M70 146C90 30 230 30 250 146" class="h" stroke-width="18"/><rect class="m" x="52" y="138" width="36" height="28" rx="3"/><rect class="m" x="232" y="138" width="36" height="28" rx="3"/>',
  fitting:
    '<rect class="p" x="90" y="80" width="110" height="36" rx="6"/><rect class="p" x="164" y="80" width="36" height="86" rx="6"/><polygon class="m" points="60,74 90,74 98,98 90,122 60,122 52,98"/><polygon class="m" points="158,36 206,36 214,58 206,80 158,80 150,58"/>',
  pump:
    '<rect class="p" x="92" y="50" width="132" height="92" rx="12"/><rect class="m" x="70" y="62" width="24" height="68" rx="4"/><rect class="m" x="44" y="88" width="28" height="16"/><circle class="d" cx="158" cy="50" r="12"/><circle class="d" cx="200" cy="142" r="10"/><rect class="l" x="104" y="62" width="108" height="16"/>',
  valve:
    '<rect class="p" x="68" y="62" width="184" height="78" rx="6"/><rect class="m" x="140" y="26" width="40" height="38" rx="4"/><rect class="m" x="44" y="84" width="26" height="34" rx="4"/><rect class="m" x="250" y="84" width="26" height="34" rx="4"/><circle class="d" cx="110" cy="102" r="9"/><circle class="d" cx="160" cy="102" r="9"/><circle class="d" cx="210" cy="102" r="9"/>',
  ram:
    '<rect class="m" x="186" y="88" width="92" height="18" rx="3"/><rect class="p" x="46" y="74" width="146" height="46" rx="8"/><circle class="m" cx="40" cy="97" r="20"/><circle class="b" cx="40" cy="97" r="8"/><circle class="m" cx="282" cy="97" r="18"/><circle class="b" cx="282" cy="97" r="7"/>',
  sensor:
    '<rect class="d" x="130" y="24" width="60" height="26" rx="4"/><rect class="p" x="140" y="50" width="40" height="64" rx="4"/><polygon class="m" points="128,114 192,114 200,130 192,146 128,146 120,130"/><rect class="m" x="148" y="146" width="24" height="26"/><path class="s" d="M148 154h24M148 162h24"/>',
  module:
    '<rect class="p" x="70" y="40" width="180" height="112" rx="10"/><rect class="l" x="86" y="54" width="148" height="58" rx="4"/><rect class="d" x="90" y="124" width="36" height="16" rx="2"/><rect class="d" x="140" y="124" width="36" height="16" rx="2"/><circle class="m" cx="214" cy="132" r="7"/>',
  disc: `<circle class="p" cx="160" cy="96" r="70"/><circle cx="160" cy="96" r="56" fill="none" stroke="#263238" stroke-width="2" stroke-dasharray="14 6"/><circle class="b" cx="160" cy="96" r="32"/>${ringOf(6, 44, 5, 160, 96, 'd')}`,
  bit: `<rect class="m" x="132" y="96" width="56" height="70" rx="4"/><path class="p" d="M110 100Q160 18 210 100Z"/>${[[160, 68], [141, 82], [179, 82], [150, 95], [170, 95]].map(([x, y]) => `<circle class="d" cx="${x}" cy="${y}" r="6"/>`).join('')}`,
  fork:
    '<rect class="p" x="84" y="26" width="24" height="130" rx="3"/><polygon class="p" points="84,136 286,146 286,156 84,160"/><rect class="m" x="70" y="34" width="48" height="16" rx="3"/><rect class="m" x="70" y="96" width="48" height="16" rx="3"/>',
  radiator:
    '<rect class="p" x="70" y="30" width="180" height="22" rx="4"/><rect class="p" x="70" y="140" width="180" height="22" rx="4"/><rect class="m" x="78" y="52" width="164" height="88"/><path class="s" d="M98 52v88M118 52v88M138 52v88M158 52v88M178 52v88M198 52v88M218 52v88"/><rect class="d" x="250" y="40" width="22" height="14"/>',
  plate: `<rect class="p" x="62" y="40" width="196" height="114" rx="10"/>${[0, 1, 2].map((row) => [0, 1, 2, 3, 4].map((col) => `<rect class="b" x="${84 + col * 34}" y="${58 + row * 30}" width="20" height="14" rx="3"/>`).join('')).join('')}`,
  wheel: `<circle class="d" cx="160" cy="96" r="72"/><circle class="p" cx="160" cy="96" r="46"/><circle class="m" cx="160" cy="96" r="18"/>${ringOf(6, 32, 5, 160, 96, 'b')}`,
  belt:
    '<rect x="56" y="46" width="208" height="100" rx="50" fill="none" stroke="#263238" stroke-width="14"/><rect x="56" y="46" width="208" height="100" rx="50" class="h" stroke-width="8"/><circle class="m" cx="106" cy="96" r="38"/><circle class="m" cx="226" cy="96" r="30"/><circle class="d" cx="106" cy="96" r="8"/><circle class="d" cx="226" cy="96" r="7"/>',
  motor:
    '<rect class="p" x="78" y="58" width="140" height="78" rx="12"/><rect class="m" x="216" y="66" width="30" height="62" rx="6"/><rect class="m" x="246" y="88" width="30" height="18"/><rect class="d" x="108" y="40" width="18" height="20"/><rect class="d" x="150" y="40" width="18" height="20"/><path class="s" d="M96 74v46M112 74v46M128 74v46"/>',
  light:
    '<rect class="p" x="146" y="116" width="28" height="44"/><rect class="d" x="92" y="38" width="136" height="84" rx="14"/><rect x="104" y="50" width="112" height="60" rx="8" fill="#fff8d6" stroke="#263238" stroke-width="2"/>' +
    ringOf(6, 18, 6, 160, 80, 'l2'),
  gasket: `<rect class="p" x="46" y="54" width="228" height="86" rx="10"/>${[90, 137, 183, 230].map((x) => `<circle class="b" cx="${x}" cy="97" r="20"/>`).join('')}${[62, 114, 160, 206, 258].map((x) => `<circle class="d" cx="${x}" cy="66" r="4"/><circle class="d" cx="${x}" cy="128" r="4"/>`).join('')}`,
};

export function renderPartImageSvg(input: PartImageInput): string {
  const categorySlug = clean(input.categorySlug, 80).toLowerCase();
  const brandSlug = clean(input.brandSlug, 80).toLowerCase();
  const shape = SHAPE_BY_CATEGORY.get(categorySlug) ?? 'module';
  const brand = BRAND_BY_SLUG.get(brandSlug);
  const color = brand?.color ?? hueColor(brandSlug);
  const brandName = escapeXml(clean(brand?.name ?? titleFromSlug(brandSlug), 28));
  const categoryName = escapeXml(clean(CATEGORY_NAME.get(categorySlug) ?? titleFromSlug(categorySlug), 34));
  const partText = clean(input.partSlug.replace(/\.svg$/i, ''), 26).toUpperCase();
  const partSize = partText.length > 18 ? 15 : 20;
  const label = `${brandName} part ${escapeXml(partText)}, ${categoryName}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 240" width="320" height="240" role="img" aria-label="${label}">` +
    `<title>${label}</title>` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f8fafc"/><stop offset="1" stop-color="#e2e8f0"/></linearGradient></defs>` +
    `<style>.h{fill:none;stroke:${color}}.p{fill:${color};stroke:#263238;stroke-width:3;stroke-linejoin:round}.m{fill:#b0bec5;stroke:#263238;stroke-width:3;stroke-linejoin:round}.d{fill:#37474f}.l{fill:#fff;opacity:.35}.l2{fill:#ffe082}.b{fill:#eef2f6;stroke:#263238;stroke-width:2}.s{fill:none;stroke:#263238;stroke-width:2;opacity:.5}text{font-family:ui-sans-serif,system-ui,Arial,sans-serif}</style>` +
    `<rect width="320" height="240" fill="url(#g)"/>` +
    `<ellipse cx="160" cy="172" rx="110" ry="8" fill="#0f172a" opacity=".08"/>` +
    DRAWINGS[shape] +
    `<rect y="184" width="320" height="56" fill="#fff"/><rect y="184" width="6" height="56" fill="${color}"/>` +
    `<text x="18" y="208" font-size="${partSize}" font-weight="700" fill="#0f172a" font-family="ui-monospace,Menlo,Consolas,monospace">${escapeXml(partText)}</text>` +
    `<text x="18" y="229" font-size="12" fill="#475569"><tspan fill="${color}" font-weight="700">${brandName}</tspan> · ${categoryName}</text>` +
    `</svg>`
  );
}
