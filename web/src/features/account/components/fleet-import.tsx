import type { FleetImportResponse } from '@forgeline/contracts/account';
import { CheckCircle2, FileUp, X } from 'lucide-react';
import { useId, type ChangeEvent } from 'react';
import { buttonClass } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { useImportFleet } from '../api/import-fleet.ts';
import { ACCOUNT_LIMITS, FLEET_CSV_COLUMNS } from '../account-constants.ts';
import { failed } from '../field-errors.ts';
import { FormError } from './section-states.tsx';

/** What an import came to: the file's name and the API's answer, or why it was not imported. */
export type ImportOutcome = { file: string; result: FleetImportResponse } | { file: string; problem: string };

/**
 * "Import CSV": a file of machines (unit_name,make,model,serial,hours), sent as it is; a row whose unit name is in the
 * fleet updates that machine. The outcome goes to `onOutcome` (null as a new import starts), for ImportReport to say.
 */
export function FleetImportButton({ onOutcome }: { onOutcome: (o: ImportOutcome | null) => void }) {
  const id = useId();
  const imp = useImportFleet();

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const file = input.files?.[0];
    input.value = ''; // the same file again is a new import
    if (!file) return;
    onOutcome(null);
    const refuse = (problem: string) => onOutcome({ file: file.name, problem });
    if (file.size > ACCOUNT_LIMITS.fleetCsvBytes) {
      return refuse(`${file.name} is ${Math.ceil(file.size / 1024).toLocaleString('en')} kB: a fleet file may be at most ${ACCOUNT_LIMITS.fleetCsvBytes / 1024} kB.`);
    }
    let text: string;
    try {
      text = await file.text();
    } catch {
      return refuse(`${file.name} could not be read.`);
    }
    imp.mutate(text, {
      onSuccess: (result) => onOutcome({ file: file.name, result }),
      onError: (err) => refuse(failed(err, `${file.name} was not imported.`)),
    });
  };

  return (
    <div>
      <input id={id} type="file" accept=".csv,text/csv" className="peer sr-only" disabled={imp.isPending} onChange={(e) => void onFile(e)} aria-describedby={`${id}-hint`} />
      <label
        htmlFor={id}
        className={cn(buttonClass('outline', 'sm'), 'cursor-pointer peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-safety', imp.isPending && 'opacity-60')}
      >
        <FileUp className="size-4" aria-hidden="true" /> {imp.isPending ? 'Importing...' : 'Import CSV'}
      </label>
      <p id={`${id}-hint`} className="sr-only">
        A CSV file with the columns {FLEET_CSV_COLUMNS}. A row whose unit name is already in your fleet updates that machine.
      </p>
    </div>
  );
}

/** An import's outcome: how many machines were added and updated, and each refused row by its line; or why not. */
export function ImportReport({ outcome, onDismiss }: { outcome: ImportOutcome | null; onDismiss: () => void }) {
  return (
    <div aria-live="polite">
      {outcome === null ? null : (
        <div className="mt-4">
          {'problem' in outcome ? <FormError>{outcome.problem}</FormError> : <ImportResult file={outcome.file} result={outcome.result} onDismiss={onDismiss} />}
        </div>
      )}
    </div>
  );
}

function ImportResult({ file, result, onDismiss }: { file: string; result: FleetImportResponse; onDismiss: () => void }) {
  const n = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`;
  return (
    <div className={cn('rounded-md border p-3 text-sm', result.errors.length ? 'border-amber-300 bg-amber-50' : 'border-emerald-300 bg-emerald-50')}>
      <div className="flex items-start justify-between gap-3">
        <p className="flex items-start gap-2 font-semibold text-ink">
          <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-green-700" aria-hidden="true" />
          <span className="min-w-0 break-words">
            {file}: {n(result.added, 'machine')} added, {result.updated} updated
            {result.errors.length ? `, ${n(result.errors.length, 'row')} not imported` : ''}.
          </span>
        </p>
        <button type="button" onClick={onDismiss} aria-label="Dismiss the import's report" className="-m-1 shrink-0 rounded p-1 text-steel hover:text-ink">
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>
      {result.errors.length ? (
        <ul className="mt-2 space-y-1 text-ink" aria-label="Rows not imported">
          {result.errors.map((e) => (
            <li key={`${e.line}-${e.message}`} className="break-words">
              <span className="font-semibold">Line {e.line}:</span> {e.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
