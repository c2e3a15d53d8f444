import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { CrossReference, Fitment, Product, ProductImagesUpdate, ProductSummary, Subcategory, Testimonial } from '@forgeline/contracts/products';
import { MAX_PAGE_LIMIT } from '@forgeline/contracts/common';
import { loadIntoEmpty } from './bulk-load.ts';
import { productRow } from './product-row.ts';
import { fleetFits, serialInRange, serialKey, withHistory, type FitKey, type SerialKey } from '../../domain/part-history.ts';
import {
  codeKey,
  codeKeyUpperBound,
  pageWindow,
  subcategoryId,
  summarizeSubcategories,
  toSubcategory,
  type CatalogTotals,
} from '../../domain/products.ts';
import type { CatalogAuditEntry, CatalogImportJob, ImportRowError } from '@forgeline/contracts/catalog-admin';
import type { AltCodeHit, FleetQuery, MachineCount, MachineNarrowing, MachineQuery, NamedSlug, Page, ProductRepository, StoredPart } from '../../ports.ts';
import { ANCHOR_STRIDE, PageAnchors, type SortKey } from '../../domain/page-anchors.ts';
import { CodeKeyFilter } from './code-key-filter.ts';
import { CodeInfixIndex } from '@forgeline/search-engine/segments/code-infix';
import { StringColumn } from '@forgeline/search-engine/documents/string-column';

/*
 * Lists never count rows per request: `subcategory_counts` holds one row per (category, brand) pair and
 * triggers on `products` keep it exact inside the same transaction as the write. Every total (gallery,
 * category, brand, category+brand) is a sum over that small table, cached in memory and refreshed when
 * this connection writes or another one commits (PRAGMA data_version), e.g. the seed CLI.
 *
 * Pages are read with a deferred join: the page's rowids come from a covering index (slug, name, id),
 * then only those rows are read. A page past the first ANCHOR_STRIDE entries starts from the list's anchor
 * before it (every 256th key, read once per data version: domain/page-anchors.ts), so any page costs what
 * the first does.
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

-- A part's older numbers and cross-references, by normalised key (search, "Replaced by"), and the machines it
-- fits (the machine filter). Both are kept by triggers from JSON columns the code computes (code_keys, fit_keys), so
-- every write path keeps them exact, and a write that leaves a part's history as it was does not touch them.
CREATE TABLE IF NOT EXISTS product_codes (
  code_key TEXT NOT NULL,
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  product_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS product_codes_key ON product_codes(code_key);
CREATE INDEX IF NOT EXISTS product_codes_product ON product_codes(product_id);
CREATE TABLE IF NOT EXISTS product_fits (
  make_slug TEXT NOT NULL,
  model_slug TEXT NOT NULL,
  make TEXT NOT NULL,
  model TEXT NOT NULL,
  serial_from TEXT,
  serial_to TEXT,
  product_id TEXT NOT NULL
);

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

/**
 * How long the data must stay unchanged before the key filter is (re)built: at least this, and at least
 * CODE_KEY_FILTER_QUIET_BUILDS times the last build's time. At 2,000,000 parts a build takes ~2.5 s and an import's
 * commits come ~7-10 s apart: a 2 s wait still rebuilt the filter after every batch, a fifth of the catalog's CPU in
 * the profile, each build stale at the next commit.
 */
const CODE_KEY_FILTER_QUIET_MS = 2_000;
const CODE_KEY_FILTER_QUIET_BUILDS = 4;

/** Columns added after the first release: created on older files before the triggers that read them. */
const HISTORY_COLUMNS = ['replaces', 'cross_refs', 'fits', 'code_keys', 'fit_keys'] as const;

/**
 * A machine's parts are listed from product_fits alone: each fit row carries its part's name, category and brand, so
 * a page and its count are one index range (by name within the model, the model and category, or the model and
 * brand), whatever the catalogue's size. The indexes end with the fit's serial range, so a serial is checked in the
 * index too: a fleet's listing reads thousands of fit rows, and a row read for its range each cost it ~3 µs. A part's
 * own fits (product_fits_product) carry the machine and range for the same reason: a fleet's walk checks them part
 * by part (fleetPage).
 */
const FIT_LIST_COLUMNS = ['category_slug', 'brand_slug', 'name'] as const;
const FIT_LIST_INDEX_NAMES = ['product_fits_product', 'product_fits_model_name', 'product_fits_model_category', 'product_fits_model_brand'] as const;
const FIT_LIST_INDEXES = `
CREATE INDEX IF NOT EXISTS product_fits_product ON product_fits(product_id, make_slug, model_slug, serial_from, serial_to);
CREATE INDEX IF NOT EXISTS product_fits_model_name ON product_fits(make_slug, model_slug, name, product_id, serial_from, serial_to);
CREATE INDEX IF NOT EXISTS product_fits_model_category ON product_fits(make_slug, model_slug, category_slug, name, product_id, serial_from, serial_to);
CREATE INDEX IF NOT EXISTS product_fits_model_brand ON product_fits(make_slug, model_slug, brand_slug, name, product_id, serial_from, serial_to);
CREATE TRIGGER IF NOT EXISTS products_fits_listing AFTER UPDATE OF name, category_slug, brand_slug ON products
WHEN new.fit_keys <> '[]' AND (old.name IS NOT new.name OR old.category_slug IS NOT new.category_slug OR old.brand_slug IS NOT new.brand_slug) BEGIN
  UPDATE product_fits SET name = new.name, category_slug = new.category_slug, brand_slug = new.brand_slug WHERE product_id = new.id;
END;
`;

