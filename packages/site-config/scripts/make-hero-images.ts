/**
 * Draws the six hero backgrounds (industrial scenes as vector art) and writes them as WebP into
 * web/public/images/hero/: <name>.webp at 1600x900 and <name>-800.webp at 800x450.
 * Run: npx tsx packages/site-config/scripts/make-hero-images.ts
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/public/images/hero');
const W = 1600;
const H = 900;

const sky = (top: string, mid: string, bottom: string) => `
  <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="${top}"/><stop offset="0.55" stop-color="${mid}"/><stop offset="1" stop-color="${bottom}"/>
  </linearGradient>`;

const frame = (defs: string, body: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
  <defs>${defs}
    <radialGradient id="sun" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#fff3c4"/><stop offset="0.35" stop-color="#ffc93c" stop-opacity="0.9"/><stop offset="1" stop-color="#ff9a1f" stop-opacity="0"/></radialGradient>
    <linearGradient id="metal" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f7c21a"/><stop offset="1" stop-color="#b07a00"/></linearGradient>
    <linearGradient id="dark" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2a2d33"/><stop offset="1" stop-color="#111215"/></linearGradient>
    <filter id="haze"><feGaussianBlur stdDeviation="6"/></filter>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#sky)"/>
  ${body}
</svg>`;

/** A wheel with tyre tread and hub. */
const wheel = (cx: number, cy: number, r: number) => `
  <circle cx="${cx}" cy="${cy}" r="${r}" fill="#15161a"/>
  <circle cx="${cx}" cy="${cy}" r="${r * 0.82}" fill="none" stroke="#2b2e34" stroke-width="${r * 0.12}" stroke-dasharray="${r * 0.18} ${r * 0.1}"/>
  <circle cx="${cx}" cy="${cy}" r="${r * 0.45}" fill="url(#metal)"/>
  <circle cx="${cx}" cy="${cy}" r="${r * 0.16}" fill="#3a3d44"/>`;

