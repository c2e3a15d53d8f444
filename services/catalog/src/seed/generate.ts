/**
 * The demo catalogue: a repeatable stream of industrial spare parts (same count and seed, same
 * products, byte for byte). Product i depends only on the seed, i and the part numbers handed out
 * before it, so the first N products of a bigger run are the same as a run of N.
 * It streams: memory stays constant whatever the count (one counter per part-number pattern).
 */
import type { Product, Testimonial } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import { BRANDS, CATEGORIES, type BrandDef, type CategoryDef, type Group, type Shape } from './catalogue-data.ts';
import { PartNumberSequence, parsePattern, type PartNumberPattern } from './part-numbers.ts';
import { stableUuid } from '../domain/stable-uuid.ts';

export const DEFAULT_SEED = 20_17;

/** Small fast PRNG (sfc32) seeded through splitmix32; good enough for catalogue content. */
export function createRng(seed: number): () => number {
  let s = seed >>> 0;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split(), b = split(), c = split(), d = split();
  return () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
}

/** slugify with a fast path for plain ASCII (the same result; NFKD normalisation is the slow part). */
export function fastSlug(text: string): string {
  if (!/^[\x00-\x7f]*$/.test(text)) return slugify(text);
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

export const brandSlugOf = (b: { name: string }) => slugify(b.name);
export const categorySlugOf = (c: { name: string }) => slugify(c.name);

/** Where a product's generated picture lives (served by the catalog, drawn by part-image.ts). */
export const generatedImageUrl = (category: string, brand: string, partNumber: string) =>
  `/media/generated/${fastSlug(category)}/${fastSlug(brand)}/${fastSlug(partNumber)}.svg`;

/** How much more often a group's categories come up than others'. */
export const GROUP_WEIGHT: Partial<Record<Group, number>> = { filters: 3, engine: 2, hydraulics: 2, undercarriage: 2, get: 2 };

interface BrandPlan {
  brand: BrandDef;
  slug: string;
  categories: CategoryDef[];
  /** Cumulative category weights. */
  cum: number[];
  /** Machines the parts fit: the brand's own, or (component makers) the OEMs'. */
  models: Fit[];
}

interface Fit {
  make: string;
  model: string;
  label: string;
}

const OEM_MODELS: Fit[] = BRANDS.filter((b) => b.models && b.name !== 'Generic').flatMap((b) =>
  (b.models ?? []).map((model) => ({ make: b.name, model, label: `${b.name} ${model}` })),
);

function plan(): { plans: BrandPlan[]; cum: number[] } {
  const plans = BRANDS.map((brand) => {
    const categories = CATEGORIES.filter((c) => brand.groups.includes(c.group) && !brand.exclude?.includes(slugify(c.name)));
    let total = 0;
    const cum = categories.map((c) => (total += GROUP_WEIGHT[c.group] ?? 1));
    const models = brand.models ? OEM_MODELS.filter((f) => f.make === brand.name) : OEM_MODELS;
    return { brand, slug: brandSlugOf(brand), categories, cum, models };
  });
  let total = 0;
  const cum = BRANDS.map((b) => (total += b.weight));
  return { plans, cum };
}

function pickCum(cum: number[], r: number): number {
  const x = r * cum[cum.length - 1]!;
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The part-number patterns a brand uses for a category. */
export function patternsFor(brand: BrandDef, categorySlug: string): string[] {
  return brand.formatsByCategory?.[categorySlug] ?? brand.formats;
}

const CONDITIONS = ['OEM Genuine', 'OEM Genuine', 'OEM Genuine', 'Aftermarket', 'Remanufactured'] as const;
const ORIGINS: Record<string, string[]> = {
  default: ['USA', 'Germany', 'Japan', 'United Kingdom', 'Italy', 'Sweden', 'China', 'India', 'Mexico', 'Brazil', 'South Korea'],
};
const WARRANTY = ['6 months', '12 months', '12 months', '24 months'];

type R = () => number;
const between = (r: R, lo: number, hi: number) => lo + r() * (hi - lo);
const int = (r: R, lo: number, hi: number) => Math.floor(between(r, lo, hi + 1));
const pick = <T>(r: R, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const mm = (n: number) => `${Math.round(n)} mm`;

const BOX_SPECS: Partial<Record<Shape, (r: R, a: number) => [string, string][]>> = {
  pump: (r, a) => [
    ['Displacement', `${int(r, 10, 280)} cc/rev`],
    ['Max Pressure', `${pick(r, [210, 250, 280, 350, 420])} bar`],
    ['Rotation', pick(r, ['Clockwise', 'Counter-Clockwise'])],
    ['Shaft', pick(r, ['SAE B 13T Spline', 'SAE C 14T Spline', 'Keyed 25 mm', 'SAE A 9T Spline'])],
  ],
  motor: (r, a) => [
    ['Voltage', pick(r, ['12 V', '24 V'])],
    ['Output', pick(r, ['4.0 kW', '5.5 kW', '7.8 kW', '9.0 kW', '70 A', '100 A', '140 A'])],
    ['Teeth / Pulley', pick(r, ['10T', '11T', '12T', 'Single Groove', 'Poly-V 8PK'])],
    ['Mounting', pick(r, ['SAE 3 Flange', 'Pad Mount', 'J-180 Hinge'])],
  ],
  valve: (r, a) => [
    ['Ports', pick(r, ['2/2', '3/2', '4/3', '6 sections', '8 sections'])],
    ['Operation', pick(r, ['Hydraulic Pilot', 'Solenoid 24 V DC', 'Mechanical', 'Wax Element 82 °C'])],
    ['Max Pressure', `${pick(r, [35, 210, 250, 350])} bar`],
  ],
  ram: (r, a) => [
    ['Bore', mm(int(r, 50, 220))],
    ['Rod Diameter', mm(int(r, 30, 140))],
    ['Stroke', mm(int(r, 200, 2200))],
    ['Retracted Length', mm(int(r, 600, 3000))],
  ],
  module: (r, a) => [
    ['Supply Voltage', pick(r, ['12 V', '24 V', '8-36 V', 'n/a'])],
    ['Interface', pick(r, ['CAN J1939', 'Modbus RTU', 'Analogue', 'n/a'])],
    ['Firmware / Version', `${int(r, 1, 9)}.${int(r, 0, 20)}`],
  ],
  radiator: (r, a) => [
    ['Core Rows', String(int(r, 2, 6))],
    ['Core Material', pick(r, ['Copper/Brass', 'Aluminium', 'Aluminium Bar-and-Plate'])],
    ['Fins per Inch', String(int(r, 8, 16))],
  ],
  shaft: (r, a) => [
    ['Splines', String(int(r, 10, 40))],
    ['Material', pick(r, ['Forged Alloy Steel', 'Induction-Hardened Steel', 'Nitrided Steel'])],
    ['Length', mm(a * 3)],
  ],
  plate: (r, a) => [
    ['Material', pick(r, ['Hardox 450', 'Manganese Steel 18%', 'Polyurethane', 'Rubber', 'Organic Friction Compound', 'Pleated Paper'])],
    ['Thickness', mm(int(r, 6, 80))],
  ],
  fork: (r, a) => [
    ['Class', pick(r, ['ISO II', 'ISO III', 'ISO IV'])],
    ['Capacity per Pair', `${int(r, 2, 10) * 500} kg`],
    ['Section', `${int(r, 100, 150)} × ${int(r, 40, 60)} mm`],
    ['Length', mm(int(r, 9, 24) * 50)],
  ],
  light: (r, a) => [
    ['Voltage', '12-24 V'],
    ['Output', `${int(r, 15, 60) * 100} lm`],
    ['Protection', pick(r, ['IP67', 'IP68', 'IP69K'])],
  ],
  gasket: (r, a) => [
    ['Material', pick(r, ['MLS Steel', 'Fibre', 'Graphite', 'Silicone'])],
    ['Pieces', String(int(r, 1, 60))],
  ],
};

/** Specifications and dimensions per shape; plausible numbers, consistent within a product. */
function shapeSpecs(shape: Shape, r: R, kg: number): { specs: [string, string][]; dimensions: string } {
  const size = Math.cbrt(kg); // rough linear scale from the weight
  switch (shape) {
    case 'filter': {
      const od = 60 + size * 55 * between(r, 0.8, 1.2);
      const len = od * between(r, 1.3, 2.6);
      return {
        specs: [
          ['Filter Type', pick(r, ['Spin-On', 'Cartridge', 'Element', 'Radial Seal'])],
          ['Efficiency', `${pick(r, [2, 4, 5, 10, 12, 25])} µm, ${pick(r, ['β≥200', 'β≥1000', '99.9%'])}`],
          ['Thread Size', pick(r, ['M20 x 1.5', 'M24 x 1.5', '1-12 UN', '1-1/8-16 UN', '1-1/2-16 UN', 'M16 x 1.5', 'none (element)'])],
          ['Media', pick(r, ['Cellulose', 'Synthetic', 'Cellulose/Synthetic Blend', 'Glass Fibre'])],
          ['Bypass Valve Setting', `${between(r, 0.8, 3.5).toFixed(1)} bar`],
          ['Outer Diameter', mm(od)],
          ['Length', mm(len)],
        ],
        dimensions: `Ø ${mm(od)} × ${mm(len)}`,
      };
    }
    case 'injector':
    case 'sensor':
    case 'fitting': {
      const len = 40 + size * 120 * between(r, 0.8, 1.2);
      const d = len * between(r, 0.15, 0.35);
      const specs: [string, string][] =
        shape === 'injector'
          ? [
              ['Injection System', pick(r, ['Common Rail', 'Unit Injector (HEUI)', 'Mechanical (PLN)', 'Electronic Unit Injector'])],
              ['Nozzle Holes', String(int(r, 5, 9))],
              ['Max Pressure', `${pick(r, [1600, 1800, 2000, 2200, 2500])} bar`],
              ['Connector', pick(r, ['2-pin', '2-pin Deutsch', 'Integral'])],
            ]
          : shape === 'sensor'
            ? [
                ['Signal', pick(r, ['0.5-4.5 V analogue', 'PWM', 'Hall effect', 'Resistive NTC', 'CAN J1939'])],
                ['Supply Voltage', pick(r, ['5 V', '12 V', '24 V', '9-32 V'])],
                ['Thread', pick(r, ['M12 x 1.5', 'M14 x 1.5', '1/8 NPT', '7/16-20 UNF'])],
                ['Connector', pick(r, ['Deutsch DT04-3P', 'AMP Superseal', 'Packard Metri-Pack'])],
              ]
            : [
                ['Connection', pick(r, ['JIC 37°', 'ORFS', 'BSPP', 'NPTF', 'Code 61 Flange', 'Code 62 Flange'])],
                ['Size', pick(r, ['-04', '-06', '-08', '-10', '-12', '-16', '-20'])],
                ['Material', pick(r, ['Zinc-plated Steel', 'Stainless Steel 316', 'Forged Steel'])],
                ['Working Pressure', `${pick(r, [210, 280, 350, 420])} bar`],
              ];
      return { specs, dimensions: `${mm(len)} × Ø ${mm(d)}` };
    }
    case 'turbo':
      return {
        specs: [
          ['Turbo Model', pick(r, ['HX35', 'HX40W', 'HX55', 'GT3576', 'GTA4294', 'S300', 'S410', 'TV8102', 'K27'])],
          ['Bearing', pick(r, ['Journal Bearing', 'Ball Bearing'])],
          ['Cooling', pick(r, ['Oil Cooled', 'Oil and Water Cooled'])],
          ['Compressor Wheel', `${int(r, 60, 110)} mm`],
          ['Wastegate', pick(r, ['Internal', 'None', 'VGT Actuator'])],
        ],
        dimensions: `${mm(220 + size * 40)} × ${mm(200 + size * 35)} × ${mm(180 + size * 30)}`,
      };
    case 'piston':
    case 'ring': {
      const bore = 70 + size * 45 * between(r, 0.8, 1.2);
      return {
        specs: [
          ['Bore', `${bore.toFixed(1)} mm`],
          ['Material', pick(r, ['Aluminium Alloy', 'Forged Steel', 'Cast Iron', 'Nitrile (NBR)', 'Viton (FKM)', 'Polyurethane'])],
          ['Oversize', pick(r, ['STD', 'STD', '0.25 mm', '0.50 mm'])],
          ['Includes', pick(r, ['Pin and Circlips', 'Rings', 'Complete Kit', 'Single Part'])],
        ],
        dimensions: `Ø ${bore.toFixed(1)} mm × ${mm(bore * between(r, 0.2, 1.3))}`,
      };
    }
    case 'bearing': {
      const bore = 15 + size * 45 * between(r, 0.7, 1.3);
      const od = bore * between(r, 1.6, 2.3);
      const w = bore * between(r, 0.3, 0.6);
      return {
        specs: [
          ['Bore (d)', mm(bore)],
          ['Outside Diameter (D)', mm(od)],
          ['Width (B)', mm(w)],
          ['Dynamic Load Rating', `${Math.round(bore * od * 0.02)} kN`],
          ['Cage', pick(r, ['Steel', 'Brass', 'Polyamide'])],
          ['Clearance', pick(r, ['CN', 'C3', 'C4'])],
        ],
        dimensions: `${mm(bore)} × ${mm(od)} × ${mm(w)}`,
      };
    }
    case 'gear':
    case 'disc':
    case 'wheel': {
      const d = 80 + size * 110 * between(r, 0.8, 1.2);
      const w = d * between(r, 0.12, 0.45);
      const specs: [string, string][] =
        shape === 'gear'
          ? [
              ['Teeth', String(int(r, 11, 64))],
              ['Module', `${pick(r, [3, 4, 5, 6, 8, 10, 12])}`],
              ['Material', pick(r, ['Case-Hardened Alloy Steel', 'Induction-Hardened Steel', 'Through-Hardened Steel'])],
              ['Reduction Ratio', `${between(r, 3, 60).toFixed(1)}:1`],
            ]
          : shape === 'disc'
            ? [
                ['Friction Material', pick(r, ['Paper', 'Sintered Bronze', 'Ceramic', 'Organic'])],
                ['Splines', String(int(r, 20, 90))],
                ['Thickness', `${between(r, 2, 12).toFixed(1)} mm`],
              ]
            : [
                ['Tread', pick(r, ['Polyurethane', 'Solid Rubber', 'Hardened Steel', 'Non-Marking Rubber'])],
                ['Hub', pick(r, ['Ball Bearing', 'Taper Bearing', 'Plain Bore', 'Bolt-On'])],
                ['Load Capacity', `${int(r, 8, 120) * 50} kg`],
              ];
      return { specs, dimensions: `Ø ${mm(d)} × ${mm(w)}` };
    }
    case 'roller':
      return {
        specs: [
          ['Flange', pick(r, ['Single Flange', 'Double Flange'])],
          ['Lubrication', 'Sealed for Life (Duo-Cone)'],
          ['Hardness', `HRC ${int(r, 50, 56)}`],
          ['Tread Diameter', mm(140 + size * 30)],
          ['Shaft Diameter', mm(45 + size * 8)],
        ],
        dimensions: `${mm(300 + size * 40)} × Ø ${mm(180 + size * 30)}`,
      };
    case 'chain':
      return {
        specs: [
          ['Pitch', `${pick(r, [135, 154, 171, 190, 203, 216, 228])} mm`],
          ['Links', String(int(r, 36, 52))],
          ['Type', pick(r, ['Sealed and Lubricated', 'Sealed', 'Dry', 'Leaf Chain BL646', 'Leaf Chain LH1244'])],
          ['Pin Diameter', mm(int(r, 20, 60))],
        ],
        dimensions: `${mm(600 + size * 200)} × ${mm(150 + size * 25)} × ${mm(80 + size * 20)}`,
      };
    case 'tooth':
    case 'edge':
    case 'bit': {
      const len = 120 + size * 90;
      return {
        specs: [
          ['System', pick(r, ['J-Series', 'K-Series', 'Advansys', 'Hensley XS', 'Pin-On', 'Bolt-On', 'R32 Thread', 'T45 Thread', 'GT60 Thread'])],
          ['Material', pick(r, ['Through-Hardened Boron Steel', 'Alloy Steel', 'Tungsten Carbide Buttons', 'Manganese Steel'])],
          ['Hardness', `${int(r, 450, 550)} HB`],
          ['Profile', pick(r, ['Long', 'Heavy Duty', 'Penetration', 'Abrasion', 'Double Bevel', 'Flat Front', 'Drop Centre'])],
        ],
        dimensions: shape === 'edge' ? `${mm(len * 4)} × ${mm(len * 0.8)} × ${mm(16 + size * 4)}` : `${mm(len)} × ${mm(len * 0.5)} × ${mm(len * 0.4)}`,
      };
    }
    case 'hose':
    case 'belt': {
      const len = int(r, 4, 40) * 50;
      return {
        specs:
          shape === 'hose'
            ? [
                ['Inner Diameter', pick(r, ['1/4"', '3/8"', '1/2"', '3/4"', '1"', '1-1/4"', '2"'])],
                ['Standard', pick(r, ['SAE 100R2AT', 'EN 856 4SH', 'EN 856 4SP', 'SAE 100R13', 'Cab harness'])],
                ['Working Pressure', `${pick(r, [210, 280, 350, 420])} bar`],
                ['End Fittings', pick(r, ['JIC Female Swivel', 'ORFS Female', 'Code 61 Flange', 'DT connectors'])],
                ['Length', mm(len)],
              ]
            : [
                ['Profile', pick(r, ['8PK', '10PK', 'AV13', 'AV17', '3VX'])],
                ['Effective Length', mm(len + 600)],
                ['Construction', pick(r, ['EPDM Ribbed', 'Banded V-Belt', 'Cogged'])],
              ],
        dimensions: `${mm(len)} length`,
      };
    }
    case 'pump':
    case 'motor':
    case 'valve':
    case 'ram':
    case 'module':
    case 'radiator':
    case 'shaft':
    case 'plate':
    case 'fork':
    case 'light':
    case 'gasket':
    default: {
      const a = 100 + size * 120 * between(r, 0.8, 1.2);
      const specs = BOX_SPECS[shape]?.(r, a) ?? [];
      const dimensions =
        shape === 'shaft'
          ? `${mm(a * 3)} × Ø ${mm(a * between(r, 0.15, 0.3))}`
          : `${mm(a)} × ${mm(a * between(r, 0.5, 1))} × ${mm(a * between(r, 0.3, 0.8))}`;
      return { specs, dimensions };
    }
  }
}

/** The industry a machine belongs to, from its model name (or the part's group). */
function industryOf(model: string, group: Group): string {
  if (/Generator|Genset|Compressor/.test(model) || group === 'power') return 'power generation';
  if (/Forklift|Reach Truck|Pallet Truck|Big Truck|Telehandler/.test(model) || group === 'forklift') return 'material handling';
  if (/Tractor|Combine|Baler/.test(model) || group === 'agri') return 'agricultural';
  if (/Mining|Crusher|Drill|Jumbo|Minetruck|Scooptram|Haul Truck|Lokotrack/.test(model) || group === 'mining') return 'mining';
  if (/Engine/.test(model)) return 'diesel engine and heavy';
  return 'construction and heavy';
}

function availabilityOf(r: number): { inStock: boolean; availability: string } {
  if (r < 0.8) return { inStock: true, availability: 'In Stock' };
  if (r < 0.88) return { inStock: true, availability: 'Low Stock' };
  if (r < 0.96) return { inStock: false, availability: 'Special Order (3-7 business days)' };
  return { inStock: false, availability: 'Out of Stock' };
}

const CATALOGUE_START = Date.UTC(2023, 0, 1);
const CATALOGUE_SPAN_MS = 2.5 * 365 * 24 * 3600 * 1000;

/** Aftermarket makers whose numbers buyers quote, by part group, with the shape of their numbers. */
const AFTERMARKET: Partial<Record<Group, [brand: string, prefixes: string[], digits: number][]>> & { default: [string, string[], number][] } = {
  filters: [
    ['Fleetguard', ['LF', 'FF', 'HF', 'AF'], 5],
    ['Donaldson', ['P'], 6],
    ['Baldwin', ['BT', 'PF', 'PA', 'B'], 5],
    ['Mann-Filter', ['W', 'WK', 'HU', 'C'], 5],
    ['WIX', ['51', '33', '42', '46'], 5],
  ],
  undercarriage: [
    ['Berco', ['CR', 'KM', 'VA'], 6],
    ['ITR', ['KM', 'TR'], 6],
    ['VemaTrack', ['VT'], 6],
  ],
  get: [
    ['ESCO', ['V', 'SV', 'U'], 6],
    ['Hensley', ['XS', 'FX'], 6],
  ],
  engine: [
    ['Interstate-McBee', ['M-'], 7],
    ['IPD', ['IP', 'IPD'], 6],
    ['Reliance', ['RP', 'RE'], 6],
  ],
  hydraulics: [
    ['Parker', ['PV', 'PVP', 'F11-'], 6],
    ['Bosch Rexroth', ['R9', 'R90'], 7],
    ['Eaton', ['EA', 'VE'], 6],
  ],
  default: [
    ['Reliance', ['RP', 'RE'], 6],
    ['Interstate-McBee', ['M-'], 7],
    ['SKF', ['SK', 'VKM'], 6],
  ],
};

/** A model's serial prefix: three letters from its name, the same for every part that fits it. */
function serialPrefix(label: string): string {
  let h = hashString(label);
  let out = '';
  for (let k = 0; k < 3; k++) {
    out += String.fromCharCode(65 + (h % 26));
    h = Math.floor(h / 26) + 7919 * (k + 1);
  }
  return out;
}

/** A part's history and reach, from its own random stream so the other fields stay as they were. */
function historyOf(
  h: R,
  fit: Fit,
  models: Fit[],
  group: Group,
  previous: string | undefined,
  legacy: () => string,
  oemCrossRef: { brand: string; partNumber: string } | undefined,
): Pick<Product, 'replaces' | 'crossReferences' | 'fits'> {
  const out: Pick<Product, 'replaces' | 'crossReferences' | 'fits'> = {};
  // Most parts name the machines they fit: the one in their name, sometimes more of the same make.
  if (h() < 0.85) {
    const others = models.filter((m) => m.make === fit.make && m.model !== fit.model);
    const extra = h() < 0.4 ? 1 + Math.floor(h() * 2) : 0;
    const chosen = [fit];
    for (let k = 0; k < extra && others.length; k++) {
      const m = others[Math.floor(h() * others.length)]!;
      if (!chosen.includes(m)) chosen.push(m);
    }
    out.fits = chosen.map((m) => {
      if (h() >= 0.3) return { make: m.make, model: m.model };
      // A production change: the part fits the units before it, or those from it on.
      const prefix = serialPrefix(m.label);
      const split = 2000 + Math.floor(h() * 6000);
      const pad = (n: number) => `${prefix}${String(n).padStart(5, '0')}`;
      return h() < 0.5 ? { make: m.make, model: m.model, serialFrom: pad(1), serialTo: pad(split - 1) } : { make: m.make, model: m.model, serialFrom: pad(split) };
    });
  }
  // About 30 % are sold under other makers' numbers too (an aftermarket part always under the OEM's it replaces).
  const crossReferences = oemCrossRef ? [oemCrossRef] : [];
  if (h() < 0.3) {
    const makers = AFTERMARKET[group] ?? AFTERMARKET.default;
    const n = 1 + Math.floor(h() * 3);
    for (let k = 0; k < n; k++) {
      const [brand, prefixes, digits] = makers[Math.floor(h() * makers.length)]!;
      const prefix = prefixes[Math.floor(h() * prefixes.length)]!;
      if (crossReferences.some((x) => x.brand === brand)) continue;
      crossReferences.push({ brand, partNumber: `${prefix}${String(Math.floor(h() * 10 ** digits)).padStart(digits, '0')}` });
    }
  }
  if (crossReferences.length) out.crossReferences = crossReferences;
  // About 5 % supersede the part before them of the same brand and category (which then reads "Replaced by"),
  // so chains of two and three form; some also list an older number no longer sold.
  if (previous && h() < 0.05) out.replaces = h() < 0.3 ? [previous, legacy()] : [previous];
  return out;
}

export interface GenerateOptions {
  count: number;
  seed?: number;
}

/** A stream of `count` products; the same count and seed always give the same products. */
export function* generateProducts(opts: GenerateOptions): Generator<Product> {
  const seed = opts.seed ?? DEFAULT_SEED;
  const { plans, cum } = plan();
  const sequences = new Map<string, PartNumberSequence>();
  const patterns = new Map<string, PartNumberPattern>();
  const patternOf = (source: string) => {
    let p = patterns.get(source);
    if (!p) patterns.set(source, (p = parsePattern(source)));
    return p;
  };
  const plansByName = new Map(plans.map((p) => [p.brand.name, p] as const));
  /** The last part number of each brand and category: the one a new part may supersede. */
  const lastNumber = new Map<string, string>();

  for (let i = 0; i < opts.count; i++) {
    const r = createRng((seed * 0x9e3779b1 + i) >>> 0 ^ Math.floor(i / 4294967296));
    const bp = plans[pickCum(cum, r())]!;
    const { brand } = bp;
    const category = bp.categories[pickCum(bp.cum, r())]!;
    const categorySlug = categorySlugOf(category);

    const patternSource = pick(r, patternsFor(brand, categorySlug));
    const key = `${brand.numbering ?? brand.code}|${patternSource}`;
    let seq = sequences.get(key);
    if (!seq) sequences.set(key, (seq = new PartNumberSequence(patternOf(patternSource), hashString(key + seed))));
    const partNumber = seq.take();

    const variant = pick(r, category.names);
    const fit = pick(r, bp.models);
    const fits = fit.label;
    const kg = between(r, category.kg[0], category.kg[1]);
    const condition = brand.name === 'Generic' ? 'Aftermarket' : pick(r, CONDITIONS);
    const { specs, dimensions } = shapeSpecs(category.shape, r, kg);
    const stock = availabilityOf(r());
    const make = fit.make;

    let crossRef: string | undefined;
    let oemCrossRef: { brand: string; partNumber: string } | undefined;
    if (brand.name === 'Generic') {
      // The OEM number this part replaces, from the maker of the machine it fits (when that maker sells such parts).
      const oem = plansByName.get(make);
      if (oem?.categories.includes(category)) {
        const pat = patternOf(pick(r, patternsFor(oem.brand, categorySlug)));
        oemCrossRef = { brand: oem.brand.name, partNumber: pat.render(Math.floor(r() * pat.space)) };
        crossRef = `${oemCrossRef.brand} ${oemCrossRef.partNumber}`;
      }
    }
    const lineKey = `${brand.name}|${category.name}`;
    const h = createRng(((seed ^ 0x5bd1e995) * 0x85ebca6b + i * 0x27d4eb2f) >>> 0);
    const legacyPattern = patternOf(patternSource);
    const history = historyOf(h, fit, bp.models, category.group, lastNumber.get(lineKey), () => legacyPattern.render(Math.floor(h() * legacyPattern.space)), oemCrossRef);
    lastNumber.set(lineKey, partNumber);

    const name =
      brand.name === 'Generic'
        ? `${variant} ${partNumber} for ${fits}`
        : `${brand.name} ${partNumber} ${variant}`;
    const fitsModel = fit.model;
    const description =
      `${variant} ${brand.name === 'Generic' ? 'built to OEM specification' : `by ${brand.name}`}, part number ${partNumber}, ` +
      `for ${fits}${crossRef ? ` (replaces ${crossRef})` : ''}. ` +
      `${condition === 'OEM Genuine' ? 'Genuine OEM part' : condition === 'Remanufactured' ? 'Factory remanufactured to original tolerances and tested' : 'Quality aftermarket replacement'} ` +
      `for ${industryOf(fit.model, category.group)} equipment. ` +
      `${specs.slice(0, 2).map(([k, v]) => `${k}: ${v}`).join('; ')}. Ships worldwide with tracking; check the part number against your machine's serial number before ordering.`;

    const specifications: Record<string, string> = {
      'Part Number': partNumber,
      Brand: brand.name,
      Condition: condition,
      'Fits': fits,
    };
    if (crossRef) specifications['Cross Reference'] = crossRef;
    for (const [k, v] of specs) specifications[k] = v;
    specifications['Country of Origin'] = brand.country === 'Various' ? pick(r, ORIGINS.default!) : brand.country;
    specifications.Warranty = pick(r, WARRANTY);

    const tags = [category.name.toLowerCase(), category.group === 'get' ? 'ground engaging tools' : category.group, brand.name.toLowerCase(), condition.toLowerCase(), fitsModel.toLowerCase()];
    const createdAt = new Date(CATALOGUE_START + Math.floor(r() * CATALOGUE_SPAN_MS)).toISOString();
    const price = Math.round((15 + kg * between(r, 6, 30) + (category.shape === 'turbo' || category.shape === 'injector' ? 300 : 0)) * 100) / 100;

    yield {
      id: stableUuid(`forgeline-product:${seed}:${i}`),
      name,
      sku: `${brand.code}-${partNumber.replace(/[^A-Za-z0-9-]+/g, '-').toUpperCase()}`,
      category: category.name,
      tags,
      description,
      imageUrl: generatedImageUrl(category.name, brand.name, partNumber),
      inStock: stock.inStock,
      brandName: brand.name,
      make,
      partNumber,
      slug: fastSlug(name),
      price,
      brand: brand.name,
      images: [],
      availability: stock.availability,
      specifications,
      weight: `${kg < 10 ? kg.toFixed(2) : kg.toFixed(1)} kg`,
      dimensions,
      createdAt,
      ...history,
    };
  }
}

function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

const BUYERS: Array<[name: string, location: string, review: string]> = [
  ['Rajesh Kumar, Fleet Manager', 'Mumbai, India', 'Sourced Komatsu PC300 swing motor parts in under a week when the dealer quoted two months. Exact part numbers, honest condition notes.'],
  ['Carlos Mendoza', 'Antofagasta, Chile', 'We run Cat 777F haul trucks at altitude; their filter kits and turbochargers arrived well packed and matched our serial numbers.'],
  ['Sipho Ndlovu', 'Johannesburg, South Africa', 'Reliable source for Sandvik and Epiroc drill consumables. The quote came back within hours and customs paperwork was complete.'],
  ['Ahmed Al-Mansoori', 'Dubai, UAE', 'Ordered Perkins and Cummins genset spares for three sites. Good communication on WhatsApp and tracked shipping all the way.'],
  ['Olga Petrova', 'Yekaterinburg, Russia', 'The cross-reference help saved us: they matched an old Liebherr number to the current supersession without fuss.'],
  ['James O\'Connor', 'Perth, Australia', 'Undercarriage for our D9R came complete with rollers, idlers and chains. Fit perfectly, and the price beat local suppliers.'],
  ['Mariana Souza', 'Belo Horizonte, Brazil', 'John Deere harvester parts before the season started. Fast answers, clear stock status, no surprises on delivery.'],
  ['Kwame Mensah', 'Accra, Ghana', 'Bucket teeth and adapters for our mining excavators arrived in 9 days. We now order from them every quarter.'],
  ['Li Wei', 'Shenzhen, China', 'Bosch Rexroth pump spares with full documentation. Professional service for a B2B buyer.'],
  ['Anna Schmidt', 'Hamburg, Germany', 'Linde and Jungheinrich forklift parts for our warehouse fleet. The part numbers were right first time.'],
  ['Mehmet Yilmaz', 'Istanbul, Turkey', 'Volvo EC480D hydraulic hoses and seals, shipped express. Responsive team who knows the machines.'],
  ['Juan Pablo Rivera', 'Monterrey, Mexico', 'Allison transmission filters and ZF axle parts for our quarry loaders; competitive quotes and quick dispatch.'],
  ['Fatima Bello', 'Lagos, Nigeria', 'Generator controllers and AVRs for Caterpillar gensets. They double-checked compatibility before shipping.'],
  ['Nguyen Van Minh', 'Ho Chi Minh City, Vietnam', 'Hitachi ZX200 travel motor parts at a fair price, with photos of the actual parts before dispatch.'],
  ['Emily Carter', 'Calgary, Canada', 'Detroit Diesel and Donaldson parts for our oilfield units. Consistent quality over two years of orders.'],
];

/** Featured buyers from many countries (the home page shows them). */
export function generateTestimonials(): Testimonial[] {
  return BUYERS.map(([customerName, customerLocation, review], i) => ({
    id: stableUuid(`forgeline-testimonial:${customerName}`),
    customerName,
    customerLocation,
    customerPhoto: null,
    rating: i % 7 === 3 ? 4 : 5,
    review,
    featured: i < 12 || i === 13,
    createdAt: new Date(Date.UTC(2024, i % 12, 3 + i)).toISOString(),
  }));
}
