import { mkdtempSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '@forgeline/test-support/net';
import { generateProducts } from '../../seed/generate.ts';
import { CATALOG_COLUMNS, exportRow } from '../../domain/catalog-import.ts';
import { sheetBomb, withDeclaredSize, workbookOf, zipOf } from '../../../test/xlsx-files.ts';
import { readTabularRows } from './tabular-file.ts';
import { TabularFileError } from './tabular-file-error.ts';
import { CATALOG_IMPORT_XLSX_LIMITS, PARTS_LIST_XLSX_LIMITS, formatBytes, type XlsxLimits } from './xlsx-limits.ts';
import { readXlsxRows } from './xlsx-rows.ts';

const tmp = tempDir('forgeline-xlsx-');
afterAll(() => tmp.remove());
let n = 0;
const save = (buf: Buffer | ArrayBuffer) => {
  const f = path.join(tmp.dir, `w${++n}.xlsx`);
  writeFileSync(f, Buffer.from(buf as ArrayBuffer));
  return f;
};
const excel = async (fill: (wb: ExcelJS.Workbook) => void) => {
  const wb = new ExcelJS.Workbook();
  fill(wb);
  return save(await wb.xlsx.writeBuffer());
};
const rowsOf = async (f: string, limits?: Partial<XlsxLimits>) => {
  const out: [number, string[]][] = [];
  for await (const r of readXlsxRows(f, { limits })) out.push([r.row, r.cells]);
  return out;
};
/** The rows read before the reader refused the file, and its refusal. */
const refusal = async (f: string, limits?: Partial<XlsxLimits>) => {
  const rows: number[] = [];
  try {
    for await (const r of readXlsxRows(f, { limits })) rows.push(r.row);
  } catch (err) {
    expect(err).toBeInstanceOf(TabularFileError);
    return { rows, message: (err as Error).message };
  }
  throw new Error('the file was read without a refusal');
};
/** How many descriptors this process has open on the file (yauzl closes its own asynchronously). */
const openOn = async (f: string) => {
  const count = () =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === f;
      } catch {
        return false;
      }
    }).length;
  for (let i = 0; i < 50 && count() > 0; i++) await new Promise((r) => setTimeout(r, 10));
  return count();
};

