import type { FleetUnit } from '@forgeline/contracts/account';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { FieldLabel } from '../../../components/ui/field-label.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { useFitmentMakes } from '../../fitment/api/get-fitment-makes.ts';
import { useFitmentModels } from '../../fitment/api/get-fitment-models.ts';
import { useAddMachine, type MachineInput } from '../api/add-machine.ts';
import { useUpdateMachine } from '../api/update-machine.ts';
import { ACCOUNT_LIMITS } from '../account-constants.ts';
import { fieldErrors } from '../field-errors.ts';
import { AccountDialog } from './account-dialog.tsx';
import { FormError } from './section-states.tsx';

const FIELDS = ['unitName', 'make', 'model', 'serial', 'hours'] as const;
type Field = (typeof FIELDS)[number];
type Draft = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;

const control = `${formControlClass} w-full`;
const draftOf = (u: FleetUnit | null): Draft => ({
  unitName: u?.unitName ?? '',
  make: u?.make ?? '',
  model: u?.model ?? '',
  serial: u?.serial ?? '',
  hours: u?.hours === null || u?.hours === undefined ? '' : String(u.hours),
});

/** The list a select offers: the catalogue's names, plus the machine's own while the list loads (or if it is not in it). */
const withChosen = (names: string[], chosen: string) => (chosen && !names.includes(chosen) ? [chosen, ...names] : names);

/** What the form checks before sending (the API checks it all again, and its word wins). */
function check(d: Draft): Errors {
  const e: Errors = {};
  if (!d.unitName.trim()) e.unitName = 'Give the machine a name your team knows it by.';
  if (!d.make.trim()) e.make = 'Choose the make.';
  if (!d.model.trim()) e.model = 'Choose the model.';
  const hours = d.hours.trim();
  if (hours && (!/^\d+$/.test(hours) || Number(hours) > ACCOUNT_LIMITS.hours)) e.hours = `Whole hours, from 0 to ${ACCOUNT_LIMITS.hours.toLocaleString('en')}.`;
  return e;
}

/**
 * "Add a machine" and a machine's Edit: its unit name, then make and model from the catalogue's fitment lists (the
 * same the "Find parts for your machine" selector offers), an optional serial number and hours. Should a list not load
 * (or the catalogue know no model of the make), the field takes typing instead.
 */
export function MachineDialog({ unit, trigger }: { unit: FleetUnit | null; trigger: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <AccountDialog
      open={open}
      onOpenChange={setOpen}
      trigger={trigger}
      title={unit ? `Edit ${unit.unitName}` : 'Add a machine'}
      description="Make and model as the catalogue names them, so its parts can be matched to the machine."
    >
      {open ? <MachineForm unit={unit} onDone={() => setOpen(false)} /> : null}
    </AccountDialog>
  );
}

