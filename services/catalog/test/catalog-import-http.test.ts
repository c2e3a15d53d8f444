import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { CatalogImportJob } from '@forgeline/contracts/catalog-admin';
import type { Product, ProductListResponse, Subcategory } from '@forgeline/contracts/products';
import { generateProducts } from '../src/seed/generate.ts';
import { importedProductId } from '../src/domain/catalog-import.ts';
import { CATALOG_IMPORT_XLSX_LIMITS } from '../src/adapters/spreadsheet/xlsx-limits.ts';
import { SERVICE_TOKEN, startCatalog, type CatalogUnderTest } from './harness.ts';
import { sheetBomb, withDeclaredSize } from './xlsx-files.ts';

/**
 * Catalogue import and export over HTTP on the embedded adapters: a file of good and bad rows (dry run first, then
 * for real), then search, counts, product pages, a second import being a no-op, export → import being a no-op,
 * and missing=deactivate taking parts off the storefront with a 410.
 */
const products: Product[] = [...generateProducts({ count: 300, seed: 11 })];
let catalog: CatalogUnderTest;

beforeAll(async () => {
  // Small batches, so a 20-row file is several transactions.
  catalog = await startCatalog({ products, importBatch: 4 });
});
afterAll(async () => {
  await catalog?.stop();
});

async function upload(content: string | Buffer, query = '', name = 'catalogue.csv') {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  const res = await fetch(`${catalog.url}/api/admin/catalog/imports${query}`, { method: 'POST', body: form, headers: await catalog.adminHeaders() });
  return { status: res.status, body: (await res.json()) as { id: string; message?: string } };
}

async function finished(id: string): Promise<CatalogImportJob> {
  for (let i = 0; i < 200; i++) {
    const res = await catalog.call(`/api/admin/catalog/imports/${id}`);
    expect(res.status).toBe(200);
    const job = res.body as CatalogImportJob;
    if (!['queued', 'running'].includes(job.state)) return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`import ${id} did not finish`);
}

async function importFile(content: string | Buffer, query = '') {
  const res = await upload(content, query);
  expect(res.status, res.body.message).toBe(202);
  return finished(res.body.id);
}

const search = async (q: string) => (await catalog.call(`/api/products?search=${encodeURIComponent(q)}&limit=10`)).body as ProductListResponse;
const subcategories = async () => (await catalog.call('/api/subcategories')).body as Subcategory[];

const [u1, u2, u3] = [products[0]!, products[1]!, products[2]!];
const header = 'SKU;Product Name;Part Number;Brand;Category;In Stock;Price;Tags;Specifications;Images;Description;Colour';
const rows = [
  header,
  `${u1.sku};${u1.name};${u1.partNumber};${u1.brandName};${u1.category};no;1234,50;;;;;red`,
  `${u2.sku};;;;;;99.99;;;;;`, // only the price changes: an empty cell leaves its field as it is
  `${u3.sku};${u3.name};;;;;;;Thread=M20x1.5|Height=120 mm;;"Spin-on filter;\nlong life";`, // rows 4 and 5 of the file
  'NEW-ZH-001;Swing Motor Seal Kit;ZH-77120;Zeta Hydraulics;Swing Motors;yes;410;seal|kit;;https://img.example.com/zh-77120.jpg;;',
  'NEW-ZH-002;Swing Motor Bearing;ZH-77121;Zeta Hydraulics;Swing Motors;1;85;;;;;',
  "NEW-ZH-003;'=Formula Looking Name;ZH-77122;Zeta Hydraulics;Swing Motors;true;12;;;;;",
  'NEW-BAD-PRICE;Bad Price Part;BP-1;Zeta Hydraulics;Swing Motors;yes;12abc;;;;;',
  'NEW-BAD-STOCK;Bad Stock Part;BS-1;Zeta Hydraulics;Swing Motors;maybe;5;;;;;',
  'NEW-NO-NAME;;NN-1;Zeta Hydraulics;Swing Motors;yes;5;;;;;',
  `NEW-LONG;${'x'.repeat(301)};LN-1;Zeta Hydraulics;Swing Motors;yes;5;;;;;`,
  'NEW-BAD-IMG;Bad Image Part;BI-1;Zeta Hydraulics;Swing Motors;yes;5;;;ftp://files.example.com/a.jpg;;',
  ';No SKU Part;NS-1;Zeta Hydraulics;Swing Motors;yes;5;;;;;',
  '',
  'NEW-ZH-002;Swing Motor Bearing;ZH-77121;Zeta Hydraulics;Swing Motors;1;86;;;;;',
];
const file = rows.join('\r\n');

