/** The storefront's key pages of a running stack, picked from its catalogue (for npm run lighthouse and npm run tti). */
import { productPath } from '@forgeline/contracts/slug';

export type PageName = 'home' | 'category' | 'product' | 'gallery' | 'categories' | 'brand' | 'assembly';

export async function keyPages(base: string, names: readonly PageName[]): Promise<{ name: PageName; path: string }[]> {
  const subs = (await (await fetch(new URL('/api/subcategories', base))).json()) as { categorySlug: string; brandSlug: string; productCount: number }[];
  const sub = subs.find((s) => s.productCount > 0);
  const list = (await (await fetch(new URL('/api/catalog/products?limit=1', base))).json()) as {
    products: { id: string; name: string; slug: string }[];
  };
  const product = list.products[0];
  if (!sub || !product) throw new Error('The catalogue is empty: no category or product page to measure.');
  const paths: Record<Exclude<PageName, 'assembly'>, string> = {
    home: '/',
    category: `/category/${sub.categorySlug}`,
    product: productPath(product),
    gallery: '/catalog',
    categories: '/categories',
    brand: `/brands-available/${sub.brandSlug}`,
  };
  const assembly = names.includes('assembly') ? await largestAssembly(base) : undefined;
  return names.map((name) => ({ name, path: name === 'assembly' ? assembly! : paths[name] }));
}

/** The parts-book page (#38) with the most callouts (40 in the demo catalogue), found through the diagrams sitemap. */
async function largestAssembly(base: string): Promise<string> {
  const xml = await (await fetch(new URL('/sitemap-diagrams.xml', base))).text();
  const machines = [...xml.matchAll(/<loc>[^<]*?(\/machines\/[^/<]+\/[^/<]+)<\/loc>/g)].map((m) => m[1]!);
  let best: { path: string; callouts: number } | undefined;
  for (const machine of machines.slice(0, 60)) {
    const page = (await (await fetch(new URL(`/api${machine}`, base))).json()) as { assemblies: { slug: string; calloutCount: number }[] };
    for (const a of page.assemblies) if (!best || a.calloutCount > best.callouts) best = { path: `${machine}/${a.slug}`, callouts: a.calloutCount };
    if (best && best.callouts >= 40) break;
  }
  if (!best) throw new Error('The catalogue has no parts diagrams: no assembly page to measure.');
  return best.path;
}
