import { describe, expect, it } from 'vitest';
import { siteConfig } from '@forgeline/site-config/site';
import { id, makeProduct } from '../../../services/catalog/test/fixtures.ts';
import { assemblyHead, machineHead, productHead } from './pages.ts';

const ctx = { site: siteConfig, publicUrl: 'https://shop.example' };

describe('a product page\'s head carries the part\'s other numbers (#17)', () => {
  const part = makeProduct({
    id: id(700),
    name: 'Advanced Efficiency Oil Filter',
    sku: 'CAT-1R1808',
    partNumber: '1R-1808',
    category: 'Hydraulic Filters',
    brandName: 'Caterpillar',
    description: 'Spin-on oil filter.',
    replaces: ['1R-0716', '1R-1807'],
    crossReferences: [{ brand: 'Fleetguard', partNumber: 'LF9080' }],
    fits: [{ make: 'Caterpillar', model: 'D9T Dozer', serialFrom: 'RJS05000' }],
  });

  it('names the numbers it replaces and its cross-references in the description and the Product JSON-LD', () => {
    const { tags } = productHead(ctx, part);
    expect(tags.description).toBe('Replaces 1R-0716, 1R-1807. Cross-reference: Fleetguard LF9080. Spin-on oil filter.');
    const product = tags.jsonLd[0] as { additionalProperty: { name: string; value: string }[]; mpn: string };
    expect(product.mpn).toBe('1R-1808');
    expect(product.additionalProperty).toEqual([
      { '@type': 'PropertyValue', name: 'Replaces part number', value: '1R-0716' },
      { '@type': 'PropertyValue', name: 'Replaces part number', value: '1R-1807' },
      { '@type': 'PropertyValue', name: 'Fleetguard part number', value: 'LF9080' },
      { '@type': 'PropertyValue', name: 'Fits', value: 'Caterpillar D9T Dozer (serial RJS05000-)' },
    ]);
  });

  it('leaves a part without history as it was', () => {
    const plain = makeProduct({ id: id(701), name: 'Track Roller', sku: 'KOM-1', category: 'Undercarriage', brandName: 'Komatsu', description: 'A roller.' });
    const { tags } = productHead(ctx, plain);
    expect(tags.description).toBe('A roller.');
    expect(tags.jsonLd[0]).not.toHaveProperty('additionalProperty');
  });
});

describe('the parts diagrams pages\' heads (#38)', () => {
  const machine = {
    make: 'Caterpillar',
    model: '320D Excavator',
    makeSlug: 'caterpillar',
    modelSlug: '320d-excavator',
    productCount: 22,
    assemblies: ['Engine — lubrication', 'Final drive', 'Track roller frame', 'Operator cab', 'Cooling system'].map((name, i) => ({
      id: `a${i}`,
      slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      name,
      calloutCount: 10,
      diagram: null,
    })),
  };
  const part = { id: id(702), name: 'Idler Seal', sku: 'CAT-1M-0001', partNumber: '1M-0001', brandName: 'Caterpillar', slug: 'idler-seal', inStock: true, availability: 'In Stock', imageUrl: '', images: [], replacedBy: null, crossReferences: [] };
  const assembly = {
    id: 'a2',
    make: 'Caterpillar',
    model: '320D Excavator',
    makeSlug: 'caterpillar',
    modelSlug: '320d-excavator',
    slug: 'track-roller-frame',
    name: 'Track roller frame',
    diagram: { url: '/media/diagrams/abc.webp', width: 2400, height: 1600, variants: [{ width: 800, url: '/media/diagrams/abc-800.webp' }] },
    lines: [
      { number: '3', positions: [], partId: part.id, quantity: 2, part },
      { number: '4', positions: [], partId: id(703), quantity: 1, part: null },
    ],
    version: 1,
    updatedAt: '2026-11-01T00:00:00.000Z',
    siblings: [],
  };

  it("names the machine, its assemblies and the parts that fit it, with its canonical address and breadcrumbs", () => {
    const { status, tags } = machineHead(ctx, machine);
    expect(status).toBe(200);
    expect(tags.title).toBe(`Caterpillar 320D Excavator parts diagrams | ${siteConfig.name}`);
    expect(tags.description).toContain('5 assemblies (Engine — lubrication, Final drive, Track roller frame and 2 more)');
    expect(tags.description).toContain('22 parts in stock fit it.');
    expect(tags.canonical).toBe('https://shop.example/machines/caterpillar/320d-excavator');
    expect(tags.robots).toBeUndefined();
    const crumbs = tags.jsonLd[0] as { itemListElement: { name: string; item: string }[] };
    expect(crumbs.itemListElement.map((c) => [c.name, c.item])).toEqual([
      ['Home', 'https://shop.example/'],
      ['Caterpillar 320D Excavator', 'https://shop.example/machines/caterpillar/320d-excavator'],
    ]);
  });

  it('keeps a machine without diagrams out of the index', () => {
    expect(machineHead(ctx, { ...machine, assemblies: [] }).tags.robots).toBe('noindex, follow');
  });

  it("names the assembly and its part numbers, and preloads the drawing as the page's <img> asks for it", () => {
    const { tags } = assemblyHead(ctx, assembly);
    expect(tags.title).toBe(`Track roller frame — Caterpillar 320D Excavator parts diagram | ${siteConfig.name}`);
    expect(tags.description).toContain('2 callouts with part numbers (1M-0001)');
    expect(tags.canonical).toBe('https://shop.example/machines/caterpillar/320d-excavator/track-roller-frame');
    const crumbs = tags.jsonLd[0] as { itemListElement: { name: string }[] };
    expect(crumbs.itemListElement.map((c) => c.name)).toEqual(['Home', 'Caterpillar 320D Excavator', 'Track roller frame']);
    expect(tags.preloadImages).toEqual([
      { href: '/media/diagrams/abc.webp', srcset: '/media/diagrams/abc-800.webp 800w, /media/diagrams/abc.webp 2400w', sizes: '(min-width: 1024px) 60vw, 100vw' },
    ]);
    expect(assemblyHead(ctx, { ...assembly, diagram: null }).tags.preloadImages).toBeUndefined();
  });
});
