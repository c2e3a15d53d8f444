/** Spec section 5: lowercase, strip accents, non-alphanumerics become single hyphens, trim hyphens. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * A part code reduced to what people type the same way: uppercase letters and digits only, so "1r-0750", "1R 0750"
 * and "1R-0750" all become "1R0750" (part numbers, SKUs, serials).
 */
export const codeKey = (code: string) =>
  code
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');

/** The product page path: any path starting with /products/{id} opens the product. */
export function productPath(p: { id: string; name: string; slug?: string | null }): string {
  return `/products/${p.id}/${p.slug || slugify(p.name)}`;
}

export const categoryPath = (category: string, brand?: string) =>
  brand ? `/category/${slugify(category)}/${slugify(brand)}` : `/category/${slugify(category)}`;

export const brandPath = (brand: string) => `/brands-available/${slugify(brand)}`;

/** A machine model's parts book (#38): its assemblies. */
export const machinePath = (make: string, model: string) => `/machines/${slugify(make)}/${slugify(model)}`;

/** One assembly's drawing and parts table (#38). */
export const assemblyPath = (a: { make?: string; model?: string; makeSlug?: string; modelSlug?: string; slug: string }) =>
  `/machines/${a.makeSlug ?? slugify(a.make ?? '')}/${a.modelSlug ?? slugify(a.model ?? '')}/${a.slug}`;

/** "hydraulic-filters" -> "Hydraulic Filters" (spec section 2, category page title). */
export const titleFromSlug = (slug: string) =>
  slug
    .split('-')
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