describe('catalogue import', () => {
  it('a dry run reports exactly what the import will do and changes nothing', async () => {
    const job = await importFile(file, '?dryRun=true');
    expect(job).toMatchObject({ state: 'completed_with_errors', dryRun: true, total: 13, processed: 13, created: 3, updated: 3, unchanged: 0, deactivated: 0, errorCount: 7 });
    expect((await search('ZH-77120')).products).toHaveLength(0);
    expect(((await catalog.call(`/api/products/${u1.id}`)).body as Product).price).toBe(u1.price);
  });

  it('imports the good rows, reports every bad one by row and column, and the buyer sees the new state', async () => {
    const job = await importFile(file);
    expect(job).toMatchObject({ state: 'completed_with_errors', dryRun: false, total: 13, created: 3, updated: 3, unchanged: 0, errorCount: 7, unknownColumns: ['Colour'] });
    const errors = [...job.errors].sort((a, b) => a.row - b.row);
    expect(errors.map((e) => [e.row, e.column])).toEqual([
      [9, 'price'],
      [10, 'in_stock'],
      [11, 'name'],
      [12, 'name'],
      [13, 'images'],
      [14, 'sku'],
      [16, 'sku'],
    ]);
    expect(errors[0]!.message).toMatch(/"12abc" is not a price/);
    expect(errors[2]!.message).toMatch(/is required for a new part/);
    expect(errors[6]!.message).toMatch(/also on row 7; this later row is applied/);

    // Empty cells left the other fields of these parts as they were.
    expect((await catalog.call(`/api/products/${u2.id}`)).body as Product).toMatchObject({ price: 99.99, name: u2.name, category: u2.category, inStock: u2.inStock });
    const p1 = (await catalog.call(`/api/products/${u1.id}`)).body as Product;
    expect(p1).toMatchObject({ inStock: false, price: 1234.5 });
    const p3 = (await catalog.call(`/api/products/${u3.id}`)).body as Product;
    expect(p3.specifications).toEqual({ Thread: 'M20x1.5', Height: '120 mm' });
    expect(p3.description).toBe('Spin-on filter;\nlong life');

    // New parts: searchable by part number, a new brand and category with their counts, the later duplicate row's price.
    const hit = (await search('ZH77120')).products[0]!;
    expect(hit).toMatchObject({ sku: 'NEW-ZH-001', brandName: 'Zeta Hydraulics', category: 'Swing Motors', images: ['https://img.example.com/zh-77120.jpg'] });
    expect(hit.id).toBe(importedProductId('NEW-ZH-001'));
    expect(((await catalog.call(`/api/products/${importedProductId('NEW-ZH-002')}`)).body as Product).price).toBe(86);
    expect(((await catalog.call(`/api/products/${importedProductId('NEW-ZH-003')}`)).body as Product).name).toBe('=Formula Looking Name');
    const pair = (await subcategories()).find((s) => s.category === 'Swing Motors' && s.brand === 'Zeta Hydraulics');
    expect(pair).toMatchObject({ brand: 'Zeta Hydraulics', productCount: 3 });
    const listing = (await catalog.call('/api/products?category=swing-motors&brand=zeta-hydraulics&limit=10')).body as ProductListResponse;
    expect(listing.products.map((p) => p.sku).sort()).toEqual(['NEW-ZH-001', 'NEW-ZH-002', 'NEW-ZH-003']);

    // Every bad row in errors.csv, and every change in the audit.
    const errorsCsv = await fetch(`${catalog.url}/api/admin/catalog/imports/${job.id}/errors.csv`, { headers: await catalog.adminHeaders() });
    expect(errorsCsv.headers.get('content-type')).toMatch(/text\/csv/);
    const errorRows = parse(await errorsCsv.text(), { bom: true }) as string[][];
    expect(errorRows[0]).toEqual(['row', 'column', 'message']);
    expect(errorRows).toHaveLength(8);
  });

  it('the same file again changes nothing', async () => {
    const job = await importFile(file);
    expect(job).toMatchObject({ created: 0, updated: 0, unchanged: 6, errorCount: 7 });
  });

  it('exports every part in the import columns, escaped against formulas, and export → import is a no-op', async () => {
    const res = await fetch(`${catalog.url}/api/admin/catalog/export.csv`, { headers: await catalog.adminHeaders() });
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="catalogue-\d{4}-\d{2}-\d{2}\.csv"/);
    const text = await res.text();
    const table = parse(text, { bom: true, relax_column_count: false }) as string[][];
    expect(table[0]).toEqual(['sku', 'name', 'part_number', 'brand', 'category', 'description', 'in_stock', 'availability', 'price', 'weight', 'dimensions', 'tags', 'specifications', 'images', 'replaces', 'cross_references', 'fits']);
    expect(table).toHaveLength(1 + products.length + 3);
    expect(table.find((r) => r[0] === 'NEW-ZH-003')![1]).toBe("'=Formula Looking Name");
    const job = await importFile(text);
    expect(job).toMatchObject({ state: 'completed', created: 0, updated: 0, unchanged: products.length + 3, errorCount: 0 });
  });

  it('missing=deactivate takes parts not in the file off the storefront (410, out of search and counts); naming one again brings it back', async () => {
    const exported = await (await fetch(`${catalog.url}/api/admin/catalog/export.csv`, { headers: await catalog.adminHeaders() })).text();
    const [head, ...body] = exported.replace(/^\uFEFF/, '').split(/\r?\n/).filter(Boolean);
    const dropped = products.slice(10, 15);
    const keep = body.filter((line) => !dropped.some((p) => line.startsWith(`${p.sku},`)));
    expect(keep).toHaveLength(body.length - 5);
    const before = (await subcategories()).reduce((n, s) => n + s.productCount, 0);

    const dry = await importFile([head, ...keep].join('\n'), '?missing=deactivate&dryRun=true');
    expect(dry).toMatchObject({ deactivated: 5, created: 0, updated: 0 });
    expect((await catalog.call(`/api/products/${dropped[0]!.id}`)).status).toBe(200);

    const job = await importFile([head, ...keep].join('\n'), '?missing=deactivate');
    expect(job).toMatchObject({ state: 'completed', deactivated: 5, created: 0, updated: 0 });
    const gone = await catalog.call(`/api/products/${dropped[0]!.id}`);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ category: dropped[0]!.category, categoryPath: expect.stringMatching(/^\/category\//) });
    expect((await search(dropped[0]!.partNumber)).products.map((p) => p.id)).not.toContain(dropped[0]!.id);
    expect((await subcategories()).reduce((n, s) => n + s.productCount, 0)).toBe(before - 5);
    const sitemap = await catalog.call('/internal/sitemap/products?offset=0&limit=50000', { token: SERVICE_TOKEN });
    expect(JSON.stringify(sitemap.body)).not.toContain(dropped[0]!.id);

    const back = await importFile([head, body.find((line) => line.startsWith(`${dropped[0]!.sku},`))!].join('\n'));
    expect(back).toMatchObject({ updated: 1, deactivated: 0 });
    expect((await catalog.call(`/api/products/${dropped[0]!.id}`)).status).toBe(200);
    expect((await search(dropped[0]!.partNumber)).products.map((p) => p.id)).toContain(dropped[0]!.id);
  });

  it('refuses what is not a catalogue file with a 400 naming the problem', async () => {
    const binary = await upload(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]));
    expect(binary.status).toBe(400);
    expect(binary.body.message).toMatch(/neither a CSV .* nor an XLSX/);
    const noSku = await upload('Name,Price\nSeal,5\n');
    expect(noSku.status).toBe(400);
    expect(noSku.body.message).toMatch(/no "sku" column \(found: Name, Price\)/);
    const twice = await upload('sku,Part Number,part_no\nA,1,2\n');
    expect(twice.status).toBe(400);
    expect(twice.body.message).toMatch(/"part_number" appears twice/);
    const badQuery = await upload('sku\nA\n', '?missing=delete');
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.message).toMatch(/missing must be keep or deactivate/);
    const broken = await importFile('sku,name,category\n"A,Seal,Kits\nB,Ring,Kits\n');
    expect(broken).toMatchObject({ state: 'failed', message: expect.stringMatching(/quoted field is never closed/) });
    expect((await catalog.call('/api/admin/catalog/imports/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('refuses a ZIP bomb before anything is written: from its ZIP directory with a 400, or, when the directory lies, as a failed job', async () => {
    // Valid catalogue rows, each padded with blanks: were they read, they would be written.
    const cells = (r: number) => (r === 1 ? ['sku', 'name', 'category', 'price'] : [`BOMB-${r}`, `Bomb part ${r}`, 'Bombs', '5']);
    const bomb = await sheetBomb({ rows: 3000, padBytes: 32 * 1024, cells });
    const refused = await upload(bomb, '', 'catalogue.xlsx');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(
      new RegExp(`^Invalid catalogue file "catalogue.xlsx": xl/worksheets/sheet1\\.xml in the workbook is compressed [\\d,]+:1, more than the ${CATALOG_IMPORT_XLSX_LIMITS.maxRatio}:1 allowed \\(a "zip bomb"\\?\\)$`),
    );

    // The directory says 64 kB; the sheet inflates to 24 MB. Its header reads (202); the count refuses it.
    const lying = withDeclaredSize(await sheetBomb({ rows: 3000, padBytes: 8 * 1024, cells }), 'xl/worksheets/sheet1.xml', 64 * 1024);
    const res = await upload(lying, '', 'catalogue.xlsx');
    expect(res.status, res.body.message).toBe(202);
    const job = await finished(res.body.id);
    expect(job).toMatchObject({ state: 'failed', processed: 0, created: 0, updated: 0, deactivated: 0 });
    expect(job.message).toBe('xl/worksheets/sheet1.xml in the workbook inflates to more than the 65,536 bytes its ZIP directory declares (a "zip bomb"?)');
    expect((await catalog.call(`/api/products/${importedProductId('BOMB-2')}`)).status).toBe(404);
    expect((await search('BOMB-2')).products.filter((p) => p.sku.startsWith('BOMB-'))).toEqual([]);
  });
});

