import {
  CalloutSchema,
  DIAGRAM_CSV_COLUMNS,
  DIAGRAM_EXPORT_COLUMNS,
  DIAGRAM_LIMITS,
  type Assembly,
  type Callout,
  type DiagramCsvColumn,
  type DiagramImportReport,
} from '@forgeline/contracts/parts-diagrams';
import { codeKey, slugify } from '@forgeline/contracts/slug';
import type { DiagramStore, ProductRepository } from '../ports.ts';
import { escapeCell, unescapeCell } from './catalog-import.ts';
import { contentOf, describeChange, freeSlug, historyEntry, newAssembly, sortCallouts } from './parts-diagrams.ts';

/**
 * The parts diagrams as a spreadsheet (#38), beside the catalogue's: one row per place a callout is drawn (a callout
 * drawn nowhere yet is one row with x and y blank). Columns: make, model, assembly, callout, part_number, sku,
 * quantity, x, y (percent of the drawing), serial_from, serial_to, note. An import replaces the whole table of each
 * assembly it names and leaves the others alone; an assembly with any bad row is left as it was, and every bad row is
 * reported with its row and column, as the catalogue import reports them.
 */

export { DIAGRAM_EXPORT_COLUMNS };
type Column = DiagramCsvColumn | 'sku';

const ALIASES: Record<Column, string[]> = {
  make: ['make', 'machinemake', 'manufacturer', 'oem'],
  model: ['model', 'machinemodel', 'machine'],
  assembly: ['assembly', 'assemblyname', 'group', 'section', 'diagram'],
  callout: ['callout', 'calloutnumber', 'item', 'itemno', 'itemnumber', 'ref', 'refno', 'position', 'pos', 'number', 'no'],
  part_number: ['partnumber', 'partno', 'pn', 'part'],
  sku: ['sku'],
  quantity: ['quantity', 'qty', 'quantityperassembly'],
  x: ['x', 'xpercent'],
  y: ['y', 'ypercent'],
  serial_from: ['serialfrom', 'fromserial', 'snfrom', 'serialstart'],
  serial_to: ['serialto', 'toserial', 'snto', 'serialend'],
  note: ['note', 'notes', 'remark', 'remarks', 'comment'],
};
const REQUIRED: Column[] = ['make', 'model', 'assembly', 'callout'];
const headerKey = (h: string) => h.replace(/^\uFEFF/, '').toLowerCase().replace(/[^a-z0-9]/g, '');

export class DiagramFileError extends Error {}

export interface DiagramHeader {
  index: Partial<Record<Column, number>>;
  unknown: string[];
}

export function readDiagramHeader(cells: string[]): DiagramHeader {
  const index: Partial<Record<Column, number>> = {};
  const unknown: string[] = [];
  cells.forEach((cell, i) => {
    const key = headerKey(cell);
    if (!key) return;
    const column = (Object.keys(ALIASES) as Column[]).find((c) => ALIASES[c].includes(key));
    if (!column) unknown.push(cell.trim());
    else if (index[column] !== undefined) throw new DiagramFileError(`the column "${column}" appears twice in the header`);
    else index[column] = i;
  });
  const missing = REQUIRED.filter((c) => index[c] === undefined);
  if (index.part_number === undefined && index.sku === undefined) missing.push('part_number');
  if (missing.length) {
    throw new DiagramFileError(`the header has no ${missing.map((c) => `"${c}"`).join(', ')} column (found: ${cells.filter((c) => c.trim()).slice(0, 12).join(', ') || 'nothing'}); the columns are ${DIAGRAM_CSV_COLUMNS.join(', ')}`);
  }
  return { index, unknown };
}

interface RowError {
  row: number;
  column: string;
  message: string;
}

interface Group {
  make: string;
  model: string;
  name: string;
  rows: { row: number; cells: Record<Column, string> }[];
}

/** A decimal as spreadsheets write it in either locale ("12.5", "12,5"); null when it is none. */
function decimal(raw: string): number | null {
  const s = raw.trim().replace(',', '.');
  return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : null;
}

