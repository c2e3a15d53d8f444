/**
 * How much an XLSX workbook may make the reader do. A workbook is a ZIP: a 2 MB upload can inflate to gigabytes, so
 * the reader checks the ZIP's central directory before inflating anything, and counts while it reads (xlsx-zip.ts,
 * xlsx-sheet.ts). Every limit here is named in the message of the refusal it causes.
 *
 * Compression of real workbooks, measured 2026-11 on ExcelJS-written ones of 5,000-50,000 rows of generated parts
 * (xlsx-rows.test.ts's "real compression ratios" test writes such workbooks and fails if one comes within a tenth
 * of maxRatio): a catalogue export (17 columns) 5.6-6.9:1 in all (sheet 6.6-9.0:1, shared strings 5.0-6.0:1; 226-274
 * bytes a row in the file, about 1,550 inflated), a parts list 7.2:1, every row alike 11.8:1, formulas 6.7:1, a styled empty grid
 * 12.1:1; recompressed at zlib level 9 they barely move. The most compressible real shape found, empty formatted rows
 * as Excel writes them, is 28:1. A ZIP bomb of repeated bytes is about 1,030:1, deflate's ceiling.
 *
 * Speed: a 50,000-row catalogue (13.7 MB, 77 MB inflated) reads in 4.2 s on the 2-core test machine (ExcelJS's
 * reader: 5.6 s), about a minute per inflated GB.
 */
export interface XlsxLimits {
  /** Entries (files) in the ZIP. */
  maxEntries: number;
  /** One entry's inflated size: as its central directory declares it, and as counted while inflating it. */
  maxEntryBytes: number;
  /** All entries' inflated sizes together (declared), and all bytes inflated while reading (counted). */
  maxTotalBytes: number;
  /** Inflated : compressed, for each entry that inflates past ratioFloorBytes (below it the ratio says nothing). */
  maxRatio: number;
  ratioFloorBytes: number;
  /** The highest row number with a value, and rows with values read. */
  maxRows: number;
  /** The highest column with a value (cells a row may have): a cell at XFD would otherwise make 16,384. */
  maxColumns: number;
  /** Cells with a value in the worksheet read. */
  maxCells: number;
  /** Strings in the shared-string table, and their characters together (the table is held in memory). */
  maxSharedStrings: number;
  maxSharedStringChars: number;
  /** Any one text in the XML (a cell, a shared string), and any run of XML between two tags. */
  maxTextChars: number;
}

const MB = 1024 * 1024;

/**
 * A parts list (POST /api/parts/match, anyone may send one): the file is at most 2 MB, which at the 12:1 of a real
 * workbook is 24 MB inflated; the route reads 5,000 rows at most. A caller that names no limits gets these.
 */
export const PARTS_LIST_XLSX_LIMITS: XlsxLimits = {
  maxEntries: 500,
  maxEntryBytes: 32 * MB,
  maxTotalBytes: 64 * MB,
  maxRatio: 200,
  ratioFloorBytes: 1 * MB,
  maxRows: 100_000,
  maxColumns: 256,
  maxCells: 1_000_000,
  maxSharedStrings: 200_000,
  maxSharedStringChars: 16_000_000,
  maxTextChars: 65_536,
};

/**
 * The admin catalogue import (files up to CATALOG_IMPORT_MAX_MB, 700 MB; an XLSX holds at most Excel's 1,048,576 rows): 500,000 catalogue rows are about 140 MB as
 * XLSX and 770 MB inflated; a 180 MB XLSX at 12:1 is 2.2 GB, and a larger one is refused by maxTotalBytes. The shared strings (every distinct text of the sheet, about
 * 880 characters a generated catalogue row, so 440 million for 500,000) are held in memory, as ExcelJS held them.
 * The rest is streamed: the inflated total costs time, not memory or disk.
 */
export const CATALOG_IMPORT_XLSX_LIMITS: XlsxLimits = {
  maxEntries: 5_000,
  maxEntryBytes: 2048 * MB,
  maxTotalBytes: 3072 * MB,
  maxRatio: 200,
  ratioFloorBytes: 1 * MB,
  maxRows: 1_048_576, // Excel's own
  maxColumns: 1_024,
  maxCells: 40_000_000,
  maxSharedStrings: 20_000_000,
  maxSharedStringChars: 1_000_000_000,
  maxTextChars: 1_048_576,
};

export const DEFAULT_XLSX_LIMITS = PARTS_LIST_XLSX_LIMITS;

/** 64 MB, 1.5 GB, 300 kB: sizes as a message names them. */
export function formatBytes(n: number): string {
  if (n >= 1024 * MB) return `${+(n / (1024 * MB)).toFixed(2)} GB`;
  if (n >= MB) return `${+(n / MB).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} kB`;
  return `${n} bytes`;
}

export const formatCount = (n: number) => Math.round(n).toLocaleString('en-US');

/** A ZIP entry's name as a message shows it: the sender chose it, so no control characters and not too long. */
export const formatName = (name: string) => {
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 120 ? `${clean.slice(0, 117)}...` : clean;
};

/** 1 → A, 27 → AA, 16384 → XFD. */
export function columnName(col: number): string {
  let name = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}
