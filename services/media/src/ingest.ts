import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from '@forgeline/service-kit/logger';
import type { SkippedItem } from '@forgeline/contracts/media';
import type { Catalog, CatalogProduct, JobQueue, ObjectStore } from './ports.ts';
import { batchKey, originalsPrefix } from './domain/keys.ts';
import { originalKey, parseOriginalKey } from './domain/originals.ts';
import { contentTypeOf } from '@forgeline/object-store/content-types';
import type { BatchRecord } from './domain/batch.ts';

/** What the API does with accepted files, shared by the four upload calls. */
export function createIngest(deps: { store: ObjectStore; queue: JobQueue; catalog: Catalog; logger: Logger }) {
  const { store, queue, catalog } = deps;

  /** Store an original under its SKU unless that exact photo is there already. Returns false when it was. */
  async function storeOriginal(
    sku: string,
    file: { path: string; hash: string; name: string; ext: string },
    order: { at: number; index: number },
    existing: Set<string>,
  ): Promise<boolean> {
    if (existing.has(file.hash)) return false;
    const key = originalKey(sku, { ...order, hash: file.hash, name: file.name, ext: file.ext });
    await store.putFile(key, file.path, { contentType: contentTypeOf(key) });
    existing.add(file.hash);
    return true;
  }

  /** Hashes of the originals stored for a SKU. */
  async function storedHashes(sku: string): Promise<Set<string>> {
    const out = new Set<string>();
    for (const key of await store.list(originalsPrefix(sku))) {
      const p = parseOriginalKey(key);
      if (p) out.add(p.hash);
    }
    return out;
  }

  /** Resolve SKUs to products, a few lookups at a time. */
  async function resolveSkus(skus: string[]): Promise<Map<string, CatalogProduct | null>> {
    const out = new Map<string, CatalogProduct | null>();
    let next = 0;
    const lane = async () => {
      while (next < skus.length) {
        const sku = skus[next++]!;
        out.set(sku, await catalog.productBySku(sku));
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, skus.length) }, lane));
    return out;
  }

  /**
   * Queue one process-sku job per SKU and record the batch for the status call. Job ids derive
   * from the batch id: the same batch queued twice adds nothing the second time.
   */
  async function queueBatch(
    batch: { id: string; kind: BatchRecord['kind']; skipped: SkippedItem[] },
    items: { sku: string; productId: string; images: number }[],
    forceReprocess = false,
  ): Promise<BatchRecord> {
    const record: BatchRecord = {
      id: batch.id,
      kind: batch.kind,
      createdAt: new Date().toISOString(),
      jobs: items.map((it, i) => ({ jobId: `${batch.id}.${i}`, sku: it.sku, images: it.images })),
      skipped: batch.skipped,
    };
    const previous = await store.getBuffer(batchKey(batch.id));
    if (previous) record.createdAt = (JSON.parse(previous.toString('utf8')) as BatchRecord).createdAt;
    const body = Buffer.from(JSON.stringify(record));
    await store.put(batchKey(batch.id), body, { contentType: 'application/json', size: body.length });
    let created = 0;
    for (const [i, it] of items.entries()) {
      const r = await queue.add(
        'process-sku',
        { sku: it.sku, productId: it.productId, batchId: batch.id, forceReprocess },
        { jobId: record.jobs[i]!.jobId },
      );
      if (r.created) created += 1;
    }
    deps.logger.info({ batchId: batch.id, kind: batch.kind, skus: items.length, created, skipped: batch.skipped.length }, 'batch queued');
    return record;
  }

  async function readBatch(id: string): Promise<BatchRecord | null> {
    const buf = await store.getBuffer(batchKey(id));
    return buf ? (JSON.parse(buf.toString('utf8')) as BatchRecord) : null;
  }

  return { storeOriginal, storedHashes, resolveSkus, queueBatch, readBatch };
}

export type Ingest = ReturnType<typeof createIngest>;

/** A short id derived from content, so repeating the same upload names the same batch. */
export const contentId = (prefix: string, ...parts: string[]) =>
  `${prefix}-${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16)}`;
export const randomId = (prefix: string) => `${prefix}-${randomUUID().replace(/-/g, '').slice(0, 16)}`;
