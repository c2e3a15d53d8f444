import { describe, expect, it } from 'vitest';
import { siteConfig } from '@forgeline/site-config/site';
import { id, makeProduct } from '../../../services/catalog/test/fixtures.ts';
import { productHead } from './pages.ts';

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
