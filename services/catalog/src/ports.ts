import type {
  Product,
  ProductImagesUpdate,
  ProductSummary,
  SearchMatch,
  Subcategory,
  Testimonial,
} from '@forgeline/contracts/products';

export interface Page<T> {
  items: T[];
  total: number;
}

export interface NamedSlug {
  name: string;
  slug: string;
  productCount: number;
}

/**
 * The catalog's storage. Brand and category arguments are slugs (spec section 5 rule), so
 * "Caterpillar", "caterpillar" and "CATERPILLAR" all reach the same rows. Lists are ordered by name, then id.
 */
export interface ProductRepository {
  getById(id: string): Promise<Product | null>;
  getBySku(sku: string): Promise<Product | null>;
  /** Summaries in the order of `ids`; unknown ids are left out. Used to hydrate search hits. */
  getSummaries(ids: string[]): Promise<ProductSummary[]>;
  listByCategory(q: { categorySlug: string; brandSlug?: string; limit: number; offset: number }): Promise<Page<ProductSummary>>;
  listByBrand(q: { brandSlug: string; limit: number; offset: number }): Promise<Page<ProductSummary>>;
  listAll(q: { limit: number; offset: number }): Promise<Page<ProductSummary>>;
  /** Admin part-number search: sku or part number starting with `code`, ignoring case, spaces and punctuation. */
  findByCode(code: string, limit: number): Promise<ProductSummary[]>;
  findCategory(slug: string): Promise<NamedSlug | null>;
  findBrand(slug: string): Promise<NamedSlug | null>;
  listSubcategories(): Promise<Subcategory[]>;
  listTestimonials(q: { featured?: boolean }): Promise<Testimonial[]>;
  count(): Promise<number>;
  /** Bulk insert (seed, import), in one transaction where the store has them. A product whose SKU (or id) exists replaces it. */
  upsertMany(products: Product[]): Promise<void>;
  insertTestimonials(items: Testimonial[]): Promise<void>;
  updateImages(id: string, update: ProductImagesUpdate): Promise<Product | null>;
  /** Every product in batches, for a full reindex. */
  scan(batchSize: number): AsyncIterable<Product[]>;
  close(): Promise<void>;
}

export interface SearchHit {
  id: string;
  matches: SearchMatch[];
}

export interface SearchOptions {
  limit: number;
  offset: number;
  /** Narrow to a brand or category slug. */
  brandSlug?: string;
  categorySlug?: string;
}

/** Product search: typo-tolerant and part-number aware (see README, "Search relevance"). */
export interface SearchIndex {
  search(query: string, opts: SearchOptions): Promise<{ hits: SearchHit[]; total: number }>;
  upsert(products: Product[]): Promise<void>;
  remove(ids: string[]): Promise<void>;
  /** Drop everything and index all products from `source` (npm run reindex). */
  rebuild(source: AsyncIterable<Product[]>): Promise<void>;
  /** Number of indexed documents (lets main.ts decide whether a rebuild is needed at start). */
  size(): Promise<number>;
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
