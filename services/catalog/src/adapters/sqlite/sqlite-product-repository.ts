import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Product, ProductImagesUpdate, ProductSummary, Subcategory, Testimonial } from '@forgeline/contracts/products';
import {
  brandSlugOf,
  categorySlugOf,
  codeKey,
  codeKeyUpperBound,
  pageWindow,
  subcategoryId,
  summarizeSubcategories,
  toSubcategory,
  type CatalogTotals,
} from '../../domain/products.ts';
import type { CatalogAuditEntry, CatalogImportJob, ImportRowError } from '@forgeline/contracts/catalog-admin';
import type { NamedSlug, Page, ProductRepository, StoredPart } from '../../ports.ts';

/*
 * Lists never count rows per request: `subcategory_counts` holds one row per (category, brand) pair and
 * triggers on `products` keep it exact inside the same transaction as the write. Every total (gallery,
 * category, brand, category+brand) is a sum over that small table, cached in memory and refreshed when
 * this connection writes or another one commits (PRAGMA data_version), e.g. the seed CLI.
 *
 * Pages are read with a deferred join: the page's rowids come from a covering index (slug, name, id),
 * then only those rows are read, so a deep offset walks index entries, not table rows.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS products (
  id TEXT PRIMARY KEY,
  sku TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  category TEXT NOT NULL,
  category_slug TEXT NOT NULL,
  brand_name TEXT NOT NULL,
  brand_slug TEXT NOT NULL,
  brand TEXT NOT NULL,
  make TEXT NOT NULL,
  part_number TEXT NOT NULL,
  sku_key TEXT NOT NULL,
  part_key TEXT NOT NULL,
  slug TEXT NOT NULL,
  description TEXT NOT NULL,
  image_url TEXT NOT NULL,
  images TEXT NOT NULL,
  tags TEXT NOT NULL,
  in_stock INTEGER NOT NULL,
  price REAL NOT NULL,
  availability TEXT NOT NULL,
  specifications TEXT NOT NULL,
  weight TEXT NOT NULL,
  dimensions TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS products_category_name ON products(category_slug, name, id);
CREATE INDEX IF NOT EXISTS products_category_brand_name ON products(category_slug, brand_slug, name, id);
CREATE INDEX IF NOT EXISTS products_brand_name ON products(brand_slug, name, id);
CREATE INDEX IF NOT EXISTS products_name ON products(name, id);
CREATE INDEX IF NOT EXISTS products_sku_key ON products(sku_key);
CREATE INDEX IF NOT EXISTS products_part_key ON products(part_key);

CREATE TABLE IF NOT EXISTS subcategory_counts (
  category_slug TEXT NOT NULL,
  brand_slug TEXT NOT NULL,
  category TEXT NOT NULL,
  brand TEXT NOT NULL,
  product_count INTEGER NOT NULL,
  PRIMARY KEY (category_slug, brand_slug)
) WITHOUT ROWID;

CREATE TRIGGER IF NOT EXISTS products_count_insert AFTER INSERT ON products BEGIN
  INSERT INTO subcategory_counts (category_slug, brand_slug, category, brand, product_count)
  VALUES (new.category_slug, new.brand_slug, new.category, new.brand_name, 1)
  ON CONFLICT (category_slug, brand_slug) DO UPDATE SET product_count = product_count + 1;
END;
CREATE TRIGGER IF NOT EXISTS products_count_delete AFTER DELETE ON products BEGIN
  UPDATE subcategory_counts SET product_count = product_count - 1
  WHERE category_slug = old.category_slug AND brand_slug = old.brand_slug;
  DELETE FROM subcategory_counts WHERE category_slug = old.category_slug AND brand_slug = old.brand_slug AND product_count <= 0;
END;
CREATE TRIGGER IF NOT EXISTS products_count_move AFTER UPDATE OF category_slug, brand_slug ON products
WHEN old.category_slug IS NOT new.category_slug OR old.brand_slug IS NOT new.brand_slug BEGIN
  UPDATE subcategory_counts SET product_count = product_count - 1
  WHERE category_slug = old.category_slug AND brand_slug = old.brand_slug;
  DELETE FROM subcategory_counts WHERE category_slug = old.category_slug AND brand_slug = old.brand_slug AND product_count <= 0;
  INSERT INTO subcategory_counts (category_slug, brand_slug, category, brand, product_count)
  VALUES (new.category_slug, new.brand_slug, new.category, new.brand_name, 1)
  ON CONFLICT (category_slug, brand_slug) DO UPDATE SET product_count = product_count + 1;
END;

-- Parts taken off the storefront by an import (missing=deactivate): out of every list, count and sitemap.
CREATE TABLE IF NOT EXISTS retired_products (
  id TEXT PRIMARY KEY,
  sku TEXT NOT NULL UNIQUE,
  data TEXT NOT NULL,
  retired_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS catalog_audit (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  source TEXT NOT NULL,
  product_id TEXT NOT NULL,
  sku TEXT NOT NULL,
  action TEXT NOT NULL,
  fields TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS catalog_audit_product ON catalog_audit(product_id, seq);
CREATE INDEX IF NOT EXISTS catalog_audit_source ON catalog_audit(source, seq);
CREATE TABLE IF NOT EXISTS catalog_imports (
  id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS catalog_import_errors (
  import_id TEXT NOT NULL,
  row INTEGER NOT NULL,
  column_name TEXT NOT NULL,
  message TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS catalog_import_errors_import ON catalog_import_errors(import_id, row);

CREATE TABLE IF NOT EXISTS testimonials (
  id TEXT PRIMARY KEY,
  customer_name TEXT NOT NULL,
  customer_location TEXT NOT NULL,
  customer_photo TEXT,
  rating INTEGER NOT NULL,
  review TEXT NOT NULL,
  featured INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
`;

const SUMMARY_COLUMNS =
  'id, name, sku, category, tags, image_url, images, in_stock, availability, brand_name, brand, part_number, slug';

interface SummaryRow {
  id: string;
  name: string;
  sku: string;
  category: string;
  tags: string;
  image_url: string;
  images: string;
  in_stock: number;
  availability: string;
  brand_name: string;
  brand: string;
  part_number: string;
  slug: string;
}

interface ProductRow extends SummaryRow {
  rowid: number;
  make: string;
  description: string;
  price: number;
  specifications: string;
  weight: string;
  dimensions: string;
  created_at: string;
}

interface AuditRow {
  at: string;
  actor: string;
  source: string;
  product_id: string;
  sku: string;
  action: CatalogAuditEntry['action'];
  fields: string;
}

interface TestimonialRow {
  id: string;
  customer_name: string;
  customer_location: string;
  customer_photo: string | null;
  rating: number;
  review: string;
  featured: number;
  created_at: string;
}

const toSummary = (r: SummaryRow): ProductSummary => ({
  id: r.id,
  name: r.name,
  sku: r.sku,
  category: r.category,
  tags: JSON.parse(r.tags) as string[],
  imageUrl: r.image_url,
  images: JSON.parse(r.images) as string[],
  inStock: r.in_stock === 1,
  availability: r.availability,
  brandName: r.brand_name,
  brand: r.brand,
  partNumber: r.part_number,
  slug: r.slug,
});

const toProduct = (r: ProductRow): Product => ({
  ...toSummary(r),
  description: r.description,
  make: r.make,
  price: r.price,
  specifications: JSON.parse(r.specifications) as Record<string, string>,
  weight: r.weight,
  dimensions: r.dimensions,
  createdAt: r.created_at,
});

const toTestimonial = (r: TestimonialRow): Testimonial => ({
  id: r.id,
  customerName: r.customer_name,
  customerLocation: r.customer_location,
  customerPhoto: r.customer_photo,
  rating: r.rating,
  review: r.review,
  featured: r.featured === 1,
  createdAt: r.created_at,
});

/**
 * A page of rows by a covering index, then those rows only (see the note at the top). Pages in the back
 * half are found walking the index from its end (`desc`), so the last page costs what the first does.
 */
