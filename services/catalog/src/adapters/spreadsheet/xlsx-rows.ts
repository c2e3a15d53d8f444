import path from 'node:path';
import type yauzl from 'yauzl';
import { TabularFileError } from './tabular-file-error.ts';
import { DEFAULT_XLSX_LIMITS, formatName, type XlsxLimits } from './xlsx-limits.ts';
import { readSharedStrings } from './xlsx-shared-strings.ts';
import { sheetReader, type SheetRow } from './xlsx-sheet.ts';
import { attr, parseXml, readXml } from './xlsx-xml.ts';
import { openXlsxZip, type XlsxZip } from './xlsx-zip.ts';

export interface XlsxReadOptions {
  /** Over the defaults (DEFAULT_XLSX_LIMITS); past any of them the read fails with a TabularFileError naming it. */
  limits?: Partial<XlsxLimits>;
  /** Stop (without error) after this many rows with values. */
  maxRows?: number;
}

/**
 * The rows with values of an XLSX workbook's first worksheet (the first in the workbook's order), streamed from the
 * file: the ZIP is read in place (no temp files), its directory checked against the limits first, the XML parsed as
 * it inflates. The file is closed however the reading ends: at the end, on an error, or when the caller stops.
 */
export async function* readXlsxRows(file: string, opts: XlsxReadOptions = {}): AsyncGenerator<SheetRow> {
  const limits: XlsxLimits = { ...DEFAULT_XLSX_LIMITS, ...opts.limits };
  const max = opts.maxRows ?? Number.POSITIVE_INFINITY;
  const zip = await openXlsxZip(file, limits);
  try {
    const { sheet, sharedStrings } = await locateParts(zip, limits);
    const shared = sharedStrings ? await readSharedStrings(zip, sharedStrings, limits) : [];
    const ready: SheetRow[] = [];
    const reader = sheetReader(formatName(sheet.fileName), shared, limits, (row) => ready.push(row));
    let n = 0;
    for await (const _ of parseXml(zip, sheet, limits, reader.handlers)) {
      for (const row of ready) {
        if (n++ >= max) return;
        yield row;
      }
      ready.length = 0;
      if (reader.done()) return; // what follows </sheetData> (merges, print settings) is not inflated
    }
  } finally {
    zip.close();
  }
}

/** A relationship's target, from the folder of the part that names it, as a ZIP entry name. */
const resolveTarget = (folder: string, target: string) =>
  path.posix.normalize(target.startsWith('/') ? target.slice(1) : path.posix.join(folder, target));

/**
 * The first worksheet in the workbook's order (xl/workbook.xml's first `<sheet>` that its relationships make a
 * worksheet, not a chart sheet), and the shared strings; without those parts, the lowest-numbered
 * xl/worksheets/sheetN.xml and xl/sharedStrings.xml.
 */
async function locateParts(zip: XlsxZip, limits: XlsxLimits): Promise<{ sheet: yauzl.Entry; sharedStrings?: yauzl.Entry }> {
  const worksheets = new Map<string, yauzl.Entry>(); // relationship id → entry
  let sharedStrings: yauzl.Entry | undefined;
  const rels = zip.entry('xl/_rels/workbook.xml.rels');
  if (rels) {
    await readXml(zip, rels, limits, {
      open(name, attrs) {
        const target = attr(attrs, 'Target');
        if (name !== 'Relationship' || !target || attr(attrs, 'TargetMode') === 'External') return;
        const entry = zip.entry(resolveTarget('xl', target));
        const type = attr(attrs, 'Type') ?? '';
        if (!entry) return;
        if (type.endsWith('/worksheet') && worksheets.size < limits.maxEntries) worksheets.set(attr(attrs, 'Id') ?? '', entry);
        else if (type.endsWith('/sharedStrings')) sharedStrings ??= entry;
      },
      close() {},
      text() {},
    });
  }
  let sheet: yauzl.Entry | undefined;
  const workbook = zip.entry('xl/workbook.xml');
  if (workbook && worksheets.size > 0) {
    const handlers = {
      open(name: string, attrs: Record<string, string>) {
        if (name === 'sheet') sheet ??= worksheets.get(attr(attrs, 'id') ?? '');
      },
      close() {},
      text() {},
    };
    await readXml(zip, workbook, limits, handlers, () => sheet !== undefined);
  }
  sheet ??= lowestNumberedSheet(zip);
  if (!sheet) throw new TabularFileError('the XLSX workbook has no worksheet');
  return { sheet, sharedStrings: sharedStrings ?? zip.entry('xl/sharedStrings.xml') };
}

function lowestNumberedSheet(zip: XlsxZip): yauzl.Entry | undefined {
  let best: { n: number; name: string } | undefined;
  for (const name of zip.names()) {
    const m = /^xl\/worksheets\/sheet(\d+)\.xml$/i.exec(name);
    if (m && (!best || Number(m[1]) < best.n)) best = { n: Number(m[1]), name };
  }
  return best && zip.entry(best.name);
}