describe('reading an XLSX workbook', () => {
  it('reads the first worksheet as shown: shared strings, rich text, numbers, booleans, formula results, gaps between cells and rows', async () => {
    const f = await excel((wb) => {
      const s = wb.addWorksheet('Parts');
      s.addRow(['Part', 'Qty', 'Note']);
      s.addRow([{ richText: [{ text: '1R-' }, { font: { bold: true }, text: '0750' }] }, 4, 'oil filter']);
      s.getRow(5).values = ['2P-4004', 0.5, null, true, false];
      s.getRow(7).values = [{ formula: 'B2*3', result: 12 }, { formula: 'A2&"x"', result: '1R-0750x' }, { formula: '1=1', result: true }, { error: '#N/A' }];
      s.getRow(8).values = [-1.25e-7, 123456789012, new Date(Date.UTC(2024, 2, 5))];
      s.getCell('F9').value = 'far';
      wb.addWorksheet('Other').addRow(['not this one']);
    });
    expect(await rowsOf(f)).toEqual([
      [1, ['Part', 'Qty', 'Note']],
      [2, ['1R-0750', '4', 'oil filter']],
      [5, ['2P-4004', '0.5', '', 'true', 'false']],
      [7, ['12', '1R-0750x', 'true', '']],
      // A date is a number styled as one; styles are not read (as with ExcelJS without styles): its serial number.
      [8, ['-1.25e-7', '123456789012', '45356']],
      [9, ['', '', '', '', '', 'far']],
    ]);
  });

  it('reads what the ExcelJS reader it replaces read from the same workbook', async () => {
    const f = await excel((wb) => {
      const s = wb.addWorksheet('Parts');
      s.addRow(['Part No', 'Qty', 'Price', 'In stock', 'Note']);
      for (let i = 1; i <= 300; i++) {
        const note = i % 7 === 0 ? { richText: [{ text: 'rich ' }, { font: { italic: true }, text: `${i}` }] } : i % 5 === 0 ? null : `note ${i % 13}`;
        s.addRow([`AB-${1000 + i}`, i % 11, i * 1.25 - 40, i % 2 === 0, note]);
        if (i % 50 === 0) s.addRow([]);
      }
      s.getCell('G3').value = { formula: 'B3*C3', result: -76.25 };
      s.getCell('H4').value = { formula: 'A4&"-x"', result: 'AB-1003-x' };
      s.getCell('I5').value = new Date(Date.UTC(2025, 0, 31));
      s.getCell('J6').value = { error: '#N/A' };
      wb.addWorksheet('Second').addRow(['not read']);
    });
    expect(await rowsOf(f)).toEqual(await excelJsRows(f));
  });

  it('reads inline strings, rich inline text and phonetic runs, t="d" dates, unprefixed or x:-prefixed XML, cells without refs', async () => {
    const f = save(
      await workbookOf({
        sheets: [
          {
            xml: [
              '<row r="2"><c r="A2" t="inlineStr"><is><t>plain</t></is></c><c r="B2" t="inlineStr"><is><r><t>ri</t></r><r><rPr><b/></rPr><t xml:space="preserve">ch </t></r><rPh sb="0" eb="1"><t>ignored</t></rPh></is></c></row>',
              '<row r="3"><c r="A3" t="s"><v>0</v></c><c r="C3" t="s"><v>1</v></c><c r="D3" t="s"><v>9</v></c></row>',
              '<row r="4"><c r="A4" t="d"><v>2024-03-05T00:00:00Z</v></c><c r="B4" t="str"><f>"a"&amp;"b"</f><v>a&amp;b</v></c><c r="C4" t="e"><v>#DIV/0!</v></c><c r="D4"><f>1/0</f></c></row>',
              '<row><c><v>1</v></c><c><v>2</v></c></row>', // no refs: row 5, columns A and B
              '<row r="6"/><row r="7"><c r="B7" s="3"/></row>', // formatted but empty: no row
              '<x:row r="9" xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:c r="B9" t="inlineStr"><x:is><x:t>prefixed</x:t></x:is></x:c></x:row>',
            ].join(''),
          },
        ],
        sharedStrings: ['<si><t>shared</t></si>', '<si><r><t>Ka</t></r><r><t>nji</t></r><rPh sb="0" eb="2"><t>かんじ</t></rPh><phoneticPr fontId="1"/></si>'],
      }),
    );
    expect(await rowsOf(f)).toEqual([
      [2, ['plain', 'rich ']],
      [3, ['shared', '', 'Kanji', '']],
      [4, ['2024-03-05', 'a&b', '']], // D4, a formula with no cached result, has no value
      [5, ['1', '2']],
      [9, ['', 'prefixed']],
    ]);
  });

  it('reads the first sheet in workbook order, not in file order', async () => {
    const f = save(await workbookOf({ sheets: [{ xml: '<row r="1"><c r="A1"><v>1</v></c></row>' }, { xml: '<row r="1"><c r="A1"><v>2</v></c></row>' }], order: [1, 0] }));
    expect(await rowsOf(f)).toEqual([[1, ['2']]]);
  });

  it('reads a catalogue and a parts list of thousands of rows, real compression ratios far inside the limits', async () => {
    const products = [...generateProducts({ count: 3000, seed: 5 })];
    const catalogue = await excel((wb) => {
      const s = wb.addWorksheet('Catalogue');
      s.addRow([...CATALOG_COLUMNS]);
      for (const p of products) s.addRow(exportRow(p));
    });
    const list = await excel((wb) => {
      const s = wb.addWorksheet('Parts');
      s.addRow(['Part Number', 'Qty', 'Description']);
      products.forEach((p, i) => s.addRow([p.partNumber ?? p.sku, 1 + (i % 9), p.name]));
    });
    for (const f of [catalogue, list]) {
      // Measured 6-12:1 (see xlsx-limits.ts); the limit leaves room for a workbook several times as compressible.
      expect(Math.max(...(await ratios(f)))).toBeLessThan(PARTS_LIST_XLSX_LIMITS.maxRatio / 10);
      for (const limits of [PARTS_LIST_XLSX_LIMITS, CATALOG_IMPORT_XLSX_LIMITS]) expect((await rowsOf(f, limits)).length).toBe(products.length + 1);
    }
    const rows = await rowsOf(catalogue);
    expect(rows[1]![1]).toEqual(exportRow(products[0]!));
  });
});

