import type { Product } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import { altCodesOf } from '../../domain/part-history.ts';
import { brandSlugOf, categorySlugOf, codeKey } from '../../domain/products.ts';

/** A part as the columns of its `products` row, named as the columns are (the statements bind them by name). */
export function productRow(p: Product) {
  return {
    id: p.id,
    sku: p.sku,
    name: p.name,
    category: p.category,
    category_slug: categorySlugOf(p),
    brand_name: p.brandName,
    brand_slug: brandSlugOf(p),
    brand: p.brand,
    make: p.make,
    part_number: p.partNumber,
    sku_key: codeKey(p.sku),
    part_key: codeKey(p.partNumber),
    slug: p.slug,
    description: p.description,
    image_url: p.imageUrl,
    images: JSON.stringify(p.images),
    tags: JSON.stringify(p.tags),
    in_stock: p.inStock ? 1 : 0,
    price: p.price,
    availability: p.availability,
    specifications: JSON.stringify(p.specifications),
    weight: p.weight,
    dimensions: p.dimensions,
    created_at: p.createdAt,
    ...historyColumns(p),
  };
}

export type ProductRow = ReturnType<typeof productRow>;

/** The history columns of a part as written: its lists, and the rows the triggers derive from them. */
function historyColumns(p: Product) {
  const fits = p.fits ?? [];
  return {
    replaces: JSON.stringify(p.replaces ?? []),
    cross_refs: JSON.stringify(p.crossReferences ?? []),
    fits: JSON.stringify(fits),
    code_keys: JSON.stringify(altCodesOf(p).map((c) => [c.kind, c.key, c.value])),
    fit_keys: JSON.stringify(fits.map((f) => [slugify(f.make), slugify(f.model), f.make, f.model, f.serialFrom ?? null, f.serialTo ?? null])),
  };
}
