import { ProductCreateSchema, ProductFieldsSchema, type ProductFields } from '@forgeline/contracts/catalog-admin';
import type { Product } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import { stableUuid } from './stable-uuid.ts';
import { formatCrossReferences, formatFits, formatReplaces, parseCrossReferences, parseFits, parseReplaces, withHistory } from './part-history.ts';

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
  // A part's history and reach (#17): `|`-separated lists.
  'replaces',
  'cross_references',
  'fits',
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
  replaces: ['replaces', 'supersedes', 'supersededparts', 'oldpartnumbers', 'previouspartnumbers'],
  cross_references: ['crossreferences', 'crossreference', 'crossrefs', 'xref', 'interchange', 'alternatenumbers'],
  fits: ['fits', 'fitment', 'machines', 'applications', 'fitsmachines'],
};

const headerKey = (h: string) => h.replace(/^\uFEFF/, '').toLowerCase().replace(/[^a-z0-9]/g, '');

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
export type RowFields = Partial<ProductFields>;

export interface ParsedRow {
  row: number;
  sku: string;
  fields: RowFields;
}

const TRUE = new Set(['true', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'no', 'n', '0']);
/** The file's column of each field, for naming it in an error. */
const COLUMN_OF: Record<keyof ProductFields, CatalogColumn> = {
  name: 'name',
  partNumber: 'part_number',
  brandName: 'brand',
  category: 'category',
  description: 'description',
  inStock: 'in_stock',
  availability: 'availability',
  price: 'price',
  weight: 'weight',
  dimensions: 'dimensions',
  tags: 'tags',
  specifications: 'specifications',
  images: 'images',
  replaces: 'replaces',
  crossReferences: 'cross_references',
  fits: 'fits',
};
const FieldsGate = ProductFieldsSchema.partial();
const SkuGate = ProductCreateSchema.shape.sku;

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
 * One data row: the SKU and the fields its non-empty cells set, or the problems that keep it out. Cells are turned
 * into values here (yes/no, prices, | lists, Name=Value pairs); the values then pass the same contract as the edit
 * calls (ProductFieldsSchema). A row with nothing in it is null (skipped, not an error).
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
  const fail = (column: string, message: string) => errors.push({ row, column, message });
  const list = (c: CatalogColumn): string[] | undefined => cell(c)?.split('|').map((s) => s.trim()).filter(Boolean);

  const sku = cell('sku');
  const skuCheck = SkuGate.safeParse(sku ?? '');
  if (!sku) fail('sku', 'is empty: every row needs a SKU');
  else if (!skuCheck.success) fail('sku', skuCheck.error.issues[0]!.message);

  const fields: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(COLUMN_OF) as [keyof ProductFields, CatalogColumn][]) {
    if (['inStock', 'price', 'tags', 'specifications', 'images', 'replaces', 'crossReferences', 'fits'].includes(field)) continue;
    const v = cell(column);
    if (v !== undefined) fields[field] = v;
  }
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
    else fields.price = v;
  }
  for (const c of ['tags', 'images'] as const) {
    const v = list(c);
    if (v !== undefined) fields[c] = v;
  }
  const specs = list('specifications');
  if (specs !== undefined) {
    const out: Record<string, string> = {};
    const bad = specs.find((pair) => pair.indexOf('=') <= 0);
    if (bad) fail('specifications', `"${bad.slice(0, 40)}" is not Name=Value`);
    for (const pair of specs) {
      const at = pair.indexOf('=');
      if (at > 0) out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
    }
    fields.specifications = out;
  }
  const history = [
    ['replaces', 'replaces', parseReplaces],
    ['cross_references', 'crossReferences', parseCrossReferences],
    ['fits', 'fits', parseFits],
  ] as const;
  for (const [column, field, parse] of history) {
    const v = cell(column);
    if (v === undefined) continue;
    const parsed = parse(v);
    if ('error' in parsed) fail(column, parsed.error);
    else fields[field] = parsed.value;
  }
  const checked = FieldsGate.safeParse(fields);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const field = String(issue.path[0]) as keyof ProductFields;
      const column = COLUMN_OF[field] ?? field;
      if (!errors.some((e) => e.column === column)) fail(column, issue.message);
    }
  }
  if (errors.length) return { errors };
  return { ok: { row, sku: sku!, fields: checked.data! } };
}

/** The id a part imported under `sku` gets: the same SKU always gives the same id (a dry run reports the real one). */
export const importedProductId = (sku: string) => stableUuid(`forgeline-sku:${sku}`);

export type RowOutcome = { kind: 'created' | 'updated'; product: Product; changed: string[] } | { kind: 'unchanged' } | { kind: 'error'; errors: RowError[] };

/** Every field a row can set, in column order: what decides whether a row changes a part. */
const COMPARED = Object.keys(COLUMN_OF) as (keyof ProductFields)[];
/** A field as stored, for comparing with a row's value (absent history is an empty list). */
const storedValue = (p: Product, k: keyof ProductFields) =>
  k === 'images' ? shownImages(p) : k === 'replaces' || k === 'crossReferences' || k === 'fits' ? (p[k] ?? []) : p[k];

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
    return { kind: 'created', product: withHistory(product, f), changed: [] };
  }
  const changed = COMPARED.filter((k) => f[k] !== undefined && !same(f[k], storedValue(existing, k)));
  if (changed.length === 0) return { kind: 'unchanged' };
  const next: Product = withHistory({ ...existing, ...f } as Product, { ...existing, ...f });
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
    formatReplaces(p.replaces),
    formatCrossReferences(p.crossReferences),
    formatFits(p.fits),
  ].map(escapeCell);
}
