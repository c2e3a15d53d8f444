import type { Product } from '@forgeline/contracts/products';
import type { SearchDoc } from '@forgeline/search-engine/search-engine';

/** The part of a product the engine keeps: what it searches and what it highlights (make and tags go in `extra`). */
export function toSearchDoc(p: Product): SearchDoc {
  const extra = [p.make, ...(p.tags ?? [])].filter((s) => s && s !== p.brandName).join('\n');
  return {
    id: p.id,
    name: p.name ?? '',
    partNumber: p.partNumber ?? '',
    sku: p.sku ?? '',
    brandName: p.brandName || p.brand || '',
    category: p.category ?? '',
    extra,
  };
}
