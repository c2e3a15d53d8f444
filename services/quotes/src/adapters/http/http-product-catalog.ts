import { REQUEST_ID_HEADER } from '@forgeline/contracts/common';
import pRetry from 'p-retry';
import { CatalogUnavailableError, type ProductCatalog, type ProductRef } from '../../ports.ts';

/**
 * Asks the catalog service's public route GET /api/products/:id. 404 (or 400, a malformed id) means "no such product";
 * anything else failing is "unavailable". Products found are remembered for `cacheMs` (name and SKU for the mails),
 * so a burst of quotes for one product asks the catalog once; unknown ids are never remembered.
 *
 * The lookup is a GET, safe to repeat: a failed attempt (a catalog replica killed or restarting, a proxy between the
 * replicas answering 502/503/504, no answer within `timeoutMs`) is tried again after 250 ms and 1 s, all within
 * `deadlineMs`: a slow answer gets 6 s, then the rest of the 12 s goes to the next try (which nginx gives to the next
 * replica), so a buyer's quote is not refused for a blip another replica covers. The deadline stays below the
 * gateway's 15 s upstream timeout, so the buyer gets our 503 and its message rather than the gateway's.
 */
export class HttpProductCatalog implements ProductCatalog {
  private readonly cache = new Map<string, { ref: ProductRef; until: number }>();

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 6_000,
    private readonly cacheMs = 60_000,
    private readonly maxCached = 5_000,
    private readonly deadlineMs = 12_000,
  ) {}

  async find(id: string, requestId?: string): Promise<ProductRef | null> {
    const hit = this.cache.get(id);
    if (hit && hit.until > Date.now()) return hit.ref;
    const deadline = AbortSignal.timeout(this.deadlineMs);
    let attempts = 0;
    const ref = await pRetry(() => (attempts++, this.fetch(id, requestId, deadline)), {
      retries: 2,
      minTimeout: 250,
      factor: 4,
      maxRetryTime: this.deadlineMs,
      signal: deadline,
      shouldRetry: ({ error }) => error instanceof CatalogUnavailableError && !deadline.aborted,
    }).catch((err: unknown) => {
      // The deadline ending a wait between attempts rejects with its own TimeoutError: still "unavailable". The
      // message (logged with the refused quote) says how many lookups were tried.
      throw new CatalogUnavailableError(`${(err as Error).message} (${attempts} attempt${attempts === 1 ? '' : 's'})`);
    });
    if (ref && this.cacheMs > 0) {
      if (this.cache.size >= this.maxCached) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(id, { ref, until: Date.now() + this.cacheMs });
    }
    return ref;
  }

  private async fetch(id: string, requestId: string | undefined, deadline: AbortSignal): Promise<ProductRef | null> {
    let res: Response;
    try {
      res = await fetch(new URL(`/api/products/${encodeURIComponent(id)}`, this.baseUrl), {
        headers: requestId ? { [REQUEST_ID_HEADER]: requestId } : {},
        signal: AbortSignal.any([AbortSignal.timeout(this.timeoutMs), deadline]),
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
    let p: Partial<ProductRef>;
    try {
      p = (await res.json()) as Partial<ProductRef>;
    } catch (err) {
      throw new CatalogUnavailableError(`catalog's answer broke off: ${(err as Error).message}`);
    }
    if (typeof p.id !== 'string') throw new CatalogUnavailableError('catalog answered without a product id');
    return { id: p.id, name: String(p.name ?? ''), sku: String(p.sku ?? ''), partNumber: String(p.partNumber ?? '') };
  }
}
