/**
 * Fill a catalogue with the generated demo parts: testimonials, products in batches, then the
 * search index from the stored products. Used by `npm run seed` and the launcher's first start.
 * Idempotent for a given count and seed: products are upserted by SKU, so a rerun replaces them.
 */
import type { Product } from '@forgeline/contracts/products';
import type { ProductRepository, SearchIndex } from '../ports.ts';
import { DEFAULT_SEED, generateProducts, generateTestimonials } from './generate.ts';

export const SEED_BATCH_SIZE = 5_000;
export const MAX_SEED_PRODUCTS = 1_000_000;

/** The part of a pino logger the seed uses. */
export interface SeedLogger {
  info(obj: object, msg: string): void;
}

export interface SeedOptions {
  repo: ProductRepository;
  search: SearchIndex;
  count: number;
  seed?: number;
  batchSize?: number;
  logger?: SeedLogger;
}

export interface SeedResult {
  products: number;
  testimonials: number;
  /** Milliseconds generating and writing products, building the search index, and in all. */
  writeMs: number;
  indexMs: number;
  totalMs: number;
}

export async function seedCatalogue(opts: SeedOptions): Promise<SeedResult> {
  const { repo, search, count, logger } = opts;
  if (!Number.isInteger(count) || count < 0 || count > MAX_SEED_PRODUCTS) {
    throw new RangeError(`count must be a whole number from 0 to ${MAX_SEED_PRODUCTS}, got ${count}`);
  }
  const batchSize = opts.batchSize ?? SEED_BATCH_SIZE;
  const started = performance.now();

  const testimonials = generateTestimonials();
  await repo.insertTestimonials(testimonials);

  let written = 0;
  let batch: Product[] = [];
  let nextReport = Math.max(batchSize, Math.ceil(count / 10));
  for (const product of generateProducts({ count, seed: opts.seed ?? DEFAULT_SEED })) {
    batch.push(product);
    if (batch.length === batchSize) {
      await repo.upsertMany(batch);
      written += batch.length;
      batch = [];
      // SQLite writes are synchronous: give the event loop a turn so log lines and signals get through.
      await new Promise((resolve) => setImmediate(resolve));
      if (written >= nextReport) {
        const s = (performance.now() - started) / 1000;
        logger?.info({ written, count, perSecond: Math.round(written / s) }, `products written: ${written} of ${count}`);
        nextReport += Math.max(batchSize, Math.ceil(count / 10));
      }
    }
  }
  if (batch.length) {
    await repo.upsertMany(batch);
    written += batch.length;
  }
  const writeMs = performance.now() - started;
  logger?.info({ written, ms: Math.round(writeMs) }, 'products written; building the search index');

  const indexStarted = performance.now();
  await search.rebuild(repo.scan(SEED_BATCH_SIZE));
  const indexMs = performance.now() - indexStarted;
  const totalMs = performance.now() - started;
  logger?.info({ indexed: await search.size(), indexMs: Math.round(indexMs), totalMs: Math.round(totalMs) }, 'search index built');

  return { products: written, testimonials: testimonials.length, writeMs, indexMs, totalMs };
}
