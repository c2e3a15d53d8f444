import { REQUEST_ID_HEADER } from '@forgeline/contracts/common';
import { CatalogUnavailableError, type ProductCatalog, type ProductRef } from '../../ports.ts';

/**
 * Asks the catalog service's public route GET /api/products/:id. 404 (or 400, a malformed id) means "no such product";
 * anything else failing is "unavailable". Products found are remembered for `cacheMs` (name and SKU for the mails),
 * so a burst of quotes for one product asks the catalog once; unknown ids are never remembered.
 */
export class HttpProductCatalog implements ProductCatalog {
  private readonly cache = new Map<string, { ref: ProductRef; until: number }>();

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 5_000,
    private readonly cacheMs = 60_000,
    private readonly maxCached = 5_000,
  ) {}

  async find(id: string, requestId?: string): Promise<ProductRef | null> {
    const hit = this.cache.get(id);
    if (hit && hit.until > Date.now()) return hit.ref;
    const ref = await this.fetch(id, requestId);
    if (ref && this.cacheMs > 0) {
      if (this.cache.size >= this.maxCached) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(id, { ref, until: Date.now() + this.cacheMs });
    }
    return ref;
  }

  private async fetch(id: string, requestId?: string): Promise<ProductRef | null> {
    let res: Response;
    try {
      res = await fetch(new URL(`/api/products/${encodeURIComponent(id)}`, this.baseUrl), {
        headers: requestId ? { [REQUEST_ID_HEADER]: requestId } : {},
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new CatalogUnavailableError(`catalog unreachable: ${(err as Error).message}`);
    }
    if (res.status === 404 || res.status === 400) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new CatalogUnavailableError(`catalog answered ${res.status}`);
    }
    const p = (await res.json()) as Partial<ProductRef>;
    if (typeof p.id !== 'string') throw new CatalogUnavailableError('catalog answered without a product id');
    return { id: p.id, name: String(p.name ?? ''), sku: String(p.sku ?? ''), partNumber: String(p.partNumber ?? '') };
  }
}
