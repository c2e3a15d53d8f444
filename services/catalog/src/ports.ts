import type {
  Product,
  ProductImagesUpdate,
  ProductSummary,
  SearchMatch,
  Subcategory,
  Testimonial,
} from '@forgeline/contracts/products';
import type { CatalogAuditEntry, CatalogImportJob, ImportRowError } from '@forgeline/contracts/catalog-admin';

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

  // The seller's catalogue: imports, edits, parts taken off the storefront, and the record of every change.
  /** The admin panel's list: by name, narrowed by category, brand (slugs) and stock. */
  listForAdmin(q: { categorySlug?: string; brandSlug?: string; inStock?: boolean; limit: number }): Promise<ProductSummary[]>;
  /** Parts stored under these SKUs, live or deactivated (an import names both). */
  getBySkus(skus: string[]): Promise<Map<string, StoredPart>>;
  /**
   * Writes parts (upsert by SKU, as upsertMany) with their audit entries, in one transaction where the store has
   * them; a deactivated part written here is live again.
   */
  applyChanges(products: Product[], audit: CatalogAuditEntry[]): Promise<void>;
  /**
   * Takes live parts off the storefront: kept, but gone from listings, counts, search sources and sitemaps.
   * Returns the parts it moved.
   */
  deactivate(ids: string[], audit: CatalogAuditEntry[]): Promise<Product[]>;
  /** A part taken off the storefront (its page answers 410 with a way to its category). */
  getDeactivated(id: string): Promise<Product | null>;
  /** Every live part's id and SKU, in batches. */
  scanSkus(batchSize: number): AsyncIterable<{ id: string; sku: string }[]>;
  listAudit(q: { productId?: string; source?: string; limit: number }): Promise<CatalogAuditEntry[]>;
  saveImportJob(job: CatalogImportJob): Promise<void>;
  getImportJob(id: string): Promise<CatalogImportJob | null>;
  addImportErrors(id: string, errors: ImportRowError[]): Promise<void>;
  /** Every error of an import, in row order, in batches. */
  importErrors(id: string, batchSize: number): AsyncIterable<ImportRowError[]>;
  /** Marks imports left queued or running by a stopped process as failed; returns how many. */
  failUnfinishedImports(message: string, at: string): Promise<number>;
  close(): Promise<void>;
}

export interface StoredPart {
  product: Product;
  /** false: taken off the storefront. */
  active: boolean;
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