function MachineForm({ unit, onDone }: { unit: FleetUnit | null; onDone: () => void }) {
  const ids = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(unit));
  const [errors, setErrors] = useState<Errors>({});
  const [general, setGeneral] = useState<string | null>(null);
  const add = useAddMachine();
  const update = useUpdateMachine();
  const pending = add.isPending || update.isPending;
  const makes = useFitmentMakes();
  const makeNames = makes.data?.makes.map((m) => m.make) ?? [];
  // Typing instead of choosing: the list failed, or the catalogue has nothing to choose from.
  const typeMake = makes.isError || (makes.isSuccess && makeNames.length === 0);
  // A typed make is not looked up as it is typed.
  const models = useFitmentModels(typeMake ? '' : draft.make);
  const modelNames = models.data?.models.map((m) => m.model) ?? [];
  const typeModel = typeMake || models.isError || (models.isSuccess && modelNames.length === 0);

  const set = (field: Field, value: string) => {
    setDraft((d) => ({ ...d, [field]: value, ...(field === 'make' ? { model: '' } : {}) }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const describedBy = (field: Field, hint?: string) => [errors[field] ? `${ids}-${field}-error` : null, hint ?? null].filter(Boolean).join(' ') || undefined;
  const fieldError = (field: Field) =>
    errors[field] ? (
      <p id={`${ids}-${field}-error`} className="mt-1 text-sm text-red-700">
        {errors[field]}
      </p>
    ) : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = check(draft);
    setErrors(problems);
    setGeneral(null);
    if (Object.keys(problems).length) {
      document.getElementById(`${ids}-${FIELDS.find((f) => problems[f])}`)?.focus();
      return;
    }
    const input: MachineInput = {
      unitName: draft.unitName.trim(),
      make: draft.make.trim(),
      model: draft.model.trim(),
      ...(draft.serial.trim() ? { serial: draft.serial.trim() } : {}),
      ...(draft.hours.trim() ? { hours: Number(draft.hours.trim()) } : {}),
    };
    const onError = (err: unknown) => {
      const refused = fieldErrors(err, FIELDS);
      setErrors(refused.fields);
      setGeneral(refused.general);
      const first = FIELDS.find((f) => refused.fields[f]);
      if (first) document.getElementById(`${ids}-${first}`)?.focus();
    };
    const onSuccess = () => {
      toast.success(unit ? 'Machine saved' : 'Machine added', { description: `${input.unitName}: ${input.make} ${input.model}` });
      onDone();
    };
    if (unit) update.mutate({ id: unit.id, input }, { onSuccess, onError });
    else add.mutate(input, { onSuccess, onError });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div>
        <FieldLabel htmlFor={`${ids}-unitName`} required>
          Unit name
        </FieldLabel>
        <input
          id={`${ids}-unitName`}
          value={draft.unitName}
          maxLength={ACCOUNT_LIMITS.unitName}
          onChange={(e) => set('unitName', e.target.value)}
          placeholder="e.g. Haul truck 07"
          aria-invalid={errors.unitName ? true : undefined}
          aria-describedby={describedBy('unitName')}
          className={control}
        />
        {fieldError('unitName')}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <FieldLabel htmlFor={`${ids}-make`} required>
            Make
          </FieldLabel>
          {typeMake ? (
            <input
              id={`${ids}-make`}
              value={draft.make}
              maxLength={120}
              onChange={(e) => set('make', e.target.value)}
              aria-invalid={errors.make ? true : undefined}
              aria-describedby={describedBy('make', makes.isError ? `${ids}-make-hint` : undefined)}
              className={control}
            />
          ) : (
            <select
              id={`${ids}-make`}
              value={draft.make}
              disabled={makes.isPending}
              onChange={(e) => set('make', e.target.value)}
              aria-invalid={errors.make ? true : undefined}
              aria-describedby={describedBy('make')}
              className={control}
            >
              <option value="">{makes.isPending ? 'Loading the makes...' : 'Choose the make'}</option>
              {withChosen(makeNames, draft.make).map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          )}
          {makes.isError ? (
            <p id={`${ids}-make-hint`} className="mt-1 text-xs text-steel">
              The catalogue&apos;s makes did not load: type the make.{' '}
              <button type="button" className="font-semibold text-ink underline" onClick={() => void makes.refetch()}>
                Try the list again
              </button>
            </p>
          ) : null}
          {fieldError('make')}
        </div>
        <div>
          <FieldLabel htmlFor={`${ids}-model`} required>
            Model
          </FieldLabel>
          {typeModel && draft.make ? (
            <input
              id={`${ids}-model`}
              value={draft.model}
              maxLength={120}
              onChange={(e) => set('model', e.target.value)}
              aria-invalid={errors.model ? true : undefined}
              aria-describedby={describedBy('model', `${ids}-model-hint`)}
              className={control}
            />
          ) : (
            <select
              id={`${ids}-model`}
              value={draft.model}
              disabled={!draft.make || models.isPending}
              onChange={(e) => set('model', e.target.value)}
              aria-invalid={errors.model ? true : undefined}
              aria-describedby={describedBy('model')}
              className={control}
            >
              <option value="">{!draft.make ? 'Choose the make first' : models.isPending ? 'Loading the models...' : 'Choose the model'}</option>
              {withChosen(modelNames, draft.model).map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          )}
          {typeModel && draft.make ? (
            <p id={`${ids}-model-hint`} className="mt-1 text-xs text-steel">
              {models.isError ? 'The models did not load: type the model.' : 'The catalogue lists no model of this make: type it.'}
            </p>
          ) : null}
          {fieldError('model')}
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <FieldLabel htmlFor={`${ids}-serial`}>Serial number</FieldLabel>
          <input
            id={`${ids}-serial`}
            value={draft.serial}
            maxLength={ACCOUNT_LIMITS.serial}
            onChange={(e) => set('serial', e.target.value)}
            autoComplete="off"
            aria-invalid={errors.serial ? true : undefined}
            aria-describedby={describedBy('serial')}
            className={`${control} font-mono`}
          />
          {fieldError('serial')}
        </div>
        <div>
          <FieldLabel htmlFor={`${ids}-hours`}>Hours</FieldLabel>
          <input
            id={`${ids}-hours`}
            value={draft.hours}
            inputMode="numeric"
            maxLength={7}
            onChange={(e) => set('hours', e.target.value.replace(/[\s,]/g, ''))}
            aria-invalid={errors.hours ? true : undefined}
            aria-describedby={describedBy('hours')}
            className={control}
          />
          {fieldError('hours')}
        </div>
      </div>
      {general ? <FormError>{general}</FormError> : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving...' : unit ? 'Save the machine' : 'Add the machine'}
        </Button>
      </div>
    </form>
  );
}
