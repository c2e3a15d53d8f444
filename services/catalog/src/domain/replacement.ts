import type { Product, ProductLookupItem, ProductSummary } from '@forgeline/contracts/products';
import type { ProductRepository } from '../ports.ts';
import { codeKey, toSummary } from './products.ts';

/** How far a chain of supersessions is followed (A replaced by B, B by C, ...). */
const MAX_CHAIN = 6;

/**
 * The live part that supersedes this one, following the chain to today's part (a product page's `replacedBy`, a
 * reorder's lookup), or null. A part supersedes another when its `replaces` lists the other's part number.
 */
export async function replacementOf(
  repo: Pick<ProductRepository, 'findAltCodes' | 'getSummaries'>,
  part: { id: string; partNumber: string },
): Promise<ProductSummary | null> {
  const seen = new Set([part.id]);
  let current: ProductSummary | null = null;
  let key = codeKey(part.partNumber);
  for (let depth = 0; key && depth < MAX_CHAIN; depth++) {
    const next = (await repo.findAltCodes({ keys: [key], kind: 'superseded', limit: 2 })).find((h) => !seen.has(h.productId));
    if (!next) break;
    seen.add(next.productId);
    const [summary] = await repo.getSummaries([next.productId]);
    if (!summary) break;
    current = summary;
    key = codeKey(summary.partNumber);
  }
  return current;
}

type Found = { live: ProductSummary } | { retired: Product } | null;

/**
 * A reorder's parts as they stand today, one item per id asked and then per SKU asked, in the order given: on sale
 * (current), on sale but superseded by a live part, or not sold (unknown, or taken off the storefront; the live part
 * that replaced one taken off is still named). SKUs are found as the quote form finds them: exactly, or ignoring case
 * and punctuation when only one part matches.
 */
export async function lookUpParts(repo: ProductRepository, q: { ids: string[]; skus: string[] }): Promise<ProductLookupItem[]> {
  const live = new Map((await repo.getSummaries([...new Set(q.ids)])).map((s) => [s.id, s]));
  const byId = new Map<string, Promise<Found>>();
  for (const id of q.ids) {
    if (byId.has(id)) continue;
    const summary = live.get(id);
    byId.set(id, summary ? Promise.resolve({ live: summary }) : repo.getDeactivated(id).then((p) => (p ? { retired: p } : null)));
  }
  const stored = await repo.getBySkus([...new Set(q.skus)]);
  const bySku = new Map<string, Promise<Found>>();
  for (const sku of q.skus) {
    if (bySku.has(sku)) continue;
    const s = stored.get(sku);
    bySku.set(
      sku,
      s ? Promise.resolve(s.active ? { live: toSummary(s.product) } : { retired: s.product }) : repo.getBySku(sku).then((p) => (p ? { live: toSummary(p) } : null)),
    );
  }
  // Each part's chain is followed once, however often it is asked for.
  const replacements = new Map<string, Promise<ProductSummary | null>>();
  const replacement = (part: { id: string; partNumber: string }) => {
    if (!replacements.has(part.id)) replacements.set(part.id, replacementOf(repo, part));
    return replacements.get(part.id)!;
  };
  const item = async (requested: string, found: Found): Promise<ProductLookupItem> => {
    if (!found) return { requested, status: 'not_sold', product: null, replacedBy: null };
    if ('retired' in found) return { requested, status: 'not_sold', product: null, replacedBy: await replacement(found.retired) };
    const replacedBy = await replacement(found.live);
    return { requested, status: replacedBy ? 'superseded' : 'current', product: found.live, replacedBy };
  };
  return Promise.all([
    ...q.ids.map(async (id) => item(id, await byId.get(id)!)),
    ...q.skus.map(async (sku) => item(sku, await bySku.get(sku)!)),
  ]);
}
