import type { Product } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import { stableUuid } from '../seed/generate.ts';

/**
 * The catalogue file: one row per part keyed by `sku`, the same columns on import and export, so that an export
 * imported again changes nothing. This module reads a header, turns rows into products (checking every cell, each
 * problem named by row and column), decides what a row changes, and writes rows for the export.
 */

export const CATALOG_COLUMNS = [
  'sku',
  'name',
  'part_number',
  'brand',
  'category',
  'description',
  'in_stock',
  'availability',
  'price',
  'weight',
  'dimensions',
  'tags',
  'specifications',
  'images',
] as const;
export type CatalogColumn = (typeof CATALOG_COLUMNS)[number];

/** Header spellings people use, compared without case, spaces or punctuation ("Part Number", "part_number", "partNumber"). */
const ALIASES: Record<CatalogColumn, string[]> = {
  sku: ['sku', 'skucode', 'itemcode', 'articlenumber'],
  name: ['name', 'productname', 'title', 'partname'],
  part_number: ['partnumber', 'partno', 'partnum', 'pn', 'mpn', 'oemnumber'],
  brand: ['brand', 'brandname', 'manufacturer', 'make'],
  category: ['category', 'categoryname'],
  description: ['description', 'desc', 'longdescription'],
  in_stock: ['instock', 'stock', 'available'],
  availability: ['availability', 'stockstatus'],
  price: ['price', 'unitprice', 'listprice'],
  weight: ['weight'],
  dimensions: ['dimensions', 'size'],
  tags: ['tags', 'keywords'],
  specifications: ['specifications', 'specs', 'attributes'],
  images: ['images', 'image', 'imageurls', 'imageurl', 'photos'],
};

const headerKey = (h: string) => h.replace(/^\uFEFF/, '').toLowerCase().replace(/[^a-z0-9]/g, '');

export const LIMITS = {
  sku: 80,
  name: 300,
  part_number: 120,
  brand: 120,
  category: 120,
  description: 10_000,
  availability: 120,
  weight: 120,
  dimensions: 120,
  tag: 80,
  tags: 50,
  specName: 120,
  specValue: 500,
  specs: 100,
  image: 1000,
  images: 20,
  maxPrice: 1_000_000_000,
} as const;

export interface RowError {
  row: number;
  column: string;
  message: string;
}

export class CatalogFileError extends Error {}

export interface HeaderMap {
  /** Column index of each known column present. */
  index: Partial<Record<CatalogColumn, number>>;
  /** Header cells that are not catalogue columns (reported, not fatal). */
  unknown: string[];
}

/** Reads the header row. Throws CatalogFileError when there is no `sku` column, or a column appears twice. */
export function readHeader(cells: string[]): HeaderMap {
  const index: Partial<Record<CatalogColumn, number>> = {};
  const unknown: string[] = [];
  cells.forEach((cell, i) => {
    const key = headerKey(cell);
    if (!key) return;
    const column = CATALOG_COLUMNS.find((c) => ALIASES[c].includes(key));
    if (!column) unknown.push(cell.trim());
    else if (index[column] !== undefined) throw new CatalogFileError(`the column "${column}" appears twice in the header ("${cells[index[column]!]}" and "${cell}")`);
    else index[column] = i;
  });
  if (index.sku === undefined) {
    throw new CatalogFileError(`the header has no "sku" column (found: ${cells.filter((c) => c.trim()).slice(0, 12).join(', ') || 'nothing'})`);
  }
  return { index, unknown };
}

/** Spreadsheets run a cell starting with one of these as a formula: the export puts a ' in front, the import takes it off. */
const FORMULA_START = /^[=+\-@\t\r]/;
export const escapeCell = (v: string) => (FORMULA_START.test(v) ? `'${v}` : v);
export const unescapeCell = (v: string) => (v.startsWith("'") && FORMULA_START.test(v.slice(1)) ? v.slice(1) : v);

/** The fields a row sets; an absent column or an empty cell leaves its field as it is. */
export type ProductFields = Partial<
  Pick<Product, 'name' | 'partNumber' | 'brandName' | 'category' | 'description' | 'inStock' | 'availability' | 'price' | 'weight' | 'dimensions' | 'tags' | 'specifications' | 'images'>
>;

export interface ParsedRow {
  row: number;
  sku: string;
  fields: ProductFields;
}

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const TRUE = new Set(['true', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'no', 'n', '0']);

