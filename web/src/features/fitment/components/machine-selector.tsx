import { machinePath } from '@forgeline/contracts/slug';
import { ChevronDown, Network, Tractor, X } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { FieldLabel } from '../../../components/ui/field-label.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { cn } from '../../../lib/cn.ts';
import { isFleet, machineLabel, serializeMachine, toMachine, type MachineChoice } from '../../../lib/machine.ts';
import { fleetChoice, unitChoice, useMyFleet } from '../../../lib/my-fleet.ts';
import { setMachine, useMachine } from '../../../lib/use-machine.ts';
import { useResetPage } from '../../../lib/use-page-param.ts';
import { useFitmentMakes } from '../api/get-fitment-makes.ts';
import { useFitmentModels } from '../api/get-fitment-models.ts';

interface Draft {
  make: string;
  model: string;
  serial: string;
}

const draftOf = (m: MachineChoice | null): Draft => (!m || isFleet(m) ? { make: '', model: '', serial: '' } : { make: m.make, model: m.model ?? '', serial: m.serial ?? '' });

/** The list a select offers: the catalogue's names, plus the chosen one while the list loads (or if it left the list). */
const withChosen = (names: string[], chosen: string) => (chosen && !names.includes(chosen) ? [chosen, ...names] : names);

/** "Fits: Caterpillar 320D Excavator · S/N RJS01000" with its × button. */
export function MachineChip({ machine, onRemove }: { machine: MachineChoice; onRemove: () => void }) {
  return (
    <p className="inline-flex min-w-0 max-w-full items-center gap-1 rounded-full bg-ink py-1 pl-3 pr-1 text-sm text-white">
      <span className="min-w-0 break-words">
        <span className="text-zinc-300">Fits:</span> <span className="font-semibold">{machineLabel(machine)}</span>
      </span>
      <button
        type="button"
        onClick={onRemove}
        aria-label="Remove machine filter"
        title="Remove machine filter"
        className="grid size-8 shrink-0 place-items-center rounded-full text-safety hover:bg-white/15"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </p>
  );
}

/**
 * "Find parts for your machine" (issue #17): make (GET /api/fitment/makes), then model (/api/fitment/models?make=),
 * then an optional serial number. The machine is kept for the visit (lib/use-machine.ts) and shown as a removable
 * chip; listings read it and narrow their requests. On a listing the choice applies in place (back to page 1);
 * with `goTo` (home) it opens that listing.
 *
 * At phone width, and with `folded` at every width (home, where it is one band among many), the form stays behind a
 * "Choose your machine" button until asked for.
 *
 * It renders the same on the server and in the hydrating render (no machine, no lists: those load after mount).
 */