const pageSql = (where: string, desc = false) =>
  `SELECT ${SUMMARY_COLUMNS} FROM products WHERE rowid IN (
     SELECT rowid FROM products ${where} ORDER BY ${desc ? 'name DESC, id DESC' : 'name, id'} LIMIT @limit OFFSET @offset
   ) ORDER BY name, id`;

const PAGE_CACHE_SIZE = 500;

export class SqliteProductRepository implements ProductRepository {
  private readonly stmt;
  private totals: { key: string; value: CatalogTotals } | null = null;
  private localWrites = 0;
  /**
   * Recently served pages (category, brand, gallery), most recent last. Emptied whenever the totals are
   * reread (a write here or a commit elsewhere) and on an image update, so it never serves stale rows.
   * Callers must not mutate what they get.
   */
  private readonly pages = new Map<string, Page<ProductSummary>>();

  private constructor(private readonly db: Database.Database) {
    const s = <T = unknown>(sql: string) => db.prepare<unknown[], T>(sql);
    const both = <T>(make: (desc: boolean) => T) => ({ asc: make(false), desc: make(true) });
    this.stmt = {
      byId: s<ProductRow>('SELECT rowid, * FROM products WHERE id = ?'),
      bySku: s<ProductRow>('SELECT rowid, * FROM products WHERE sku = ?'),
      bySkuKey: s<ProductRow>('SELECT rowid, * FROM products WHERE sku_key = ? LIMIT 2'),
      summaries: s<SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM products WHERE id IN (SELECT value FROM json_each(?))`),
      category: both((desc) => s<SummaryRow>(pageSql('WHERE category_slug = @category', desc))),
      categoryBrand: both((desc) => s<SummaryRow>(pageSql('WHERE category_slug = @category AND brand_slug = @brand', desc))),
      brand: both((desc) => s<SummaryRow>(pageSql('WHERE brand_slug = @brand', desc))),
      all: both((desc) => s<SummaryRow>(pageSql('', desc))),
      byCode: s<SummaryRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM products WHERE rowid IN (
           SELECT rowid FROM products WHERE sku_key >= @key AND sku_key < @end
           UNION SELECT rowid FROM products WHERE part_key >= @key AND part_key < @end
         ) ORDER BY (sku_key = @key OR part_key = @key) DESC, name, id LIMIT @limit`,
      ),
      subcategories: s<{ category_slug: string; brand_slug: string; category: string; brand: string; product_count: number }>(
        'SELECT category_slug, brand_slug, category, brand, product_count FROM subcategory_counts',
      ),
      dataVersion: s<{ data_version: number }>('PRAGMA data_version'),
      deleteIdOfOtherSku: s('DELETE FROM products WHERE id = @id AND sku <> @sku'),
      upsert: s(
        `INSERT INTO products (id, sku, name, category, category_slug, brand_name, brand_slug, brand, make, part_number,
           sku_key, part_key, slug, description, image_url, images, tags, in_stock, price, availability, specifications,
           weight, dimensions, created_at)
         VALUES (@id, @sku, @name, @category, @category_slug, @brand_name, @brand_slug, @brand, @make, @part_number,
           @sku_key, @part_key, @slug, @description, @image_url, @images, @tags, @in_stock, @price, @availability, @specifications,
           @weight, @dimensions, @created_at)
         ON CONFLICT (sku) DO UPDATE SET id = excluded.id, name = excluded.name, category = excluded.category,
           category_slug = excluded.category_slug, brand_name = excluded.brand_name, brand_slug = excluded.brand_slug,
           brand = excluded.brand, make = excluded.make, part_number = excluded.part_number, sku_key = excluded.sku_key,
           part_key = excluded.part_key, slug = excluded.slug, description = excluded.description,
           image_url = excluded.image_url, images = excluded.images, tags = excluded.tags, in_stock = excluded.in_stock,
           price = excluded.price, availability = excluded.availability, specifications = excluded.specifications,
           weight = excluded.weight, dimensions = excluded.dimensions, created_at = excluded.created_at`,
      ),
      updateImages: s('UPDATE products SET images = @images, image_url = @image_url WHERE id = @id'),
      // A change that leaves every indexed column as it is (a price, stock or description feed) rewrites the row only:
      // setting an indexed column, even to its own value, rewrites its index entries too.
      keysBySku: s<{ id: string; name: string; category_slug: string; brand_slug: string; sku_key: string; part_key: string; category: string; brand_name: string }>(
        'SELECT id, name, category_slug, brand_slug, sku_key, part_key, category, brand_name FROM products WHERE sku = ?',
      ),
      updateRow: s(
        `UPDATE products SET brand = @brand, make = @make, part_number = @part_number, slug = @slug, description = @description,
           image_url = @image_url, images = @images, tags = @tags, in_stock = @in_stock, price = @price, availability = @availability,
           specifications = @specifications, weight = @weight, dimensions = @dimensions, created_at = @created_at
         WHERE sku = @sku`,
      ),
      testimonials: s<TestimonialRow>('SELECT * FROM testimonials ORDER BY created_at DESC, id'),
      featuredTestimonials: s<TestimonialRow>('SELECT * FROM testimonials WHERE featured = @featured ORDER BY created_at DESC, id'),
      upsertTestimonial: s(
        `INSERT OR REPLACE INTO testimonials (id, customer_name, customer_location, customer_photo, rating, review, featured, created_at)
         VALUES (@id, @customer_name, @customer_location, @customer_photo, @rating, @review, @featured, @created_at)`,
      ),
      scan: s<ProductRow>('SELECT rowid, * FROM products WHERE rowid > ? ORDER BY rowid LIMIT ?'),
      scanSkus: s<{ rowid: number; id: string; sku: string }>('SELECT rowid, id, sku FROM products WHERE rowid > ? ORDER BY rowid LIMIT ?'),
      bySkus: s<ProductRow>('SELECT rowid, * FROM products WHERE sku IN (SELECT value FROM json_each(?))'),
      retiredBySkus: s<{ data: string }>('SELECT data FROM retired_products WHERE sku IN (SELECT value FROM json_each(?))'),
      retiredById: s<{ data: string }>('SELECT data FROM retired_products WHERE id = ?'),
      unretireSku: s('DELETE FROM retired_products WHERE sku = ?'),
      retire: s('INSERT OR REPLACE INTO retired_products (id, sku, data, retired_at) VALUES (@id, @sku, @data, @at)'),
      deleteById: s('DELETE FROM products WHERE id = ?'),
      audit: s(
        'INSERT INTO catalog_audit (at, actor, source, product_id, sku, action, fields) VALUES (@at, @actor, @source, @productId, @sku, @action, @fields)',
      ),
      auditAll: s<AuditRow>('SELECT * FROM catalog_audit ORDER BY seq DESC LIMIT ?'),
      auditByProduct: s<AuditRow>('SELECT * FROM catalog_audit WHERE product_id = ? ORDER BY seq DESC LIMIT ?'),
      auditBySource: s<AuditRow>('SELECT * FROM catalog_audit WHERE source = ? ORDER BY seq DESC LIMIT ?'),
      saveImport: s('INSERT OR REPLACE INTO catalog_imports (id, state, data) VALUES (@id, @state, @data)'),
      getImport: s<{ data: string }>('SELECT data FROM catalog_imports WHERE id = ?'),
      unfinishedImports: s<{ data: string }>("SELECT data FROM catalog_imports WHERE state IN ('queued', 'running')"),
      addImportError: s('INSERT INTO catalog_import_errors (import_id, row, column_name, message) VALUES (@id, @row, @column, @message)'),
      importErrors: s<{ rowid: number; row: number; column_name: string; message: string }>(
        'SELECT rowid, row, column_name, message FROM catalog_import_errors WHERE import_id = ? AND rowid > ? ORDER BY rowid LIMIT ?',
      ),
    };
  }

  /**
   * Open (and create) the database file; `:memory:` works too. `cacheMb`: page cache (256 MB by default); `mmapMb`:
   * memory-mapped reads (256 MB by default). `bulkWriter`: a connection that writes large batches (the import worker):
   * it never checkpoints on its own (its owner calls checkpoint() at a pace it chooses), since an automatic checkpoint
   * every ~40 MB copies the same index pages back into the file again and again.
   */
  static open(file: string, opts: { cacheMb?: number; mmapMb?: number; bulkWriter?: boolean } = {}): SqliteProductRepository {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = -${(opts.cacheMb ?? 256) * 1024}`); // KiB of page cache
    db.pragma(`mmap_size = ${(opts.mmapMb ?? 256) * 1024 * 1024}`);
    db.pragma('temp_store = MEMORY');
    // Checkpoint every ~40 MB of WAL, not 4 MB: a bulk import rewrites the same index pages many times over, and each
    // checkpoint copies them back into the database file. After a checkpoint the WAL file shrinks back to 64 MB.
    db.pragma(`wal_autocheckpoint = ${opts.bulkWriter ? 0 : 10000}`);
    db.pragma('journal_size_limit = 67108864');
    db.exec(SCHEMA);
    return new SqliteProductRepository(db);
  }

  /**
   * Copies the WAL back into the database file without waiting for readers (PASSIVE), for a bulkWriter connection.
   * Returns the WAL pages it held.
   */
  checkpoint(): number {
    const [r] = this.db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    return r?.log ?? 0;
  }

  async getById(id: string): Promise<Product | null> {
    const row = this.stmt.byId.get(id);
    return row ? toProduct(row) : null;
  }

  async getBySku(sku: string): Promise<Product | null> {
    const exact = this.stmt.bySku.get(sku);
    if (exact) return toProduct(exact);
    // Folder names from ZIP uploads differ in case or punctuation; take the match only when it is the only one.
    const key = codeKey(sku);
    if (!key) return null;
    const rows = this.stmt.bySkuKey.all(key);
    return rows.length === 1 ? toProduct(rows[0]!) : null;
  }

  async getSummaries(ids: string[]): Promise<ProductSummary[]> {
    if (ids.length === 0) return [];
    const byId = new Map(this.stmt.summaries.all(JSON.stringify(ids)).map((r) => [r.id, toSummary(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async listByCategory(q: { categorySlug: string; brandSlug?: string; limit: number; offset: number }): Promise<Page<ProductSummary>> {
    const totals = this.currentTotals();
    const params = { category: q.categorySlug, brand: q.brandSlug };
    if (q.brandSlug !== undefined) {
      const total = totals.byPair.get(subcategoryId(q.categorySlug, q.brandSlug)) ?? 0;
      return this.page('categoryBrand', params, total, q);
    }
    return this.page('category', params, totals.byCategory.get(q.categorySlug)?.productCount ?? 0, q);
  }

  async listByBrand(q: { brandSlug: string; limit: number; offset: number }): Promise<Page<ProductSummary>> {
    const total = this.currentTotals().byBrand.get(q.brandSlug)?.productCount ?? 0;
    return this.page('brand', { brand: q.brandSlug }, total, q);
  }

  async listAll(q: { limit: number; offset: number }): Promise<Page<ProductSummary>> {
    return this.page('all', {}, this.currentTotals().total, q);
  }

  private page(
    kind: 'category' | 'categoryBrand' | 'brand' | 'all',
    params: { category?: string; brand?: string },
    total: number,
    q: { limit: number; offset: number },
  ): Page<ProductSummary> {
    const w = pageWindow(total, q.limit, q.offset);
    if (!w) return { items: [], total };
    const key = `${kind}|${params.category ?? ''}|${params.brand ?? ''}|${q.limit}|${q.offset}`;
    const cached = this.pages.get(key);
    if (cached) {
      this.pages.delete(key);
      this.pages.set(key, cached);
      return cached;
    }
    const stmt = this.stmt[kind][w.desc ? 'desc' : 'asc'];
    const page = { items: stmt.all({ ...params, limit: w.limit, offset: w.offset }).map(toSummary), total };
    this.pages.set(key, page);
    if (this.pages.size > PAGE_CACHE_SIZE) this.pages.delete(this.pages.keys().next().value!);
    return page;
  }

  async findByCode(code: string, limit: number): Promise<ProductSummary[]> {
    const key = codeKey(code);
    if (!key) return [];
    return this.stmt.byCode.all({ key, end: codeKeyUpperBound(key), limit }).map(toSummary);
  }

  async findCategory(slug: string): Promise<NamedSlug | null> {
    return this.currentTotals().byCategory.get(slug) ?? null;
  }

  async findBrand(slug: string): Promise<NamedSlug | null> {
    return this.currentTotals().byBrand.get(slug) ?? null;
  }

  async listSubcategories(): Promise<Subcategory[]> {
    return this.currentTotals().subcategories;
  }

  async listTestimonials(q: { featured?: boolean }): Promise<Testimonial[]> {
    const rows = q.featured === undefined ? this.stmt.testimonials.all() : this.stmt.featuredTestimonials.all({ featured: q.featured ? 1 : 0 });
    return rows.map(toTestimonial);
  }

  async count(): Promise<number> {
    return this.currentTotals().total;
  }

  async upsertMany(products: Product[]): Promise<void> {
    if (products.length === 0) return;
    this.writeMany(products, []);
    this.localWrites++;
  }

  async applyChanges(products: Product[], audit: CatalogAuditEntry[]): Promise<void> {
    if (products.length === 0 && audit.length === 0) return;
    this.writeMany(products, audit);
    this.localWrites++;
    this.pages.clear();
  }

  private readonly writeAudit = (audit: CatalogAuditEntry[]) => {
    for (const a of audit) this.stmt.audit.run({ ...a, fields: JSON.stringify(a.fields) });
  };

  private readonly writeMany = (products: Product[], audit: CatalogAuditEntry[]) =>
    this.db.transaction((items: Product[]) => {
      this.writeAudit(audit);
      for (const p of items) {
        this.stmt.unretireSku.run(p.sku);
        const row = {
          id: p.id,
          sku: p.sku,
          name: p.name,
          category: p.category,
          category_slug: categorySlugOf(p),
          brand_name: p.brandName,
          brand_slug: brandSlugOf(p),
          brand: p.brand,
          make: p.make,
          part_number: p.partNumber,
          sku_key: codeKey(p.sku),
          part_key: codeKey(p.partNumber),
          slug: p.slug,
          description: p.description,
          image_url: p.imageUrl,
          images: JSON.stringify(p.images),
          tags: JSON.stringify(p.tags),
          in_stock: p.inStock ? 1 : 0,
          price: p.price,
          availability: p.availability,
          specifications: JSON.stringify(p.specifications),
          weight: p.weight,
          dimensions: p.dimensions,
          created_at: p.createdAt,
        };
        const cur = this.stmt.keysBySku.get(p.sku);
        const sameKeys =
          cur !== undefined &&
          cur.id === row.id &&
          cur.name === row.name &&
          cur.category === row.category &&
          cur.brand_name === row.brand_name &&
          cur.category_slug === row.category_slug &&
          cur.brand_slug === row.brand_slug &&
          cur.sku_key === row.sku_key &&
          cur.part_key === row.part_key;
        if (sameKeys) {
          this.stmt.updateRow.run(row);
          continue;
        }
        if (cur === undefined || cur.id !== row.id) this.stmt.deleteIdOfOtherSku.run({ id: p.id, sku: p.sku });
        this.stmt.upsert.run(row);
      }
    })(products);

  async insertTestimonials(items: Testimonial[]): Promise<void> {
    this.db.transaction((list: Testimonial[]) => {
      for (const t of list) {
        this.stmt.upsertTestimonial.run({
          id: t.id,
          customer_name: t.customerName,
          customer_location: t.customerLocation,
          customer_photo: t.customerPhoto,
          rating: t.rating,
          review: t.review,
          featured: t.featured ? 1 : 0,
          created_at: t.createdAt,
        });
      }
    })(items);
  }

  async updateImages(id: string, update: ProductImagesUpdate): Promise<Product | null> {
    const result = this.stmt.updateImages.run({ id, images: JSON.stringify(update.images), image_url: update.imageUrl });
    this.pages.clear();
    return result.changes === 0 ? null : this.getById(id);
  }

  async listForAdmin(q: { categorySlug?: string; brandSlug?: string; inStock?: boolean; limit: number }): Promise<ProductSummary[]> {
    const where: string[] = [];
    const params: Record<string, string | number> = { limit: q.limit };
    if (q.categorySlug !== undefined) {
      where.push('category_slug = @category');
      params.category = q.categorySlug;
    }
    if (q.brandSlug !== undefined) {
      where.push('brand_slug = @brand');
      params.brand = q.brandSlug;
    }
    if (q.inStock !== undefined) {
      where.push('in_stock = @inStock');
      params.inStock = q.inStock ? 1 : 0;
    }
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM products ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY name, id LIMIT @limit`;
    return this.db.prepare<[Record<string, string | number>], SummaryRow>(sql).all(params).map(toSummary);
  }

  async getBySkus(skus: string[]): Promise<Map<string, StoredPart>> {
    const out = new Map<string, StoredPart>();
    if (skus.length === 0) return out;
    const list = JSON.stringify(skus);
    for (const r of this.stmt.retiredBySkus.all(list)) {
      const product = JSON.parse(r.data) as Product;
      out.set(product.sku, { product, active: false });
    }
    for (const r of this.stmt.bySkus.all(list)) out.set(r.sku, { product: toProduct(r), active: true });
    return out;
  }

  async deactivate(ids: string[], audit: CatalogAuditEntry[]): Promise<Product[]> {
    const moved: Product[] = [];
    const at = audit[0]?.at ?? new Date().toISOString();
    this.db.transaction(() => {
      for (const id of ids) {
        const row = this.stmt.byId.get(id);
        if (!row) continue;
        const product = toProduct(row);
        this.stmt.retire.run({ id, sku: product.sku, data: JSON.stringify(product), at });
        this.stmt.deleteById.run(id);
        moved.push(product);
      }
      const done = new Set(moved.map((p) => p.id));
      this.writeAudit(audit.filter((a) => done.has(a.productId)));
    })();
    if (moved.length) {
      this.localWrites++;
      this.pages.clear();
    }
    return moved;
  }

  async getDeactivated(id: string): Promise<Product | null> {
    const row = this.stmt.retiredById.get(id);
    return row ? (JSON.parse(row.data) as Product) : null;
  }

  async *scanSkus(batchSize: number): AsyncIterable<{ id: string; sku: string }[]> {
    let after = 0;
    for (;;) {
      const rows = this.stmt.scanSkus.all(after, batchSize);
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.rowid;
      yield rows.map((r) => ({ id: r.id, sku: r.sku }));
      if (rows.length < batchSize) return;
    }
  }

  async listAudit(q: { productId?: string; source?: string; limit: number }): Promise<CatalogAuditEntry[]> {
    const rows = q.productId
      ? this.stmt.auditByProduct.all(q.productId, q.limit)
      : q.source
        ? this.stmt.auditBySource.all(q.source, q.limit)
        : this.stmt.auditAll.all(q.limit);
    return rows.map((r) => ({
      at: r.at,
      actor: r.actor,
      source: r.source,
      productId: r.product_id,
      sku: r.sku,
      action: r.action,
      fields: JSON.parse(r.fields) as string[],
    }));
  }

  async saveImportJob(job: CatalogImportJob): Promise<void> {
    this.stmt.saveImport.run({ id: job.id, state: job.state, data: JSON.stringify(job) });
  }

  async getImportJob(id: string): Promise<CatalogImportJob | null> {
    const row = this.stmt.getImport.get(id);
    return row ? (JSON.parse(row.data) as CatalogImportJob) : null;
  }

  async addImportErrors(id: string, errors: ImportRowError[]): Promise<void> {
    if (errors.length === 0) return;
    this.db.transaction(() => {
      for (const e of errors) this.stmt.addImportError.run({ id, row: e.row, column: e.column, message: e.message });
    })();
  }

  async *importErrors(id: string, batchSize: number): AsyncIterable<ImportRowError[]> {
    let after = 0;
    for (;;) {
      const rows = this.stmt.importErrors.all(id, after, batchSize);
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.rowid;
      yield rows.map((r) => ({ row: r.row, column: r.column_name, message: r.message }));
      if (rows.length < batchSize) return;
    }
  }

  async failUnfinishedImports(message: string, at: string): Promise<number> {
    const rows = this.stmt.unfinishedImports.all();
    for (const r of rows) {
      const job = JSON.parse(r.data) as CatalogImportJob;
      await this.saveImportJob({ ...job, state: 'failed', message, finishedAt: at });
    }
    return rows.length;
  }

  async *scan(batchSize: number): AsyncIterable<Product[]> {
    let after = 0;
    for (;;) {
      const rows = this.stmt.scan.all(after, batchSize);
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.rowid;
      yield rows.map(toProduct);
      if (rows.length < batchSize) return;
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  /** Totals from the counts table, reread only after a write here or a commit by another connection. */
  private currentTotals(): CatalogTotals {
    const key = `${this.stmt.dataVersion.get()!.data_version}:${this.localWrites}`;
    if (this.totals?.key === key) return this.totals.value;
    const subcategories = this.stmt.subcategories.all().map((r) =>
      toSubcategory({
        category: r.category,
        brand: r.brand,
        categorySlug: r.category_slug,
        brandSlug: r.brand_slug,
        productCount: r.product_count,
      }),
    );
    const value = summarizeSubcategories(subcategories);
    this.totals = { key, value };
    this.pages.clear();
    return value;
  }
}