/** A price as people write it: 1234.5, 1,234.50, 1234,50 (a lone comma is the decimal mark), no currency. */
export function parsePrice(raw: string): number | null {
  const s = raw.replace(/[\s\u00a0]/g, '');
  if (!/^\d[\d.,]*$/.test(s)) return null;
  let n: string;
  if (s.includes('.') && s.includes(',')) n = s.lastIndexOf('.') > s.lastIndexOf(',') ? s.replace(/,/g, '') : s.replace(/\./g, '').replace(',', '.');
  else if ((s.match(/,/g) ?? []).length === 1 && !/,\d{3}$/.test(s)) n = s.replace(',', '.');
  else n = s.replace(/,/g, '');
  if (!/^\d+(\.\d+)?$/.test(n)) return null;
  const v = Number(n);
  return Number.isFinite(v) ? Math.round(v * 100) / 100 : null;
}

/**
 * One data row: the SKU and the fields its present columns set, or the problems that keep it out. A row with
 * nothing in it is null (skipped, not an error).
 */
export function parseRow(cells: string[], row: number, header: HeaderMap): { ok: ParsedRow } | { errors: RowError[] } | null {
  if (cells.every((c) => !c.trim())) return null;
  const errors: RowError[] = [];
  // An empty cell, like an absent column, leaves the field as it is (a new part gets the default).
  const cell = (c: CatalogColumn): string | undefined => {
    const i = header.index[c];
    const v = i === undefined ? '' : unescapeCell((cells[i] ?? '').trim());
    return v === '' ? undefined : v;
  };
  const fail = (column: CatalogColumn, message: string) => errors.push({ row, column, message });
  const text = (c: CatalogColumn, max: number): string | undefined => {
    const v = cell(c);
    if (v === undefined) return undefined;
    if (v.length > max) fail(c, `is ${v.length} characters long; at most ${max}`);
    else if (CONTROL.test(v)) fail(c, 'holds control characters');
    return v;
  };
  const list = (c: CatalogColumn): string[] | undefined => {
    const v = cell(c);
    return v === undefined ? undefined : v.split('|').map((s) => s.trim()).filter(Boolean);
  };

  const sku = text('sku', LIMITS.sku);
  if (!sku) fail('sku', 'is empty: every row needs a SKU');
  const fields: ProductFields = {};
  const name = text('name', LIMITS.name);
  if (name !== undefined) fields.name = name;
  const partNumber = text('part_number', LIMITS.part_number);
  if (partNumber !== undefined) fields.partNumber = partNumber;
  const brand = text('brand', LIMITS.brand);
  if (brand !== undefined) fields.brandName = brand;
  const category = text('category', LIMITS.category);
  if (category !== undefined) {
    if (!slugify(category)) fail('category', 'has no letters or digits to name a category page');
    fields.category = category;
  }
  const description = text('description', LIMITS.description);
  if (description !== undefined) fields.description = description;
  const availability = text('availability', LIMITS.availability);
  if (availability !== undefined) fields.availability = availability;
  const weight = text('weight', LIMITS.weight);
  if (weight !== undefined) fields.weight = weight;
  const dimensions = text('dimensions', LIMITS.dimensions);
  if (dimensions !== undefined) fields.dimensions = dimensions;

  const inStock = cell('in_stock');
  if (inStock !== undefined) {
    const v = inStock.toLowerCase();
    if (TRUE.has(v)) fields.inStock = true;
    else if (FALSE.has(v)) fields.inStock = false;
    else fail('in_stock', `"${inStock.slice(0, 40)}" is not true/false, yes/no or 1/0`);
  }
  const price = cell('price');
  if (price !== undefined) {
    const v = parsePrice(price);
    if (v === null) fail('price', `"${price.slice(0, 40)}" is not a price (a number such as 1234.50, no currency)`);
    else if (v > LIMITS.maxPrice) fail('price', `${price} is more than ${LIMITS.maxPrice.toLocaleString('en')}`);
    else fields.price = v;
  }
  const tags = list('tags');
  if (tags !== undefined) {
    if (tags.length > LIMITS.tags) fail('tags', `has ${tags.length} tags; at most ${LIMITS.tags}`);
    else if (tags.some((t) => t.length > LIMITS.tag)) fail('tags', `a tag is longer than ${LIMITS.tag} characters`);
    else fields.tags = tags;
  }
  const specs = list('specifications');
  if (specs !== undefined) {
    const out: Record<string, string> = {};
    for (const pair of specs) {
      const at = pair.indexOf('=');
      const k = at > 0 ? pair.slice(0, at).trim() : '';
      const v = at > 0 ? pair.slice(at + 1).trim() : '';
      if (!k) {
        fail('specifications', `"${pair.slice(0, 40)}" is not Name=Value`);
        break;
      }
      if (k.length > LIMITS.specName || v.length > LIMITS.specValue) {
        fail('specifications', `"${k.slice(0, 40)}" is too long (name at most ${LIMITS.specName}, value at most ${LIMITS.specValue} characters)`);
        break;
      }
      out[k] = v;
    }
    if (specs.length > LIMITS.specs) fail('specifications', `has ${specs.length} entries; at most ${LIMITS.specs}`);
    fields.specifications = out;
  }
  const images = list('images');
  if (images !== undefined) {
    const bad = images.find((u) => u.length > LIMITS.image || !(/^https?:\/\/[^\s]+$/i.test(u) || /^\/[^\s]*$/.test(u)));
    if (bad) fail('images', `"${bad.slice(0, 60)}" is neither an http(s) URL nor a stored path starting with /`);
    else if (images.length > LIMITS.images) fail('images', `has ${images.length} images; at most ${LIMITS.images}`);
    else fields.images = images;
  }
  if (errors.length) return { errors };
  return { ok: { row, sku: sku!, fields } };
}