/**
 * The rows as the reader this module replaced read them (ExcelJS 4's streaming reader and its cellText), read to the
 * end so ExcelJS removes its temp file, in this test's own TMPDIR.
 */
async function excelJsRows(f: string): Promise<[number, string[]][]> {
  const cellText = (value: unknown): string => {
    if (value === null || value === undefined) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (value instanceof Date) return value.toISOString().slice(0, 10);
    const v = value as { richText?: { text: string }[]; result?: unknown; text?: unknown; error?: string };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('');
    if ('result' in v) return cellText(v.result);
    if (v.text !== undefined) return cellText(v.text);
    if (v.error) return '';
    return String(value);
  };
  const before = process.env.TMPDIR;
  process.env.TMPDIR = tmp.dir;
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(f, { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', entries: 'ignore' });
    const sheets: [number, string[]][][] = [];
    for await (const sheet of reader) {
      const rows: [number, string[]][] = [];
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) rows.push([row.number, Array.from(Array.isArray(row.values) ? row.values.slice(1) : [], cellText)]);
      sheets.push(rows);
    }
    return sheets[0]!;
  } finally {
    process.env.TMPDIR = before;
  }
}

/** Inflated : compressed of each entry over 1 kB. */
async function ratios(f: string): Promise<number[]> {
  return new Promise((resolve, reject) =>
    yauzl.open(f, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: number[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        if (e.uncompressedSize > 1024) out.push(e.uncompressedSize / e.compressedSize);
        zip.readEntry();
      });
      zip.on('end', () => {
        zip.close();
        resolve(out);
      });
      zip.readEntry();
    }),
  );
}

