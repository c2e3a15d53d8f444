import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from '@forgeline/service-kit/logger';
import type { SkippedItem } from '@forgeline/contracts/media';
import type { Catalog, CatalogProduct, JobQueue, ObjectStore } from './ports.ts';
import { batchKey, diagramOriginalKey, originalsPrefix } from './domain/keys.ts';
import { originalKey, parseOriginalKey } from './domain/originals.ts';
import { contentTypeOf } from '@forgeline/object-store/content-types';
import type { BatchRecord } from './domain/batch.ts';
import type { JobPayloads } from './jobs.ts';

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

  /** Record what one upload call queued, for the status call (a batch queued again keeps its first time). */
  async function saveBatch(record: BatchRecord): Promise<void> {
    const previous = await store.getBuffer(batchKey(record.id));
    if (previous) record.createdAt = (JSON.parse(previous.toString('utf8')) as BatchRecord).createdAt;
    const body = Buffer.from(JSON.stringify(record));
    await store.put(batchKey(record.id), body, { contentType: 'application/json', size: body.length });
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
    await saveBatch(record);
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

  /**
   * Store an uploaded parts drawing under its assembly and queue its process-diagram job, as a batch of one (the
   * status call follows it like any upload). Each upload is a job of its own: the same file sent again after another
   * one is the assembly's drawing again.
   */
  async function queueDiagram(
    assemblyId: string,
    file: { path: string; hash: string; format: JobPayloads['process-diagram']['format']; ext: string },
    actor: string,
  ): Promise<BatchRecord> {
    const originalKey = diagramOriginalKey(assemblyId, { at: Date.now(), hash: file.hash, ext: file.ext });
    await store.putFile(originalKey, file.path, { contentType: contentTypeOf(originalKey) });
    const id = randomId('dgm');
    const record: BatchRecord = { id, kind: 'diagram', createdAt: new Date().toISOString(), jobs: [{ jobId: `${id}.0`, sku: assemblyId, images: 1 }], skipped: [] };
    await saveBatch(record);
    await queue.add('process-diagram', { assemblyId, originalKey, hash: file.hash, format: file.format, batchId: record.id, actor }, { jobId: record.jobs[0]!.jobId });
    deps.logger.info({ batchId: record.id, assemblyId, format: file.format, by: actor }, 'diagram queued');
    return record;
  }

  async function readBatch(id: string): Promise<BatchRecord | null> {
    const buf = await store.getBuffer(batchKey(id));
    return buf ? (JSON.parse(buf.toString('utf8')) as BatchRecord) : null;
  }

  return { storeOriginal, storedHashes, resolveSkus, queueBatch, queueDiagram, readBatch };
}

export type Ingest = ReturnType<typeof createIngest>;

/** A short id derived from content, so repeating the same upload names the same batch. */
export const contentId = (prefix: string, ...parts: string[]) =>
  `${prefix}-${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16)}`;
export const randomId = (prefix: string) => `${prefix}-${randomUUID().replace(/-/g, '').slice(0, 16)}`;
