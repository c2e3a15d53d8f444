import { slugify } from '@forgeline/contracts/slug';

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
  /** The buyer's own name for the machine, when chosen from their fleet ("Haul truck 07"). */
  unit?: string;
}

/** A signed-in buyer's whole fleet ("My machines", issue 35): parts that fit any of its units. */
export interface Fleet {
  fleet: (Machine & { model: string; unit: string })[];
}

/** What narrows the listings: one machine, or the buyer's fleet. */
export type MachineChoice = Machine | Fleet;
export const isFleet = (m: MachineChoice | null | undefined): m is Fleet => Boolean(m && 'fleet' in m);
/** The most units a fleet filter sends (the catalogue's MAX_FLEET_MACHINES). */
export const MAX_FLEET_FILTER = 100;

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

type Loose = { make?: unknown; model?: unknown; serial?: unknown; unit?: unknown };

/** A machine from loose input (a form, stored JSON): trimmed, blanks dropped; null without a make. */
export function toMachine(input: Loose | null | undefined): Machine | null {
  if (!input || typeof input !== 'object') return null;
  const make = clean(input.make, MAX_NAME);
  if (!make) return null;
  const model = clean(input.model, MAX_NAME);
  // A serial only narrows within a model (each model has its own serial prefix).
  const serial = model ? clean(input.serial, MAX_SERIAL) : undefined;
  const unit = clean(input.unit, MAX_NAME);
  return { make, ...(model ? { model } : {}), ...(serial ? { serial } : {}), ...(unit ? { unit } : {}) };
}

/** A fleet from loose input: its units with a make, a model and a name; null when none is left. */
function toFleet(input: { fleet?: unknown }): Fleet | null {
  if (!Array.isArray(input.fleet)) return null;
  const fleet = input.fleet
    .map((u) => toMachine(u as Loose))
    .filter((m): m is Fleet['fleet'][number] => Boolean(m?.model && m.unit))
    .slice(0, MAX_FLEET_FILTER);
  return fleet.length ? { fleet } : null;
}

const toChoice = (input: unknown): MachineChoice | null =>
  input && typeof input === 'object' ? ('fleet' in input ? toFleet(input) : toMachine(input)) : null;

/** The stored form of a choice (null: nothing to store). */
export const serializeMachine = (m: MachineChoice | null): string | null => {
  const clean = toChoice(m);
  return clean ? JSON.stringify(clean) : null;
};

/** The choice stored by serializeMachine; null for nothing, or anything else (an older or edited value). */
export function parseMachine(raw: string | null | undefined): MachineChoice | null {
  if (!raw) return null;
  try {
    return toChoice(JSON.parse(raw));
  } catch {
    return null;
  }
}

/** A fleet entry's make and model as slugs (as the catalogue compares them; a fleet of 100 long names stays short). */
const part = (s: string) => slugify(s);

/** The query parameters a listing request carries for the machine or the fleet (none without one). */
export function machineParams(m: MachineChoice | null | undefined): { make?: string; model?: string; serial?: string; machines?: string } {
  if (!m) return {};
  if (isFleet(m)) return { machines: m.fleet.map((u) => [part(u.make), part(u.model), ...(u.serial ? [u.serial.replace(/[,~]/g, '')] : [])].join('~')).join(',') };
  return { make: m.make, ...(m.model ? { model: m.model } : {}), ...(m.serial ? { serial: m.serial } : {}) };
}

/** Whether two choices are the same (as the catalogue would narrow by them). */
export const sameMachine = (a: MachineChoice | null | undefined, b: MachineChoice | null | undefined) =>
  serializeMachine(a ?? null) === serializeMachine(b ?? null);

/** "Caterpillar 320D Excavator · S/N RJS01000" (or "Haul truck 07 — ..."; "My machines (12)"), as the chip and the empty state name it. */
export function machineLabel(m: MachineChoice): string {
  if (isFleet(m)) return `My machines (${m.fleet.length})`;
  const name = m.model ? `${m.make} ${m.model}` : `${m.make} (all models)`;
  const full = m.serial ? `${name} · S/N ${m.serial}` : name;
  return m.unit ? `${m.unit} — ${full}` : full;
}

/** For a card in a fleet-narrowed listing: the names of the units a part fits (its `fitsMachines` indices). */
export function unitsFitting(m: MachineChoice | null | undefined, fitsMachines: number[] | undefined): string[] {
  if (!isFleet(m) || !fitsMachines) return [];
  return fitsMachines.map((i) => m.fleet[i]?.unit).filter((u): u is string => Boolean(u));
}
