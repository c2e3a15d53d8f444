import type { AdminProductRow, Product, ProductSummary, Subcategory } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';

/** Brand and category are matched by slug (spec section 5 rule): "Caterpillar", "CATERPILLAR" and "Catérpillar" meet. */
export const brandSlugOf = (p: Pick<Product, 'brandName'>) => slugify(p.brandName);
export const categorySlugOf = (p: Pick<Product, 'category'>) => slugify(p.category);

/** A part code as people type it the same way ("1r-0750" = "1R0750"): the contracts' rule, shared with the web. */
export { codeKey } from '@forgeline/contracts/slug';

/** Upper bound for a prefix range over code keys: every key starting with `key` sorts below `key + '~'`. */
export const codeKeyUpperBound = (key: string) => `${key}~`;

/** One subcategory per (category, brand) pair; slugs never hold "--", so the id is unambiguous. */
export const subcategoryId = (categorySlug: string, brandSlug: string) => `${categorySlug}--${brandSlug}`;

export function toSubcategory(row: {
  category: string;
  brand: string;
  categorySlug: string;
  brandSlug: string;
  productCount: number;
}): Subcategory {
  return {
    id: subcategoryId(row.categorySlug, row.brandSlug),
    name: `${row.brand} ${row.category}`,
    brand: row.brand,
    category: row.category,
    brandSlug: row.brandSlug,
    categorySlug: row.categorySlug,
    productCount: row.productCount,
  };
}

/** Subcategories are listed by brand, then category (the "Browse by Brand" page groups by brand). */
export const compareSubcategories = (a: Subcategory, b: Subcategory) =>
  a.brandSlug === b.brandSlug ? (a.categorySlug < b.categorySlug ? -1 : 1) : a.brandSlug < b.brandSlug ? -1 : 1;

export function toSummary(p: Product): ProductSummary {
  return {
    id: p.id,
    name: p.name,
    sku: p.sku,
    category: p.category,
    tags: p.tags,
    imageUrl: p.imageUrl,
    images: p.images,
    inStock: p.inStock,
    availability: p.availability,
    brandName: p.brandName,
    brand: p.brand,
    partNumber: p.partNumber,
    slug: p.slug,
  };
}

export function toAdminRow(p: ProductSummary): AdminProductRow {
  return { id: p.id, name: p.name, sku: p.sku, partNumber: p.partNumber, category: p.category, imageUrl: p.imageUrl, images: p.images, brandName: p.brandName };
}

/** Totals over subcategory counts: what a category page, a brand page and the gallery need, without counting rows. */
export interface CatalogTotals {
  subcategories: Subcategory[];
  total: number;
  byCategory: Map<string, { name: string; slug: string; productCount: number }>;
  byBrand: Map<string, { name: string; slug: string; productCount: number }>;
  byPair: Map<string, number>;
}

export function summarizeSubcategories(subcategories: Subcategory[]): CatalogTotals {
  const byCategory = new Map<string, { name: string; slug: string; productCount: number }>();
  const byBrand = new Map<string, { name: string; slug: string; productCount: number }>();
  const byPair = new Map<string, number>();
  let total = 0;
  // A slug spelled two ways ("Caterpillar", "CATERPILLAR") is shown with the spelling of its biggest pair.
  const biggest = new Map<string, number>();
  const add = (map: typeof byCategory, slug: string, name: string, count: number, kind: string) => {
    const entry = map.get(slug) ?? { name, slug, productCount: 0 };
    entry.productCount += count;
    if (count > (biggest.get(kind + slug) ?? -1)) {
      biggest.set(kind + slug, count);
      entry.name = name;
    }
    map.set(slug, entry);
  };
  for (const s of subcategories) {
    total += s.productCount;
    byPair.set(s.id, s.productCount);
    add(byCategory, s.categorySlug, s.category, s.productCount, 'c:');
    add(byBrand, s.brandSlug, s.brand, s.productCount, 'b:');
  }
  return { subcategories: [...subcategories].sort(compareSubcategories), total, byCategory, byBrand, byPair };
}

/**
 * Where to read a page of `limit` rows at `offset` out of `total`: from the front, or, for pages in the back
 * half, counting from the end in reverse order (the caller puts the rows back in order). Skipping N index
 * entries costs N, so this makes the last page as cheap as the first. Null when the page is past the end.
 */
export function pageWindow(total: number, limit: number, offset: number): { desc: boolean; limit: number; offset: number } | null {
  if (offset >= total) return null;
  const take = Math.min(limit, total - offset);
  if (offset <= total / 2) return { desc: false, limit: take, offset };
  return { desc: true, limit: take, offset: total - offset - take };
}
