import { Readable } from 'node:stream';
import yazl from 'yazl';
import { zipBuffer } from '@forgeline/test-support/zip';

/**
 * XLSX files written by hand (yazl), for what ExcelJS will not write: ZIP bombs, a central directory that lies,
 * parts in an unusual order. Used by the reader's unit tests and the HTTP suites.
 */

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** A ZIP of the entries in the order given (a Readable is streamed in: its size is only known at the end). */
export function zipOf(entries: [string, Buffer | string | Readable][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of entries) {
    if (data instanceof Readable) zip.addReadStream(data, name);
    else zip.addBuffer(Buffer.from(data), name);
  }
  return zipBuffer(zip);
}

export interface HandWrittenSheet {
  /** The `<sheetData>` body, or a stream of the whole worksheet XML. */
  xml: string | Readable;
  name?: string;
}

/**
 * A workbook: the sheets as xl/worksheets/sheet1.xml, sheet2.xml… listed in workbook.xml in `order` (indexes into
 * `sheets`, default as given), the shared strings after the sheets (as ExcelJS and Excel write them), `extra` entries
 * last.
 */
export function workbookOf(opts: { sheets: HandWrittenSheet[]; sharedStrings?: string[]; order?: number[]; extra?: [string, Buffer | string][] }): Promise<Buffer> {
  const { sheets, sharedStrings } = opts;
  const order = opts.order ?? sheets.map((_, i) => i);
  const rels = sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`);
  if (sharedStrings) rels.push(`<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="/xl/sharedStrings.xml"/>`);
  const sheetList = order.map((i) => `<sheet name="${sheets[i]!.name ?? `Sheet${i + 1}`}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  return zipOf([
    ['[Content_Types].xml', `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`],
    ['_rels/.rels', `${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    ['xl/workbook.xml', `${HEAD}<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets>${sheetList}</sheets></workbook>`],
    ['xl/_rels/workbook.xml.rels', `${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`],
    ...sheets.map((s, i): [string, string | Readable] => [`xl/worksheets/sheet${i + 1}.xml`, typeof s.xml === 'string' ? `${HEAD}<worksheet xmlns="${NS}"><sheetData>${s.xml}</sheetData></worksheet>` : s.xml]),
    ...(sharedStrings ? [['xl/sharedStrings.xml', `${HEAD}<sst xmlns="${NS}" count="${sharedStrings.length}" uniqueCount="${sharedStrings.length}">${sharedStrings.join('')}</sst>`] as [string, string]] : []),
    ...(opts.extra ?? []),
  ]);
}

/**
 * A ZIP bomb shaped as a spreadsheet: `rows` rows of `cells(row)` (inline strings; default "BOMB-<row>" and the row
 * number), each followed by `padBytes` of blanks, which deflate about 1,000:1 (3,000 rows of 32 kB: 94 MB). The sheet
 * comes before the shared strings, as ExcelJS and Excel write them: ExcelJS's reader spooled such a sheet to a
 * temp file.
 */
export function sheetBomb(opts: { rows: number; padBytes: number; cells?: (row: number) => string[] }): Promise<Buffer> {
  const cells = opts.cells ?? ((r: number) => [`BOMB-${r}`, String(r)]);
  const pad = Buffer.alloc(opts.padBytes, ' ');
  const escape = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  function* xml() {
    yield Buffer.from(`${HEAD}<worksheet xmlns="${NS}"><sheetData>`);
    for (let r = 1; r <= opts.rows; r++) {
      const row = cells(r).map((t, i) => `<c r="${String.fromCharCode(65 + i)}${r}" t="inlineStr"><is><t>${escape(t)}</t></is></c>`);
      yield Buffer.from(`<row r="${r}">${row.join('')}</row>`);
      yield pad;
    }
    yield Buffer.from('</sheetData></worksheet>');
  }
  return workbookOf({ sheets: [{ xml: Readable.from(xml()) }], sharedStrings: ['<si><t>unused</t></si>'] });
}

/** The ZIP with the central directory's uncompressed size of `entryName` rewritten (yauzl reads sizes from there). */
export function withDeclaredSize(zip: Buffer, entryName: string, size: number): Buffer {
  const out = Buffer.from(zip);
  const name = Buffer.from(entryName);
  for (let at = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])); at > 0; at--) {
    if (out.readUInt32LE(at) !== 0x02014b50 || out.readUInt16LE(at + 28) !== name.length) continue;
    if (!out.subarray(at + 46, at + 46 + name.length).equals(name)) continue;
    out.writeUInt32LE(size, at + 24);
    return out;
  }
  throw new Error(`no central directory record for ${entryName}`);
}
