import type { FleetUnit } from '@forgeline/contracts/account';
import { FieldLabel } from '../../../components/ui/field-label.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { ACCOUNT_LIMITS } from '../account-constants.ts';

/**
 * A parts list's name and the machine it is for, with the API's reasons beside them: the form that saves the quote
 * list as a list and the one that edits a list. A list tied to a unit that left the fleet (or while the fleet loads)
 * keeps its choice.
 */
export function ListFields(p: {
  ids: string;
  name: string;
  onName: (name: string) => void;
  unitId: string;
  onUnit: (unitId: string) => void;
  errors: Partial<Record<'name' | 'unitId', string>>;
  units: FleetUnit[] | undefined;
  unitsPending: boolean;
  className?: string;
}) {
  const units = p.units ?? [];
  const tiedElsewhere = p.unitId && !units.some((u) => u.id === p.unitId);
  return (
    <div className={p.className ?? 'space-y-4'}>
      <div>
        <FieldLabel htmlFor={`${p.ids}-name`} required>
          List name
        </FieldLabel>
        <input
          id={`${p.ids}-name`}
          value={p.name}
          maxLength={ACCOUNT_LIMITS.listName}
          onChange={(e) => p.onName(e.target.value)}
          placeholder="e.g. 07 — 500 h service"
          aria-invalid={p.errors.name ? true : undefined}
          aria-describedby={p.errors.name ? `${p.ids}-name-error` : undefined}
          className={`${formControlClass} w-full`}
        />
        {p.errors.name ? (
          <p id={`${p.ids}-name-error`} className="mt-1 text-sm text-red-700">
            {p.errors.name}
          </p>
        ) : null}
      </div>
      <div>
        <FieldLabel htmlFor={`${p.ids}-unit`}>For the machine</FieldLabel>
        <select
          id={`${p.ids}-unit`}
          value={p.unitId}
          onChange={(e) => p.onUnit(e.target.value)}
          disabled={!units.length && !p.unitId}
          aria-invalid={p.errors.unitId ? true : undefined}
          aria-describedby={p.errors.unitId ? `${p.ids}-unit-error` : undefined}
          className={`${formControlClass} w-full`}
        >
          <option value="">{p.unitsPending ? 'Loading your machines...' : units.length ? 'None (any machine)' : 'None: your fleet is empty'}</option>
          {tiedElsewhere ? <option value={p.unitId}>{p.unitsPending ? 'Loading your machines...' : 'A machine no longer in your fleet'}</option> : null}
          {units.map((u) => (
            <option key={u.id} value={u.id}>
              {u.unitName} — {u.make} {u.model}
            </option>
          ))}
        </select>
        {p.errors.unitId ? (
          <p id={`${p.ids}-unit-error`} className="mt-1 text-sm text-red-700">
            {p.errors.unitId}
          </p>
        ) : null}
      </div>
    </div>
  );
}