const scenes: Record<string, string> = {
  mining: frame(
    sky('#1b2233', '#7a4b3a', '#e08a3c'),
    `<circle cx="1180" cy="470" r="260" fill="url(#sun)"/>
    <path d="M0 520 L220 430 L420 470 L640 380 L880 460 L1100 400 L1380 470 L1600 420 L1600 900 L0 900Z" fill="#5a3a2e" opacity="0.75"/>
    <path d="M0 600 L300 560 L520 600 L800 540 L1050 590 L1600 540 L1600 900 L0 900Z" fill="#3d2a22"/>
    <path d="M0 640 L1600 620 L1600 660 L0 680Z" fill="#4b3428"/><path d="M0 700 L1600 670 L1600 710 L0 745Z" fill="#35251e"/>
    <path d="M0 760 L1600 730 L1600 900 L0 900Z" fill="#261a15"/>
    <g transform="translate(780 430)">
      <path d="M0 170 L40 60 L330 40 L360 0 L560 0 L600 60 L600 170Z" fill="url(#metal)"/>
      <path d="M350 0 L560 0 L560 -30 L330 -18Z" fill="#d9a20c"/>
      <rect x="40" y="72" width="120" height="70" rx="6" fill="#2a2d33"/><rect x="52" y="82" width="96" height="40" fill="#8fb3c9" opacity="0.6"/>
      <rect x="0" y="165" width="600" height="40" fill="#1d1f23"/>
      <path d="M170 60 L320 52 L320 150 L170 150Z" fill="#c48d00"/>
      ${wheel(120, 230, 95)}${wheel(470, 230, 95)}
    </g>
    <rect x="0" y="0" width="1600" height="900" fill="#000" opacity="0.08"/>`,
  ),
  construction: frame(
    sky('#20324a', '#5c7594', '#c9a46a'),
    `<circle cx="1320" cy="420" r="200" fill="url(#sun)" opacity="0.7"/>
    <g fill="#3a4657" opacity="0.8"><rect x="980" y="300" width="90" height="400"/><rect x="1090" y="360" width="70" height="340"/><rect x="1400" y="330" width="110" height="370"/></g>
    <g stroke="#f0b400" stroke-width="10" fill="none">
      <path d="M1240 760 L1240 140"/><path d="M1210 760 L1210 140"/>
      <path d="M1210 140 L1600 140 M900 140 L1240 140"/><path d="M1225 60 L900 140 M1225 60 L1560 140"/><path d="M1225 60 L1225 140"/>
    </g>
    <g stroke="#f0b400" stroke-width="4">${Array.from({ length: 20 }, (_, i) => `<path d="M1210 ${150 + i * 30} L1240 ${170 + i * 30}"/>`).join('')}</g>
    <path d="M1420 140 L1420 330" stroke="#222" stroke-width="3"/><rect x="1395" y="330" width="50" height="36" fill="#8a5a00"/>
    <path d="M0 700 L1600 660 L1600 900 L0 900Z" fill="#4a3b2c"/><path d="M0 780 L1600 740 L1600 900 L0 900Z" fill="#33291f"/>
    <g transform="translate(620 470)">
      <rect x="0" y="200" width="360" height="60" rx="30" fill="#1a1b1f"/>
      ${Array.from({ length: 7 }, (_, i) => `<circle cx="${40 + i * 47}" cy="230" r="16" fill="#3a3d44"/>`).join('')}
      <rect x="40" y="120" width="280" height="80" rx="8" fill="url(#metal)"/>
      <path d="M60 120 L60 30 L170 30 L190 120Z" fill="url(#metal)"/><path d="M75 45 L160 45 L172 110 L75 110Z" fill="#8fb3c9" opacity="0.55"/>
      <path d="M300 130 L520 -40 L560 -10 L340 170Z" fill="#e6a800"/>
      <path d="M520 -40 L690 60 L660 95 L530 0Z" fill="#d49900"/>
      <path d="M660 80 L720 160 L640 190 L610 120Z" fill="#2a2d33"/>
    </g>`,
  ),
  agriculture: frame(
    sky('#2d4c6e', '#e9a35b', '#ffd27a'),
    `<circle cx="420" cy="560" r="300" fill="url(#sun)"/>
    <path d="M0 600 C300 560 600 590 900 570 C1200 550 1400 580 1600 560 L1600 900 L0 900Z" fill="#6b7f3a"/>
    <path d="M0 650 L1600 620 L1600 900 L0 900Z" fill="#8a6a2e"/>
    ${Array.from({ length: 14 }, (_, i) => `<path d="M${-400 + i * 160} 900 L${700 + i * 40} 630" stroke="#6e5222" stroke-width="14" opacity="0.6"/>`).join('')}
    <g transform="translate(860 430)">
      <path d="M80 150 L120 40 L300 40 L320 150Z" fill="#2b2e34"/><path d="M135 55 L290 55 L300 140 L135 140Z" fill="#a9cbe0" opacity="0.5"/>
      <rect x="60" y="140" width="460" height="90" rx="12" fill="url(#metal)"/>
      <path d="M380 150 L560 150 L590 230 L380 230Z" fill="#e6a800"/><rect x="430" y="100" width="16" height="50" fill="#222"/>
      ${wheel(170, 270, 130)}${wheel(500, 300, 80)}
    </g>
    <g fill="#44541f">${Array.from({ length: 40 }, (_, i) => `<path d="M${i * 41} 900 l10 -60 l10 60z"/>`).join('')}</g>`,
  ),
  'material-handling': frame(
    sky('#15181d', '#2a3038', '#3a4048'),
    `<g fill="#23272e">${Array.from({ length: 6 }, (_, i) => `<rect x="${i * 280 - 20}" y="0" width="16" height="900"/>`).join('')}</g>
    ${Array.from({ length: 8 }, (_, i) => `<rect x="${i * 210 + 40}" y="40" width="120" height="18" rx="9" fill="#fff6d6" opacity="0.85"/><path d="M${i * 210 + 40} 58 L${i * 210 - 40} 420 L${i * 210 + 240} 420 L${i * 210 + 160} 58Z" fill="#fff2c0" opacity="0.04"/>`).join('')}
    <g>${[0, 1, 2].map((r) => Array.from({ length: 5 }, (_, i) => `<rect x="${60 + i * 130}" y="${170 + r * 150}" width="110" height="110" fill="${['#8a6a45', '#7a5c3b', '#9a7a50'][(i + r) % 3]}"/><rect x="${60 + i * 130}" y="${280 + r * 150}" width="110" height="14" fill="#5a4128"/>`).join('')).join('')}
    <g stroke="#e07b00" stroke-width="12"><path d="M40 150 L40 760 M700 150 L700 760"/><path d="M40 296 L700 296 M40 446 L700 446 M40 596 L700 596"/></g></g>
    <path d="M0 760 L1600 760 L1600 900 L0 900Z" fill="#2c3036"/><path d="M0 800 L1600 800" stroke="#f5b301" stroke-width="8" stroke-dasharray="60 40"/>
    <g transform="translate(950 360)">
      <rect x="0" y="0" width="26" height="420" fill="#2b2e34"/><rect x="34" y="0" width="26" height="420" fill="#3a3d44"/>
      <rect x="-170" y="250" width="170" height="14" fill="#c9ccd1"/><rect x="-170" y="305" width="170" height="14" fill="#c9ccd1"/>
      <rect x="-170" y="200" width="160" height="50" fill="#8a6a45"/><rect x="-170" y="150" width="160" height="50" fill="#9a7a50"/>
      <path d="M60 170 L260 170 L300 230 L300 360 L60 360Z" fill="url(#metal)"/>
      <path d="M80 60 L250 60 L260 170 L80 170Z" fill="none" stroke="#222" stroke-width="12"/>
      <rect x="230" y="240" width="160" height="130" rx="10" fill="#2b2e34"/>
      ${wheel(130, 380, 55)}${wheel(300, 380, 55)}
    </g>`,
  ),
  'power-generation': frame(
    sky('#0f1c2e', '#35506e', '#f0a04b'),
    `<circle cx="300" cy="640" r="240" fill="url(#sun)" opacity="0.8"/>
    <g stroke="#1a222c" stroke-width="6" fill="none">
      <path d="M260 700 L330 180 L400 700 M290 480 L370 480 M275 600 L385 600 M305 330 L355 330 M230 200 L430 200"/>
      <path d="M1460 700 L1510 260 L1560 700 M1440 280 L1580 280"/>
      <path d="M230 200 C700 330 1100 330 1440 280" stroke-width="3"/><path d="M430 200 C800 340 1200 320 1580 280" stroke-width="3"/>
    </g>
    <path d="M0 700 L1600 680 L1600 900 L0 900Z" fill="#2a2f36"/><path d="M0 760 L1600 740 L1600 900 L0 900Z" fill="#1f2328"/>
    ${[0, 1].map((i) => `<g transform="translate(${640 + i * 420} ${440 + i * 40})">
      <rect x="0" y="40" width="380" height="220" rx="10" fill="url(#metal)"/>
      <rect x="0" y="250" width="380" height="30" fill="#1b1d21"/>
      ${Array.from({ length: 9 }, (_, k) => `<rect x="${30 + k * 18}" y="80" width="8" height="140" fill="#8a5a00" opacity="0.7"/>`).join('')}
      <rect x="230" y="90" width="110" height="80" rx="6" fill="#2a2d33"/><rect x="245" y="105" width="50" height="30" fill="#6fd3a0" opacity="0.7"/>
      <rect x="300" y="0" width="30" height="48" fill="#2a2d33"/>
      <path d="M315 -10 C300 -60 350 -90 320 -150" stroke="#9aa3ad" stroke-width="18" fill="none" opacity="0.25" filter="url(#haze)"/>
    </g>`).join('')}`,
  ),
  logistics: frame(
    sky('#142238', '#3f6185', '#e6b17a'),
    `<circle cx="1350" cy="520" r="220" fill="url(#sun)" opacity="0.75"/>
    <path d="M0 640 L1600 640 L1600 900 L0 900Z" fill="#1d3550"/>
    ${Array.from({ length: 10 }, (_, i) => `<path d="M${i * 170} ${700 + (i % 3) * 50} l120 0" stroke="#fff" stroke-width="3" opacity="0.15"/>`).join('')}
    <g transform="translate(340 460)">
      <path d="M0 120 L1000 120 L940 230 L60 230Z" fill="#2a2d33"/><path d="M0 120 L1000 120 L990 140 L10 140Z" fill="#b3261e"/>
      ${Array.from({ length: 3 }, (_, r) => Array.from({ length: 12 }, (_, c) => `<rect x="${60 + c * 62}" y="${84 - r * 36}" width="58" height="34" fill="${['#f5b301', '#c0392b', '#2e86c1', '#5b616b', '#1f8f4e'][(c * 3 + r * 2) % 5]}"/>`).join('')).join('')}
      <rect x="840" y="20" width="110" height="100" fill="#e9ecef"/><rect x="850" y="32" width="90" height="20" fill="#1b2a3a"/><rect x="880" y="-30" width="30" height="50" fill="#2a2d33"/>
    </g>
    <g stroke="#f5b301" stroke-width="14" fill="none">
      <path d="M120 650 L120 160 M220 650 L220 160 M120 160 L700 160 M60 160 L120 160"/><path d="M120 300 L220 300 M120 450 L220 450"/>
    </g>
    <path d="M470 160 L470 330" stroke="#222" stroke-width="4"/><rect x="440" y="330" width="62" height="36" fill="#2e86c1"/>
    <path d="M0 640 L330 640 L330 900 L0 900Z" fill="#2b2e34"/>`,
  ),
};

await mkdir(out, { recursive: true });
for (const [name, svg] of Object.entries(scenes)) {
  const base = sharp(Buffer.from(svg)).blur(0.6);
  const big = await base.clone().webp({ quality: 62, effort: 6 }).toFile(path.join(out, `${name}.webp`));
  const small = await base.clone().resize(800, 450).webp({ quality: 62, effort: 6 }).toFile(path.join(out, `${name}-800.webp`));
  console.log(`${name}: ${(big.size / 1024).toFixed(1)} kB / ${(small.size / 1024).toFixed(1)} kB`);
}
