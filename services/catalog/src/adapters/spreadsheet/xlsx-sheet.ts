import { TabularFileError } from './tabular-file-error.ts';
import { columnName, formatCount, formatName, type XlsxLimits } from './xlsx-limits.ts';
import { attr, type XmlHandlers } from './xlsx-xml.ts';

export interface SheetRow {
  /** The sheet's 1-based row number (`<row r>`). */
  row: number;
  /** Values by column, gaps as ''. */
  cells: string[];
}

interface Cell {
  col: number;
  ref: string;
  type: string;
  v: string | null;
  inline: string | null;
}

const MAX_COLUMN = 16_384; // XFD

/** A cell ref's column (B7 → 2), or null when it has no letters; past XFD is MAX_COLUMN + 1. */
function columnOf(ref: string): number | null {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20; // lower case
    if (c < 0x61 || c > 0x7a) break;
    col = Math.min(col * 26 + (c - 0x60), MAX_COLUMN + 1);
  }
  return i === 0 ? null : col;
}

/**
 * A cell as ExcelJS and cellText gave it: a shared or inline string, a formula's cached result, a number as
 * String(parseFloat), a boolean as 'true'/'false', an error as '', a `t="d"` date as YYYY-MM-DD.
 */
function cellValue(c: Cell, shared: readonly string[]): string {
  const v = c.v ?? '';
  switch (c.type) {
    case 's':
      return shared[Number.parseInt(v, 10)] ?? '';
    case 'inlineStr':
      return c.inline ?? v;
    case 'str':
      return v;
    case 'e':
      return '';
    case 'b':
      return v.trim() === '' ? '' : Number.parseInt(v, 10) !== 0 ? 'true' : 'false';
    case 'd':
      return /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : v;
    default: {
      if (v.trim() === '') return '';
      const n = Number.parseFloat(v);
      return Number.isNaN(n) ? v : String(n);
    }
  }
}

/**
 * Reads a worksheet's `<sheetData>` from its XML events into rows, handing each finished row that has a value to
 * `emit` (rows with none, such as formatted empty rows, are passed over: their numbers still count). Counts rows,
 * cells and columns against the limits as it goes.
 */
export function sheetReader(name: string, shared: readonly string[], limits: XlsxLimits, emit: (row: SheetRow) => void) {
  let inData = false;
  let done = false;
  let row: { number: number; cells: string[]; width: number } | null = null;
  let lastRow = 0;
  let lastCol = 0;
  let cell: Cell | null = null;
  let text: 'v' | 't' | null = null;
  let phonetic = 0;
  let rows = 0;
  let cells = 0;

  const tooLong = () => new TabularFileError(`a cell of ${name} holds a text longer than ${formatCount(limits.maxTextChars)} characters`);

  function endCell(c: Cell) {
    if (!row || (c.v === null && c.inline === null)) return; // a formatted empty cell
    if (c.col > limits.maxColumns) {
      const where = c.col > MAX_COLUMN ? `the cell "${formatName(c.ref)}"` : `column ${columnName(c.col)} (cell ${c.ref || columnName(c.col) + row.number})`;
      throw new TabularFileError(`the worksheet has a value in ${where}; at most ${formatCount(limits.maxColumns)} columns (up to ${columnName(limits.maxColumns)}) are read`);
    }
    if (++cells > limits.maxCells) throw new TabularFileError(`the worksheet has more than ${formatCount(limits.maxCells)} cells with values`);
    row.cells[c.col - 1] = cellValue(c, shared);
    row.width = Math.max(row.width, c.col);
  }

  function endRow(r: { number: number; cells: string[]; width: number }) {
    lastRow = r.number;
    if (r.width === 0) return;
    if (r.number > limits.maxRows || ++rows > limits.maxRows) {
      throw new TabularFileError(`the worksheet has more than ${formatCount(limits.maxRows)} rows`, r.number);
    }
    emit({ row: r.number, cells: Array.from({ length: r.width }, (_, i) => r.cells[i] ?? '') });
  }

  const handlers: XmlHandlers = {
    open(tag, attrs) {
      if (tag === 'sheetData') inData = true;
      if (!inData) return;
      if (tag === 'row') {
        const r = Number.parseInt(attr(attrs, 'r') ?? '', 10);
        row = { number: r > 0 ? r : lastRow + 1, cells: [], width: 0 };
        lastCol = 0;
      } else if (tag === 'c' && row) {
        const ref = attr(attrs, 'r') ?? '';
        const col = columnOf(ref) ?? lastCol + 1;
        lastCol = col;
        cell = { col, ref, type: attr(attrs, 't') ?? 'n', v: null, inline: null };
      } else if (cell) {
        if (tag === 'v') {
          cell.v = '';
          text = 'v';
        } else if (tag === 'is') cell.inline = '';
        else if (tag === 'rPh') phonetic++;
        else if (tag === 't' && cell.inline !== null && phonetic === 0) text = 't';
      }
    },
    close(tag) {
      if (!inData) return;
      if (tag === 'v' || tag === 't') text = null;
      else if (tag === 'rPh') phonetic--;
      else if (tag === 'c' && cell) {
        endCell(cell);
        cell = null;
      } else if (tag === 'row' && row) {
        endRow(row);
        row = null;
      } else if (tag === 'sheetData') {
        inData = false;
        done = true;
      }
    },
    text(t) {
      if (!cell || !text) return;
      if (text === 'v') cell.v = (cell.v ?? '') + t;
      else cell.inline = (cell.inline ?? '') + t;
      if ((cell.v?.length ?? 0) > limits.maxTextChars || (cell.inline?.length ?? 0) > limits.maxTextChars) throw tooLong();
    },
  };
  /** True once `</sheetData>` is read: no row comes after it. */
  return { handlers, done: () => done };
}