describe('edit one part', () => {
  const send = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(catalog.url + path, {
      method,
      headers: { 'content-type': 'application/json', ...(await catalog.adminHeaders('editor@example.com')), ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, etag: res.headers.get('etag'), body: (await res.json()) as Product & { message?: string } };
  };

  it('reads with an ETag, changes with If-Match, refuses a stale one with 412 and a missing one with 428', async () => {
    const target = products[40]!;
    const read = await fetch(`${catalog.url}/api/admin/products/${target.id}`, { headers: await catalog.adminHeaders() });
    const etag = read.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect(((await read.json()) as Product).sku).toBe(target.sku);

    expect((await send('PATCH', `/api/admin/products/${target.id}`, { price: 5 })).status).toBe(428);
    const changed = await send('PATCH', `/api/admin/products/${target.id}`, { price: 321.5, inStock: false, tags: ['rebuilt'] }, { 'if-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ price: 321.5, inStock: false, tags: ['rebuilt'], name: target.name });
    expect(changed.etag).not.toBe(etag);
    const stale = await send('PATCH', `/api/admin/products/${target.id}`, { price: 1 }, { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(stale.body.message).toMatch(/Someone else changed this product/);
    expect(((await catalog.call(`/api/products/${target.id}`)).body as Product).price).toBe(321.5);

    const bad = await send('PATCH', `/api/admin/products/${target.id}`, { price: -3, name: '', colour: 'red' }, { 'if-match': changed.etag! });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/price must not be negative/);
    expect(bad.body.message).toMatch(/name must not be empty/);
    expect(bad.body.message).toMatch(/colour/);
    expect((await send('PATCH', `/api/admin/products/00000000-0000-4000-8000-000000000001`, { price: 1 }, { 'if-match': '*' })).status).toBe(404);
  });

  it('creates a part (searchable at once), refuses a taken SKU with 409, and lists by brand, category and stock', async () => {
    const created = await send('POST', '/api/admin/products', {
      sku: 'API-77',
      name: 'Final Drive Motor',
      category: 'Final Drives',
      brandName: 'Zeta Hydraulics',
      partNumber: 'FD-7700',
      price: 9800,
      inStock: false,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: importedProductId('API-77'), slug: 'final-drive-motor', brand: 'Zeta Hydraulics' });
    expect((await search('FD7700')).products.map((p) => p.sku)).toEqual(['API-77']);
    const taken = await send('POST', '/api/admin/products', { sku: 'API-77', name: 'Again', category: 'Final Drives' });
    expect(taken.status).toBe(409);
    expect((await send('POST', '/api/admin/products', { sku: 'API-78', name: 'No Category' })).status).toBe(400);

    const list = async (q: string) => ((await catalog.call(`/api/admin/products?${q}`)).body as { sku: string }[]).map((r) => r.sku);
    expect(await list('brand=Zeta%20Hydraulics&category=final-drives')).toEqual(['API-77']);
    expect(await list('brand=zeta-hydraulics&inStock=false')).toEqual(['API-77']);
    expect(await list('brand=zeta-hydraulics&inStock=true')).not.toContain('API-77');
    expect((await catalog.call('/api/admin/products?inStock=maybe')).status).toBe(400);
  });
});