const HISTORY_TRIGGERS = `
CREATE TRIGGER IF NOT EXISTS products_codes_insert AFTER INSERT ON products WHEN new.code_keys <> '[]' BEGIN
  INSERT INTO product_codes (code_key, kind, value, product_id)
  SELECT json_extract(value, '$[1]'), json_extract(value, '$[0]'), json_extract(value, '$[2]'), new.id FROM json_each(new.code_keys);
END;
CREATE TRIGGER IF NOT EXISTS products_codes_update AFTER UPDATE OF code_keys, id ON products
WHEN old.code_keys IS NOT new.code_keys OR old.id IS NOT new.id BEGIN
  DELETE FROM product_codes WHERE product_id = old.id;
  INSERT INTO product_codes (code_key, kind, value, product_id)
  SELECT json_extract(value, '$[1]'), json_extract(value, '$[0]'), json_extract(value, '$[2]'), new.id FROM json_each(new.code_keys);
END;
CREATE TRIGGER IF NOT EXISTS products_codes_delete AFTER DELETE ON products WHEN old.code_keys <> '[]' BEGIN
  DELETE FROM product_codes WHERE product_id = old.id;
END;
CREATE TRIGGER IF NOT EXISTS products_fits_insert AFTER INSERT ON products WHEN new.fit_keys <> '[]' BEGIN
  INSERT INTO product_fits (make_slug, model_slug, make, model, serial_from, serial_to, product_id, category_slug, brand_slug, name)
  SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'),
    json_extract(value, '$[4]'), json_extract(value, '$[5]'), new.id, new.category_slug, new.brand_slug, new.name FROM json_each(new.fit_keys);
END;
CREATE TRIGGER IF NOT EXISTS products_fits_update AFTER UPDATE OF fit_keys, id ON products
WHEN old.fit_keys IS NOT new.fit_keys OR old.id IS NOT new.id BEGIN
  DELETE FROM product_fits WHERE product_id = old.id;
  INSERT INTO product_fits (make_slug, model_slug, make, model, serial_from, serial_to, product_id, category_slug, brand_slug, name)
  SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'),
    json_extract(value, '$[4]'), json_extract(value, '$[5]'), new.id, new.category_slug, new.brand_slug, new.name FROM json_each(new.fit_keys);
END;
CREATE TRIGGER IF NOT EXISTS products_fits_delete AFTER DELETE ON products WHEN old.fit_keys <> '[]' BEGIN
  DELETE FROM product_fits WHERE product_id = old.id;
END;
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
  replaces: string;
  cross_refs: string;
  fits: string;
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

const toProduct = (r: ProductRow): Product =>
  withHistory(
    {
      ...toSummary(r),
      description: r.description,
      make: r.make,
      price: r.price,
      specifications: JSON.parse(r.specifications) as Record<string, string>,
      weight: r.weight,
      dimensions: r.dimensions,
      createdAt: r.created_at,
    },
    {
      replaces: r.replaces === '[]' ? undefined : (JSON.parse(r.replaces) as string[]),
      crossReferences: r.cross_refs === '[]' ? undefined : (JSON.parse(r.cross_refs) as CrossReference[]),
      fits: r.fits === '[]' ? undefined : (JSON.parse(r.fits) as Fitment[]),
    },
  );

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
 * A ProductSummary as JSON, composed by SQLite (the same fields, in toSummary's order): a list page is then one
 * string per row, joined, instead of a row object, two JSON.parse calls and an object per product, serialised
 * again (at 500,000 parts a 48-product gallery page took 0.42 ms that way, 0.18 ms this way). Joined text rather
 * than json_object: tags and images are stored as JSON already (JSON.stringify, NOT NULL), and json() parsed and
 * wrote each again (this way a random page's rows cost ~15% less). json_quote escapes every text column.
 */
const SUMMARY_JSON = `'{"id":' || json_quote(id) || ',"name":' || json_quote(name) || ',"sku":' || json_quote(sku)
  || ',"category":' || json_quote(category) || ',"tags":' || tags || ',"imageUrl":' || json_quote(image_url)
  || ',"images":' || images || ',"inStock":' || CASE in_stock WHEN 1 THEN 'true' ELSE 'false' END
  || ',"availability":' || json_quote(availability) || ',"brandName":' || json_quote(brand_name)
  || ',"brand":' || json_quote(brand) || ',"partNumber":' || json_quote(part_number) || ',"slug":' || json_quote(slug) || '}'`;

/**
 * A page of rows by a covering index, then those rows only (see the note at the top), each as its summary's JSON.
 * Pages in the back half are found walking the index from its end (`desc`), so the last page costs what the first
 * does.
 */
const pageSql = (where: string, desc = false) =>
  `SELECT ${SUMMARY_JSON} FROM products WHERE rowid IN (
     SELECT rowid FROM products ${where} ORDER BY ${desc ? 'name DESC, id DESC' : 'name, id'} LIMIT @limit OFFSET @offset
   ) ORDER BY name, id`;

/** The same page from a list's anchor at or before it (domain/page-anchors.ts): O(log n + stride) at any depth. */
const pageFromSql = (where: string) =>
  `SELECT ${SUMMARY_JSON} FROM products WHERE rowid IN (
     SELECT rowid FROM products ${where ? `${where} AND` : 'WHERE'} (name, id) >= (@aname, @aid) ORDER BY name, id LIMIT @limit OFFSET @skip
   ) ORDER BY name, id`;

/** A page whose items are JSON text (itemsJson), made objects only if someone reads `items`. */
function jsonPage(rows: string[], total: number): Page<ProductSummary> {
  const itemsJson = `[${rows.join(',')}]`;
  let items: ProductSummary[] | undefined;
  return {
    total,
    itemsJson,
    get items() {
      return (items ??= JSON.parse(itemsJson) as ProductSummary[]);
    },
  };
}
/** Every ANCHOR_STRIDE-th key of a list, in one pass over its covering index. */
const anchorsSql = (where: string) =>
  `SELECT name, id FROM (SELECT name, id, row_number() OVER (ORDER BY name, id) AS n FROM products ${where})
   WHERE (n - 1) % ${ANCHOR_STRIDE} = 0 ORDER BY n`;

const PAGE_CACHE_SIZE = 500;
/** How many fleets' fitting-id sets (the search's narrowing) are kept. */
const FLEET_ID_SETS = 4;
/** How many fleet listings' counts are kept: a fleet in each of 85 categories, 20 times over. */
const FLEET_COUNTS = 2_000;
/**
 * A fleet listing's parts in order, each with the machines it fits, are kept once the listing is asked again (its count
 * already kept): its later pages are then slices of the list, not a read of thousands of fit rows each (1.3 ms sorting
 * ~2,000 at 500,000 parts). Only lists of up to FLEET_LIST_MAX parts (the gallery's ~150,000 for 50 machines keeps
 * fleetPage's reads), and FLEET_LIST_IDS parts in all (~120 bytes each): a fleet of 50 holds ~200,000 over the 85
 * categories. The least recently used go first.
 */
const FLEET_LIST_MAX = 20_000;
const FLEET_LIST_IDS = 300_000;
/**
 * What a fleet's page costs each way (fleetPage), in µs: walked, per part of the list walked past; sorted, per part the
 * fleet has in the list. Measured 2026-11-28 at 500,000 parts, 50 machines, in a category: alone 1.3 ms for ~680 parts
 * walked (each a look at its fits somewhere in the file), 0.9 ms for ~2,000 parts sorted; between other requests the
 * walk's scattered reads cost about twice as much, hence 4.
 */
const FLEET_WALK_US = 4;
const FLEET_SORT_US = 0.4;
/**
 * Pages of up to this many parts are kept (a storefront page is at most 100). A sitemap's 50,000-part page is read once
 * per file and was kept too: 41 of them, with their parsed rows, took the catalog from 1.2 to 3.8 GB at 2,000,000 parts.
 */
const CACHED_PAGE_MAX_ITEMS = MAX_PAGE_LIMIT;

export class SqliteProductRepository implements ProductRepository {
  private readonly stmt;
  private totals: { key: string; value: CatalogTotals } | null = null;
  private localWrites = 0;
  /** The keys of older and other makers' numbers as the data last rested: a hash filter, and the keys with their pieces' index. */
  private codeKeys: { version: string; filter: CodeKeyFilter; keys: StringColumn; infix: CodeInfixIndex } | null = null;
  private codeKeysBuild: Promise<void> | null = null;
  /** The data's version as lookups last saw it, and since when: the filter is built once writes have paused. */
  private codeKeysSeen = { version: '', since: 0 };
  /** How long the last key filter build took (ms): the data must rest a few times that long before the next one. */
  private codeKeysBuildMs = 0;
  /**
   * Recently served pages (category, brand, gallery), most recent last. Emptied whenever the totals are
   * reread (a write here or a commit elsewhere) and on an image update, so it never serves stale rows.
   * Callers must not mutate what they get.
   */
  private readonly pages = new Map<string, Page<ProductSummary>>();
  /** Deep pages start from these (keyed by the totals' version, so a write drops them). */
  private readonly anchors = new PageAnchors<string>();

  private constructor(
    private readonly db: Database.Database,
    /** How a fleet's pages are read (fleetPage): the cheaper way, or always one (tests hold both to the same answers). */
    private readonly fleetRead: 'cheaper' | 'walk' | 'sort' = 'cheaper',
  ) {
    const s = <T = unknown>(sql: string) => db.prepare<unknown[], T>(sql);
    const list = (where: string) => ({
      asc: s<string>(pageSql(where)).pluck(),
      desc: s<string>(pageSql(where, true)).pluck(),
      from: s<string>(pageFromSql(where)).pluck(),
      anchors: s<SortKey>(anchorsSql(where)),
    });
    this.stmt = {
      byId: s<ProductRow>('SELECT rowid, * FROM products WHERE id = ?'),
      bySku: s<ProductRow>('SELECT rowid, * FROM products WHERE sku = ?'),
      bySkuKey: s<ProductRow>('SELECT rowid, * FROM products WHERE sku_key = ? LIMIT 2'),
      summaries: s<SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM products WHERE id IN (SELECT value FROM json_each(?))`),
      summaryJson: s<{ id: string; json: string }>(`SELECT id, ${SUMMARY_JSON} AS json FROM products WHERE id IN (SELECT value FROM json_each(?))`),
      fitsOf: s<{ product_id: string; make_slug: string; model_slug: string; serial_from: string | null; serial_to: string | null }>(
        'SELECT product_id, make_slug, model_slug, serial_from, serial_to FROM product_fits WHERE product_id IN (SELECT value FROM json_each(?))',
      ),
      category: list('WHERE category_slug = @category'),
      categoryBrand: list('WHERE category_slug = @category AND brand_slug = @brand'),
      brand: list('WHERE brand_slug = @brand'),
      all: list(''),
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
           weight, dimensions, created_at, replaces, cross_refs, fits, code_keys, fit_keys)
         VALUES (@id, @sku, @name, @category, @category_slug, @brand_name, @brand_slug, @brand, @make, @part_number,
           @sku_key, @part_key, @slug, @description, @image_url, @images, @tags, @in_stock, @price, @availability, @specifications,
           @weight, @dimensions, @created_at, @replaces, @cross_refs, @fits, @code_keys, @fit_keys)
         ON CONFLICT (sku) DO UPDATE SET id = excluded.id, name = excluded.name, category = excluded.category,
           category_slug = excluded.category_slug, brand_name = excluded.brand_name, brand_slug = excluded.brand_slug,
           brand = excluded.brand, make = excluded.make, part_number = excluded.part_number, sku_key = excluded.sku_key,
           part_key = excluded.part_key, slug = excluded.slug, description = excluded.description,
           image_url = excluded.image_url, images = excluded.images, tags = excluded.tags, in_stock = excluded.in_stock,
           price = excluded.price, availability = excluded.availability, specifications = excluded.specifications,
           weight = excluded.weight, dimensions = excluded.dimensions, created_at = excluded.created_at,
           replaces = excluded.replaces, cross_refs = excluded.cross_refs, fits = excluded.fits, code_keys = excluded.code_keys,
           fit_keys = excluded.fit_keys`,
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
           specifications = @specifications, weight = @weight, dimensions = @dimensions, created_at = @created_at,
           replaces = @replaces, cross_refs = @cross_refs, fits = @fits, code_keys = @code_keys, fit_keys = @fit_keys
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
   * Open (and create) the database file; `:memory:` works too. `cacheMb`: page cache (64 MB by default); `mmapMb`:
   * memory-mapped reads (none by default: the OS's file cache keeps the hot pages outside the process; see the
   * catalog's SQLITE_CACHE_MB). `bulkWriter`: a connection that writes large batches (the import worker):
   * it never checkpoints on its own (its owner calls checkpoint() at a pace it chooses), since an automatic checkpoint
   * every ~40 MB copies the same index pages back into the file again and again.
   */
  static open(
    file: string,
    opts: { cacheMb?: number; mmapMb?: number; bulkWriter?: boolean; fleetRead?: 'cheaper' | 'walk' | 'sort' } = {},
  ): SqliteProductRepository {
    if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = -${(opts.cacheMb ?? 64) * 1024}`); // KiB of page cache
    db.pragma(`mmap_size = ${(opts.mmapMb ?? 0) * 1024 * 1024}`);
    db.pragma('temp_store = MEMORY');
    // Checkpoint every ~40 MB of WAL, not 4 MB: a bulk import rewrites the same index pages many times over, and each
    // checkpoint copies them back into the database file. After a checkpoint the WAL file shrinks back to 64 MB.
    db.pragma(`wal_autocheckpoint = ${opts.bulkWriter ? 0 : 10000}`);
    db.pragma('journal_size_limit = 67108864');
    db.exec(SCHEMA);
    const columns = new Set(db.prepare<[], { name: string }>('PRAGMA table_info(products)').all().map((c) => c.name));
    for (const c of HISTORY_COLUMNS) if (!columns.has(c)) db.exec(`ALTER TABLE products ADD COLUMN ${c} TEXT NOT NULL DEFAULT '[]'`);
    const fitColumns = new Set(db.prepare<[], { name: string }>('PRAGMA table_info(product_fits)').all().map((c) => c.name));
    if (FIT_LIST_COLUMNS.some((c) => !fitColumns.has(c))) {
      db.transaction(() => {
        for (const c of FIT_LIST_COLUMNS) if (!fitColumns.has(c)) db.exec(`ALTER TABLE product_fits ADD COLUMN ${c} TEXT NOT NULL DEFAULT ''`);
        db.exec(`UPDATE product_fits SET (category_slug, brand_slug, name) = (SELECT category_slug, brand_slug, name FROM products WHERE products.id = product_fits.product_id)`);
        // The triggers of the first version wrote rows without these columns: make them again.
        db.exec('DROP TRIGGER IF EXISTS products_fits_insert; DROP TRIGGER IF EXISTS products_fits_update;');
      })();
    }
    db.exec('DROP INDEX IF EXISTS product_fits_machine');
    // Fit indexes made before they carried the serial range are made again (once; seconds at 2,000,000 parts).
    for (const name of FIT_LIST_INDEX_NAMES) {
      const columns = db.prepare<[string], { name: string }>('SELECT name FROM pragma_index_info(?)').all(name).map((c) => c.name);
      if (columns.length && !columns.includes('serial_to')) db.exec(`DROP INDEX ${name}`);
    }
    db.exec(HISTORY_TRIGGERS);
    db.exec(FIT_LIST_INDEXES);
    // The machine filter's serial check (a query-time function; no trigger or index uses it). A fleet's listing asks
    // it of thousands of fit rows a machine at a time: the machine's serial is parsed once per run of rows.
    let last: { serial: string; key: SerialKey } | null = null;
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    db.function('serial_in_range', { deterministic: true }, (serial: unknown, from: unknown, to: unknown) => {
      const s = String(serial);
      if (last?.serial !== s) last = { serial: s, key: serialKey(s) };
      return serialInRange(last.key, text(from), text(to)) ? 1 : 0;
    });
    // Whether a fit's range admits a fleet machine of its make and model (fleetPage's walk): @fleet parsed once a statement.
    let fleetSerials: { json: string; byModel: Map<string, (SerialKey | null)[]> } | null = null;
    db.function('fleet_serial_fits', { deterministic: true }, (fleet: unknown, make: unknown, model: unknown, from: unknown, to: unknown) => {
      const json = String(fleet);
      if (fleetSerials?.json !== json) {
        const byModel = new Map<string, (SerialKey | null)[]>();
        for (const [mk, md, serial] of JSON.parse(json) as [string, string, string | null][]) {
          byModel.set(`${mk}|${md}`, [...(byModel.get(`${mk}|${md}`) ?? []), serial ? serialKey(serial) : null]);
        }
        fleetSerials = { json, byModel };
      }
      const serials = fleetSerials.byModel.get(`${String(make)}|${String(model)}`) ?? [];
      return serials.some((s) => s === null || serialInRange(s, text(from), text(to))) ? 1 : 0;
    });
    return new SqliteProductRepository(db, opts.fleetRead);
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

  async listByCategory(q: { categorySlug: string; brandSlug?: string; limit: number; offset: number } & MachineNarrowing): Promise<Page<ProductSummary>> {
    const totals = this.currentTotals();
    const params = { category: q.categorySlug, brand: q.brandSlug };
    if (q.fleet) return this.fleetPage(params, q.fleet, q);
    if (q.machine) {
      const where = q.brandSlug !== undefined ? 'WHERE category_slug = @category AND brand_slug = @brand' : 'WHERE category_slug = @category';
      return this.machinePage(where, params, q.machine, q);
    }
    if (q.brandSlug !== undefined) {
      const total = totals.byPair.get(subcategoryId(q.categorySlug, q.brandSlug)) ?? 0;
      return this.page('categoryBrand', params, total, q);
    }
    return this.page('category', params, totals.byCategory.get(q.categorySlug)?.productCount ?? 0, q);
  }

  async listByBrand(q: { brandSlug: string; limit: number; offset: number } & MachineNarrowing): Promise<Page<ProductSummary>> {
    if (q.fleet) return this.fleetPage({ brand: q.brandSlug }, q.fleet, q);
    if (q.machine) return this.machinePage('WHERE brand_slug = @brand', { brand: q.brandSlug }, q.machine, q);
    const total = this.currentTotals().byBrand.get(q.brandSlug)?.productCount ?? 0;
    return this.page('brand', { brand: q.brandSlug }, total, q);
  }

  async listAll(q: { limit: number; offset: number } & MachineNarrowing): Promise<Page<ProductSummary>> {
    if (q.fleet) return this.fleetPage({}, q.fleet, q);
    if (q.machine) return this.machinePage('', {}, q.machine, q);
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
    const stmts = this.stmt[kind];
    const start = this.anchors.startSync(this.totals!.key, `${kind}|${params.category ?? ''}|${params.brand ?? ''}`, q.offset, () =>
      stmts.anchors.all(params),
    );
    const rows = start
      ? stmts.from.all({ ...params, aname: start.anchor.name, aid: start.anchor.id, skip: start.skip, limit: Math.min(q.limit, total - q.offset) })
      : stmts[w.desc ? 'desc' : 'asc'].all({ ...params, limit: w.limit, offset: w.offset });
    const page = jsonPage(rows, total);
    if (q.limit > CACHED_PAGE_MAX_ITEMS) return page;
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

  /** The seed's first load into an empty catalogue, in one transaction with the indexes built at its end (bulk-load.ts). */
  async loadIntoEmpty(batches: AsyncIterable<Product[]>): Promise<boolean> {
    const loaded = await loadIntoEmpty(this.db, batches);
    if (loaded) {
      this.localWrites++;
      this.pages.clear();
    }
    return loaded;
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
        const row = productRow(p);
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
  /** Changes with every write here and every commit by another connection (the seed CLI, the import worker). */
  private dataKey(): string {
    return `${this.stmt.dataVersion.get()!.data_version}:${this.localWrites}`;
  }

  private currentTotals(): CatalogTotals {
    const key = this.dataKey();
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
    this.machines.clear();
    this.fleetIds.clear();
    this.fleetCounts.clear();
    this.fleetLists.clear();
    this.fleetListIds = 0;
    return value;
  }

  // ---- a part's history and the machines it fits

  /** Machine lists and fitting-id sets, dropped with the pages whenever the data changes. */
  private readonly machines = new Map<string, unknown>();
  private readonly adHoc = new Map<string, Database.Statement>();
  private prepared<T>(sql: string): Database.Statement<unknown[], T> {
    let stmt = this.adHoc.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.adHoc.set(sql, stmt);
    }
    return stmt as Database.Statement<unknown[], T>;
  }
  /** Fleets' fitting-id sets (each large) and listing counts, apart from the rest. */
  private readonly fleetIds = new Map<string, unknown>();
  private readonly fleetCounts = new Map<string, unknown>();
  /** Fleet listings' parts in order (fleetList), dropped with the counts whenever the data changes; how many parts in all. */
  private readonly fleetLists = new Map<string, { ids: string[]; machines: string[] }>();
  private fleetListIds = 0;
  private memo<T>(key: string, make: () => T, opts: { store: Map<string, unknown>; max: number } = { store: this.machines, max: 200 }): T {
    this.currentTotals(); // drops stale entries first
    const { store, max } = opts;
    if (store.has(key)) return store.get(key) as T;
    const value = make();
    store.set(key, value);
    if (store.size > max) store.delete(store.keys().next().value!);
    return value;
  }

  /** The ids of the parts that fit a machine, as SQL (parameters @make, @model, @serial). */
  private static fittingSql(m: MachineQuery): string {
    return `SELECT product_id FROM product_fits WHERE make_slug = @make${m.modelSlug ? ' AND model_slug = @model' : ''}${
      m.serial ? ' AND serial_in_range(@serial, serial_from, serial_to)' : ''
    }`;
  }
  private static machineParams(m: MachineQuery) {
    return { make: m.makeSlug, model: m.modelSlug ?? null, serial: m.serial ?? null };
  }

  /** One model's parts, from the fit rows' own index (see FIT_LIST_INDEXES). */
  private modelPage(
    by: { category?: string; brand?: string },
    m: MachineQuery & { modelSlug: string },
    q: { limit: number; offset: number },
  ): Page<ProductSummary> {
    const where = [
      'f.make_slug = @make AND f.model_slug = @model',
      ...(by.category !== undefined ? ['f.category_slug = @category'] : []),
      ...(by.brand !== undefined ? ['f.brand_slug = @brand'] : []),
      ...(m.serial ? ['serial_in_range(@serial, f.serial_from, f.serial_to)'] : []),
    ].join(' AND ');
    const params = { ...SqliteProductRepository.machineParams(m), category: by.category ?? null, brand: by.brand ?? null };
    return this.fitPage(`FROM product_fits f WHERE ${where}`, params, q);
  }

  /**
   * The parts that fit any machine of a fleet, read whichever way costs less for the page asked (FLEET_WALK_US,
   * FLEET_SORT_US): sorted, the fleet's fit rows (a range of the fit rows' own index per machine, in one statement)
   * grouped by part in name order, which costs what the fleet has in the list; or walked, the list's own index in
   * name order (as an unfiltered page reads it), each part's fits checked until the page is full, which costs the
   * parts walked past. A page near the front of a list the fleet covers much of is walked: the gallery holds 150,000
   * parts of 50 machines at 500,000, 80 ms sorted, 1-3 ms walked.
   */
  private fleetPage(by: { category?: string; brand?: string }, fleet: FleetQuery, q: { limit: number; offset: number }): Page<ProductSummary> {
    const params = { fleet: SqliteProductRepository.fleetJson(fleet), category: by.category ?? null, brand: by.brand ?? null };
    const source = SqliteProductRepository.fleetSource(by);
    const key = `fleet|${source}|${JSON.stringify(params)}`;
    // Kept apart from the other counts, so that other buyers' machine filters do not push out the counts of a fleet
    // whose buyer pages through the categories.
    const hashed = createHash('sha1').update(key).digest('base64');
    this.currentTotals(); // drops stale counts and lists first
    const again = this.fleetCounts.has(hashed);
    const total = this.memo(hashed, () => this.fitCount(source, params), {
      store: this.fleetCounts,
      max: FLEET_COUNTS,
    });
    const w = pageWindow(total, q.limit, q.offset);
    if (!w) return { items: [], total };
    const pageKey = `${key}|${q.limit}|${q.offset}`;
    const cached = this.pages.get(pageKey);
    if (cached) return cached;
    // A listing asked again, short enough to keep, is read whole once per data version and its pages sliced from it (a
    // fleet asked once, e.g. a new buyer's first page, is read as before; the tests' fixed ways, 'walk' and 'sort',
    // always read).
    if (this.fleetRead === 'cheaper' && total <= FLEET_LIST_MAX && (again || this.fleetLists.has(hashed))) {
      const list = this.fleetList(hashed, source, params);
      const ids = list.ids.slice(q.offset, q.offset + q.limit);
      const fits = new Map(ids.map((id, i) => [id, SqliteProductRepository.fleetIndexes(list.machines[q.offset + i]!)]));
      const page = jsonPage(this.summariesJson(ids, fits), total);
      this.pages.set(pageKey, page);
      if (this.pages.size > PAGE_CACHE_SIZE) this.pages.delete(this.pages.keys().next().value!);
      return page;
    }
    const walk =
      this.fleetRead === 'cheaper' ? FLEET_WALK_US * (w.offset + w.limit) * this.listSize(by) < FLEET_SORT_US * total * total : this.fleetRead === 'walk';
    const order = w.desc ? 'DESC' : 'ASC';
    const window = { ...params, limit: w.limit, offset: w.offset };
    let ids: string[];
    let fits: Map<string, number[]>;
    if (walk) {
      ids = this.prepared<string>(
        `SELECT p.id FROM products p WHERE ${SqliteProductRepository.fleetWalkWhere(by)} ORDER BY p.name ${order}, p.id ${order} LIMIT @limit OFFSET @offset`,
      )
        .pluck()
        .all(window);
      fits = this.fleetFitsOf(ids, fleet);
    } else {
      // Sorted, the rows at hand say which machines each part fits (a second look at the page's fits cost 0.5 ms).
      const rows = this.prepared<[string, string]>(
        `SELECT f.product_id, group_concat(m.i) ${source} GROUP BY f.name, f.product_id ORDER BY f.name ${order}, f.product_id ${order} LIMIT @limit OFFSET @offset`,
      )
        .raw()
        .all(window);
      ids = rows.map((r) => r[0]);
      fits = new Map(rows.map(([id, machines]) => [id, SqliteProductRepository.fleetIndexes(machines)]));
    }
    if (w.desc) ids.reverse();
    const page = jsonPage(this.summariesJson(ids, fits), total);
    this.pages.set(pageKey, page);
    if (this.pages.size > PAGE_CACHE_SIZE) this.pages.delete(this.pages.keys().next().value!);
    return page;
  }

  /** A part's machines in a fleet (group_concat's `m.i`, one per fit row), each once, in order. */
  private static fleetIndexes(machines: string): number[] {
    return [...new Set(machines.split(',').map(Number))].sort((a, b) => a - b);
  }

  /**
   * A fleet listing's parts in name order, with the fleet's machines each fits (group_concat of `m.i`), kept (most
   * recently used last) until the data changes, as the count is.
   */
  private fleetList(key: string, source: string, params: Record<string, unknown>): { ids: string[]; machines: string[] } {
    const kept = this.fleetLists.get(key);
    if (kept) {
      this.fleetLists.delete(key);
      this.fleetLists.set(key, kept);
      return kept;
    }
    const rows = this.prepared<[string, string]>(`SELECT f.product_id, group_concat(m.i) ${source} GROUP BY f.name, f.product_id ORDER BY f.name, f.product_id`)
      .raw()
      .all(params);
    const list = { ids: rows.map((r) => r[0]), machines: rows.map((r) => r[1]) };
    this.fleetLists.set(key, list);
    this.fleetListIds += list.ids.length;
    while (this.fleetListIds > FLEET_LIST_IDS && this.fleetLists.size > 1) {
      const [oldest, dropped] = this.fleetLists.entries().next().value!;
      this.fleetLists.delete(oldest);
      this.fleetListIds -= dropped.ids.length;
    }
    return list;
  }

  /**
   * A list's parts (`p`) that fit the fleet: each part's fits by its own index, the machine looked up in the fleet
   * (the unary + keeps that a lookup, not 50 probes of the index), the range checked only when the fit has one.
   */
  private static fleetWalkWhere(by: { category?: string; brand?: string }): string {
    return [
      ...(by.category !== undefined ? ['p.category_slug = @category'] : []),
      ...(by.brand !== undefined ? ['p.brand_slug = @brand'] : []),
      `EXISTS (SELECT 1 FROM product_fits f WHERE f.product_id = p.id
         AND (+f.make_slug, +f.model_slug) IN (SELECT value ->> 0, value ->> 1 FROM json_each(@fleet))
         AND ((f.serial_from IS NULL AND f.serial_to IS NULL) OR fleet_serial_fits(@fleet, f.make_slug, f.model_slug, f.serial_from, f.serial_to)))`,
    ].join(' AND ');
  }

  /** How many parts a list holds, from the totals. */
  private listSize(by: { category?: string; brand?: string }): number {
    const t = this.currentTotals();
    if (by.category !== undefined && by.brand !== undefined) return t.byPair.get(subcategoryId(by.category, by.brand)) ?? 0;
    if (by.category !== undefined) return t.byCategory.get(by.category)?.productCount ?? 0;
    if (by.brand !== undefined) return t.byBrand.get(by.brand)?.productCount ?? 0;
    return t.total;
  }

  /** The fit rows (`f`) of a fleet's machines (`m`, `m.i` its index in the fleet), within a category or a brand; `@fleet` is fleetJson's. */
  private static fleetSource(by: { category?: string; brand?: string }): string {
    const on = [
      'f.make_slug = m.make AND f.model_slug = m.model',
      ...(by.category !== undefined ? ['f.category_slug = @category'] : []),
      ...(by.brand !== undefined ? ['f.brand_slug = @brand'] : []),
    ].join(' AND ');
    // LIMIT -1 keeps the machines a subquery of their own (not flattened into the join), so each machine's JSON is
    // read once, not once per fit row (a fifth of the statement's time). A row without a range fits any serial. A
    // range whose ends have the serial's own shape (its letters, as many digits) is compared as text, which for such
    // keys is serialInRange's rule; any other range is left to serialInRange itself (a JavaScript call: 0.6 µs a row,
    // where a fleet's listing checks hundreds).
    return `FROM (SELECT key AS i, value ->> 0 AS make, value ->> 1 AS model, value ->> 2 AS serial, value ->> 3 AS serial_key,
        value ->> 4 AS shape FROM json_each(@fleet) LIMIT -1) m
      JOIN product_fits f ON ${on}
      WHERE m.serial IS NULL OR (f.serial_from IS NULL AND f.serial_to IS NULL) OR CASE
        WHEN (f.serial_from IS NULL OR f.serial_from GLOB m.shape) AND (f.serial_to IS NULL OR f.serial_to GLOB m.shape)
        THEN (f.serial_from IS NULL OR m.serial_key >= f.serial_from) AND (f.serial_to IS NULL OR m.serial_key <= f.serial_to)
        ELSE serial_in_range(m.serial, f.serial_from, f.serial_to) END`;
  }

  /** A fleet as `@fleet`: each machine's slugs and serial, with the serial's key and shape (a GLOB: `RJS[0-9][0-9]…`). */
  private static fleetJson(fleet: FleetQuery): string {
    return JSON.stringify(
      fleet.map((m) => {
        const key = m.serial ? serialKey(m.serial) : null;
        const digits = key && key.number !== null ? key.text.length - key.prefix.length : 0;
        return [m.makeSlug, m.modelSlug, m.serial ?? null, key?.text ?? null, digits ? key!.prefix + '[0-9]'.repeat(digits) : null];
      }),
    );
  }

  /**
   * A page of the parts the fit rows of `source` (`FROM … f …`, a row per fit) name, by name: the count kept per data
   * version, the page read from the fit rows' indexes, then the page's summaries.
   */
  private fitPage(source: string, params: Record<string, unknown>, q: { limit: number; offset: number }): Page<ProductSummary> {
    const key = `fits|${source}|${JSON.stringify(params)}`;
    const total = this.memo(`count|${key}`, () => this.fitCount(source, params));
    const w = pageWindow(total, q.limit, q.offset);
    if (!w) return { items: [], total };
    const pageKey = `${key}|${q.limit}|${q.offset}`;
    const cached = this.pages.get(pageKey);
    if (cached) return cached;
    const ids = this.prepared<[string, string]>(
      `SELECT DISTINCT f.name, f.product_id ${source} ORDER BY ${w.desc ? 'f.name DESC, f.product_id DESC' : 'f.name, f.product_id'} LIMIT @limit OFFSET @offset`,
    )
      .raw()
      .all({ ...params, limit: w.limit, offset: w.offset })
      .map((r) => r[1]);
    if (w.desc) ids.reverse();
    const page = jsonPage(this.summariesJson(ids), total);
    this.pages.set(pageKey, page);
    if (this.pages.size > PAGE_CACHE_SIZE) this.pages.delete(this.pages.keys().next().value!);
    return page;
  }

  /**
   * How many parts the fit rows of `source` name, through a sort by (name, id): each machine's rows come in that
   * order, and it took 25% less than COUNT(DISTINCT product_id)'s b-tree of random ids.
   */
  private fitCount(source: string, params: Record<string, unknown>): number {
    return this.prepared<{ n: number }>(`SELECT COUNT(*) AS n FROM (SELECT 1 ${source} GROUP BY f.name, f.product_id)`).get(params)!.n;
  }

  /** The summaries of `ids` as JSON, in that order (unknown ids left out), each with its fitsMachines when given. */
  private summariesJson(ids: string[], fitsMachines?: Map<string, number[]>): string[] {
    const json = new Map(this.stmt.summaryJson.all(JSON.stringify(ids)).map((r) => [r.id, r.json]));
    return ids.flatMap((id) => {
      const summary = json.get(id);
      if (summary === undefined) return [];
      // The summary's JSON ends with its closing brace: fitsMachines goes in before it.
      return [fitsMachines ? `${summary.slice(0, -1)},"fitsMachines":[${(fitsMachines.get(id) ?? []).join(',')}]}` : summary];
    });
  }

  private machinePage(where: string, params: Record<string, unknown>, m: MachineQuery, q: { limit: number; offset: number }): Page<ProductSummary> {
    if (m.modelSlug) {
      const by = { category: params.category as string | undefined, brand: params.brand as string | undefined };
      return this.modelPage(by, m as MachineQuery & { modelSlug: string }, q);
    }
    const filter = `id IN (${SqliteProductRepository.fittingSql(m)})`;
    const sqlWhere = where ? `${where} AND ${filter}` : `WHERE ${filter}`;
    const all = { ...params, ...SqliteProductRepository.machineParams(m) };
    const total = this.memo(`count|${sqlWhere}|${JSON.stringify(all)}`, () => this.prepared<{ n: number }>(`SELECT COUNT(*) AS n FROM products ${sqlWhere}`).get(all)!.n);
    const w = pageWindow(total, q.limit, q.offset);
    if (!w) return { items: [], total };
    const key = `fit|${sqlWhere}|${JSON.stringify(all)}|${q.limit}|${q.offset}`;
    const cached = this.pages.get(key);
    if (cached) return cached;
    const rows = this.prepared<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM products ${sqlWhere} ORDER BY ${w.desc ? 'name DESC, id DESC' : 'name, id'} LIMIT @limit OFFSET @offset`,
    ).all({ ...all, limit: w.limit, offset: w.offset });
    if (w.desc) rows.reverse();
    const page = { items: rows.map(toSummary), total };
    this.pages.set(key, page);
    if (this.pages.size > PAGE_CACHE_SIZE) this.pages.delete(this.pages.keys().next().value!);
    return page;
  }

  async findAltCodes(q: { keys: string[]; prefix?: string; infix?: string; kind?: AltCodeHit['kind']; limit: number }): Promise<AltCodeHit[]> {
    const kind = q.kind ? ' AND kind = @kind' : '';
    // Only the keys the filter may hold go to SQLite: a typo lookup's ~640 variants become one or two, and a product
    // page's replacement lookup (its own number as someone's older one: almost never) usually none.
    const keys = [...this.possibleCodeKeys(q.keys)];
    let scanFor: string | null = null;
    if (q.infix) {
      // Keys holding the piece, from the keys' piece index; while it is being made again after a change, a scan.
      const current = this.currentCodeKeyFilter() && this.codeKeys;
      if (current) for (const i of current.infix.find((k) => current.keys.get(k), q.infix, q.limit)) keys.push(current.keys.get(i));
      else scanFor = q.infix;
    }
    if (scanFor) {
      const scanned = this.prepared<{ code_key: string; kind: AltCodeHit['kind']; value: string; product_id: string }>(
        `SELECT code_key, kind, value, product_id FROM product_codes WHERE instr(code_key, @piece) > 0${kind} LIMIT @limit`,
      ).all({ piece: scanFor, kind: q.kind ?? null, limit: q.limit });
      keys.push(...new Set(scanned.map((r) => r.code_key)));
    }
    if (keys.length === 0 && !q.prefix) return [];
    type Row = { code_key: string; kind: AltCodeHit['kind']; value: string; product_id: string };
    const params = { key: keys[0] ?? null, keys: JSON.stringify(keys), prefix: q.prefix ?? null, end: q.prefix ? codeKeyUpperBound(q.prefix) : null, kind: q.kind ?? null, limit: q.limit };
    let sql: string;
    if (keys.length === 1 && !q.prefix) {
      // One key: one index probe, without the IN list and the UNION (0.14 ms of a product page at 500,000 parts).
      sql = `SELECT code_key, kind, value, product_id FROM product_codes WHERE code_key = @key${kind} LIMIT @limit`;
    } else {
      const parts: string[] = [];
      if (keys.length) parts.push(`SELECT rowid FROM product_codes WHERE code_key IN (SELECT value FROM json_each(@keys))${kind}`);
      if (q.prefix) parts.push(`SELECT rowid FROM product_codes WHERE code_key >= @prefix AND code_key < @end${kind}`);
      sql = `SELECT code_key, kind, value, product_id FROM product_codes WHERE rowid IN (${parts.join(' UNION ')}) LIMIT @limit`;
    }
    const rows = this.prepared<Row>(sql).all(params);
    return rows.map((r) => ({ productId: r.product_id, kind: r.kind, key: r.code_key, value: r.value }));
  }

  /** The keys that may exist: all of them while the filter is (re)built after a change. */
  private possibleCodeKeys(keys: string[]): string[] {
    const filter = this.currentCodeKeyFilter();
    return filter ? keys.filter((k) => filter.mightHave(k)) : keys;
  }

  /** The filter when it holds the data as it is now; otherwise null, and a rebuild starts (one at a time) once the data has rested. */
  private currentCodeKeyFilter(): CodeKeyFilter | null {
    const version = this.dataKey();
    if (this.codeKeys?.version === version) return this.codeKeys.filter;
    const now = Date.now();
    if (this.codeKeysSeen.version !== version) this.codeKeysSeen = { version, since: now };
    // Built once the data has not changed for a moment: during an import's stream of commits every build (1.2 million
    // keys at 2,000,000 parts, ~2 s) was overtaken and thrown away, half the catalog's CPU in the profile.
    const quietMs = Math.max(CODE_KEY_FILTER_QUIET_MS, CODE_KEY_FILTER_QUIET_BUILDS * this.codeKeysBuildMs);
    if (!this.codeKeysBuild && now - this.codeKeysSeen.since >= quietMs) {
      this.codeKeysBuild = this.buildCodeKeyFilter().finally(() => {
        this.codeKeysBuild = null;
      });
    }
    return null;
  }

  /**
   * Reads every key through its index in chunks, yielding to the event loop between them so searches go on (1.2
   * million keys at 2,000,000 parts); kept only if nothing was written meanwhile (an import rebuilds it when done).
   */
  private async buildCodeKeyFilter(): Promise<void> {
    const version = this.dataKey();
    const started = Date.now();
    const filter = new CodeKeyFilter();
    const all: string[] = [];
    const chunk = this.prepared<{ k: string }>('SELECT code_key AS k FROM product_codes WHERE code_key > ? ORDER BY code_key LIMIT 20000');
    for (let after = ''; ; ) {
      const rows = chunk.all(after);
      for (const r of rows) {
        filter.add(r.k);
        if (all.at(-1) !== r.k) all.push(r.k);
      }
      if (rows.length < 20000) break;
      after = rows[rows.length - 1]!.k;
      await new Promise((resolve) => setImmediate(resolve));
      if (!this.db.open) return;
    }
    // Any part of an older number: the keys (one string, ~8 MB at 500,000 parts) and an index of their pieces (~12 MB).
    const keys = StringColumn.from(all);
    const infix = CodeInfixIndex.over(keys.size, (i) => keys.get(i));
    this.codeKeysBuildMs = Date.now() - started;
    if (this.dataKey() === version) this.codeKeys = { version, filter, keys, infix };
  }

  /** Resolves with the number of keys once the typo lookups' filter holds the data as it is now (tests, logs). */
  async codeKeyFilterReady(): Promise<number> {
    for (;;) {
      const filter = this.currentCodeKeyFilter();
      if (filter) return filter.size;
      // No build yet: the data changed less than CODE_KEY_FILTER_QUIET_MS ago.
      await (this.codeKeysBuild ?? new Promise((resolve) => setTimeout(resolve, 50)));
    }
  }

  async listMachineMakes(): Promise<MachineCount[]> {
    return this.memo('makes', () =>
      this.prepared<{ slug: string; name: string; n: number }>(
        'SELECT make_slug AS slug, MIN(make) AS name, COUNT(DISTINCT product_id) AS n FROM product_fits GROUP BY make_slug ORDER BY name, slug',
      )
        .all()
        .map((r) => ({ name: r.name, slug: r.slug, productCount: r.n })),
    );
  }

  async listMachineModels(makeSlug: string): Promise<{ make: MachineCount; models: MachineCount[] } | null> {
    const make = (await this.listMachineMakes()).find((m) => m.slug === makeSlug);
    if (!make) return null;
    const models = this.memo(`models|${makeSlug}`, () =>
      this.prepared<{ slug: string; name: string; n: number }>(
        'SELECT model_slug AS slug, MIN(model) AS name, COUNT(DISTINCT product_id) AS n FROM product_fits WHERE make_slug = ? GROUP BY model_slug ORDER BY name, slug',
      )
        .all(makeSlug)
        .map((r) => ({ name: r.name, slug: r.slug, productCount: r.n })),
    );
    return { make, models };
  }

  async idsFitting(machine: MachineQuery): Promise<Set<string>> {
    const params = SqliteProductRepository.machineParams(machine);
    return this.memo(`ids|${JSON.stringify(params)}`, () =>
      new Set(this.prepared<{ product_id: string }>(SqliteProductRepository.fittingSql(machine)).all(params).map((r) => r.product_id)),
    );
  }

  async idsFittingAny(fleet: FleetQuery): Promise<Set<string>> {
    const json = SqliteProductRepository.fleetJson(fleet);
    // A fleet's set is a good part of the catalogue (~150,000 ids for 50 machines at 500,000 parts): few are kept.
    return this.memo(
      `ids|${json}`,
      () => new Set(this.prepared<string>(`SELECT DISTINCT f.product_id ${SqliteProductRepository.fleetSource({})}`).pluck().all({ fleet: json })),
      { store: this.fleetIds, max: FLEET_ID_SETS },
    );
  }

  async fleetFits(ids: string[], fleet: FleetQuery): Promise<Map<string, number[]>> {
    return this.fleetFitsOf(ids, fleet);
  }

  private fleetFitsOf(ids: string[], fleet: FleetQuery): Map<string, number[]> {
    const fits = new Map<string, FitKey[]>();
    for (const r of this.stmt.fitsOf.all(JSON.stringify(ids))) {
      const list = fits.get(r.product_id) ?? [];
      list.push({ makeSlug: r.make_slug, modelSlug: r.model_slug, serialFrom: r.serial_from, serialTo: r.serial_to });
      fits.set(r.product_id, list);
    }
    const out = new Map<string, number[]>();
    for (const [id, list] of fits) {
      const which = fleetFits(list, fleet);
      if (which.length) out.set(id, which);
    }
    return out;
  }
}
