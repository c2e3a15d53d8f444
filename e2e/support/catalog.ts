import { expect, type APIRequestContext } from './test.ts';

/** What the browser tests read from the catalogue's API to pick their pages (any seeded catalogue will do). */
export interface Summary {
  id: string;
  name: string;
  slug: string;
  category: string;
  brandName: string;
  partNumber?: string;
  sku: string;
}
export interface ListResponse {
  products: Summary[];
  pagination: { totalProducts: number; totalPages: number };
}
export interface Subcategory {
  brand: string;
  category: string;
  brandSlug: string;
  categorySlug: string;
  productCount: number;
}

export async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path);
  expect(res.ok(), `${path} answered ${res.status()}`).toBe(true);
  return (await res.json()) as T;
}

/** The category with the most products (more than one page of 75 in any seeded catalogue worth testing). */
export async function biggestCategory(request: APIRequestContext) {
  const subs = await getJson<Subcategory[]>(request, '/api/subcategories');
  const totals = new Map<string, { slug: string; name: string; count: number }>();
  for (const s of subs) {
    const t = totals.get(s.categorySlug) ?? { slug: s.categorySlug, name: s.category, count: 0 };
    t.count += s.productCount;
    totals.set(s.categorySlug, t);
  }
  const best = [...totals.values()].sort((a, b) => b.count - a.count)[0];
  expect(best, 'the seeded catalogue has categories').toBeTruthy();
  const sub = [...subs].sort((a, b) => b.productCount - a.productCount)[0]!;
  return { category: best!, sub };
}

/** A RegExp matching `text` literally. */
export const literal = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
