import type { MachineFilter } from '@forgeline/contracts/products';

/**
 * The machine a buyer is finding parts for ("Find parts for your machine"): a make, optionally one of its models and
 * a serial number. Listings, the gallery and search results narrow to the parts that fit it (the catalogue's
 * `make`, `model` and `serial` query parameters, MachineFilterSchema). Names are kept as the catalogue spells them
 * (GET /api/fitment/makes, /api/fitment/models); the catalogue compares them by slug.
 */
export interface Machine {
  make: string;
  model?: string;
  serial?: string;
}

/** Where the machine is kept for the visit (one tab: sessionStorage). */
export const MACHINE_STORAGE_KEY = 'forgeline.machine';

/** The catalogue's limits on a fit's names and serials (services/catalog part-history HISTORY_LIMITS). */
const MAX_NAME = 120;
const MAX_SERIAL = 40;

const clean = (value: unknown, max: number): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const t = value.trim().replace(/\s+/g, ' ');
  return t && t.length <= max ? t : undefined;
};

/** A machine from loose input (a form, stored JSON): trimmed, blanks dropped; null without a make. */
export function toMachine(input: { make?: unknown; model?: unknown; serial?: unknown } | null | undefined): Machine | null {
  if (!input || typeof input !== 'object') return null;
  const make = clean(input.make, MAX_NAME);
  if (!make) return null;
  const model = clean(input.model, MAX_NAME);
  // A serial only narrows within a model (each model has its own serial prefix).
  const serial = model ? clean(input.serial, MAX_SERIAL) : undefined;
  return { make, ...(model ? { model } : {}), ...(serial ? { serial } : {}) };
}

/** The stored form of a machine (null: nothing to store). */
export const serializeMachine = (m: Machine | null): string | null => (m ? JSON.stringify(toMachine(m)) : null);

/** The machine stored by serializeMachine; null for nothing, or anything else (an older or edited value). */
export function parseMachine(raw: string | null | undefined): Machine | null {
  if (!raw) return null;
  try {
    return toMachine(JSON.parse(raw) as { make?: unknown });
  } catch {
    return null;
  }
}

/** The query parameters a listing request carries for the machine (none without one). */
export function machineParams(m: Machine | null | undefined): MachineFilter {
  if (!m) return {};
  return { make: m.make, ...(m.model ? { model: m.model } : {}), ...(m.serial ? { serial: m.serial } : {}) };
}

/** Whether two machines are the same (as the catalogue would narrow by them). */
export const sameMachine = (a: Machine | null | undefined, b: Machine | null | undefined) =>
  serializeMachine(a ?? null) === serializeMachine(b ?? null);

/** "Caterpillar 320D Excavator · S/N RJS01000", as the chip and the empty state name it. */
export function machineLabel(m: Machine): string {
  const name = m.model ? `${m.make} ${m.model}` : `${m.make} (all models)`;
  return m.serial ? `${name} · S/N ${m.serial}` : name;
}
