import type { FleetUnit } from '@forgeline/contracts/account';
import { Download, Pencil, Plus, Trash2, Tractor } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useDeleteMachine } from '../api/delete-machine.ts';
import { FLEET_CSV_URL } from '../api/export-fleet.ts';
import { useFleet } from '../api/get-fleet.ts';
import { FLEET_CSV_COLUMNS } from '../account-constants.ts';
import { failed } from '../field-errors.ts';
import { unitDetails } from '../format.ts';
import { FleetImportButton, ImportReport, type ImportOutcome } from './fleet-import.tsx';
import { MachineDialog } from './machine-dialog.tsx';
import { EmptyState, LoadError } from './section-states.tsx';

/** The Machines tab: the company's fleet, added one by one or by CSV, exported as CSV. */
export default function MachinesTab() {
  const fleet = useFleet();
  const units = fleet.data;
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);
  return (
    <section aria-labelledby="machines-heading" className="space-y-5">
      <div>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="min-w-0 max-w-2xl">
            <h2 id="machines-heading" className="font-display text-2xl font-extrabold uppercase text-ink">
              Machines {units?.length ? <span className="text-steel">({units.length})</span> : null}
            </h2>
            <p className="mt-1 text-sm text-steel">
              Your company&apos;s fleet. Listings can then show the parts that fit them (&ldquo;My machines&rdquo;). A CSV file has the columns{' '}
              <code className="break-all rounded bg-zinc-100 px-1 font-mono text-xs text-ink">{FLEET_CSV_COLUMNS}</code>.
            </p>
          </div>
          <div className="flex flex-wrap items-start gap-2">
            <MachineDialog
              unit={null}
              trigger={
                <Button size="sm">
                  <Plus className="size-4" aria-hidden="true" /> Add a machine
                </Button>
              }
            />
            <FleetImportButton onOutcome={setOutcome} />
            {units?.length ? (
              <a href={FLEET_CSV_URL} download="fleet.csv" className={buttonClass('outline', 'sm')}>
                <Download className="size-4" aria-hidden="true" /> Export CSV
              </a>
            ) : null}
          </div>
        </div>
        <ImportReport outcome={outcome} onDismiss={() => setOutcome(null)} />
      </div>

      {fleet.isPending ? (
        <Spinner label="Loading your machines..." />
      ) : fleet.isError ? (
        <LoadError title="Your machines did not load." error={fleet.error} onRetry={() => void fleet.refetch()} retrying={fleet.isFetching} />
      ) : !units?.length ? (
        <EmptyState icon={Tractor} title="No machines yet">
          Add the machines your company runs, with their serial numbers and hours: every listing can then narrow to the parts that fit them, and a parts list
          can be kept for each unit&apos;s services.
        </EmptyState>
      ) : (
        <ul aria-label="Your machines" className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white">
          {units.map((u) => (
            <MachineRow key={u.id} unit={u} />
          ))}
        </ul>
      )}
    </section>
  );
}

function MachineRow({ unit: u }: { unit: FleetUnit }) {
  const remove = useDeleteMachine();
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
      <div className="min-w-0">
        <p className="break-words font-bold text-ink">{u.unitName}</p>
        <p className="break-words text-sm text-steel">{unitDetails(u)}</p>
      </div>
      <div className="flex shrink-0 gap-2">
        <MachineDialog
          unit={u}
          trigger={
            <Button variant="outline" size="sm" aria-label={`Edit ${u.unitName}`}>
              <Pencil className="size-4" aria-hidden="true" /> Edit
            </Button>
          }
        />
        <ConfirmDialog
          trigger={
            <Button variant="ghost" size="sm" className="border border-zinc-300" aria-label={`Delete ${u.unitName}`} onClick={() => setProblem(null)}>
              <Trash2 className="size-4" aria-hidden="true" /> Delete
            </Button>
          }
          title={`Delete ${u.unitName}?`}
          description={
            <>
              It leaves your fleet. Parts lists kept for it stay, tied to no machine.
              {problem ? (
                <span role="alert" className="mt-2 block font-semibold text-red-700">
                  {problem}
                </span>
              ) : null}
            </>
          }
          confirmLabel="Delete the machine"
          pendingLabel="Deleting..."
          pending={remove.isPending}
          onConfirm={(close) =>
            remove.mutate(u.id, {
              onSuccess: () => {
                close();
                toast.success('Machine deleted', { description: u.unitName });
              },
              onError: (err) => setProblem(failed(err, 'The machine was not deleted.')),
            })
          }
        />
      </div>
    </li>
  );
}
