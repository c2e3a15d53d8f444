import type { CrossReference, FleetMachine, Fitment, Product } from '@forgeline/contracts/products';
import { slugify } from '@forgeline/contracts/slug';
import { serialInRange } from '@forgeline/contracts/machine-fit';
import type { FleetQuery, MachineQuery } from '../ports.ts';
import { codeKey } from './products.ts';

/**
 * A part's history and reach: the older numbers it supersedes (`replaces`), other makers' numbers for it
 * (`crossReferences`) and the machines it fits (`fits`). Pure rules shared by both stores, the search and the import.
 */

/** The numbers a part can be found by besides its own, with the normalised key search and storage compare. */
export interface AltCode {
  kind: 'superseded' | 'cross_reference';
  key: string;
  /** As shown: "1R-0716", or "Fleetguard LF9080" for a cross-reference. */
  value: string;
}

export function altCodesOf(p: Pick<Product, 'replaces' | 'crossReferences'>): AltCode[] {
  const out: AltCode[] = [];
  const seen = new Set<string>();
  const add = (kind: AltCode['kind'], number: string, value: string) => {
    const key = codeKey(number);
    if (!key || seen.has(`${kind}:${key}`)) return;
    seen.add(`${kind}:${key}`);
    out.push({ kind, key, value });
  };
  for (const old of p.replaces ?? []) add('superseded', old, old);
  for (const x of p.crossReferences ?? []) add('cross_reference', x.partNumber, `${x.brand} ${x.partNumber}`);
  return out;
}

// The serial-range rule is the contracts' (the web's "fits your units" applies it too).
export { serialInRange, serialKey, type SerialKey } from '@forgeline/contracts/machine-fit';

export const machineQuery = (q: { make?: string; model?: string; serial?: string }): MachineQuery | null => {
  const makeSlug = q.make ? slugify(q.make) : '';
  if (!makeSlug) return null;
  const modelSlug = q.model ? slugify(q.model) : '';
  return { makeSlug, ...(modelSlug ? { modelSlug } : {}), ...(q.serial?.trim() ? { serial: q.serial.trim() } : {}) };
};

/** A buyer's fleet (`machines`) as the stores take it: slugs, as machineQuery makes them. */
export const fleetQuery = (machines: FleetMachine[]): FleetQuery =>
  machines.map((m) => ({ makeSlug: slugify(m.make), modelSlug: slugify(m.model), ...(m.serial?.trim() ? { serial: m.serial.trim() } : {}) }));

/** A fit as the machine filter compares it: make and model as slugs (the SQLite store keeps them so). */
export interface FitKey {
  makeSlug: string;
  modelSlug: string;
  serialFrom?: string | null;
  serialTo?: string | null;
}

export const fitKeyOf = (f: Fitment): FitKey => ({ makeSlug: slugify(f.make), modelSlug: slugify(f.model), serialFrom: f.serialFrom, serialTo: f.serialTo });

/** The fit rule: the machine's make, its model (when it names one), its serial within the fit's range. */
export const fitCovers = (f: FitKey, q: MachineQuery): boolean =>
  f.makeSlug === q.makeSlug &&
  (!q.modelSlug || f.modelSlug === q.modelSlug) &&
  (!q.serial || serialInRange(q.serial, f.serialFrom ?? undefined, f.serialTo ?? undefined));

/** Whether a part fits the machine. */
export function fitsMachine(fits: Fitment[] | undefined, q: MachineQuery): boolean {
  return (fits ?? []).some((f) => fitCovers(fitKeyOf(f), q));
}

/** The machines of a fleet a part fits, by the same rule: their indices in the fleet, ascending. */
export function fleetFits(fits: FitKey[], fleet: FleetQuery): number[] {
  return fleet.flatMap((m, i) => (fits.some((f) => fitCovers(f, m)) ? [i] : []));
}

// ---- The import's cells ------------------------------------------------------------------------------------------

export const HISTORY_LIMITS = { numbers: 50, number: 120, brand: 120, fits: 200, make: 120, model: 120, serial: 40 } as const;

const splitList = (cell: string) =>
  cell
    .split('|')
    .map((s) => s.trim())
    .filter(Boolean);

