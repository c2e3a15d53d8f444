/**
 * npm run seed -- --products N [--seed S]
 * Writes N generated spare parts (1 to 2,000,000; the same N and seed give the same parts) into the
 * catalogue the environment names (DATA_DIR's SQLite file, or MONGO_URL / MEILI_URL), then builds
 * the search index, printing progress and the time taken.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '@forgeline/service-kit/config';
import { createLogger } from '@forgeline/service-kit/logger';
import { CatalogConfigSchema } from '../config.ts';
import { DEFAULT_SEED } from '../seed/generate.ts';
import { MAX_SEED_PRODUCTS, seedCatalogue } from '../seed/seed-catalogue.ts';
import { openStores } from '../stores.ts';

const USAGE = `Usage: npm run seed -- --products <N> [--seed <S>] [--if-empty]
  --products  how many products to generate, a whole number from 1 to ${MAX_SEED_PRODUCTS.toLocaleString('en-US')}
  --seed      a whole number picking the catalogue (default ${DEFAULT_SEED}); same N and seed, same products
  --if-empty  do nothing when the catalogue already has products (docker compose's first start)
Writes to DATA_DIR (default ./data), or to MongoDB / Meilisearch when MONGO_URL / MEILI_URL are set.`;

/** Parse the command line; returns a message naming the bad argument instead of throwing. */
export function parseSeedArgs(
  argv: string[],
): { products: number; seed: number; ifEmpty: boolean } | { error: string } | { help: true } {
  let values: { products?: string; seed?: string; help?: boolean; 'if-empty'?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        products: { type: 'string' },
        seed: { type: 'string' },
        'if-empty': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    return { error: (err as Error).message };
  }
  if (values.help) return { help: true };
  if (values.products === undefined) return { error: '--products is required' };
  const raw = values.products.replace(/[_,]/g, '');
  if (!/^\d+$/.test(raw)) return { error: `--products must be a whole number, got "${values.products}"` };
  const products = Number(raw);
  if (products < 1 || products > MAX_SEED_PRODUCTS) {
    return { error: `--products must be from 1 to ${MAX_SEED_PRODUCTS.toLocaleString('en-US')}, got ${products.toLocaleString('en-US')}` };
  }
  let seed = DEFAULT_SEED;
  if (values.seed !== undefined) {
    if (!/^\d{1,9}$/.test(values.seed)) return { error: `--seed must be a whole number (up to 9 digits), got "${values.seed}"` };
    seed = Number(values.seed);
  }
  return { products, seed, ifEmpty: values['if-empty'] === true };
}

async function main(): Promise<void> {
  const args = parseSeedArgs(process.argv.slice(2));
  if ('help' in args) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if ('error' in args) {
    process.stderr.write(`seed: ${args.error}\n${USAGE}\n`);
    process.exit(2);
  }
  const config = loadConfig(CatalogConfigSchema);
  const logger = createLogger('seed', config.LOG_LEVEL);
  // Seeding is a bulk write, as an import is: the import's page cache.
  const stores = await openStores({ ...config, SQLITE_CACHE_MB: config.IMPORT_CACHE_MB }, logger);
  try {
    const before = await stores.repo.count();
    if (args.ifEmpty && before > 0) {
      logger.info({ existing: before }, `the catalogue already has ${before.toLocaleString('en-US')} products; nothing to seed (--if-empty)`);
      return;
    }
    logger.info({ products: args.products, seed: args.seed, existing: before, ...stores.kinds }, 'seeding the catalogue');
    const result = await seedCatalogue({ repo: stores.repo, search: stores.search, diagrams: stores.diagrams, count: args.products, seed: args.seed, logger });
    const total = await stores.repo.count();
    logger.info(
      {
        products: result.products,
        totalInCatalogue: total,
        testimonials: result.testimonials,
        assemblies: result.assemblies,
        writeSeconds: +(result.writeMs / 1000).toFixed(1),
        indexSeconds: +(result.indexMs / 1000).toFixed(1),
        totalSeconds: +(result.totalMs / 1000).toFixed(1),
      },
      `seeded ${result.products.toLocaleString('en-US')} products in ${(result.totalMs / 1000).toFixed(1)} s`,
    );
  } finally {
    await stores.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`seed failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