/** The rows of a file, grouped by the assembly they belong to (make, model and assembly compared as slugs). */
export function groupRows(header: DiagramHeader, rows: Iterable<{ row: number; cells: string[] }>, errors: RowError[]): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (const { row, cells } of rows) {
    if (cells.every((c) => !c.trim())) continue;
    const cell = {} as Record<Column, string>;
    for (const c of Object.keys(ALIASES) as Column[]) {
      const i = header.index[c];
      cell[c] = i === undefined ? '' : unescapeCell((cells[i] ?? '').trim());
    }
    let bad = false;
    for (const c of ['make', 'model', 'assembly'] as const) {
      if (!cell[c]) {
        errors.push({ row, column: c, message: 'is required' });
        bad = true;
      } else if (cell[c].length > DIAGRAM_LIMITS.name) {
        errors.push({ row, column: c, message: `must be at most ${DIAGRAM_LIMITS.name} characters` });
        bad = true;
      }
    }
    if (bad) continue;
    const key = `${slugify(cell.make)}/${slugify(cell.model)}/${slugify(cell.assembly)}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { make: cell.make, model: cell.model, name: cell.assembly, rows: [] }));
    g.rows.push({ row, cells: cell });
  }
  return groups;
}

/** Finds the parts a file names: by SKU when it gives one, else by part number (one part only: a number two brands share needs the SKU). */
async function resolveParts(repo: ProductRepository, groups: Map<string, Group>) {
  const skus = new Set<string>();
  const numbers = new Set<string>();
  for (const g of groups.values())
    for (const { cells } of g.rows) {
      if (cells.sku) skus.add(cells.sku);
      else if (cells.part_number) numbers.add(cells.part_number);
    }
  const bySku = new Map<string, string>();
  for (const [sku, stored] of await repo.getBySkus([...skus])) if (stored.active) bySku.set(sku, stored.product.id);
  const byNumber = new Map<string, { ids: string[] }>();
  await Promise.all(
    [...numbers].map(async (n) => {
      const key = codeKey(n);
      const found = key ? (await repo.findByCode(key, 20)).filter((p) => codeKey(p.partNumber) === key || codeKey(p.sku) === key) : [];
      byNumber.set(n, { ids: [...new Set(found.map((p) => p.id))] });
    }),
  );
  return { bySku, byNumber };
}

/** One group's rows as callouts (rows of one line merged: their places), or the errors that keep it from being written. */
function calloutsOf(g: Group, parts: Awaited<ReturnType<typeof resolveParts>>, errors: RowError[]): Callout[] | null {
  const before = errors.length;
  const lines = new Map<string, { callout: Callout; row: number }>();
  for (const { row, cells } of g.rows) {
    const fail = (column: string, message: string) => void errors.push({ row, column, message });
    let partId: string | undefined;
    if (cells.sku) {
      partId = parts.bySku.get(cells.sku);
      if (!partId) fail('sku', `no part with SKU "${cells.sku}" on the storefront`);
    } else if (!cells.part_number) {
      fail('part_number', 'is required: the part this callout is');
    } else {
      const found = parts.byNumber.get(cells.part_number)?.ids ?? [];
      if (found.length === 1) partId = found[0];
      else if (found.length === 0) fail('part_number', `no part numbered "${cells.part_number}" in the catalogue`);
      else fail('part_number', `"${cells.part_number}" is the number of ${found.length} parts: give the SKU too`);
    }
    const x = cells.x ? decimal(cells.x) : null;
    const y = cells.y ? decimal(cells.y) : null;
    if (cells.x && x === null) fail('x', 'must be a number (percent of the drawing\'s width)');
    if (cells.y && y === null) fail('y', 'must be a number (percent of the drawing\'s height)');
    if (Boolean(cells.x) !== Boolean(cells.y)) fail(cells.x ? 'y' : 'x', 'must be given with the other (or both left blank)');
    const quantity = cells.quantity ? decimal(cells.quantity) : 1;
    const parsed = CalloutSchema.safeParse({
      number: cells.callout,
      positions: x !== null && y !== null ? [{ x, y }] : [],
      partId: partId ?? 'unknown',
      quantity: quantity ?? Number.NaN,
      ...(cells.serial_from ? { serialFrom: cells.serial_from } : {}),
      ...(cells.serial_to ? { serialTo: cells.serial_to } : {}),
      ...(cells.note ? { note: cells.note } : {}),
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        const column =
          field === 'number' ? 'callout' : field === 'positions' ? String(issue.path[3] ?? 'x') : field === 'serialFrom' ? 'serial_from' : field === 'serialTo' ? 'serial_to' : field;
        fail(column, issue.message);
      }
      continue;
    }
    if (!partId) continue;
    const c = parsed.data;
    // One line of the table: the same number, part and serial range; each of its rows adds a place.
    const key = `${c.number}|${c.partId}|${c.serialFrom ?? ''}|${c.serialTo ?? ''}`;
    const seen = lines.get(key);
    if (!seen) {
      lines.set(key, { callout: c, row });
      continue;
    }
    if (seen.callout.quantity !== c.quantity || (seen.callout.note ?? '') !== (c.note ?? '')) {
      fail(seen.callout.quantity !== c.quantity ? 'quantity' : 'note', `differs from row ${seen.row}, the same callout ${c.number} and part: give it once`);
      continue;
    }
    for (const p of c.positions) if (!seen.callout.positions.some((q) => q.x === p.x && q.y === p.y)) seen.callout.positions.push(p);
    if (seen.callout.positions.length > DIAGRAM_LIMITS.positions) fail('x', `callout ${c.number} is drawn in more than ${DIAGRAM_LIMITS.positions} places`);
  }
  if (lines.size > DIAGRAM_LIMITS.callouts) errors.push({ row: g.rows[0]!.row, column: 'assembly', message: `"${g.name}" has more than ${DIAGRAM_LIMITS.callouts} lines` });
  return errors.length > before ? null : sortCallouts([...lines.values()].map((l) => l.callout));
}

/**
 * Applies a diagram file: each assembly it names gets the file's table (created when new); unchanged ones keep their
 * version. `dryRun` reports the same and writes nothing.
 */
export async function importDiagramRows(
  deps: { repo: ProductRepository; diagrams: DiagramStore },
  header: DiagramHeader,
  rows: { row: number; cells: string[] }[],
  o: { dryRun: boolean; actor: string; fileName: string },
): Promise<DiagramImportReport & { changed: Assembly[] }> {
  const errors: RowError[] = [];
  const groups = groupRows(header, rows, errors);
  const parts = await resolveParts(deps.repo, groups);
  const at = new Date().toISOString();
  let created = 0;
  let updated = 0;
  let unchanged = 0;
  const changes: Parameters<DiagramStore['save']>[0] = [];
  const newSlugs = new Set<string>();
  for (const g of groups.values()) {
    const callouts = calloutsOf(g, parts, errors);
    if (!callouts) continue;
    const makeSlug = slugify(g.make);
    const modelSlug = slugify(g.model);
    const stored = await deps.diagrams.getBySlug(makeSlug, modelSlug, slugify(g.name));
    if (stored) {
      if (contentOf(stored) === contentOf({ name: g.name, callouts })) {
        unchanged++;
        continue;
      }
      const next: Assembly = { ...stored, name: g.name, callouts, version: stored.version + 1, updatedAt: at, updatedBy: o.actor };
      changes.push({ assembly: next, expected: stored.version, entry: historyEntry(next, 'import', o.actor, `${o.fileName}: ${describeChange(stored.callouts, callouts)}`) });
      updated++;
    } else {
      const slug = freeSlug(g.name, (s) => newSlugs.has(`${makeSlug}/${modelSlug}/${s}`));
      newSlugs.add(`${makeSlug}/${modelSlug}/${slug}`);
      const a = newAssembly({ make: g.make, model: g.model, name: g.name, slug, actor: o.actor, at, callouts });
      changes.push({ assembly: a, expected: null, entry: historyEntry(a, 'import', o.actor, `${o.fileName}: created with ${callouts.length} lines`) });
      created++;
    }
  }
  errors.sort((a, b) => a.row - b.row);
  if (!o.dryRun && changes.length) {
    const { conflicts } = await deps.diagrams.save(changes);
    if (conflicts.length) throw new DiagramConflictError(conflicts);
  }
  return {
    dryRun: o.dryRun,
    rows: rows.filter((r) => r.cells.some((c) => c.trim())).length,
    created,
    updated,
    unchanged,
    errorCount: errors.length,
    errors: errors.slice(0, 1000),
    unknownColumns: header.unknown,
    changed: o.dryRun ? [] : changes.map((c) => c.assembly),
  };
}

export class DiagramConflictError extends Error {
  constructor(readonly ids: string[]) {
    super(`${ids.length} assemblies were changed by someone else while the file was read; import it again`);
  }
}

/** The export's rows for one assembly: one per place each line is drawn (one with x, y blank for a line drawn nowhere). */
export function exportRows(a: Assembly, partOf: (id: string) => { partNumber: string; sku: string } | undefined): string[][] {
  const out: string[][] = [];
  for (const c of a.callouts) {
    const part = partOf(c.partId);
    const base = [a.make, a.model, a.name, c.number, part?.partNumber ?? '', part?.sku ?? `(part ${c.partId} is gone)`, String(c.quantity)];
    const tail = [c.serialFrom ?? '', c.serialTo ?? '', c.note ?? ''];
    const places = c.positions.length ? c.positions.map((p) => [String(p.x), String(p.y)]) : [['', '']];
    for (const xy of places) out.push([...base, ...xy, ...tail].map(escapeCell));
  }
  return out;
}
