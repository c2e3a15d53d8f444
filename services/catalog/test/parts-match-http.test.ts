import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartsMatchResponse } from '@forgeline/contracts/parts-match';
import type { Product } from '@forgeline/contracts/products';
import { listLineShapes, withTypo } from '../src/seed/parts-list-samples.ts';
import { createRng, generateProducts } from '../src/seed/generate.ts';
import { normalizeCode } from '@forgeline/search-engine/text/normalize';
import { PARTS_LIST_FILE_MAX_BYTES } from '../src/routes/parts-match.ts';
import { PARTS_LIST_XLSX_LIMITS } from '../src/adapters/spreadsheet/xlsx-limits.ts';
import { startCatalog, type CatalogUnderTest } from './harness.ts';
import { sheetBomb } from './xlsx-files.ts';

/**
 * A realistic pasted list against a generated catalogue: 80 real parts written eight ways (as printed, lower case
 * without separators, with the brand in front, quantities before or after, columns, a typing mistake), blank lines,
 * a header and numbering, and 12 lines of nonsense. Each line's product, quantity and status is checked.
 */
const products: Product[] = [...generateProducts({ count: 3_000, seed: 7 })];
const codes = new Set(products.map((p) => normalizeCode(p.partNumber ?? p.sku)));
let catalog: CatalogUnderTest;
// This file's own TMPDIR, set before the catalog starts: its data and upload folders are made in it, and so would
// any temp file of a spreadsheet reader (ExcelJS's went to os.tmpdir()). Test files run in processes of their own.
const ownTmp = mkdtempSync(path.join(tmpdir(), 'parts-match-tmp-'));
const tmpBefore = process.env.TMPDIR;

beforeAll(async () => {
  process.env.TMPDIR = ownTmp;
  catalog = await startCatalog({ products });
});
afterAll(async () => {
  await catalog?.stop();
  process.env.TMPDIR = tmpBefore;
  rmSync(ownTmp, { recursive: true, force: true });
});

/** Files in TMPDIR but the catalog's data and tsx's compile cache: the upload folder's content, temp files of any library. */
function leftovers(): string[] {
  const out: string[] = [];
  for (const name of readdirSync(ownTmp)) {
    if (name.startsWith('tsx-')) continue;
    if (!name.startsWith('catalog-http-')) out.push(name);
    else {
      const uploads = path.join(ownTmp, name, 'tmp');
      if (existsSync(uploads)) out.push(...readdirSync(uploads, { recursive: true }).map((f) => path.join(name, 'tmp', String(f))));
    }
  }
  return out;
}