/** `replaces`: older numbers, `|`-separated. */
export function parseReplaces(cell: string): { value: string[] } | { error: string } {
  const list = [...new Set(splitList(cell))];
  if (list.length > HISTORY_LIMITS.numbers) return { error: `must list at most ${HISTORY_LIMITS.numbers} numbers` };
  const long = list.find((n) => n.length > HISTORY_LIMITS.number);
  if (long) return { error: `"${long.slice(0, 30)}…" is longer than ${HISTORY_LIMITS.number} characters` };
  const blank = list.find((n) => !codeKey(n));
  if (blank !== undefined) return { error: `"${blank}" holds no letter or digit` };
  return { value: list };
}

/** `cross_references`: `Brand:Number|Brand:Number`. */
export function parseCrossReferences(cell: string): { value: CrossReference[] } | { error: string } {
  const out: CrossReference[] = [];
  const items = splitList(cell);
  if (items.length > HISTORY_LIMITS.numbers) return { error: `must list at most ${HISTORY_LIMITS.numbers} cross-references` };
  for (const item of items) {
    const at = item.indexOf(':');
    const brand = at > 0 ? item.slice(0, at).trim() : '';
    const partNumber = at > 0 ? item.slice(at + 1).trim() : '';
    if (!brand || !codeKey(partNumber)) return { error: `"${item.slice(0, 40)}" is not Brand:Number` };
    if (brand.length > HISTORY_LIMITS.brand || partNumber.length > HISTORY_LIMITS.number) return { error: `"${item.slice(0, 40)}…" is too long` };
    out.push({ brand, partNumber });
  }
  return { value: out };
}

/** `fits`: `Make:Model` or `Make:Model:From-To` (either end may be empty), `|`-separated. */
export function parseFits(cell: string): { value: Fitment[] } | { error: string } {
  const out: Fitment[] = [];
  const items = splitList(cell);
  if (items.length > HISTORY_LIMITS.fits) return { error: `must list at most ${HISTORY_LIMITS.fits} machines` };
  for (const item of items) {
    const [make = '', model = '', range, ...rest] = item.split(':').map((s) => s.trim());
    const bad = { error: `"${item.slice(0, 50)}" is not Make:Model or Make:Model:From-To` };
    if (rest.length || !slugify(make) || !slugify(model)) return bad;
    if (make.length > HISTORY_LIMITS.make || model.length > HISTORY_LIMITS.model) return { error: `"${item.slice(0, 40)}…" is too long` };
    const fit: Fitment = { make, model };
    if (range) {
      const parts = range.split('-').map((s) => s.trim());
      if (parts.length !== 2) return { error: `"${range}" is not From-To (serials without hyphens; leave a side empty for an open end)` };
      const [from, to] = parts as [string, string];
      if (from.length > HISTORY_LIMITS.serial || to.length > HISTORY_LIMITS.serial) return { error: `"${range}" is too long` };
      if (from) fit.serialFrom = from;
      if (to) fit.serialTo = to;
      if (from && to && !serialInRange(from, from, to)) return { error: `"${range}" ends before it starts` };
    }
    out.push(fit);
  }
  return { value: out };
}

export const formatReplaces = (list: string[] | undefined) => (list ?? []).join('|');
export const formatCrossReferences = (list: CrossReference[] | undefined) => (list ?? []).map((x) => `${x.brand}:${x.partNumber}`).join('|');
export const formatFits = (list: Fitment[] | undefined) =>
  (list ?? []).map((f) => (f.serialFrom || f.serialTo ? `${f.make}:${f.model}:${f.serialFrom ?? ''}-${f.serialTo ?? ''}` : `${f.make}:${f.model}`)).join('|');

/** The history fields as stored: empty lists are left out, so "none" has one form. */
export function withHistory<T extends Partial<Product>>(p: T, h: Pick<Product, 'replaces' | 'crossReferences' | 'fits'>): T {
  const { replaces: _r, crossReferences: _x, fits: _f, ...rest } = p;
  return {
    ...rest,
    ...(h.replaces?.length ? { replaces: h.replaces } : {}),
    ...(h.crossReferences?.length ? { crossReferences: h.crossReferences } : {}),
    ...(h.fits?.length ? { fits: h.fits } : {}),
  } as T;
}
