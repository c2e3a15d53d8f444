/**
 * The demo catalogue: a repeatable stream of industrial spare parts (same count and seed, same
 * products, byte for byte). Product i depends only on the seed, i and the part numbers handed out
 * before it, so the first N products of a bigger run are the same as a run of N.
 * It streams: memory stays constant whatever the count (two positions per part-number pattern, the
 * last number of each brand and category). No two parts share a number (as search compares them:
 * letters and digits only), up to two million and beyond; generate.test.ts checks all two million.
 */
import type { Product, Testimonial } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import { BRANDS, CATEGORIES, type BrandDef, type CategoryDef, type Group, type Shape } from './catalogue-data.ts';
import { PartNumbering, parsePattern, type PartNumberPattern } from './part-numbers.ts';
import { stableUuid } from '../domain/stable-uuid.ts';

export const DEFAULT_SEED = 20_17;

/** splitmix32's output for the state x (taken mod 2^32). A top-level function: under tsx a nested one costs a name definition per call. */
function mix32(x: number): number {
  let z = x >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Small fast PRNG (sfc32) seeded through splitmix32; good enough for catalogue content. */
export function createRng(seed: number): () => number {
  const s = seed >>> 0;
  let a = mix32(s + 0x9e3779b9), b = mix32(s + 2 * 0x9e3779b9), c = mix32(s + 3 * 0x9e3779b9), d = mix32(s + 4 * 0x9e3779b9);
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
  /** Per category (same order): its slug and the part-number patterns the brand uses for it, with their sequence keys. */
  lines: { slug: string; patterns: string[]; keys: string[] }[];
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
    const lines = categories.map((c) => {
      const slug = categorySlugOf(c);
      const patterns = patternsFor(brand, slug);
      return { slug, patterns, keys: patterns.map((source) => `${brand.numbering ?? brand.code}|${source}`) };
    });
    return { brand, slug: brandSlugOf(brand), categories, lines, cum, models };
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

/** Specification values a category or a product name pins down, by specification (catalogue-data.ts's `specs` and `named`). */
type Only = Readonly<Record<string, readonly string[]>> | undefined;
/** A pick from the values `only` allows for the specification, else from the shape's own list: one draw either way. */
const opt = (r: R, only: Only, key: string, xs: readonly string[]) => pick(r, only?.[key] ?? xs);
const range = (lo: number, hi: number, unit = '') => Array.from({ length: hi - lo + 1 }, (_, k) => `${lo + k}${unit}`);
const PIECES = range(1, 60);
const LINKS = range(36, 52);
const SPLINES = range(10, 40);
const LUMENS = range(15, 60).map((n) => `${n}00 lm`);
const DISPLACEMENTS = range(10, 280, ' cc/rev');
/** A leaf chain's pitch follows from its size (BL6xx: 6/8 inch; LH12xx: 12/8 inch). */
const LEAF_PITCH: Record<string, string> = { 'Leaf Chain BL646': '19.05 mm', 'Leaf Chain LH1244': '38.1 mm' };

type SpecTable = (r: R, a: number, only: Only) => [string, string][];
const specOf = (specs: [string, string][], key: string) => specs.find(([k]) => k === key)?.[1];

/** What each product name of each category pins down: the category's `specs`, then the name's own. */
const ONLY = new Map<CategoryDef, Only[]>(
  CATEGORIES.map((c) => [c, c.names.map((n) => (c.specs || c.named?.[n] ? { ...c.specs, ...c.named?.[n] } : undefined))]),
);

const BOX_SPECS: Partial<Record<Shape, SpecTable>> = {
  pump: (r, a, o) => [
    ['Displacement', opt(r, o, 'Displacement', DISPLACEMENTS)],
    ['Max Pressure', opt(r, o, 'Max Pressure', ['210 bar', '250 bar', '280 bar', '350 bar', '420 bar'])],
    ['Rotation', pick(r, ['Clockwise', 'Counter-Clockwise'])],
    ['Shaft', opt(r, o, 'Shaft', ['SAE B 13T Spline', 'SAE C 14T Spline', 'Keyed 25 mm', 'SAE A 9T Spline'])],
  ],
  motor: (r, a, o) => [
    ['Voltage', opt(r, o, 'Voltage', ['12 V', '24 V'])],
    ['Output', opt(r, o, 'Output', ['4.0 kW', '5.5 kW', '7.8 kW', '9.0 kW', '70 A', '100 A', '140 A'])],
    ['Teeth / Pulley', opt(r, o, 'Teeth / Pulley', ['10T', '11T', '12T', 'Single Groove', 'Poly-V 8PK'])],
    ['Mounting', opt(r, o, 'Mounting', ['SAE 3 Flange', 'Pad Mount', 'J-180 Hinge'])],
  ],
  valve: (r, a, o) => [
    ['Ports', opt(r, o, 'Ports', ['2/2', '3/2', '4/3', '6 sections', '8 sections'])],
    ['Operation', opt(r, o, 'Operation', ['Hydraulic Pilot', 'Solenoid 24 V DC', 'Mechanical', 'Wax Element 82 °C'])],
    ['Max Pressure', opt(r, o, 'Max Pressure', ['35 bar', '210 bar', '250 bar', '350 bar'])],
  ],
  ram: (r, a) => {
    // The rod fits in the bore, and the cylinder retracted is longer than its stroke.
    const bore = int(r, 50, 220);
    const rod = Math.round(bore * between(r, 0.45, 0.7));
    const stroke = int(r, 200, 2200);
    return [
      ['Bore', mm(bore)],
      ['Rod Diameter', mm(rod)],
      ['Stroke', mm(stroke)],
      ['Retracted Length', mm(stroke + int(r, 250, 800))],
    ];
  },
  module: (r, a, o) => [
    ['Supply Voltage', opt(r, o, 'Supply Voltage', ['12 V', '24 V', '8-36 V', 'n/a'])],
    ['Interface', opt(r, o, 'Interface', ['CAN J1939', 'Modbus RTU', 'Analogue', 'n/a'])],
    ['Firmware / Version', `${int(r, 1, 9)}.${int(r, 0, 20)}`],
  ],
  radiator: (r, a, o) => [
    ['Core Rows', String(int(r, 2, 6))],
    ['Core Material', opt(r, o, 'Core Material', ['Copper/Brass', 'Aluminium', 'Aluminium Bar-and-Plate'])],
    ['Fins per Inch', String(int(r, 8, 16))],
  ],
  shaft: (r, a, o) => [
    ['Splines', opt(r, o, 'Splines', SPLINES)],
    ['Material', opt(r, o, 'Material', ['Forged Alloy Steel', 'Induction-Hardened Steel', 'Nitrided Steel'])],
    ['Length', mm(a * 3)],
  ],
  plate: (r, a, o) => [
    ['Material', opt(r, o, 'Material', ['Hardox 450', 'Manganese Steel 18%', 'Polyurethane', 'Rubber', 'Organic Friction Compound', 'Pleated Paper'])],
    ['Thickness', mm(int(r, 6, 80))],
  ],
  fork: (r, a, o) => [
    ['Class', opt(r, o, 'Class', ['ISO II', 'ISO III', 'ISO IV'])],
    ['Capacity per Pair', `${int(r, 2, 10) * 500} kg`],
    ['Section', `${int(r, 100, 150)} × ${int(r, 40, 60)} mm`],
    ['Length', mm(int(r, 9, 24) * 50)],
  ],
  light: (r, a, o) => [
    ['Voltage', '12-24 V'],
    ['Output', opt(r, o, 'Output', LUMENS)],
    ['Protection', pick(r, ['IP67', 'IP68', 'IP69K'])],
  ],
  gasket: (r, a, o) => [
    ['Material', opt(r, o, 'Material', ['MLS Steel', 'Fibre', 'Graphite', 'Silicone'])],
    ['Pieces', opt(r, o, 'Pieces', PIECES)],
  ],
};

/**
 * Categories drawn as their shape but not described by its table (a cylinder head has no firmware, a wiring
 * harness no working pressure). Each makes as many draws as its shape's table, so the fields after it stay as they were.
 */
const CATEGORY_SPECS: Record<string, SpecTable> = {
  'Cylinder Heads': (r, a, o) => [
    ['Valves per Cylinder', pick(r, ['2', '4'])],
    ['Material', pick(r, ['Cast Iron', 'Compacted Graphite Iron', 'Aluminium Alloy'])],
    ['Includes', opt(r, o, 'Includes', ['Valves and Springs', 'Bare (no valves)'])],
    ['Cylinders', pick(r, ['1', '3', '4', '6'])],
  ],
  'Operator Seats': (r, a, o) => [
    ['Suspension', opt(r, o, 'Suspension', ['Mechanical', 'Air'])],
    ['Seat Belt', pick(r, ['2-point Retractable', '3-point'])],
    ['Operator Weight', `${int(r, 50, 60)}-${int(r, 120, 150)} kg`],
  ],
  'Generator Alternator Parts': (r) => [
    ['Rated Voltage', pick(r, ['230/400 V', '277/480 V', '400/690 V'])],
    ['Rating', `${pick(r, [20, 45, 100, 250, 500, 1000])} kVA`],
    ['Insulation', pick(r, ['Class H', 'Class F'])],
    ['Poles', pick(r, ['4', '4', '2'])],
  ],
  'Wiring Harnesses': (r) => [
    ['Voltage', pick(r, ['12 V', '24 V'])],
    ['Connectors', pick(r, ['Deutsch DT', 'Deutsch DTM', 'AMP Superseal', 'Packard Metri-Pack'])],
    ['Circuits', pick(r, ['8', '12', '16', '24', '36', '48', '64'])],
    ['Sheathing', pick(r, ['Convoluted Tubing', 'Braided Sleeve', 'PVC Tape'])],
  ],
  'Universal Joints': (r) => [
    ['Series', pick(r, ['1310', '1330', '1350', '1410', '1480', '1550', '1610', '1710', '1810'])],
    ['Cross Type', pick(r, ['Outside Snap Ring', 'Inside Snap Ring', 'Wing Bearing', 'Half Round'])],
    ['Material', pick(r, ['Forged Alloy Steel', 'Case-Hardened Alloy Steel'])],
    ['Lubrication', pick(r, ['Greaseable', 'Sealed for Life'])],
  ],
  'Torque Converters': (r) => [
    ['Stall Ratio', `${between(r, 1.8, 3.2).toFixed(2)}:1`],
    ['Lock-Up Clutch', pick(r, ['Yes', 'No'])],
    ['Splines', String(int(r, 20, 40))],
  ],
};

/** Specifications and dimensions per shape; plausible numbers, consistent within a product and with its name. */
function shapeSpecs(category: CategoryDef, r: R, kg: number, only: Only): { specs: [string, string][]; dimensions: string } {
  const shape = category.shape;
  const own = CATEGORY_SPECS[category.name];
  const size = Math.cbrt(kg); // rough linear scale from the weight
  switch (shape) {
    case 'filter': {
      const od = 60 + size * 55 * between(r, 0.8, 1.2);
      const len = od * between(r, 1.3, 2.6);
      const type = opt(r, only, 'Filter Type', ['Spin-On', 'Cartridge', 'Element', 'Radial Seal']);
      const efficiency = `${pick(r, [2, 4, 5, 10, 12, 25])} µm, ${pick(r, ['β≥200', 'β≥1000', '99.9%'])}`;
      // A spin-on filter screws onto its head; an element, cartridge or radial-seal filter sits in a housing.
      const thread = pick(r, ['M20 x 1.5', 'M24 x 1.5', '1-12 UN', '1-1/8-16 UN', '1-1/2-16 UN', 'M16 x 1.5', '3/4-16 UNF']);
      return {
        specs: [
          ['Filter Type', type],
          ['Efficiency', efficiency],
          ['Thread Size', type === 'Spin-On' ? thread : 'none (element)'],
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
      let specs: [string, string][];
      if (own) specs = own(r, len, only);
      else if (shape === 'injector') {
        // A mechanical (pump-line-nozzle) injector works at lower pressure and has no wiring.
        const system = opt(r, only, 'Injection System', ['Common Rail', 'Unit Injector (HEUI)', 'Mechanical (PLN)', 'Electronic Unit Injector']);
        const mechanical = system === 'Mechanical (PLN)';
        const holes = String(int(r, 5, 9));
        const pressure = pick(r, mechanical ? [600, 800, 1000, 1200, 1400] : [1600, 1800, 2000, 2200, 2500]);
        const connector = pick(r, ['2-pin', '2-pin Deutsch', 'Integral']);
        specs = [
          ['Injection System', system],
          ['Nozzle Holes', holes],
          ['Max Pressure', `${pressure} bar`],
          ['Connector', mechanical ? 'None (mechanical)' : connector],
        ];
      } else if (shape === 'sensor') {
        // A 0.5-4.5 V ratiometric signal comes from a 5 V supply.
        const signal = opt(r, only, 'Signal', ['0.5-4.5 V analogue', 'PWM', 'Hall effect', 'Resistive NTC', 'CAN J1939']);
        const supply = pick(r, ['5 V', '12 V', '24 V', '9-32 V']);
        specs = [
          ['Signal', signal],
          ['Supply Voltage', signal === '0.5-4.5 V analogue' ? '5 V' : supply],
          ['Thread', pick(r, ['M12 x 1.5', 'M14 x 1.5', '1/8 NPT', '7/16-20 UNF'])],
          ['Connector', pick(r, ['Deutsch DT04-3P', 'AMP Superseal', 'Packard Metri-Pack'])],
        ];
      } else {
        specs = [
          ['Connection', opt(r, only, 'Connection', ['JIC 37°', 'ORFS', 'BSPP', 'NPTF', 'Code 61 Flange', 'Code 62 Flange'])],
          ['Size', pick(r, ['-04', '-06', '-08', '-10', '-12', '-16', '-20'])],
          ['Material', pick(r, ['Zinc-plated Steel', 'Stainless Steel 316', 'Forged Steel'])],
          ['Working Pressure', `${pick(r, [210, 280, 350, 420])} bar`],
        ];
      }
      return { specs, dimensions: `${mm(len)} × Ø ${mm(d)}` };
    }
    case 'turbo':
      return {
        specs: [
          ['Turbo Model', pick(r, ['HX35', 'HX40W', 'HX55', 'GT3576', 'GTA4294', 'S300', 'S410', 'TV8102', 'K27'])],
          ['Bearing', pick(r, ['Journal Bearing', 'Ball Bearing'])],
          ['Cooling', pick(r, ['Oil Cooled', 'Oil and Water Cooled'])],
          ['Compressor Wheel', `${int(r, 60, 110)} mm`],
          ['Wastegate', opt(r, only, 'Wastegate', ['Internal', 'None', 'VGT Actuator'])],
        ],
        dimensions: `${mm(220 + size * 40)} × ${mm(200 + size * 35)} × ${mm(180 + size * 30)}`,
      };
    case 'piston':
    case 'ring': {
      const bore = 70 + size * 45 * between(r, 0.8, 1.2);
      return {
        specs: [
          ['Bore', `${bore.toFixed(1)} mm`],
          ['Material', opt(r, only, 'Material', ['Aluminium Alloy', 'Forged Steel', 'Cast Iron', 'Nitrile (NBR)', 'Viton (FKM)', 'Polyurethane'])],
          ['Oversize', opt(r, only, 'Oversize', ['STD', 'STD', '0.25 mm', '0.50 mm'])],
          ['Includes', opt(r, only, 'Includes', ['Pin and Circlips', 'Rings', 'Complete Kit', 'Single Part'])],
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
          ['Cage', opt(r, only, 'Cage', ['Steel', 'Brass', 'Polyamide'])],
          ['Clearance', opt(r, only, 'Clearance', ['CN', 'C3', 'C4'])],
        ],
        dimensions: `${mm(bore)} × ${mm(od)} × ${mm(w)}`,
      };
    }
    case 'gear':
    case 'disc':
    case 'wheel': {
      const d = 80 + size * 110 * between(r, 0.8, 1.2);
      const w = d * between(r, 0.12, 0.45);
      if (own) return { specs: own(r, d, only), dimensions: `Ø ${mm(d)} × ${mm(w)}` };
      if (shape === 'disc') {
        const friction = opt(r, only, 'Friction Material', ['Paper', 'Sintered Bronze', 'Ceramic', 'Organic']);
        const splines = String(int(r, 20, 90));
        const thickness = `${between(r, 2, 12).toFixed(1)} mm`;
        // A friction or brake disc is as thick as its dimensions say.
        return {
          specs: [
            ['Friction Material', friction],
            ['Splines', splines],
            ['Thickness', thickness],
          ],
          dimensions: `Ø ${mm(d)} × ${thickness}`,
        };
      }
      const specs: [string, string][] =
        shape === 'gear'
          ? [
              ['Teeth', String(int(r, 11, 64))],
              ['Module', `${pick(r, [3, 4, 5, 6, 8, 10, 12])}`],
              ['Material', pick(r, ['Case-Hardened Alloy Steel', 'Induction-Hardened Steel', 'Through-Hardened Steel'])],
              ['Reduction Ratio', `${between(r, 3, 60).toFixed(1)}:1`],
            ]
          : [
              ['Tread', opt(r, only, 'Tread', ['Polyurethane', 'Solid Rubber', 'Hardened Steel', 'Non-Marking Rubber'])],
              ['Hub', opt(r, only, 'Hub', ['Ball Bearing', 'Taper Bearing', 'Plain Bore', 'Bolt-On'])],
              ['Load Capacity', `${int(r, 8, 120) * 50} kg`],
            ];
      return { specs, dimensions: `Ø ${mm(d)} × ${mm(w)}` };
    }
    case 'roller':
      return {
        specs: [
          ['Flange', opt(r, only, 'Flange', ['Single Flange', 'Double Flange'])],
          ['Lubrication', 'Sealed for Life (Duo-Cone)'],
          ['Hardness', `HRC ${int(r, 50, 56)}`],
          ['Tread Diameter', mm(140 + size * 30)],
          ['Shaft Diameter', mm(45 + size * 8)],
        ],
        dimensions: `${mm(300 + size * 40)} × Ø ${mm(180 + size * 30)}`,
      };
    case 'chain': {
      const pitch = opt(r, only, 'Pitch', ['135 mm', '154 mm', '171 mm', '190 mm', '203 mm', '216 mm', '228 mm']);
      const links = opt(r, only, 'Links', LINKS);
      const type = opt(r, only, 'Type', ['Sealed and Lubricated', 'Sealed', 'Dry', 'Leaf Chain BL646', 'Leaf Chain LH1244']);
      return {
        specs: [
          ['Pitch', LEAF_PITCH[type] ?? pitch],
          ['Links', links],
          ['Type', type],
          ['Pin Diameter', mm(int(r, 20, 60))],
        ],
        dimensions: `${mm(600 + size * 200)} × ${mm(150 + size * 25)} × ${mm(80 + size * 20)}`,
      };
    }
    case 'tooth':
    case 'edge':
    case 'bit': {
      const len = 120 + size * 90;
      return {
        specs: [
          ['System', opt(r, only, 'System', ['J-Series', 'K-Series', 'Advansys', 'Hensley XS', 'Pin-On', 'Bolt-On', 'R32 Thread', 'T45 Thread', 'GT60 Thread'])],
          ['Material', opt(r, only, 'Material', ['Through-Hardened Boron Steel', 'Alloy Steel', 'Tungsten Carbide Buttons', 'Manganese Steel'])],
          ['Hardness', `${int(r, 450, 550)} HB`],
          ['Profile', opt(r, only, 'Profile', ['Long', 'Heavy Duty', 'Penetration', 'Abrasion', 'Double Bevel', 'Flat Front', 'Drop Centre'])],
        ],
        dimensions: shape === 'edge' ? `${mm(len * 4)} × ${mm(len * 0.8)} × ${mm(16 + size * 4)}` : `${mm(len)} × ${mm(len * 0.5)} × ${mm(len * 0.4)}`,
      };
    }
    case 'hose':
    case 'belt': {
      const len = int(r, 4, 40) * 50;
      if (shape === 'belt') {
        // A ribbed (PK) belt is EPDM; a V-belt is banded, cogged or wrapped. Its length is its effective length.
        const profile = opt(r, only, 'Profile', ['8PK', '10PK', 'AV13', 'AV17', '3VX']);
        const vBelt = pick(r, ['Banded V-Belt', 'Cogged', 'Wrapped']);
        return {
          specs: [
            ['Profile', profile],
            ['Effective Length', mm(len + 600)],
            ['Construction', profile.endsWith('PK') ? 'EPDM Ribbed' : vBelt],
          ],
          dimensions: `${mm(len + 600)} length`,
        };
      }
      return {
        specs: [
          ...(own?.(r, len, only) ?? [
            ['Inner Diameter', pick(r, ['1/4"', '3/8"', '1/2"', '3/4"', '1"', '1-1/4"', '2"'])],
            ['Standard', opt(r, only, 'Standard', ['SAE 100R2AT', 'EN 856 4SH', 'EN 856 4SP', 'SAE 100R13'])],
            ['Working Pressure', opt(r, only, 'Working Pressure', ['210 bar', '280 bar', '350 bar', '420 bar'])],
            ['End Fittings', opt(r, only, 'End Fittings', ['JIC Female Swivel', 'ORFS Female', 'Code 61 Flange', 'Code 62 Flange'])],
          ] satisfies [string, string][]),
          ['Length', mm(len)],
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
      const specs = (own ?? BOX_SPECS[shape])?.(r, a, only) ?? [];
      if (shape === 'shaft') return { specs, dimensions: `${mm(a * 3)} × Ø ${mm(a * between(r, 0.15, 0.3))}` };
      const second = mm(a * between(r, 0.5, 1));
      const third = mm(a * between(r, 0.3, 0.8));
      // A length or thickness the specifications give is the one the dimensions give.
      const long = specOf(specs, 'Length') ?? specOf(specs, 'Retracted Length') ?? mm(a);
      return { specs, dimensions: `${long} × ${second} × ${specOf(specs, 'Thickness') ?? third}` };
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
  replaces: string[] | undefined,
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
  if (replaces) out.replaces = replaces;
  return out;
}

export interface GenerateOptions {
  count: number;
  seed?: number;
  /** Build only the products this picks (the others are still numbered, so each is the one a full run gives). */
  only?: (i: number) => boolean;
}

/** Product i's first draws: brand, category and part number (what the products before it decide). */
interface Numbered {
  /** The product's random stream, past the draws that numbered it. */
  r: R;
  bp: BrandPlan;
  category: CategoryDef;
  categorySlug: string;
  partNumber: string;
  /** The part it supersedes (the last of its brand and category) and, sometimes, an older number no longer sold. */
  replaces: string[] | undefined;
}

/** A uniform number in [0, 1) from a 32-bit seed: one cheap draw without a stream. */
const unitOf = (x: number) => mix32(x + 0x9e3779b9) / 4294967296;

/**
 * Numbers products in order. What one product passes to the next: one position per part-number pattern and
 * the last number of each brand and category, so memory stays the same whatever the count.
 */
function createNumbering(seed: number, plans: BrandPlan[], cum: number[]): (i: number) => Numbered {
  const numbering = new PartNumbering(
    plans.flatMap((p) => p.lines.flatMap((l) => l.keys.map((key, k) => ({ key, source: l.patterns[k]!, salt: hashString(key + seed) })))),
  );
  // Per brand and category: the sequence of each of its patterns, and its last part number.
  const lines = plans.map((p) => p.lines.map((l) => ({ sequences: l.keys.map((key) => numbering.sequence(key)), last: undefined as string | undefined })));
  return (i) => {
    const r = createRng((seed * 0x9e3779b1 + i) >>> 0 ^ Math.floor(i / 4294967296));
    const b = pickCum(cum, r());
    const bp = plans[b]!;
    const c = pickCum(bp.cum, r());
    const category = bp.categories[c]!;
    const line = lines[b]![c]!;
    const seq = line.sequences[Math.floor(r() * line.sequences.length)]!;
    const partNumber = seq.take();
    const previous = line.last;
    line.last = partNumber;
    // About 5 % supersede the part before them of the same brand and category (which then reads "Replaced by"), so
    // chains of two and three form; 30 % of those also list an older number no longer sold. Decided here because
    // that older number is handed out in order, like the part numbers, so it is never a part's own.
    let replaces: string[] | undefined;
    const u = previous ? unitOf((seed ^ 0x5bd1e995) + Math.imul(i, 0x27d4eb2f)) : 1;
    if (u < 0.05) replaces = u < 0.05 * 0.3 ? [previous!, seq.retire()] : [previous!];
    return { r, bp, category, categorySlug: bp.lines[c]!.slug, partNumber, replaces };
  };
}

export interface NumberedPart {
  brandName: string;
  category: string;
  partNumber: string;
  /** The part it supersedes and, sometimes, an older number no longer sold. */
  replaces: string[] | undefined;
  /** The whole product, where `only` picks it. */
  product?: Product;
}

/**
 * Every product's part number (and the older numbers it lists), fast, and the whole product only where `only`
 * picks it (none unless given): one pass serves checks over millions.
 */
export function* generatePartNumbers(opts: GenerateOptions): Generator<NumberedPart> {
  const seed = opts.seed ?? DEFAULT_SEED;
  const { plans, cum } = plan();
  const number = createNumbering(seed, plans, cum);
  const build = productBuilder(seed, plans);
  for (let i = 0; i < opts.count; i++) {
    const n = number(i);
    const product = opts.only?.(i) ? build(n, i) : undefined;
    yield { brandName: n.bp.brand.name, category: n.category.name, partNumber: n.partNumber, replaces: n.replaces, product };
  }
}

/** A stream of `count` products; the same count and seed always give the same products. */
export function* generateProducts(opts: GenerateOptions): Generator<Product> {
  for (const n of generatePartNumbers({ ...opts, only: opts.only ?? (() => true) })) if (n.product) yield n.product;
}

/** Builds product i from its numbering: everything else about it comes from its own random streams. */
function productBuilder(seed: number, plans: BrandPlan[]): (n: Numbered, i: number) => Product {
  const patterns = new Map<string, PartNumberPattern>();
  const patternOf = (source: string) => {
    let p = patterns.get(source);
    if (!p) patterns.set(source, (p = parsePattern(source)));
    return p;
  };
  const plansByName = new Map(plans.map((p) => [p.brand.name, p] as const));

  return ({ r, bp, category, categorySlug, partNumber, replaces }, i) => {
    const { brand } = bp;

    const v = Math.floor(r() * category.names.length);
    const variant = category.names[v]!;
    const only = ONLY.get(category)![v];
    const fit = pick(r, bp.models);
    const fits = fit.label;
    const kg = between(r, category.kg[0], category.kg[1]);
    // Generic parts are aftermarket unless their name says otherwise ("Remanufactured Torque Converter").
    const condition = brand.name === 'Generic' ? (only?.Condition?.[0] ?? 'Aftermarket') : pick(r, only?.Condition ?? CONDITIONS);
    const { specs, dimensions } = shapeSpecs(category, r, kg, only);
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
    const h = createRng(((seed ^ 0x5bd1e995) * 0x85ebca6b + i * 0x27d4eb2f) >>> 0);
    const history = historyOf(h, fit, bp.models, category.group, replaces, oemCrossRef);

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

    return {
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
  };
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
