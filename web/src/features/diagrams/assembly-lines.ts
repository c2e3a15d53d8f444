import { serialInRange, serialKey } from '@forgeline/contracts/machine-fit';
import type { AssemblyLine, AssemblyPart } from '@forgeline/contracts/parts-diagrams';
import { slugify } from '@forgeline/contracts/slug';
import { isFleet, type MachineChoice } from '../../lib/machine.ts';

/**
 * What an assembly page works out from its lines and the buyer's serial number: which lines are for their unit, the
 * drawing's hotspots (one per callout number and place), and what "Add all" puts on the quote list. Pure.
 */

/** A line of the table as the page shows it: `fits` false when the buyer's serial is outside the line's range. */
export interface LineView {
  line: AssemblyLine;
  /** The row's key and its form control's id part (lines may share a number and a part). */
  key: string;
  fits: boolean;
}

/** One button on the drawing: a callout number at one of its places, for every line with that number. */
export interface Hotspot {
  key: string;
  number: string;
  x: number;
  y: number;
  lines: LineView[];
  /** False when none of its lines is for the buyer's serial. */
  fits: boolean;
}

/**
 * The serial the lines are checked against: the address's `?serial=` (the page's serial form without JavaScript),
 * else the visit's machine when it is this model (a fleet: its one serial of this model, if it has just one).
 */
export function serialFor(machine: MachineChoice | null, page: { makeSlug: string; modelSlug: string }, fromAddress?: string | null): string | null {
  const typed = fromAddress?.trim();
  if (typed) return typed;
  const units = !machine ? [] : isFleet(machine) ? machine.fleet : [machine];
  const serials = new Set(
    units
      .filter((u) => u.serial && slugify(u.make) === page.makeSlug && u.model && slugify(u.model) === page.modelSlug)
      .map((u) => u.serial!),
  );
  return serials.size === 1 ? [...serials][0]! : null;
}

export function lineViews(lines: readonly AssemblyLine[], serial: string | null): LineView[] {
  const key = serial ? serialKey(serial.replace(/[\s-]/g, '').toUpperCase()) : null;
  return lines.map((line, i) => ({ line, key: String(i), fits: !key || serialInRange(key, line.serialFrom, line.serialTo) }));
}

/** The drawing's buttons: each callout number once per place it is drawn (lines sharing a number share its places). */
export function hotspotsOf(views: readonly LineView[]): Hotspot[] {
  const byNumber = new Map<string, LineView[]>();
  for (const v of views) byNumber.set(v.line.number, [...(byNumber.get(v.line.number) ?? []), v]);
  const out: Hotspot[] = [];
  for (const [number, lines] of byNumber) {
    const places = new Map<string, { x: number; y: number }>();
    for (const v of lines) for (const p of v.line.positions) places.set(`${p.x},${p.y}`, p);
    for (const [at, p] of places) out.push({ key: `${number}@${at}`, number, x: p.x, y: p.y, lines, fits: lines.some((v) => v.fits) });
  }
  return out;
}

/** "Idler Seal", or "Idler Seal / Idler Seal HD" for a number with several parts (serial variants). */
export function calloutLabel(lines: readonly LineView[]): string {
  const names = [...new Set(lines.map((v) => v.line.part?.name ?? 'part no longer sold'))];
  return names.join(' / ');
}

/** "Not for S/N RJS01000": a dimmed line's label. */
export const notForSerial = (serial: string) => `Not for S/N ${serial}`;

/**
 * The parts a set of lines puts on the quote list: each part once, with the quantities of its lines added up (the
 * same bolt at two callouts is needed twice over); lines whose part is no longer sold are left out.
 */
export function partsToAdd(views: readonly LineView[]): { part: AssemblyPart; quantity: number }[] {
  const byId = new Map<string, { part: AssemblyPart; quantity: number }>();
  for (const { line } of views) {
    if (!line.part) continue;
    const seen = byId.get(line.part.id);
    byId.set(line.part.id, { part: line.part, quantity: (seen?.quantity ?? 0) + line.quantity });
  }
  return [...byId.values()];
}
