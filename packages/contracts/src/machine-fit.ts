import { codeKey, slugify } from './slug.ts';

/**
 * Whether a part's fit covers a machine: the catalogue's rule (make and model compared by slug, the serial within the
 * fit's range), shared by the catalog's filters and the product page's "fits your units" (zod-free for the web).
 */

/** A serial number as (letters before the digits, the number), so "ABC01500" sorts between "ABC00001" and "ABC09999". */
export interface SerialKey {
  prefix: string;
  number: number | null;
  /** The whole key, for serials not of the letters-then-digits kind (compared as text). */
  text: string;
}

export function serialKey(serial: string): SerialKey {
  // Most serials are stored clean already ("RJS04999"): codeKey would give them back as they are, at twice the cost.
  const text = /^[A-Z0-9]*$/.test(serial) ? serial : codeKey(serial);
  const m = /^([A-Z]*)(\d{1,15})$/.exec(text);
  return m ? { prefix: m[1]!, number: Number(m[2]), text } : { prefix: text, number: null, text };
}

/** Whether a machine's serial (or its key, parsed once for many ranges) lies in a fit's range (an open end admits everything on that side). */
export function serialInRange(serial: string | SerialKey, from?: string, to?: string): boolean {
  if (!from && !to) return true;
  const s = typeof serial === 'string' ? serialKey(serial) : serial;
  return (!from || onSide(s, from, 'from')) && (!to || onSide(s, to, 'to'));
}

/** Whether a serial is on the inner side of one end of a range. */
function onSide(s: SerialKey, bound: string, side: 'from' | 'to'): boolean {
  const b = serialKey(bound);
  if (b.number !== null && s.number !== null) {
    if (b.prefix !== s.prefix) return false; // another production run: not this range
    return side === 'from' ? s.number >= b.number : s.number <= b.number;
  }
  return side === 'from' ? s.text >= b.text : s.text <= b.text;
}

/** A fit of a part against a machine (make, model, optional serial: a machine without one fits any range). */
export function fitCoversMachine(
  fit: { make: string; model: string; serialFrom?: string; serialTo?: string },
  machine: { make: string; model?: string; serial?: string | null },
): boolean {
  if (slugify(fit.make) !== slugify(machine.make)) return false;
  if (machine.model && slugify(fit.model) !== slugify(machine.model)) return false;
  return !machine.serial || serialInRange(machine.serial, fit.serialFrom, fit.serialTo);
}
