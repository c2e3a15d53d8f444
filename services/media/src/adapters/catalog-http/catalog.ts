import { z } from 'zod';
import { AssemblySchema } from '@forgeline/contracts/parts-diagrams';
import { HttpError } from '@forgeline/service-kit/errors';
import { createServiceClient } from '@forgeline/service-kit/service-client';
import type { Catalog, CatalogAssembly, CatalogProduct } from '../../ports.ts';

/** Only the fields media uses; the product may come bare or wrapped as { product }. */
const ProductFields = z.object({
  id: z.string(),
  sku: z.string(),
  name: z.string().default(''),
  images: z.array(z.string()).default([]),
  imageUrl: z.string().nullable().default(''),
});

const AssemblyFields = AssemblySchema.pick({ id: true, name: true, version: true, diagram: true });

/** 404, or 400 (the catalog refuses the id or SKU as malformed): no such thing. */
const isMissing = (err: unknown) => err instanceof HttpError && (err.status === 404 || err.status === 400);

/**
 * The catalog over its routes: GET /internal/products/by-sku/{sku}, GET /api/products/{id},
 * PUT /internal/products/{id}/images (which also refreshes the search index), and an assembly's
 * GET /internal/assemblies/{id} and PUT /internal/assemblies/{id}/diagram.
 */
export function createHttpCatalog(baseUrl: string, serviceToken: string, timeoutMs = 10_000): Catalog {
  const call = createServiceClient(baseUrl, serviceToken, timeoutMs);
  const orNull = async (p: Promise<unknown>): Promise<CatalogProduct | null> => {
    try {
      const body = (await p) as { product?: unknown };
      const parsed = ProductFields.parse(body && typeof body === 'object' && 'product' in body ? body.product : body);
      return { ...parsed, imageUrl: parsed.imageUrl ?? '' };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  };
  /** A write's 400 is not "no such assembly" but a refused body: only a 404 says it is gone. */
  const assemblyOrNull = async (p: Promise<unknown>, missing: (err: unknown) => boolean = isMissing): Promise<CatalogAssembly | null> => {
    try {
      return AssemblyFields.parse(await p);
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  };
  return {
    productBySku: (sku) => orNull(call('GET', `/internal/products/by-sku/${encodeURIComponent(sku)}`)),
    productById: (id) => orNull(call('GET', `/api/products/${encodeURIComponent(id)}`)),
    setImages: (productId, update) => orNull(call('PUT', `/internal/products/${encodeURIComponent(productId)}/images`, update)),
    assemblyById: (id) => assemblyOrNull(call('GET', `/internal/assemblies/${encodeURIComponent(id)}`)),
    setDiagram: (id, diagram) =>
      assemblyOrNull(call('PUT', `/internal/assemblies/${encodeURIComponent(id)}/diagram`, diagram), (err) => err instanceof HttpError && err.status === 404),
  };
}
