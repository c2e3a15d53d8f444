import { AssemblyUpdateSchema, DIAGRAM_LIMITS, round2, type Assembly, type AssemblyUpdate, type Position } from '@forgeline/contracts/parts-diagrams';
import type { AssemblyPartLabel } from '../api/assemblies.ts';

/**
 * The parts-diagram editor's working copy (#38): the assembly's name and lines as staff edit them (numbers and
 * quantities as typed), turned into the PUT body by the contract's own schema, whose issues name the fields to mark.
 */
export interface DraftLine {
  /** Stable while the line is edited (React's key, the selection, the error map). */
  key: string;
  number: string;
  positions: Position[];
  partId: string;
  /** The part as the table shows it (null: none chosen yet, or no longer on the storefront). */
  part: AssemblyPartLabel | null;
  quantity: string;
  serialFrom: string;
  serialTo: string;
  note: string;
}
export interface Draft {
  name: string;
  lines: DraftLine[];
}
/** Messages by field: `name`, `<line key>.<field>` (number, partId, quantity, serialFrom, serialTo, note, positions), `form`. */
export type FieldErrors = Record<string, string>;

let keys = 0;
export const newLineKey = () => `line-${++keys}`;

export function draftOf(assembly: Pick<Assembly, 'name' | 'callouts'>, parts: AssemblyPartLabel[]): Draft {
  const byId = new Map(parts.map((p) => [p.id, p]));
  return {
    name: assembly.name,
    lines: assembly.callouts.map((c) => ({
      key: newLineKey(),
      number: c.number,
      positions: c.positions.map((p) => ({ ...p })),
      partId: c.partId,
      part: byId.get(c.partId) ?? null,
      quantity: String(c.quantity),
      serialFrom: c.serialFrom ?? '',
      serialTo: c.serialTo ?? '',
      note: c.note ?? '',
    })),
  };
}

/** What a save would store, for "has anything changed" (keys and part labels left out). */
export function contentOf(draft: Draft): string {
  return JSON.stringify([
    draft.name.trim(),
    draft.lines.map((l) => [l.number.trim().toUpperCase(), l.positions, l.partId, l.quantity.trim(), l.serialFrom.trim(), l.serialTo.trim(), l.note.trim()]),
  ]);
}

/** A quantity as typed: a number when it reads as one (the schema then says if it is whole and in range). */
const quantityOf = (text: string): number | string | undefined => {
  const t = text.trim();
  if (!t) return undefined;
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t;
};

/** Issues (the schema's, or a 400's `issues`) by field: `callouts.N.field` goes to line N of those sent. */
export function errorsFromIssues(issues: { path: string | PropertyKey[]; message: string }[], lines: DraftLine[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const path = typeof issue.path === 'string' ? issue.path.split('.') : issue.path.map(String);
    const line = path[0] === 'callouts' && path.length >= 3 ? lines[Number(path[1])] : undefined;
    const [field, message] =
      path[0] === 'name' ? ['name', issue.message] : line ? [`${line.key}.${path[2]}`, issue.message] : ['form', path[0] === 'callouts' ? `Lines: ${issue.message}` : issue.message];
    out[field] ??= message;
  }
  return out;
}

/** The PUT body, checked by AssemblyUpdateSchema as the catalog checks it; or the fields to mark. */
export function bodyOf(draft: Draft, version: number): { body: AssemblyUpdate } | { errors: FieldErrors } {
  const input = {
    version,
    name: draft.name,
    callouts: draft.lines.map((l) => ({
      number: l.number,
      positions: l.positions,
      partId: l.partId,
      quantity: quantityOf(l.quantity),
      serialFrom: l.serialFrom.trim() || undefined,
      serialTo: l.serialTo.trim() || undefined,
      note: l.note.trim() || undefined,
    })),
  };
  const parsed = AssemblyUpdateSchema.safeParse(input);
  if (parsed.success) return { body: parsed.data };
  return { errors: errorsFromIssues(parsed.error.issues.map((i) => ({ path: i.path, message: i.message })), draft.lines) };
}

/** The lowest whole number no line uses yet: where the next hotspot clicked on the drawing goes. */
export function nextFreeNumber(lines: Pick<DraftLine, 'number'>[]): string {
  const used = new Set(lines.map((l) => l.number.trim().toUpperCase()));
  let n = 1;
  while (used.has(String(n))) n += 1;
  return String(n);
}

/** A point on the drawing, kept on it and to the 0.01 % the catalog stores. */
export const clampPosition = (p: Position): Position => ({ x: round2(Math.min(100, Math.max(0, p.x))), y: round2(Math.min(100, Math.max(0, p.y))) });

export const emptyLine = (number: string, positions: Position[] = []): DraftLine => ({
  key: newLineKey(),
  number,
  positions,
  partId: '',
  part: null,
  quantity: '1',
  serialFrom: '',
  serialTo: '',
  note: '',
});

export const canAddPosition = (line: DraftLine) => line.positions.length < DIAGRAM_LIMITS.positions;
export const canAddLine = (draft: Draft) => draft.lines.length < DIAGRAM_LIMITS.callouts;
