import type { Product } from '@forgeline/contracts/products';

/** Hand-made parts covering each relevance rule (numbers with and without separators, typos, brands). */
const rows: Array<[id: string, name: string, partNumber: string, sku: string, brandName: string, category: string]> = [
  ['p-cat-0750', 'Caterpillar 1R-0750 Fuel Filter', '1R-0750', 'CAT-1R-0750', 'Caterpillar', 'Fuel Filters'],
  ['p-cat-0716', 'Caterpillar 1R-0716 Engine Oil Filter', '1R-0716', 'CAT-1R-0716', 'Caterpillar', 'Oil Filters'],
  ['p-cat-track', 'Caterpillar 6Y-2931 Track Roller', '6Y-2931', 'CAT-6Y-2931', 'Caterpillar', 'Track Rollers'],
  ['p-kom-1231', 'Komatsu 600-211-1231 Fuel Filter', '600-211-1231', 'KOM-600-211-1231', 'Komatsu', 'Fuel Filters'],
  ['p-kom-1340', 'Komatsu 600-211-1340 Fuel Filter Cartridge', '600-211-1340', 'KOM-600-211-1340', 'Komatsu', 'Fuel Filters'],
  ['p-kom-hyd', 'Komatsu 07063-01054 Hydraulic Filter Element', '07063-01054', 'KOM-07063-01054', 'Komatsu', 'Hydraulic Filters'],
  ['p-kom-pump', 'Komatsu 708-2L-00300 Hydraulic Pump', '708-2L-00300', 'KOM-708-2L-00300', 'Komatsu', 'Hydraulic Pumps'],
  ['p-jd-oil', 'John Deere RE504836 Engine Oil Filter', 'RE504836', 'JD-RE504836', 'John Deere', 'Oil Filters'],
  ['p-don-hyd', 'Donaldson P551315 Hydraulic Filter', 'P551315', 'DON-P551315', 'Donaldson', 'Hydraulic Filters'],
  ['p-gen-pump', 'Hydraulic Pump FLP-123456 for Komatsu PC200 Excavator', 'FLP-123456', 'FLP-123456', 'Generic', 'Hydraulic Pumps'],
  ['p-hit-gear', 'Hitachi 4368296 Crown Wheel and Pinion', '4368296', 'HIT-4368296', 'Hitachi', 'Final Drive Gears'],
  ['p-volvo-short', 'Volvo CE AB123 Wiper Blade', 'AB123', 'VOE-AB123', 'Volvo CE', 'Cab Parts'],
  ['p-perkins-ring', 'Perkins 4181A026 Piston Ring Set', '4181A026', 'PER-4181A026', 'Perkins', 'Piston Rings'],
  ['p-bosch-unicode', 'Bosch Rexroth Ölkühler R902603723 für Bagger', 'R902603723', 'REX-R902603723', 'Bosch Rexroth', 'Oil Coolers'],
];

export function fixtureProducts(): Product[] {
  return rows.map(([id, name, partNumber, sku, brandName, category], i) => ({
    id,
    name,
    sku,
    category,
    tags: [category.toLowerCase(), brandName.toLowerCase()],
    description: `${name}. Genuine part.`,
    imageUrl: '',
    inStock: true,
    brandName,
    make: brandName === 'Generic' ? 'Komatsu' : brandName,
    partNumber,
    slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    price: 10 + i,
    brand: brandName,
    images: [],
    availability: 'In Stock',
    specifications: {},
    weight: '1 kg',
    dimensions: '',
    createdAt: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
  }));
}

export async function* batches<T>(items: T[], size = 1000): AsyncIterable<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
