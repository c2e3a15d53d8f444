import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { CsvError, parse } from 'csv-parse';
import { TabularFileError } from './tabular-file-error.ts';
import type { XlsxLimits } from './xlsx-limits.ts';
import { readXlsxRows } from './xlsx-rows.ts';

/**
 * Reads an uploaded spreadsheet row by row, streaming: a CSV (comma, semicolon or tab; UTF-8 with or without a BOM;
 * quoted fields may hold newlines) or the first worksheet of an XLSX workbook. Used by the parts-list match and the
 * catalogue import, so both take the same files the same way. An XLSX is a ZIP, so each caller passes the limits of
 * what its workbooks may inflate to (xlsx-limits.ts).
 */

export { TabularFileError };

export type TabularKind = 'csv' | 'xlsx';

export interface TabularRow {
  /** 1-based row of the file (for CSV, the line the record starts on). */
  row: number;
  cells: string[];
}

export interface TabularReadOptions {
  /** Stop (without error) after this many rows. */
  maxRows?: number;
  /** What an XLSX may inflate to and hold (the defaults are the public parts list's). */
  limits?: Partial<XlsxLimits>;
}

const SNIFF_BYTES = 64 * 1024;

/** What a file holds, from its first bytes: a ZIP is taken as XLSX; text as CSV; anything else is refused. */
export async function sniffTabularFile(path: string): Promise<{ kind: TabularKind; delimiter: string }> {
  const handle = await open(path, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (head.length === 0) throw new TabularFileError('the file is empty');
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return { kind: 'xlsx', delimiter: ',' };
  if (head.includes(0) || !looksLikeUtf8Text(head)) {
    throw new TabularFileError('the file is neither a CSV (UTF-8 text) nor an XLSX workbook');
  }
  return { kind: 'csv', delimiter: detectDelimiter(head.toString('utf8')) };
}

/** UTF-8 text, allowing a multi-byte character cut at the end of the sniffed bytes; no control bytes but tab, CR, LF. */
function looksLikeUtf8Text(buf: Buffer): boolean {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(buf);
  const bad = (text.match(/\uFFFD/g) ?? []).length;
  if (bad > 1 || (bad === 1 && !text.endsWith('\uFFFD'))) return false;
  return !/[\u0001-\u0008\u000B\u000C\u000E-\u001F]/.test(text);
}

/** The separator of the header row: whichever of tab, semicolon and comma occurs most outside quotes (comma on a tie or none). */
export function detectDelimiter(text: string): string {
  const body = text.replace(/^\uFEFF/, '');
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const ch of body) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ',';
  for (const [d, n] of counts) if (n > counts.get(best)!) best = d;
  return best;
}

/**
 * The rows of a file, in order. Throws TabularFileError for a broken file (naming the row where the CSV parser knows
 * it) or a workbook past a limit. An XLSX's rows without any value are left out (their numbers are kept).
 */
export async function* readTabularRows(path: string, opts: TabularReadOptions = {}): AsyncGenerator<TabularRow> {
  const { kind, delimiter } = await sniffTabularFile(path);
  if (kind === 'xlsx') yield* readXlsxRows(path, opts);
  else yield* readCsvRows(path, delimiter, opts.maxRows ?? Number.POSITIVE_INFINITY);
}

/**
 * How many rows a file has that are not blank, for an import's progress bar. A CSV is counted by a quote-aware scan
 * of its bytes (about twenty times faster than parsing it, which a 500,000-row file pays once more anyway); a file
 * whose quoting the scan finds unsound, and an XLSX, are read through the parser, so a broken file is refused here,
 * before anything is written, with the parser's own message.
 */
