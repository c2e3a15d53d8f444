import { REQUEST_ID_HEADER } from '@forgeline/contracts/common';
import { CatalogUnavailableError, type ProductCatalog, type ProductRef } from '../../ports.ts';

/** Asks the catalog service's public route GET /api/products/:id. 404 means "no such product"; anything else failing is "unavailable". */
export class HttpProductCatalog implements ProductCatalog {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 5_000,
  ) {}

  async find(id: string, requestId?: string): Promise<ProductRef | null> {
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
