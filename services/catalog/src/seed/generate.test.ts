import { ProductSchema, TestimonialSchema, type Product } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import { describe, expect, it } from 'vitest';
import { BRANDS, CATEGORIES } from './catalogue-data.ts';
import { GROUP_WEIGHT, generateProducts, generateTestimonials, patternsFor } from './generate.ts';
import { parsePattern, PartNumberSequence } from './part-numbers.ts';

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
  it('have room for a million-product catalogue without revision suffixes', () => {
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

describe('PartNumberSequence', () => {
  it('hands out every number of a small pattern once before adding a revision suffix', () => {
    const seq = new PartNumberSequence(parsePattern('X{A|B}#'), 3);
    const lap = Array.from({ length: 20 }, () => seq.take());
    expect(new Set(lap).size).toBe(20);
    for (const pn of lap) expect(pn).toMatch(/^X[AB]\d$/);
    expect(seq.take()).toMatch(/^X[AB]\d-R1$/);
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