export async function countTabularRows(path: string, opts: Pick<TabularReadOptions, 'limits'> = {}): Promise<number> {
  const { kind, delimiter } = await sniffTabularFile(path);
  if (kind === 'csv') {
    const scan = await scanCsvRecords(path, delimiter.charCodeAt(0));
    if (scan.sound) return scan.rows;
  }
  let rows = 0;
  for await (const r of readTabularRows(path, opts)) if (r.cells.some((c) => c.trim())) rows++;
  return rows;
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * Counts the records with any content, following RFC 4180 quoting (a field that starts with a quote runs to the
 * closing quote, newlines included; "" is a quote). `sound` is false where the parser would refuse the file (a quote
 * inside an unquoted field, text after a closing quote, a quote never closed) or count differently (lines ended by a
 * lone CR).
 */
async function scanCsvRecords(path: string, delimiter: number): Promise<{ rows: number; sound: boolean }> {
  let rows = 0;
  let quoted = false;
  let quoteSeen = false; // inside quotes, the last byte was a quote: a closing one, or the first of ""
  let fieldStart = true;
  let afterClose = false;
  let content = false;
  let afterCR = false;
  let first = true;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const bom = first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf;
    first = false;
    for (let i = bom ? 3 : 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (afterCR && c !== LF && !quoted) return { rows, sound: false };
      afterCR = false;
      if (quoted) {
        if (quoteSeen) {
          quoteSeen = false;
          if (c === QUOTE) continue; // "" inside quotes
          quoted = false;
          afterClose = true; // and c is read below, outside the quotes
        } else {
          if (c === QUOTE) quoteSeen = true;
          else if (c !== SPACE && c !== TAB && c !== CR && c !== LF) content = true;
          continue;
        }
      }
      if (c === delimiter) {
        fieldStart = true;
        afterClose = false;
      } else if (c === LF) {
        if (content) rows++;
        content = false;
        fieldStart = true;
        afterClose = false;
      } else if (c === CR) {
        afterCR = true; // the first half of a CRLF
      } else if (c === QUOTE) {
        if (!fieldStart) return { rows, sound: false };
        quoted = true;
        fieldStart = false;
      } else {
        if (afterClose) return { rows, sound: false };
        fieldStart = false;
        if (c !== SPACE && c !== TAB) content = true;
      }
    }
  }
  if (quoted && !quoteSeen) return { rows, sound: false };
  if (content) rows++;
  return { rows, sound: true };
}

async function* readCsvRows(path: string, delimiter: string, max: number): AsyncGenerator<TabularRow> {
  const source = createReadStream(path);
  const parser = source.pipe(
    parse({ delimiter, bom: true, relax_column_count: true, skip_empty_lines: false, info: true, max_record_size: 1024 * 1024 }),
  );
  // pipe() passes no error on and closes nothing: a read error reaches the loop below through the parser (unheard, it
  // would end the process), and the file is closed in `finally` also when the caller stops early.
  source.on('error', (err) => parser.destroy(err));
  let n = 0;
  // info.lines is the line a record ends on, counting a CRLF inside a quoted field as two lines.
  let overcount = 0;
  try {
    for await (const record of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (n++ >= max) break;
      const text = record.record.join('');
      const breaks = text.match(/\r\n|\r|\n/g)?.length ?? 0;
      overcount += (text.match(/[\r\n]/g)?.length ?? 0) - breaks;
      yield { row: record.info.lines - overcount - breaks, cells: record.record };
    }
  } catch (err) {
    // Every refusal of the parser (its codes are not all CSV_*: INVALID_OPENING_QUOTE is not).
    if (!(err instanceof CsvError)) throw err;
    const e = err as CsvError & { lines?: number };
    throw new TabularFileError(`the CSV could not be read at line ${e.lines ?? '?'}: ${csvProblem(e)}`, e.lines);
  } finally {
    parser.destroy();
    source.destroy();
  }
}

function csvProblem(e: CsvError): string {
  switch (e.code as string) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed';
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'a quote closes a field in the middle of it (write a quote inside a quoted field as "")';
    case 'CSV_MAX_RECORD_SIZE':
      return 'a row is longer than 1 MB';
    case 'INVALID_OPENING_QUOTE':
      return 'a quote opens in the middle of a field (put the whole field in quotes, and write a quote inside it as "")';
    default:
      return e.message;
  }
}
