import type { Product, Testimonial } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';

/** A product with the defaults of spec section 3; tests give only what they care about. */
export function makeProduct(p: Partial<Product> & Pick<Product, 'id' | 'name' | 'sku' | 'category' | 'brandName'>): Product {
  return {
    tags: [],
    description: `${p.name} for heavy equipment.`,
    imageUrl: `/media/generated/${slugify(p.category)}/${slugify(p.brandName)}/${slugify(p.name)}.svg`,
    inStock: true,
    make: p.brandName,
    partNumber: p.sku,
    slug: slugify(p.name),
    price: 0,
    brand: p.brandName,
    images: [],
    availability: 'In Stock',
    specifications: {},
    weight: '1.2 kg',
    dimensions: '10 x 10 x 20 cm',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...p,
  };
}

/** Ids are fixed so failures are readable; they sort in the order of their last digits. */
export const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * A small hand-written catalogue: two categories with several brands, an accented brand and category
 * (to prove slug matching ignores case and accents), a "Generic" part, and names that sort predictably.
 */
export const PRODUCTS: Product[] = [
  makeProduct({
    id: id(1),
    name: 'Hydraulic Oil Filter',
    sku: 'CAT-1R0750',
    partNumber: '1R-0750',
    category: 'Hydraulic Filters',
    brandName: 'Caterpillar',
    tags: ['filter', 'hydraulic'],
    images: ['/media/products/cat-1r0750/1.webp', '/media/products/cat-1r0750/2.webp'],
    specifications: { 'Max. Pressure': '350 bar', Thread: 'M20x1.5' },
  }),
  makeProduct({ id: id(2), name: 'Fuel Water Separator', sku: 'CAT-1R0770', partNumber: '1R-0770', category: 'Hydraulic Filters', brandName: 'Caterpillar' }),
  makeProduct({ id: id(3), name: 'Breather Element', sku: 'CAT-1R0739', partNumber: '1R-0739', category: 'Hydraulic Filters', brandName: 'Caterpillar', inStock: false, availability: 'On Request' }),
  makeProduct({ id: id(4), name: 'Return Filter', sku: 'KOM-600-211-1231', partNumber: '600-211-1231', category: 'Hydraulic Filters', brandName: 'Komatsu' }),
  makeProduct({ id: id(5), name: 'Oil Filter', sku: 'JD-RE504836', partNumber: 'RE504836', category: 'Engine Parts', brandName: 'John Deere' }),
  makeProduct({ id: id(6), name: 'Air Filter', sku: 'JD-RE587793', partNumber: 'RE587793', category: 'Engine Parts', brandName: 'John Deere' }),
  makeProduct({ id: id(7), name: 'Water Pump', sku: 'JCB-320/04133', partNumber: '320/04133', category: 'Engine Parts', brandName: 'JCB' }),
  makeProduct({ id: id(8), name: 'Gasket Set', sku: 'GEN-GS-100', partNumber: 'GS-100', category: 'Engine Parts', brandName: 'Generic' }),
  makeProduct({ id: id(9), name: 'Track Roller', sku: 'KAS-4400', partNumber: '4400-112', category: 'Rodillos de Oruga', brandName: 'Kässbohrer' }),
  makeProduct({ id: id(10), name: 'Carrier Roller', sku: 'KAS-4401', partNumber: '4401-009', category: 'Rodillos de Oruga', brandName: 'Kässbohrer' }),
];

export const TESTIMONIALS: Testimonial[] = [
  {
    id: 't-1',
    customerName: 'Ana Souza',
    customerLocation: 'Belo Horizonte, Brazil',
    customerPhoto: null,
    rating: 5,
    review: 'Filters arrived in five days, exactly the part numbers we needed.',
    featured: true,
    createdAt: '2025-03-01T10:00:00.000Z',
  },
  {
    id: 't-2',
    customerName: 'Pieter de Vries',
    customerLocation: 'Rotterdam, Netherlands',
    customerPhoto: 'https://example.com/p.jpg',
    rating: 4,
    review: 'Good prices on undercarriage parts.',
    featured: false,
    createdAt: '2025-02-01T10:00:00.000Z',
  },
  {
    id: 't-3',
    customerName: 'Sipho Dlamini',
    customerLocation: 'Johannesburg, South Africa',
    customerPhoto: null,
    rating: 5,
    review: 'Fast quote and correct cross-references.',
    featured: true,
    createdAt: '2025-04-01T10:00:00.000Z',
  },
];

/** Names in the storage order: by name, then id (binary comparison, as both stores sort). */
export const byName = (a: Product, b: Product) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1);
