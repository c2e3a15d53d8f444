import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { FleetUnitInputSchema, type FleetUnitInput } from '@forgeline/contracts/account';

/** Unit names are unique in a company whatever their case and spacing ("Haul truck 07" = "haul  truck 07"). */
export const unitKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

export const FLEET_CSV_COLUMNS = ['unit_name', 'make', 'model', 'serial', 'hours'] as const;

/** The fleet as CSV, the columns the import reads back. Cells that a spreadsheet would run as a formula are quoted out. */
export function fleetCsv(units: { unitName: string; make: string; model: string; serial: string | null; hours: number | null }[]): string {
  const safe = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);
  return stringify([
    [...FLEET_CSV_COLUMNS],
    ...units.map((u) => [safe(u.unitName), safe(u.make), safe(u.model), safe(u.serial ?? ''), u.hours === null ? '' : String(u.hours)]),
  ]);
}

export type FleetCsvRow = { line: number; unit: FleetUnitInput } | { line: number; error: string };

/**
 * Reads a fleet CSV: a header naming at least unit_name, make and model (any order, any case; "unit" and "name" pass for
 * unit_name, "serial number" for serial), then one machine a row. Each row comes back parsed or with why not (by line).
 */
export function readFleetCsv(text: string): { rows: FleetCsvRow[] } | { error: string } {
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/, ''), { relax_column_count: true, skip_empty_lines: true, trim: true, delimiter: sniffDelimiter(text) }) as string[][];
  } catch (err) {
    return { error: `The file is not readable CSV: ${(err as Error).message}` };
  }
  const header = records[0];
  if (!header) return { error: 'The file is empty: give a header row (unit_name,make,model,serial,hours) and one machine a row' };
  const column = (names: string[]) => header.findIndex((h) => names.includes(h.toLowerCase().replace(/[\s-]+/g, '_')));
  const at = {
    unitName: column(['unit_name', 'unit', 'name', 'unit_id']),
    make: column(['make', 'manufacturer', 'brand']),
    model: column(['model']),
    serial: column(['serial', 'serial_number', 'sn', 's/n']),
    hours: column(['hours', 'hour_meter', 'hours_run']),
  };
  const missing = (['unitName', 'make', 'model'] as const).filter((k) => at[k] < 0);
  if (missing.length) return { error: `The header must name the columns unit_name, make and model (missing: ${missing.map((m) => (m === 'unitName' ? 'unit_name' : m)).join(', ')})` };
  const cell = (row: string[], i: number) => (i < 0 ? undefined : (row[i] ?? '').trim() || undefined);
  const rows = records.slice(1).map((row, i): FleetCsvRow => {
    const line = i + 2;
    const parsed = FleetUnitInputSchema.safeParse({
      unitName: cell(row, at.unitName) ?? '',
      make: cell(row, at.make) ?? '',
      model: cell(row, at.model) ?? '',
      serial: cell(row, at.serial),
      hours: cell(row, at.hours)?.replace(/[\s,]/g, ''),
    });
    if (parsed.success) return { line, unit: parsed.data };
    const issue = parsed.error.issues[0];
    return { line, error: `${String(issue?.path[0] ?? 'row')}: ${issue?.message ?? 'not valid'}` };
  });
  return { rows };
}

/** Spreadsheets in much of the world save CSV with semicolons. */
function sniffDelimiter(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  return (first.match(/;/g)?.length ?? 0) > (first.match(/,/g)?.length ?? 0) ? ';' : ',';
}