export function MachineSelector({ goTo, folded = false, className }: { goTo?: string; folded?: boolean; className?: string }) {
  const id = useId();
  const navigate = useNavigate();
  const resetPage = useResetPage();
  const machine = useMachine();
  const [draft, setDraft] = useState<Draft>(() => draftOf(machine));
  // At phone width the form folds away behind a button, so the list starts on the first screen.
  const [open, setOpen] = useState(false);
  const makeRef = useRef<HTMLSelectElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  // The form shows the chosen machine: the stored one once mounted, and again after the chip is removed.
  const current = serializeMachine(machine);
  const [draftFor, setDraftFor] = useState(current);
  if (draftFor !== current) {
    setDraftFor(current);
    setDraft(draftOf(machine));
  }

  const makes = useFitmentMakes();
  const models = useFitmentModels(draft.make);
  const makeNames = withChosen(makes.data?.makes.map((m) => m.make) ?? [], draft.make);
  const modelNames = withChosen(models.data?.models.map((m) => m.model) ?? [], draft.model);

  const fleet = useMyFleet();
  const unitValue = !machine ? '' : isFleet(machine) ? 'all' : (fleet?.find((u) => machine.unit === u.unitName)?.id ?? '');
  const chooseUnit = (value: string) => {
    if (!fleet) return;
    if (value === 'all') return choose(fleetChoice(fleet));
    const unit = fleet.find((u) => u.id === value);
    choose(unit ? unitChoice(unit) : null);
  };

  const choose = (next: MachineChoice | null) => {
    setMachine(next);
    setOpen(false);
    if (goTo) void navigate(goTo);
    else resetPage();
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const next = toMachine(draft);
    if (next) choose(next);
  };

  const remove = () => {
    setMachine(null);
    if (!goTo) resetPage();
    // Focus stays in the selector (the × is gone): on the make, or at phone width on the button that shows the form.
    const make = makeRef.current;
    if (make && make.offsetParent !== null) make.focus();
    else toggleRef.current?.focus();
  };

  const makeId = `${id}-make`;
  const modelId = `${id}-model`;
  const serialId = `${id}-serial`;
  const headingId = `${id}-heading`;
  const formId = `${id}-form`;

  return (
    <section aria-labelledby={headingId} className={cn('rounded-lg border border-zinc-200 bg-white p-4 shadow-sm sm:p-5', className)}>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <h2 id={headingId} className="flex items-center gap-2 font-display text-xl font-bold uppercase text-ink sm:text-2xl">
          <span className="grid size-8 shrink-0 place-items-center rounded bg-ink text-safety">
            <Tractor className="size-5" aria-hidden="true" />
          </span>
          Find parts for your machine
        </h2>
        <div aria-live="polite" className="min-w-0 max-w-full">
          {machine ? <MachineChip machine={machine} onRemove={remove} /> : null}
        </div>
      </div>
      {fleet?.length ? (
        // A signed-in buyer's own machines (issue 35): all of them at once, or one unit by its name.
        <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1">
          <label htmlFor={`${id}-unit`} className="text-sm font-semibold text-ink">
            My machines
          </label>
          <select
            id={`${id}-unit`}
            value={unitValue}
            onChange={(e) => chooseUnit(e.target.value)}
            className={cn(formControlClass, 'h-11 min-w-0 max-w-full flex-1 sm:max-w-md')}
          >
            <option value="">Choose one of your machines...</option>
            <option value="all">All my machines ({fleet.length})</option>
            {fleet.map((u) => (
              <option key={u.id} value={u.id}>
                {u.unitName} — {u.make} {u.model}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <button
        ref={toggleRef}
        type="button"
        aria-expanded={open}
        aria-controls={formId}
        onClick={() => setOpen((v) => !v)}
        className={cn(
          'mt-3 flex h-11 w-full items-center justify-between gap-2 rounded-md border-2 border-ink px-4 text-sm font-semibold text-ink hover:bg-ink hover:text-white',
          folded ? 'sm:w-auto' : 'sm:hidden',
        )}
      >
        {machine ? 'Change machine' : 'Choose your machine'}
        <ChevronDown className={cn('size-4 transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </button>
      <form
        id={formId}
        onSubmit={onSubmit}
        className={cn('mt-3 gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_auto] lg:items-end', open ? 'grid' : 'hidden', !folded && 'sm:grid')}
      >
        <div className="min-w-0">
          <FieldLabel htmlFor={makeId}>Make</FieldLabel>
          <select
            ref={makeRef}
            id={makeId}
            name="make"
            required
            value={draft.make}
            onChange={(e) => setDraft({ make: e.target.value, model: '', serial: '' })}
            className={cn(formControlClass, 'h-11 w-full')}
          >
            <option value="">{makes.isError ? 'Makes could not be loaded' : makes.isPending ? 'Loading makes...' : 'Select make'}</option>
            {makeNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-0">
          <FieldLabel htmlFor={modelId}>Model</FieldLabel>
          <select
            id={modelId}
            name="model"
            value={draft.model}
            disabled={!draft.make}
            onChange={(e) => setDraft((d) => ({ ...d, model: e.target.value, serial: e.target.value ? d.serial : '' }))}
            className={cn(formControlClass, 'h-11 w-full')}
          >
            <option value="">{draft.make && models.isFetching && !models.data ? 'Loading models...' : draft.make ? 'All models' : 'Select a make first'}</option>
            {modelNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-0">
          <FieldLabel htmlFor={serialId}>
            Serial number <span className="font-normal text-steel">(optional)</span>
          </FieldLabel>
          <input
            id={serialId}
            name="serial"
            type="text"
            value={draft.serial}
            disabled={!draft.model}
            maxLength={40}
            autoComplete="off"
            spellCheck={false}
            placeholder={draft.model ? 'e.g. RJS01000' : 'Select a model first'}
            onChange={(e) => setDraft((d) => ({ ...d, serial: e.target.value }))}
            className={cn(formControlClass, 'h-11 w-full font-mono')}
          />
        </div>
        <Button type="submit" variant="dark" className="h-11 sm:col-span-2 lg:col-span-1">
          Find parts
        </Button>
      </form>
      {draft.make && draft.model ? (
        // The model's parts book (#38); its page says so when it has no diagrams yet. Outside the form, so it stays in
        // view when the form is folded away on a phone.
        <p className="mt-3">
          <Link
            to={machinePath(draft.make, draft.model)}
            className="inline-flex items-center gap-1.5 text-sm font-semibold text-ink underline decoration-safety-deep decoration-2 underline-offset-2 hover:text-safety-deep"
          >
            <Network className="size-4" aria-hidden="true" /> Parts diagrams for this machine
          </Link>
        </p>
      ) : null}
    </section>
  );
}