describe('an XLSX past its limits is refused, naming the limit', () => {
  it('a ZIP bomb (a small file whose sheet inflates to 94 MB) is refused from its directory, before a row is read', async () => {
    const bomb = save(await sheetBomb({ rows: 3000, padBytes: 32 * 1024 }));
    const { rows, message } = await refusal(bomb);
    expect(rows).toEqual([]);
    expect(message).toMatch(/^xl\/worksheets\/sheet1\.xml in the workbook is compressed [\d,]+:1, more than the 200:1 allowed \(a "zip bomb"\?\)$/);
    // Each directory limit alone, the ratio allowed:
    const ratioOff = { maxRatio: 10_000 };
    expect((await refusal(bomb, ratioOff)).message).toMatch(
      new RegExp(`^xl/worksheets/sheet1\\.xml in the workbook inflates to 94(\\.\\d)? MB, more than the ${formatBytes(PARTS_LIST_XLSX_LIMITS.maxEntryBytes)} allowed for one file \\(a "zip bomb"\\?\\)$`),
    );
    expect((await refusal(bomb, { ...ratioOff, maxEntryBytes: 128 * 1024 * 1024 })).message).toBe('the workbook inflates to more than 64 MB (a "zip bomb"?)');
    expect(await openOn(bomb)).toBe(0);
  });

  it('an entry that inflates past the size its directory declares is cut off there (yauzl checks the sizes)', async () => {
    const lying = save(withDeclaredSize(await sheetBomb({ rows: 2000, padBytes: 8 * 1024 }), 'xl/worksheets/sheet1.xml', 64 * 1024));
    const { rows, message } = await refusal(lying, CATALOG_IMPORT_XLSX_LIMITS);
    expect(message).toBe('xl/worksheets/sheet1.xml in the workbook inflates to more than the 65,536 bytes its ZIP directory declares (a "zip bomb"?)');
    // 8 kB a row: what was read stopped within a chunk of the declared 64 kB.
    expect(rows.length).toBeLessThanOrEqual(8);
    expect(await openOn(lying)).toBe(0);
  });

  it('a ZIP of too many files', async () => {
    const many = save(await workbookOf({ sheets: [{ xml: '<row r="1"><c r="A1"><v>1</v></c></row>' }], extra: Array.from({ length: 600 }, (_, i): [string, string] => [`xl/media/x${i}.txt`, 'x']) }));
    expect((await refusal(many)).message).toBe('the workbook holds 605 files; at most 500 are allowed');
    expect(await rowsOf(many, { maxEntries: 1000 })).toEqual([[1, ['1']]]);
  });

  it('a value in column XFD is refused, unless that many columns are allowed', async () => {
    const far = await excel((wb) => {
      const s = wb.addWorksheet('Far');
      s.getCell('A1').value = 'near';
      s.getCell('XFD1048576').value = 'far';
    });
    expect((await refusal(far)).message).toBe('the worksheet has a value in column XFD (cell XFD1048576); at most 256 columns (up to IV) are read');
    const rows = await rowsOf(far, { maxColumns: 16_384, maxRows: 1_048_576 });
    expect(rows.map(([r, cells]) => [r, cells.length, cells.at(-1)])).toEqual([
      [1, 1, 'near'],
      [1_048_576, 16_384, 'far'],
    ]);
  });

  it('rows, cells, shared strings and long texts past their limits', async () => {
    const f = await excel((wb) => {
      const s = wb.addWorksheet('S');
      for (let i = 1; i <= 30; i++) s.addRow([`part ${i}`, i, 'x'.repeat(i * 10)]);
    });
    const cases: [Partial<XlsxLimits>, string][] = [
      [{ maxRows: 20 }, 'the worksheet has more than 20 rows'],
      [{ maxCells: 50 }, 'the worksheet has more than 50 cells with values'],
      [{ maxSharedStrings: 40 }, 'the workbook has more than 40 shared strings'],
      [{ maxSharedStringChars: 1000 }, "the workbook's shared strings hold more than 1,000 characters"],
      [{ maxTextChars: 200 }, 'xl/sharedStrings.xml in the workbook holds a text longer than 200 characters'],
    ];
    for (const [limits, message] of cases) expect((await refusal(f, limits)).message).toBe(message);
    expect(await openOn(f)).toBe(0);
  });

  it('a broken workbook is refused as unreadable', async () => {
    const notZip = save(Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]));
    expect((await refusal(notZip)).message).toMatch(/^the XLSX workbook could not be read: /);
    expect(await openOn(notZip)).toBe(0);
    const badXml = save(await workbookOf({ sheets: [{ xml: '<row r="1"><c r="A1"><v>1</v></c></rw>' }] }));
    expect((await refusal(badXml)).message).toMatch(/^the XLSX workbook could not be read: xl\/worksheets\/sheet1\.xml: /);
    expect(await openOn(badXml)).toBe(0);
    const noSheet = save(await zipOf([['xl/workbook.xml', '<workbook/>']]));
    expect((await refusal(noSheet)).message).toBe('the XLSX workbook has no worksheet');
  });
});

describe('nothing left behind', () => {
  it('writes no temp file and closes the file when the caller stops early, with the sheet before the shared strings', async () => {
    // ExcelJS writes xl/worksheets/sheet1.xml before xl/sharedStrings.xml: its reader spooled the sheet to a temp
    // file, which stayed when the caller stopped reading.
    const f = await excel((wb) => {
      const s = wb.addWorksheet('Parts');
      for (let i = 1; i <= 2000; i++) s.addRow([`PART-${i}`, i]);
    });
    const own = mkdtempSync(path.join(tmp.dir, 'tmpdir-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = own;
    try {
      for await (const r of readTabularRows(f, { maxRows: 5000 })) if (r.row === 10) break;
      const it = readTabularRows(f);
      await it.next();
      await it.return(undefined);
    } finally {
      process.env.TMPDIR = before;
    }
    expect(readdirSync(own)).toEqual([]);
    expect(await openOn(f)).toBe(0);
  });
});
