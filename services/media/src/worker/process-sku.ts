import type { Logger } from '@forgeline/service-kit/logger';
import type { ProcessSkuResult } from '../jobs.ts';
import { PermanentJobError, type Catalog, type JobHandlers, type ObjectStore } from '../ports.ts';
import { doneMarker, originalsPrefix, storedImageUrl, variantKey } from '../domain/keys.ts';
import { parseOriginalKey } from '../domain/originals.ts';
import { contentTypeOf } from '@forgeline/object-store/content-types';
import { makeVariants, type Variant } from '../images/variants.ts';
import { NotAnImageError } from '../images/inspect.ts';
import { createProcessDiagram } from './process-diagram.ts';

export interface WorkerDeps {
  store: ObjectStore;
  catalog: Catalog;
  logger: Logger;
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The job handlers of the registry in jobs.ts: process-sku here, process-diagram in process-diagram.ts. */
export function createJobHandlers(deps: WorkerDeps): JobHandlers {
  const { store, catalog, logger } = deps;

  /** The product's photos as stored: originals in upload order whose variants exist, each photo once. */
  async function processedImages(sku: string): Promise<string[]> {
    const urls: string[] = [];
    const seen = new Set<string>();
    for (const key of await store.list(originalsPrefix(sku))) {
      const parsed = parseOriginalKey(key);
      if (!parsed || seen.has(parsed.hash)) continue;
      seen.add(parsed.hash);
      if (await store.stat(doneMarker(parsed.hash))) urls.push(storedImageUrl(parsed.hash));
    }
    return urls;
  }

  /**
   * Tell the catalog the product's images. Jobs for one SKU may run at once on different workers,
   * so after each write the list is read again and written again if it changed meanwhile: whoever
   * writes last has seen every photo finished before its write.
   */
  async function syncCatalog(sku: string, requestId: string): Promise<{ images: string[]; updated: boolean }> {
    let updated = false;
    // The catalog answers a write with the product as it then is: the next round compares with that, without
    // asking for the product again (a lookup by SKU less per job).
    let product = await catalog.productBySku(sku);
    for (let round = 0; round < 5; round++) {
      const images = await processedImages(sku);
      if (!product) throw new PermanentJobError(`No product has SKU "${sku}" any more`);
      if (images.length === 0) return { images: product.images, updated };
      if (sameList(product.images, images) && product.imageUrl === images[0]) return { images, updated };
      const productId = product.id;
      product = await catalog.setImages(productId, { images, imageUrl: images[0]! });
      logger.info({ jobRequest: requestId, sku, productId, images: images.length }, 'catalog images updated');
      updated = true;
    }
    return { images: await processedImages(sku), updated };
  }

  /**
   * One photo's variants into the store: all but the done marker at once (an object store answers each put after a
   * round trip, and six in a row left the worker's CPU idle for six of them), then the marker, so a crash mid-way
   * leaves the photo unfinished, not half-listed.
   */
  async function writeVariants(hash: string, variants: Variant[]): Promise<void> {
    const marker = doneMarker(hash);
    const put = (v: Variant) => {
      const vk = variantKey(hash, v.width, v.format);
      return store.put(vk, v.data, { contentType: contentTypeOf(vk), size: v.data.length });
    };
    const isMarker = (v: Variant) => variantKey(hash, v.width, v.format) === marker;
    await Promise.all(variants.filter((v) => !isMarker(v)).map(put));
    await Promise.all(variants.filter(isMarker).map(put));
  }

  return {
    'process-diagram': createProcessDiagram(deps),
    async 'process-sku'({ sku, productId, forceReprocess }, ctx) {
      const keys = await store.list(originalsPrefix(sku));
      // A photo's variants are written while the next photo is read and made (one photo's writes in flight at most,
      // so memory stays bounded); every write has finished before the catalog is told.
      let writing: Promise<void> = Promise.resolve();
      const result: ProcessSkuResult = { sku, productId, processed: 0, unchanged: 0, failed: [], images: [], catalogUpdated: false };
      const seen = new Set<string>();
      let i = 0;
      for (const key of keys) {
        i += 1;
        const parsed = parseOriginalKey(key);
        if (!parsed) continue;
        if (seen.has(parsed.hash)) continue; // the same photo uploaded twice counts once
        seen.add(parsed.hash);
        if (!forceReprocess && (await store.stat(doneMarker(parsed.hash)))) {
          result.unchanged += 1;
        } else {
          const input = await store.getBuffer(key);
          if (!input) continue; // removed meanwhile
          try {
            const variants = await makeVariants(input);
            await writing;
            writing = writeVariants(parsed.hash, variants);
            writing.catch(() => {}); // awaited below (or at the next photo); a failure fails the job there
            result.processed += 1;
          } catch (err) {
            if (!(err instanceof NotAnImageError)) throw err; // store trouble: retry the job
            result.failed.push({ file: parsed.name, reason: err.message });
            logger.warn({ jobId: ctx.id, sku, file: parsed.name, reason: err.message }, 'photo failed; original removed');
            await store.delete(key); // a bad file is reported once, not retried on every run
          }
        }
        await ctx.progress(Math.min(95, Math.round((i / keys.length) * 95)));
      }
      await writing;
      const synced = await syncCatalog(sku, ctx.id);
      result.images = synced.images;
      result.catalogUpdated = synced.updated;
      logger.info(
        { jobId: ctx.id, sku, processed: result.processed, unchanged: result.unchanged, failed: result.failed.length, catalogUpdated: result.catalogUpdated },
        'sku processed',
      );
      return result;
    },
  };
}