describe('POST /api/parts/match', () => {
  it('matches a 100-line list in mixed formats: every real part to its product and quantity, no nonsense line', async () => {
    const rnd = createRng(99);
    // Parts with a part number of their own (several brands can share one; those are the buyer's choice).
    const byCode = new Map<string, Product[]>();
    for (const p of products) byCode.set(normalizeCode(p.partNumber ?? ''), [...(byCode.get(normalizeCode(p.partNumber ?? '')) ?? []), p]);
    const unique = products.filter((p) => p.partNumber && normalizeCode(p.partNumber).length >= 6 && byCode.get(normalizeCode(p.partNumber))!.length === 1);
    const picked = Array.from({ length: 80 }, (_, i) => unique[(i * 37) % unique.length]!);
    const expected: { line: number; product?: Product; quantity: number; kind?: string }[] = [];
    const rows: string[] = ['Part No;Qty;Description'];
    picked.forEach((p, i) => {
      const q = 1 + (i % 9);
      const code = p.partNumber!;
      const shapes = listLineShapes(p, code, q, i + 1);
      const t = i % 10 === 9 ? withTypo(code, rnd, (c) => codes.has(normalizeCode(c))) : null;
      rows.push(t ? `${t} x ${q}` : shapes[i % shapes.length]!);
      expected.push({ line: rows.length, product: p, quantity: q, kind: t ? 'typo' : undefined });
      if (i % 20 === 0) rows.push('');
    });
    for (const junk of ['asdf qwerty', 'hello', '???', 'zzzz 9999999999999', 'please call me', 'thanks!!', 'xyz', '12', 'N/A', 'lorem ipsum dolor', 'QQ-00000000', '---']) {
      rows.push(junk);
      expected.push({ line: rows.length, quantity: junk === '12' ? 12 : 1 });
    }
    const res = await catalog.call('/api/parts/match', { method: 'POST', body: { text: rows.join('\n') } });
    expect(res.status).toBe(200);
    const body = res.body as PartsMatchResponse;
    const byLine = new Map(body.lines.map((l) => [l.line, l]));
    let right = 0;
    for (const e of expected) {
      const got = byLine.get(e.line);
      if (!e.product) {
        expect(got?.status ?? 'unmatched', `line ${e.line} ${rows[e.line - 1]}`).not.toBe('matched');
        continue;
      }
      expect(got, `line ${e.line}`).toBeDefined();
      expect(got!.quantity, `quantity of line ${e.line}: ${got!.input}`).toBe(e.quantity);
      if (got!.status === 'matched' && got!.match!.product.id === e.product.id) right++;
      else console.warn(`line ${e.line} "${got!.input}": ${got!.status} ${got!.match?.product.partNumber ?? ''}`);
      if (e.kind === 'typo' && got!.status === 'matched') expect(got!.match!.kind).toBe('typo');
    }
    // Every real part matched to its product first (typo lines included).
    expect(right).toBe(80);
    expect(body.summary.matched).toBe(80);
  });

  it('offers a ranked guess for a short number with one character missing ("lf363" for LF3363), never a match on its own (#36)', async () => {
    const byCode = new Map<string, number>();
    for (const p of products) byCode.set(normalizeCode(p.partNumber ?? ''), (byCode.get(normalizeCode(p.partNumber ?? '')) ?? 0) + 1);
    const short = products.filter((p) => normalizeCode(p.partNumber ?? '').length === 6 && byCode.get(normalizeCode(p.partNumber!)) === 1);
    expect(short.length).toBeGreaterThan(3);
    let tried = 0;
    for (const p of short.slice(0, 3)) {
      const norm = normalizeCode(p.partNumber!);
      const typed = `${norm.slice(0, 3)}${norm.slice(4)}`.toLowerCase(); // one character left out
      if (codes.has(typed)) continue;
      tried++;
      const res = await catalog.call('/api/parts/match', { method: 'POST', body: { text: `${typed} - 4` } });
      expect(res.status).toBe(200);
      const [got] = (res.body as PartsMatchResponse).lines;
      expect(got!.quantity).toBe(4);
      expect(got!.status, typed).toBe('ambiguous');
      expect(got!.alternatives.map((a) => a.id), typed).toContain(p.id);
    }
    expect(tried).toBeGreaterThan(0);
  });

  it('refuses what is not a list with a 400 naming the problem', async () => {
    const cases: [unknown, RegExp][] = [
      [{ text: '' }, /the list is empty/],
      [{ text: Array.from({ length: 501 }, (_, i) => `AB-${1000 + i}`).join('\n') }, /more than 500 lines/],
      [{ text: `1R-0750\n${'y'.repeat(10_000)}` }, /line 2 has 10000 characters/],
      [{ text: 'PK\u0003\u0004\u0000\u0000' }, /not text/],
      [{ list: '1R-0750' }, /text/],
    ];
    for (const [body, message] of cases) {
      const res = await catalog.call('/api/parts/match', { method: 'POST', body });
      expect(res.status, String(message)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
  });

  const upload = async (name: string, content: Buffer | string, type = 'text/csv') => {
    const form = new FormData();
    form.append('file', new Blob([content], { type }), name);
    const res = await fetch(`${catalog.url}/api/parts/match`, { method: 'POST', body: form });
    return { status: res.status, body: (await res.json()) as PartsMatchResponse & { message?: string } };
  };
  const withCode = products.filter((p) => p.partNumber && normalizeCode(p.partNumber).length >= 6);
  const [a, b, c] = [withCode[10]!, withCode[20]!, withCode[30]!];

  it('reads a CSV file: BOM, semicolons, a quoted description over two lines; line numbers are the file rows', async () => {
    const csv = `\uFEFFPart No;Qty;Description\r\n${a.partNumber};3;"Filter; oil\r\nlong life"\r\n\r\n${b.partNumber};2;Seal\r\n`;
    const res = await upload('list.csv', csv);
    expect(res.status).toBe(200);
    expect(res.body.lines.map((l) => [l.line, l.status, l.match?.product.id, l.quantity])).toEqual([
      [2, 'matched', a.id, 3],
      [5, 'matched', b.id, 2],
    ]);
  });

  it('reads the first worksheet of an XLSX file, numbers and formulas as shown', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Parts');
    sheet.addRow(['Part Number', 'Quantity', 'Description']);
    sheet.addRow([a.partNumber, 4, 'first']);
    sheet.addRow([]);
    sheet.addRow([{ richText: [{ text: b.partNumber!.slice(0, 3) }, { text: b.partNumber!.slice(3) }] }, { formula: '2+3', result: 5 }, 'second']);
    sheet.addRow([c.partNumber, 1]);
    wb.addWorksheet('Ignored').addRow(['ZZ-999999', 9]);
    const res = await upload('list.xlsx', Buffer.from(await wb.xlsx.writeBuffer()), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.status).toBe(200);
    expect(res.body.lines.map((l) => [l.line, l.match?.product.id, l.quantity])).toEqual([
      [2, a.id, 4],
      [4, b.id, 5],
      [5, c.id, 1],
    ]);
  });

  it('refuses a binary file, a broken CSV, a missing file and a file over 2 MB, naming the problem', async () => {
    const binary = await upload('list.csv', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0xff, 0xfe]));
    expect(binary.status).toBe(400);
    expect(binary.body.message).toMatch(/neither a CSV .* nor an XLSX/);
    const broken = await upload('list.csv', `Part;Qty\n"${a.partNumber};2\n${b.partNumber};1\n`);
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/quoted field is never closed/);
    const fakeXlsx = await upload('list.xlsx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]));
    expect(fakeXlsx.status).toBe(400);
    expect(fakeXlsx.body.message).toMatch(/XLSX workbook could not be read/);
    const form = new FormData();
    form.append('note', 'no file here');
    const missing = await fetch(`${catalog.url}/api/parts/match`, { method: 'POST', body: form });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toMatch(/multipart field "file"/);
    const big = await upload('list.csv', `${a.partNumber};1;${'long description '.repeat(10)}\n`.repeat(12_000));
    expect(big.status, big.body.message).toBe(413);
    expect(big.body.message).toMatch(/larger than 2 MB/);
  });

  it('refuses a ZIP bomb (a 210 kB XLSX whose sheet inflates to 94 MB) with a 400 naming the limit, leaves no file behind and keeps answering', async () => {
    // 6,000 rows, more than the route reads: a reader that stops early must still leave nothing behind.
    const bomb = await sheetBomb({ rows: 6000, padBytes: 16 * 1024 });
    expect(bomb.length).toBeLessThan(PARTS_LIST_FILE_MAX_BYTES / 4);
    const res = await upload('list.xlsx', bomb, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.status).toBe(400);
    const limit = new RegExp(`xl/worksheets/sheet1\\.xml in the workbook is compressed [\\d,]+:1, more than the ${PARTS_LIST_XLSX_LIMITS.maxRatio}:1 allowed \\(a "zip bomb"\\?\\)`);
    expect(res.body.message).toMatch(new RegExp(`^Invalid file "list.xlsx": ${limit.source}$`));
    expect((res.body as unknown as { issues: { path: string; message: string }[] }).issues).toEqual([{ path: 'file', message: expect.stringMatching(limit) }]);
    expect(leftovers()).toEqual([]);

    const again = await upload('list.csv', `Part;Qty\n${a.partNumber};2\n`);
    expect(again.status).toBe(200);
    expect(again.body.lines.map((l) => [l.match?.product.id, l.quantity])).toEqual([[a.id, 2]]);
    expect(leftovers()).toEqual([]);
  });
});
