/**
 * Fill a catalogue with the generated demo parts: testimonials, products in batches, then the
 * search index of the stored products. Used by `npm run seed` and the launcher's first start.
 * Idempotent for a given count and seed: products are upserted by SKU, so a rerun replaces them.
 */
import type { Product } from '@forgeline/contracts/products';
import type { DiagramStore, ProductRepository, SearchIndex } from '../ports.ts';
import { DEFAULT_SEED, generateProducts, generateTestimonials } from './generate.ts';
import { DemoDiagramCollector } from './demo-diagrams.ts';

export const SEED_BATCH_SIZE = 5_000;
export const MAX_SEED_PRODUCTS = 2_000_000;

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
  /** Parts diagrams for the demo's machine models (#38), made from the parts as they are written. */
  diagrams?: DiagramStore;
}

export interface SeedResult {
  products: number;
  testimonials: number;
  /** Demo assemblies written (0 without `diagrams`). */
  assemblies: number;
  /**
   * Milliseconds generating and writing products, building the search index (after the writes; an empty catalogue's
   * index takes its documents while the products are written), and in all.
   */
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
  const collector = opts.diagrams ? new DemoDiagramCollector() : null;
  const report = Math.max(batchSize, Math.ceil(count / 10));
  async function* batches(): AsyncIterable<Product[]> {
    let batch: Product[] = [];
    let nextReport = report;
    let last = { at: performance.now(), written: 0 };
    for (const product of generateProducts({ count, seed: opts.seed ?? DEFAULT_SEED })) {
      batch.push(product);
      collector?.take(product);
      if (batch.length === batchSize) {
        yield batch; // resumed once the store has taken it
        written += batch.length;
        batch = [];
        // SQLite writes are synchronous: give the event loop a turn so log lines and signals get through.
        await new Promise((resolve) => setImmediate(resolve));
        if (written >= nextReport) {
          const now = performance.now();
          // The pace since the last line, too: the average hides a rate that falls as the tables grow.
          const perSecond = Math.round(written / ((now - started) / 1000));
          const recentPerSecond = Math.round((written - last.written) / ((now - last.at) / 1000));
          logger?.info({ written, count, perSecond, recentPerSecond }, `products written: ${written} of ${count}`);
          last = { at: now, written };
          nextReport += report;
        }
      }
    }
    if (batch.length) {
      yield batch;
      written += batch.length;
    }
  }
  // An empty catalogue is loaded in one go where the store can (SQLite builds its indexes once, at the end: issue 33),
  // and the search index is built from the parts as they go by instead of read back from the store (at 2,000,000
  // parts reading them back took longer than writing them). A catalogue with parts, or a store without that way,
  // takes the same batches as upserts (a rerun replaces them), and the index is rebuilt from the store, which may
  // hold parts of its own.
  const toIndex = new Relay<Product[]>(2);
  let indexing: Promise<void> | undefined;
  async function* passedOn(source: AsyncIterable<Product[]>): AsyncIterable<Product[]> {
    for await (const batch of source) {
      if (!indexing) {
        // A rebuild that fails (a search server gone) fails the load too, before anything is committed.
        indexing = search.rebuild(toIndex);
        indexing.catch((err: unknown) => toIndex.fail(err));
      }
      await toIndex.push(batch);
      yield batch;
    }
  }
  let loaded = false;
  try {
    loaded = (await repo.loadIntoEmpty?.(passedOn(batches()))) ?? false;
  } catch (err) {
    // The store wrote nothing. The embedded index keeps what it had (its rebuild swaps only at the end of its
    // source); Meilisearch keeps the part it took, as when a rebuild's read of the store fails.
    toIndex.fail(err);
    await indexing?.catch(() => undefined);
    throw err;
  }
  if (!loaded) for await (const batch of batches()) await repo.upsertMany(batch);
  const writeMs = performance.now() - started;
  logger?.info({ written, ms: Math.round(writeMs) }, 'products written; building the search index');

  const indexStarted = performance.now();
  toIndex.end();
  await (loaded && indexing ? indexing : search.rebuild(repo.scan(SEED_BATCH_SIZE)));
  const indexMs = performance.now() - indexStarted;
  const totalMs = performance.now() - started;
  logger?.info({ indexed: await search.size(), indexMs: Math.round(indexMs), totalMs: Math.round(totalMs) }, 'search index built');
  const assemblies = collector && opts.diagrams ? await saveDemoDiagrams(collector, opts.diagrams, logger) : 0;

  return { products: written, testimonials: testimonials.length, assemblies, writeMs, indexMs, totalMs };
}

/** The demo parts books from a catalogue already stored (one seeded before diagrams existed): its parts read once. */
export async function seedDemoDiagrams(products: AsyncIterable<Product[]>, diagrams: DiagramStore, logger?: SeedLogger): Promise<number> {
  const collector = new DemoDiagramCollector();
  for await (const batch of products) for (const p of batch) collector.take(p);
  return saveDemoDiagrams(collector, diagrams, logger);
}

/** Writes the collected assemblies (replacing the demo's own on a rerun, as the products are). */
async function saveDemoDiagrams(collector: DemoDiagramCollector, diagrams: DiagramStore, logger?: SeedLogger): Promise<number> {
  const at = new Date().toISOString();
  const assemblies = collector.assemblies(at);
  const changes = await Promise.all(
    assemblies.map(async (a) => {
      const stored = await diagrams.get(a.id);
      const assembly = stored ? { ...a, version: stored.version + 1 } : a;
      return { assembly, expected: stored?.version ?? null, entry: { version: assembly.version, at, actor: 'demo catalogue', action: 'import' as const, summary: `demo parts book: ${a.callouts.length} lines` } };
    }),
  );
  for (let i = 0; i < changes.length; i += 500) await diagrams.save(changes.slice(i, i + 500));
  logger?.info({ assemblies: assemblies.length, models: new Set(assemblies.map((a) => `${a.makeSlug}/${a.modelSlug}`)).size }, 'demo parts diagrams written');
  return assemblies.length;
}

/**
 * An async iterable fed by push(): the batches the store's load pulls are handed, as they go by, to the search index's
 * rebuild. push() waits while more than `room` items are unread, so a reader slower than the writer (a search
 * server) holds the writer back instead of the batches piling up in memory.
 */
class Relay<T> implements AsyncIterable<T> {
  private readonly queue: T[] = [];
  private done = false;
  private failure: { error: unknown } | null = null;
  private readerWaits: (() => void) | null = null;
  private writerWaits: (() => void) | null = null;

  constructor(private readonly room: number) {}

  async push(item: T): Promise<void> {
    this.queue.push(item);
    this.wakeReader();
    while (this.queue.length > this.room && !this.failure) await new Promise<void>((resolve) => (this.writerWaits = resolve));
    if (this.failure) throw this.failure.error;
  }

  end(): void {
    this.done = true;
    this.wakeReader();
  }

  fail(error: unknown): void {
    this.failure ??= { error };
    this.wakeReader();
    this.wakeWriter();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.failure) throw this.failure.error;
      if (this.queue.length) {
        const item = this.queue.shift()!;
        this.wakeWriter();
        yield item;
        continue;
      }
      if (this.done) return;
      await new Promise<void>((resolve) => (this.readerWaits = resolve));
    }
  }

  private wakeReader(): void {
    this.readerWaits?.();
    this.readerWaits = null;
  }

  private wakeWriter(): void {
    this.writerWaits?.();
    this.writerWaits = null;
  }
}