/** The id a part imported under `sku` gets: the same SKU always gives the same id (a dry run reports the real one). */
export const importedProductId = (sku: string) => stableUuid(`forgeline-sku:${sku}`);

export type RowOutcome = { kind: 'created' | 'updated'; product: Product; changed: string[] } | { kind: 'unchanged' } | { kind: 'error'; errors: RowError[] };

const COMPARED = ['name', 'partNumber', 'brandName', 'category', 'description', 'inStock', 'availability', 'price', 'weight', 'dimensions', 'tags', 'specifications', 'images'] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** The images a part shows (its uploads, else its one image URL): what the export writes in `images`. */
const shownImages = (p: Product) => (p.images.length ? p.images : p.imageUrl ? [p.imageUrl] : []);

/** What a row does to the part stored under its SKU (or to the catalogue, when there is none). */
export function applyRow(parsed: ParsedRow, existing: Product | null, now: string): RowOutcome {
  const f = parsed.fields;
  if (!existing) {
    const errors: RowError[] = [];
    if (!f.name) errors.push({ row: parsed.row, column: 'name', message: 'is required for a new part' });
    if (!f.category) errors.push({ row: parsed.row, column: 'category', message: 'is required for a new part' });
    if (errors.length) return { kind: 'error', errors };
    const brand = f.brandName || 'Generic';
    const images = f.images ?? [];
    const product: Product = {
      id: importedProductId(parsed.sku),
      sku: parsed.sku,
      name: f.name!,
      category: f.category!,
      tags: f.tags ?? [],
      description: f.description ?? '',
      imageUrl: images[0] ?? '',
      inStock: f.inStock ?? true,
      brandName: brand,
      make: brand,
      partNumber: f.partNumber ?? '',
      slug: slugify(f.name!),
      price: f.price ?? 0,
      brand,
      images,
      availability: f.availability ?? 'In Stock',
      specifications: f.specifications ?? {},
      weight: f.weight ?? '',
      dimensions: f.dimensions ?? '',
      createdAt: now,
    };
    return { kind: 'created', product, changed: [] };
  }
  const changed = COMPARED.filter((k) => f[k] !== undefined && !same(f[k], k === 'images' ? shownImages(existing) : existing[k]));
  if (changed.length === 0) return { kind: 'unchanged' };
  const next: Product = { ...existing, ...f } as Product;
  if (changed.includes('name')) next.slug = slugify(next.name);
  if (changed.includes('brandName')) {
    next.brand = next.brandName;
    next.make = next.brandName;
  }
  if (changed.includes('images')) next.imageUrl = next.images[0] ?? existing.imageUrl;
  return { kind: 'updated', product: next, changed: [...changed] };
}

/** A part as an export row, in CATALOG_COLUMNS order, escaped against formula injection. */
export function exportRow(p: Product): string[] {
  const images = shownImages(p);
  return [
    p.sku,
    p.name,
    p.partNumber,
    p.brandName,
    p.category,
    p.description,
    p.inStock ? 'true' : 'false',
    p.availability,
    String(p.price),
    p.weight,
    p.dimensions,
    p.tags.join('|'),
    Object.entries(p.specifications)
      .map(([k, v]) => `${k}=${v}`)
      .join('|'),
    images.join('|'),
  ].map(escapeCell);
}
