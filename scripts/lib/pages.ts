/** The storefront's key pages of a running stack, picked from its catalogue (for npm run lighthouse and npm run tti). */
import { productPath } from '@forgeline/contracts/slug';

export type PageName = 'home' | 'category' | 'product' | 'gallery' | 'categories' | 'brand';

export async function keyPages(base: string, names: readonly PageName[]): Promise<{ name: PageName; path: string }[]> {
  const subs = (await (await fetch(new URL('/api/subcategories', base))).json()) as { categorySlug: string; brandSlug: string; productCount: number }[];
  const sub = subs.find((s) => s.productCount > 0);
  const list = (await (await fetch(new URL('/api/catalog/products?limit=1', base))).json()) as {
    products: { id: string; name: string; slug: string }[];
  };
  const product = list.products[0];
  if (!sub || !product) throw new Error('The catalogue is empty: no category or product page to measure.');
  const paths: Record<PageName, string> = {
    home: '/',
    category: `/category/${sub.categorySlug}`,
    product: productPath(product),
    gallery: '/catalog',
    categories: '/categories',
    brand: `/brands-available/${sub.brandSlug}`,
  };
  return names.map((name) => ({ name, path: paths[name] }));
}
