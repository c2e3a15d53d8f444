import { ProductSchema, TestimonialSchema, type Product } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeKey } from '../domain/products.ts';
import { stableUuid } from '../domain/stable-uuid.ts';
import { BRANDS, CATEGORIES } from './catalogue-data.ts';
import { DEFAULT_SEED, GROUP_WEIGHT, generatePartNumbers, generateProducts, generateTestimonials, patternsFor } from './generate.ts';
import { parsePattern, PartNumbering, widenPattern } from './part-numbers.ts';

const take = (count: number, seed?: number) => [...generateProducts({ count, seed })];
const SAMPLE = take(20_000);
const byBrand = (brand: string) => SAMPLE.filter((p) => p.brandName === brand);

describe('generateProducts', () => {
  it('gives the same products for the same count and seed, and a prefix of a bigger run', () => {
    const a = take(300);
    expect(take(300)).toEqual(a);
    expect(SAMPLE.slice(0, 300)).toEqual(a);
    expect(take(300, 7).map((p) => p.id)).not.toEqual(a.map((p) => p.id));
  });

  it('yields products that satisfy the Product contract', () => {
    for (const p of SAMPLE.slice(0, 2_000)) expect(() => ProductSchema.parse(p)).not.toThrow();
  });

  it('draws from at least 40 real brands plus Generic, and at least 50 categories', () => {
    expect(BRANDS.filter((b) => b.name !== 'Generic').length).toBeGreaterThanOrEqual(40);
    expect(CATEGORIES.length).toBeGreaterThanOrEqual(50);
    expect(new Set(SAMPLE.map((p) => p.brandName)).size).toBeGreaterThanOrEqual(41);
    expect(new Set(SAMPLE.map((p) => p.category)).size).toBeGreaterThanOrEqual(50);
    expect(byBrand('Generic').length).toBeGreaterThan(0);
    for (const name of ['Caterpillar', 'Komatsu', 'John Deere', 'Volvo CE', 'Cummins', 'Donaldson', 'SKF', 'Epiroc', 'Hyster']) {
      expect(byBrand(name).length, name).toBeGreaterThan(0);
    }
  });

  it('keeps brands to the parts they make (filter makers make filters, bearing makers bearings)', () => {
    for (const p of [...byBrand('Donaldson'), ...byBrand('Fleetguard')]) expect(p.category).toMatch(/Filter|Separator|Breather/);
    for (const p of [...byBrand('Timken'), ...byBrand('SKF')]) expect(p.category).toMatch(/Bearing|Seal|O-Ring/);
  });

  it("writes part numbers in each brand's real format", () => {
    const formats: Record<string, RegExp> = {
      Caterpillar: /^(\d[A-Z]|\d{3})-\d{4}$/, // 1R-0750, 326-1644
      Komatsu: /^(\d{3}-\d{3}-\d{4}|\d{4}-\d{2}-\d{4}|\d{2}[A-Z]-\d{2}-\d{5})$/, // 600-211-1231, 6754-71-6110, 20Y-70-00013
      'John Deere': /^(RE|AR|AT|AH|AL|DZ)\d{6}$/, // RE504836
      JCB: /^\d{3}\/[A-Z0-9]\d{4}$/, // 320/04133
      'Volvo CE': /^VOE\d{8}$/, // VOE11110683
      Cummins: /^[345]\d{6}$/, // 3971994
      Donaldson: /^P\d{6}$/, // P551808
      Perkins: /^(\d{4}[A-Z]\d{3}|(CH|SE|T)\d{5})$/, // 2656F853, CH10929
      'Bosch Rexroth': /^R90\d{7}$/, // R902601453
    };
    for (const [brand, re] of Object.entries(formats)) {
      const parts = byBrand(brand);
      expect(parts.length, brand).toBeGreaterThan(0);
      for (const p of parts) expect(p.partNumber, brand).toMatch(re);
    }
    for (const p of byBrand('Fleetguard').filter((x) => x.category === 'Oil Filters')) expect(p.partNumber).toMatch(/^LF\d{4,5}$/);
    for (const p of byBrand('Fleetguard').filter((x) => x.category === 'Fuel Filters')) expect(p.partNumber).toMatch(/^FF\d{4,5}$/);
  });

  it("matches every part number against its brand's declared patterns", () => {
    const cache = new Map<string, RegExp[]>();
    const regexesFor = (brandName: string, category: string) => {
      const key = `${brandName}|${category}`;
      let res = cache.get(key);
      if (!res) {
        const brand = BRANDS.find((b) => b.name === brandName)!;
        cache.set(key, (res = patternsFor(brand, slugify(category)).map((s) => parsePattern(s).regex)));
      }
      return res;
    };
    const misfits = SAMPLE.filter((p) => !regexesFor(p.brandName, p.category).some((re) => re.test(p.partNumber)));
    expect(misfits.map((p) => `${p.brandName} ${p.partNumber}`)).toEqual([]);
  });

  it('never repeats an id, a SKU or a brand and part number pair', () => {
    expect(new Set(SAMPLE.map((p) => p.id)).size).toBe(SAMPLE.length);
    expect(new Set(SAMPLE.map((p) => p.sku)).size).toBe(SAMPLE.length);
    expect(new Set(SAMPLE.map((p) => `${p.brandName}|${p.partNumber}`)).size).toBe(SAMPLE.length);
    for (const p of SAMPLE.slice(0, 500)) {
      expect(p.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(p.sku).toMatch(/^[A-Z0-9-]+$/); // safe as a folder name in a bulk image ZIP
    }
  });

  it('gives slugs by the spec rule and image URLs under /media/generated', () => {
    const bad = SAMPLE.filter(
      (p) =>
        p.slug !== slugify(p.name) ||
        !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(p.slug) ||
        p.imageUrl !== `/media/generated/${slugify(p.category)}/${slugify(p.brandName)}/${slugify(p.partNumber)}.svg` ||
        p.images.length !== 0,
    );
    expect(bad).toEqual([]);
  });

  it('fills specifications, weight, dimensions, tags and stock', () => {
    const p = SAMPLE[0] as Product;
    expect(Object.keys(p.specifications).length).toBeGreaterThanOrEqual(5);
    expect(p.specifications['Part Number']).toBe(p.partNumber);
    expect(p.weight).toMatch(/^\d+(\.\d+)? kg$/);
    expect(p.dimensions).toMatch(/mm/);
    expect(p.tags.length).toBeGreaterThanOrEqual(3);
    const availability = new Set(SAMPLE.map((x) => x.availability));
    expect(availability.has('In Stock')).toBe(true);
    expect(SAMPLE.some((x) => !x.inStock)).toBe(true);
    expect(SAMPLE.filter((x) => x.availability === 'In Stock').every((x) => x.inStock)).toBe(true);
  });

  it('streams: asking for a million products allocates nothing up front', () => {
    const it = generateProducts({ count: 1_000_000 });
    expect(it.next().done).toBe(false);
    it.return(undefined);
  });
});

describe('part-number patterns', () => {
  it('have room for a million-product catalogue without widening a pattern', () => {
    const total = BRANDS.reduce((a, b) => a + b.weight, 0);
    const use = new Map<string, { expected: number; space: number }>();
    for (const b of BRANDS) {
      const cats = CATEGORIES.filter((c) => b.groups.includes(c.group) && !b.exclude?.includes(slugify(c.name)));
      const catWeight = cats.reduce((a, c) => a + (GROUP_WEIGHT[c.group] ?? 1), 0);
      for (const c of cats) {
        const patterns = patternsFor(b, slugify(c.name));
        for (const p of patterns) {
          const key = `${b.numbering ?? b.code}|${p}`;
          const u = use.get(key) ?? { expected: 0, space: parsePattern(p).space };
          u.expected += (1_000_000 * (b.weight / total) * ((GROUP_WEIGHT[c.group] ?? 1) / catWeight)) / patterns.length;
          use.set(key, u);
        }
      }
    }
    const tight = [...use].filter(([, u]) => u.expected * 1.2 > u.space).map(([k]) => k);
    expect(tight).toEqual([]);
  });
});

describe('PartNumbering', () => {
  it('hands out every number of a small pattern once, then goes on one digit longer', () => {
    const seq = new PartNumbering([{ key: 'x', source: 'X{A|B}#', salt: 3 }]).sequence('x');
    const lap = Array.from({ length: 20 }, () => seq.take());
    expect(new Set(lap).size).toBe(20);
    for (const pn of lap) expect(pn).toMatch(/^X[AB]\d$/);
    expect(seq.take()).toMatch(/^X[AB]\d\d$/);
  });

  it('gives patterns whose numbers look alike each their own, and older numbers nobody is given', () => {
    // "A-12" and "A12" are one number to a buyer; both patterns have only 100.
    const numbering = new PartNumbering([
      { key: 'dash', source: 'A-##', salt: 7 },
      { key: 'plain', source: 'A##', salt: 11 },
    ]);
    const [dash, plain] = [numbering.sequence('dash'), numbering.sequence('plain')];
    const given = Array.from({ length: 60 }, () => [dash.take(), plain.take()]).flat();
    const older = Array.from({ length: 20 }, () => [dash.retire(), plain.retire()]).flat();
    const keys = [...given, ...older].map(codeKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const pn of given.filter((_, k) => k % 2 === 0)) expect(pn).toMatch(/^A-\d{2,3}$/);
  });

  it('keeps the part numbers a lone pattern would give while no other pattern reaches them first', () => {
    const alone = new PartNumbering([{ key: 'a', source: '###-####', salt: 5 }]).sequence('a');
    const shared = new PartNumbering([
      { key: 'a', source: '###-####', salt: 5 },
      { key: 'b', source: '{3|4|5}######', salt: 9 },
    ]).sequence('a');
    const first = Array.from({ length: 2_000 }, () => alone.take());
    const same = Array.from({ length: 2_000 }, () => shared.take()).filter((pn, k) => pn === first[k]);
    expect(same.length).toBeGreaterThan(1_990);
  });
});

describe('generateTestimonials', () => {
  it('gives at least 12 featured buyers from many countries', () => {
    const list = generateTestimonials();
    for (const t of list) expect(() => TestimonialSchema.parse(t)).not.toThrow();
    expect(list.filter((t) => t.featured).length).toBeGreaterThanOrEqual(12);
    const countries = new Set(list.map((t) => t.customerLocation.split(', ').pop()));
    expect(countries.size).toBeGreaterThanOrEqual(12);
    expect(generateTestimonials()).toEqual(list);
  });
});

describe('the demo catalogue\'s part history and fitment', () => {
  const parts = take(20_000);
  const share = (f: (p: Product) => boolean) => parts.filter(f).length / parts.length;

  it('gives most parts the machines they fit, about 30 % cross-references and about 5 % a superseded predecessor', () => {
    expect(share((p) => Boolean(p.fits?.length))).toBeGreaterThan(0.8);
    expect(share((p) => Boolean(p.fits?.length))).toBeLessThan(0.9);
    expect(share((p) => Boolean(p.fits?.some((f) => f.serialFrom || f.serialTo)))).toBeGreaterThan(0.2);
    expect(share((p) => Boolean(p.crossReferences?.length))).toBeGreaterThan(0.25);
    expect(share((p) => Boolean(p.crossReferences?.length))).toBeLessThan(0.4);
    expect(share((p) => Boolean(p.replaces?.length))).toBeGreaterThan(0.035);
    expect(share((p) => Boolean(p.replaces?.length))).toBeLessThan(0.065);
    for (const p of parts) expect(ProductSchema.safeParse(p).success, p.sku).toBe(true);
  });

  it('supersedes parts that are in the catalogue, in chains of two and three, each part by at most one', () => {
    const byNumber = new Map(parts.map((p) => [p.partNumber, p]));
    const replacedBy = new Map<string, Product>();
    for (const p of parts) {
      for (const old of p.replaces ?? []) {
        expect(replacedBy.has(old), old).toBe(false);
        replacedBy.set(old, p);
      }
    }
    const supersededProducts = [...replacedBy.keys()].filter((n) => byNumber.has(n));
    expect(supersededProducts.length / parts.length).toBeGreaterThan(0.035);
    const chainLength = (number: string) => {
      let n = 1;
      for (let cur = replacedBy.get(number); cur; cur = replacedBy.get(cur.partNumber)) n++;
      return n;
    };
    const lengths = supersededProducts.map(chainLength);
    expect(lengths.some((l) => l >= 3)).toBe(true);
    expect(lengths.filter((l) => l >= 3).length).toBeLessThan(lengths.length / 5);
  });

  it('fits machines of the same make when a part fits several, with a serial prefix per model', () => {
    const prefixes = new Map<string, Set<string>>();
    for (const p of parts) {
      const makes = new Set((p.fits ?? []).map((f) => f.make));
      expect(makes.size).toBeLessThanOrEqual(1);
      for (const f of p.fits ?? []) {
        const serial = f.serialFrom ?? f.serialTo;
        if (!serial) continue;
        const set = prefixes.get(`${f.make} ${f.model}`) ?? new Set<string>();
        set.add(serial.slice(0, 3));
        prefixes.set(`${f.make} ${f.model}`, set);
      }
    }
    for (const set of prefixes.values()) expect(set.size).toBe(1);
  });
});

/** Two million parts, issue 33's catalogue size. */
const BIG = 2_000_000;

/**
 * One pass over all two million (a few seconds): every part number, and the whole product for the first 2,000 and
 * one in 997 of the rest (about 4,000, the last ones included) for the checks of what parts say about themselves.
 */
const big = {
  /** Code keys (letters and digits, as search and part history compare numbers) given to more than one part. */
  repeated: [] as string[],
  /** Numbers in neither their brand's format nor that format one digit longer. */
  offPattern: [] as string[],
  /** Code keys of the older numbers parts list, and how many of them are a part's own. */
  older: [] as string[],
  olderSold: [] as string[],
  spread: [] as Product[],
};
beforeAll(() => {
  const live = new Set<string>();
  const regexes = new Map<string, RegExp[]>();
  for (const n of generatePartNumbers({ count: BIG, only: (i) => i < 2_000 || i % 997 === 0 })) {
    const key = codeKey(n.partNumber);
    if (live.has(key)) big.repeated.push(`${n.brandName} ${n.partNumber}`);
    live.add(key);
    for (const old of n.replaces?.slice(1) ?? []) big.older.push(codeKey(old));
    const rk = `${n.brandName}|${n.category}`;
    let res = regexes.get(rk);
    if (!res) {
      const sources = patternsFor(BRANDS.find((b) => b.name === n.brandName)!, slugify(n.category));
      regexes.set(rk, (res = sources.flatMap((s) => [parsePattern(s).regex, parsePattern(widenPattern(s)).regex])));
    }
    if (!res.some((re) => re.test(n.partNumber))) big.offPattern.push(`${n.brandName} ${n.partNumber}`);
    if (n.product) big.spread.push(n.product);
  }
  big.olderSold = big.older.filter((k) => live.has(k));
}, 300_000);

describe('a catalogue of two million parts', () => {
  it('builds the same product at an index whether or not the products around it are built', () => {
    const every = take(3_000);
    const some = [...generateProducts({ count: 3_000, only: (i) => i % 7 === 3 })];
    expect(some).toEqual(every.filter((_, i) => i % 7 === 3));
    expect([...generatePartNumbers({ count: 3_000 })].map((n) => n.partNumber)).toEqual(every.map((p) => p.partNumber));
  });

  // The whole catalogue, not a sample. Two parts with the same code key would be one number to a buyer, and an older
  // number a part lists ("no longer sold") must not be another part's own. SKUs are the brand's code plus the part
  // number with its separators as dashes, so distinct code keys give distinct SKUs; ids hash the index, distinct too.
  it('never gives two parts the same number, nor a part an older number that another part is sold under', () => {
    expect(big.repeated.slice(0, 20)).toEqual([]);
    expect(big.offPattern.slice(0, 20)).toEqual([]);
    expect(big.older.length).toBeGreaterThan(BIG * 0.05 * 0.3 * 0.8);
    expect(new Set(big.older).size).toBe(big.older.length);
    expect(big.olderSold.slice(0, 20)).toEqual([]);
    expect(new Set(big.spread.map((p) => p.id)).size).toBe(big.spread.length);
  });
});

/**
 * What a name or description states, the attributes must agree with. The rules are written from what the words mean
 * (a "24V Starter Motor" is 24 V, a "Spin-On Lube Filter" screws on), not read back from the generator's tables.
 */
describe('every generated part agrees with itself', () => {
  // The first 20,000 parts, and about 4,000 spread over the two million (built in the pass above).
  let spread: Product[] = [];
  let all: Product[] = [];
  beforeAll(() => {
    spread = big.spread;
    all = [...SAMPLE, ...spread];
  });

  /** The name and description without the machine it fits or the number it replaces: "for MTU 12V2000 Engine" names an engine, not a voltage. */
  const own = (p: Product, text: string) => {
    let t = text.split(`for ${p.specifications.Fits}`).join('');
    if (p.specifications['Cross Reference']) t = t.split(p.specifications['Cross Reference']).join('');
    return t;
  };
  /** The words naming the part ("24V Starter Motor"): the name without brand, number and machine, as the description opens. */
  const variantOf = (p: Product) => p.description.slice(0, p.description.search(/ (by |built to OEM)/));
  /** The attributes that describe the part itself (not its number, maker, machine or cross-reference). */
  const FREE = new Set(['Part Number', 'Brand', 'Fits', 'Cross Reference']);
  const stated = (value: string, text: string) => {
    const norm = (s: string) => s.toLowerCase().replace(/ & /g, ' and ');
    if (!norm(text).includes(norm(value))) return false;
    return new RegExp(`(?<![\\w-])${norm(value).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![\\w-])`).test(norm(text));
  };
  const num = (v: string | undefined) => Number.parseFloat(v ?? 'NaN');
  const spec = (p: Product, key: string) => p.specifications[key];

  it('samples parts from across the two million, the last ones included', () => {
    expect(spread.length).toBeGreaterThan(3_500);
    expect(spread.at(-1)!.id).toBe(stableUuid(`forgeline-product:${DEFAULT_SEED}:${Math.floor((BIG - 1) / 997) * 997}`));
    expect(spread.filter((p) => p.category === 'Starter Motors' || p.category === 'Alternators').length).toBeGreaterThan(50);
  });

  it('states one voltage: the name, the description and the attributes agree', () => {
    // A single voltage ("24V", "24 V", "Solenoid 24 V DC"); not a range ("12-24 V", "0.5-4.5 V") nor "230/400 V".
    const volts = (text: string) => [...text.matchAll(/(?<![\w.\/-])(\d+(?:\.\d+)?) ?V(?![\w-])/g)].map((m) => Number(m[1]));
    const bad: string[] = [];
    for (const p of all) {
      const inName = volts(own(p, p.name));
      const attributeVolts = Object.entries(p.specifications).flatMap(([k, v]) => (FREE.has(k) ? [] : volts(v)));
      const everywhere = new Set([...inName, ...volts(own(p, p.description)), ...attributeVolts]);
      const attributes = Object.entries(p.specifications).filter(([k]) => /Voltage/.test(k));
      if (everywhere.size > 1 || (inName.length && !attributes.length)) bad.push(`${p.name} | ${JSON.stringify(attributes)} | ${p.description.slice(0, 120)}`);
    }
    expect(bad.slice(0, 10)).toEqual([]);
  });

  it('describes the part with its own brand, number, machine, cross-reference, condition and attributes', () => {
    const conditionText: Record<string, string> = {
      'OEM Genuine': 'Genuine OEM part',
      Remanufactured: 'Factory remanufactured to original tolerances and tested',
      Aftermarket: 'Quality aftermarket replacement',
    };
    const bad: string[] = [];
    for (const p of all) {
      const d = p.description;
      const problems: string[] = [];
      const variant = variantOf(p);
      if (!variant || !p.name.includes(variant)) problems.push(`variant "${variant}" not in the name`);
      if (!p.name.includes(p.partNumber) || !d.includes(`part number ${p.partNumber},`)) problems.push('part number');
      if (p.brandName !== 'Generic' && !(p.name.startsWith(`${p.brandName} `) && d.includes(`by ${p.brandName},`))) problems.push('brand');
      const fits = p.specifications.Fits!;
      if (!d.includes(`for ${fits}`) || !fits.startsWith(`${p.make} `) || !(p.fits ?? []).every((f) => f.make === p.make)) problems.push('machine');
      const x = /\(replaces ([^)]+)\)/.exec(d)?.[1];
      if (x !== p.specifications['Cross Reference']) problems.push(`cross-reference ${x} vs ${p.specifications['Cross Reference']}`);
      if (!d.includes(`${conditionText[p.specifications.Condition!]} for `)) problems.push(`condition ${p.specifications.Condition}`);
      const pairs = /equipment\. (.*)\. Ships worldwide/.exec(d)?.[1] ?? '';
      for (const pair of pairs.split('; ').filter(Boolean)) {
        const at = pair.indexOf(': ');
        if (spec(p, pair.slice(0, at)) !== pair.slice(at + 2)) problems.push(`"${pair}" vs ${spec(p, pair.slice(0, at))}`);
      }
      if (problems.length) bad.push(`${p.name}: ${problems.join(', ')}`);
    }
    expect(bad.slice(0, 10)).toEqual([]);
  });

  it('gives every attribute value the name states (a "Rubber Track Pad" is rubber, a "Remanufactured Torque Converter" remanufactured)', () => {
    // The values each attribute takes anywhere in the catalogue; a name that spells one out settles that attribute.
    const vocabulary = new Map<string, Set<string>>();
    for (const p of all) {
      for (const [k, v] of Object.entries(p.specifications)) if (!FREE.has(k)) vocabulary.set(k, (vocabulary.get(k) ?? new Set()).add(v));
    }
    // Worked out once per product name and attribute (values without a letter, sizes and counts, are not words a name uses).
    const statedIn = new Map<string, string[]>();
    const bad: string[] = [];
    for (const p of all) {
      const name = variantOf(p);
      for (const [k, v] of Object.entries(p.specifications)) {
        if (FREE.has(k)) continue;
        const cacheKey = `${name}|${k}`;
        let named = statedIn.get(cacheKey);
        if (!named) statedIn.set(cacheKey, (named = [...vocabulary.get(k)!].filter((value) => /[a-z]/i.test(value) && stated(value, name))));
        if (named.length && !named.includes(v)) bad.push(`${p.name}: ${k} ${v}, the name says ${named.join(' / ')}`);
      }
    }
    expect(bad.slice(0, 10)).toEqual([]);
  });

  it('agrees with what the words of the name mean', () => {
    // [the name says, the attribute, what the attribute must then be]
    const rules: Array<[RegExp, string, (v: string | undefined) => boolean]> = [
      [/\bElement\b/, 'Thread Size', (v) => v === 'none (element)'],
      [/Spin-On/, 'Filter Type', (v) => v === 'Spin-On'],
      [/Unit Injector/, 'Injection System', (v) => /Unit Injector/.test(v!)],
      [/Wastegate Turbo/, 'Wastegate', (v) => v === 'Internal'],
      [/Cartridge \(CHRA\)/, 'Wastegate', (v) => v === 'None'],
      [/with Pin/, 'Includes', (v) => /Pin/.test(v!)],
      [/\b(Kit|Set|Assortment|Group)\b/, 'Includes', (v) => v !== 'Single Part'],
      [/^(Piston|Cylinder Liner|Cylinder Sleeve|Oil Control Ring|Connecting Rod)$/, 'Includes', (v) => v !== 'Complete Kit'],
      [/\b(Kit|Set)\b/, 'Pieces', (v) => v === undefined || num(v) > 1],
      [/Head Gasket/, 'Pieces', (v) => v === '1'],
      [/Viton/, 'Material', (v) => v === 'Viton (FKM)'],
      [/Forged/, 'Material', (v) => /Forged/.test(v!)],
      [/Seal Kit|Seal$/, 'Material', (v) => /Nitrile|Viton|Polyurethane|Cast Iron/.test(v!)],
      [/^(Piston|Piston Kit|Piston with Pin|Connecting Rod.*|Rock Drill Piston|Front Head|Rotation Chuck)$/, 'Material', (v) => !/Nitrile|Viton|Polyurethane/.test(v!)],
      [/Class II\b/, 'Class', (v) => v === 'ISO II'],
      [/\bJIC\b/, 'Connection', (v) => /JIC/.test(v!)],
      [/\bORFS\b/, 'Connection', (v) => /ORFS/.test(v!)],
      [/Split Flange/, 'Connection', (v) => /Flange/.test(v!)],
      [/Solenoid/, 'Operation', (v) => /^Solenoid/.test(v!)],
      [/Thermostat/, 'Operation', (v) => /^Wax Element/.test(v!)],
      [/Relief Valve/, 'Ports', (v) => v === '2/2'],
      [/Main Control Valve/, 'Ports', (v) => /sections/.test(v!)],
      [/Leaf Chain|Mast Lift Chain/, 'Type', (v) => /^Leaf Chain/.test(v!)],
      [/Track Chain|Track Link|Master Link/, 'Type', (v) => !/Leaf/.test(v!)],
      [/Master Link/, 'Links', (v) => v === '1'],
      [/Solid/, 'Tread', (v) => v === 'Solid Rubber'],
      [/Non-Marking/, 'Tread', (v) => v === 'Non-Marking Rubber'],
      [/Idler/, 'Tread', (v) => v === 'Hardened Steel'],
      [/Woven Wire/, 'Material', (v) => /Wire/.test(v!)],
      [/Cab .*Filter/, 'Material', (v) => /Paper|Carbon|Synthetic/.test(v!)],
      [/Brake (Pad|Shoe)/, 'Material', (v) => /Friction|Sintered|Ceramic/.test(v!)],
      [/Separator Plate/, 'Friction Material', (v) => /^None/.test(v!)],
      [/Poly-V|Serpentine/, 'Profile', (v) => /PK$/.test(v!)],
      [/High Pressure Hose/, 'Working Pressure', (v) => num(v) >= 350],
      [/Return Line/, 'Working Pressure', (v) => num(v) <= 50],
      [/High Pressure Fuel Pump/, 'Max Pressure', (v) => num(v) >= 1600],
      [/Transfer Pump|Water Pump|Coolant Pump|Oil Pump/, 'Max Pressure', (v) => num(v) <= 20],
      [/Pilot Pump/, 'Max Pressure', (v) => num(v) <= 50],
      [/Gear Pump/, 'Max Pressure', (v) => num(v) <= 280],
      [/Starter/, 'Output', (v) => / kW$/.test(v!)],
      [/Alternator$/, 'Output', (v) => / A$/.test(v!)],
      [/Starter/, 'Teeth / Pulley', (v) => /^\d+T$/.test(v!)],
      [/Alternator$/, 'Teeth / Pulley', (v) => !/^\d+T$/.test(v!)],
      [/Speed|Position/, 'Signal', (v) => v !== 'Resistive NTC'],
      [/Switch/, 'Signal', (v) => /Switch/.test(v!)],
      [/Bare Cylinder Head/, 'Includes', (v) => /Bare/.test(v!)],
      [/Cylinder Head Assembly/, 'Includes', (v) => /Valves/.test(v!)],
      [/Charge Air Cooler/, 'Core Material', (v) => /Aluminium/.test(v!)],
      [/Halogen/, 'Output', (v) => num(v) <= 1500],
      [/Button Bit|Rock Bit|Hammer Bit/, 'System', (v) => /Thread|DTH|API/.test(v!)],
      [/Tooth|Adapter|Cutting Edge|End Bit|Ripper|Blade|Knife/, 'System', (v) => v === undefined || !/Thread|DTH|API/.test(v)],
      [/Cylinder Head/, 'Firmware / Version', (v) => v === undefined],
      [/Seat/, 'Firmware / Version', (v) => v === undefined],
      [/Harness/, 'Working Pressure', (v) => v === undefined],
      [/U-Joint|Universal Joint|Cross and Bearing/, 'Working Pressure', (v) => v === undefined],
      [/Torque Converter/, 'Thickness', (v) => v === undefined],
      [/Rectifier|Exciter|Stator/, 'Teeth / Pulley', (v) => v === undefined],
    ];
    const bad: string[] = [];
    for (const p of all) {
      const variant = variantOf(p);
      for (const [says, key, ok] of rules) {
        if (says.test(variant) && !ok(spec(p, key))) bad.push(`${p.name}: ${key} ${spec(p, key)} (${says.source})`);
      }
    }
    expect(bad.slice(0, 10)).toEqual([]);
  });

  it('gives the same size wherever two fields state it, and sizes that fit together', () => {
    // A size in the attributes is the size the dimensions give.
    const sized = ['Length', 'Outer Diameter', 'Bore (d)', 'Outside Diameter (D)', 'Width (B)', 'Thickness', 'Effective Length', 'Retracted Length'];
    const bad: string[] = [];
    for (const p of all) {
      const s = p.specifications;
      for (const k of sized) if (s[k] && !p.dimensions!.includes(s[k]!)) bad.push(`${p.name}: ${k} ${s[k]}, dimensions ${p.dimensions}`);
      if (s['Rod Diameter'] && !(num(s['Rod Diameter']) < num(s.Bore))) bad.push(`${p.name}: rod ${s['Rod Diameter']} in bore ${s.Bore}`);
      if (s.Stroke && !(num(s.Stroke) < num(s['Retracted Length']))) bad.push(`${p.name}: stroke ${s.Stroke}, retracted ${s['Retracted Length']}`);
      if (s['Filter Type'] && (s['Filter Type'] === 'Spin-On') !== (s['Thread Size'] !== 'none (element)')) bad.push(`${p.name}: ${s['Filter Type']} with thread ${s['Thread Size']}`);
      if (s.Signal === '0.5-4.5 V analogue' && s['Supply Voltage'] !== '5 V') bad.push(`${p.name}: a 0.5-4.5 V signal on ${s['Supply Voltage']}`);
      if (s.Construction && /PK$/.test(s.Profile!) !== (s.Construction === 'EPDM Ribbed')) bad.push(`${p.name}: ${s.Profile} ${s.Construction}`);
      if (s['Injection System'] === 'Mechanical (PLN)' && (s.Connector !== 'None (mechanical)' || num(s['Max Pressure']) > 1400)) bad.push(`${p.name}: mechanical with ${s.Connector}, ${s['Max Pressure']}`);
      if (/^Leaf Chain BL6/.test(s.Type ?? '') && s.Pitch !== '19.05 mm') bad.push(`${p.name}: ${s.Type} at ${s.Pitch}`);
      if (/^Leaf Chain LH12/.test(s.Type ?? '') && s.Pitch !== '38.1 mm') bad.push(`${p.name}: ${s.Type} at ${s.Pitch}`);
    }
    expect(bad.slice(0, 10)).toEqual([]);
  });

  it('fills every attribute a category or a product name pins down', () => {
    // A constraint on an attribute the part does not have would silently do nothing.
    const bad = new Set<string>();
    for (const p of all) {
      const c = CATEGORIES.find((x) => x.name === p.category)!;
      const variant = variantOf(p);
      for (const k of [...Object.keys(c.specs ?? {}), ...Object.keys(c.named?.[variant] ?? {})]) {
        if (k !== 'Condition' && !(k in p.specifications)) bad.add(`${p.category} / ${variant}: ${k}`);
      }
    }
    expect([...bad]).toEqual([]);
  });
});
