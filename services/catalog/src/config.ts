import { allOrNone, baseEnv, port, productionSecrets } from '@forgeline/service-kit/config';
import { z } from 'zod';

/** An unset variable and an empty one mean the same: compose files often write `MONGO_URL=`. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const CatalogConfigSchema = z
  .object({
    ...baseEnv,
    PORT: port(4001),
    /** Multiplies the parts-list match limit (30 lists a minute per address); the browser tests and benchmark raise it. */
    RATE_LIMIT_MULTIPLIER: z.coerce.number().int().min(1).default(1),
    /** MongoDB instead of the SQLite file `${DATA_DIR}/catalog.sqlite`; the URL's path names the database. */
    MONGO_URL: optional(z.string().regex(/^mongodb(\+srv)?:\/\/\S+$/, 'must be a mongodb:// or mongodb+srv:// URL')),
    /** Meilisearch instead of the embedded search index under `${DATA_DIR}/catalog-search`. */
    MEILI_URL: optional(z.url()),
    MEILI_MASTER_KEY: optional(z.string().min(1)),
    MEILI_INDEX: z.string().regex(/^[\w-]{1,100}$/, 'must be letters, digits, _ or -').default('products'),
    /** Memory for ready-made answers of the public reads (0 turns the cache off), and how long one may be served. */
    RESPONSE_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
    RESPONSE_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /**
     * The catalog's own SQLite connection (embedded storage): its page cache, and how much of the file it maps. The
     * operating system's file cache already keeps the file's hot pages, outside the process and shared: at 500,000
     * parts, deep list pages served the same with 64 MB and no map as with 256 MB and a 256 MB map, and the catalog
     * held 825 MB instead of 1,474 MB after that load.
     */
    SQLITE_CACHE_MB: z.coerce.number().int().min(2).max(8192).default(64),
    SQLITE_MMAP_MB: z.coerce.number().int().min(0).max(65536).default(0),
    /**
     * SQLite page cache of the import process (embedded storage only), held while an import runs. A larger one keeps the
     * index pages a batch dirties in memory: a 100,000-row import into 500,000 parts (20,000-row transactions) took
     * 58 s with 64 MB, 48 s with 256 MB and 39 s with 1,024 MB; the whole 500,000-row bench 234 s with 256 MB.
     */
    IMPORT_CACHE_MB: z.coerce.number().int().min(16).max(8192).default(256),
    /**
     * Redis shared by the replicas: the parts-list limit counts across them, a write empties every replica's answers,
     * and (embedded search) each replica's index follows the others' writes through the change feed.
     */
    REDIS_URL: optional(z.url()),
    /** How long search analytics are kept (days): counts per day and query, random visitor ids, nothing personal. */
    SEARCH_ANALYTICS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
  })
  .superRefine((env, ctx) => {
    // A key without a server is a half-given configuration; a server without a key is allowed (a dev Meilisearch).
    const half = env.MEILI_URL ? null : allOrNone(env, ['MEILI_URL', 'MEILI_MASTER_KEY']);
    if (half) ctx.addIssue({ code: 'custom', path: ['MEILI_URL'], message: half });
  })
  .superRefine(productionSecrets(['SERVICE_TOKEN', { name: 'MEILI_MASTER_KEY', when: (env) => Boolean(env.MEILI_URL) }]));
export type CatalogConfig = z.infer<typeof CatalogConfigSchema>;
