import type { SavedListSummary } from '@forgeline/contracts/account';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { useFleet } from '../api/get-fleet.ts';
import { useSavedList } from '../api/get-list.ts';
import { useUpdateList } from '../api/update-list.ts';
import { fieldErrors } from '../field-errors.ts';
import { AccountDialog } from './account-dialog.tsx';
import { ListFields } from './list-fields.tsx';
import { FormError, LoadError } from './section-states.tsx';

const FIELDS = ['name', 'unitId'] as const;
type Field = (typeof FIELDS)[number];

/** A list's name and the machine it is for (its lines are kept as they are). */
export function ListEditDialog({ list, trigger }: { list: SavedListSummary; trigger: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <AccountDialog open={open} onOpenChange={setOpen} trigger={trigger} title={`Edit ${list.name}`} description="Its name, and the machine it is for.">
      {open ? <ListEditForm list={list} onDone={() => setOpen(false)} /> : null}
    </AccountDialog>
  );
}

function ListEditForm({ list, onDone }: { list: SavedListSummary; onDone: () => void }) {
  const ids = useId();
  const full = useSavedList(list.id);
  const fleet = useFleet();
  const update = useUpdateList();
  const [name, setName] = useState(list.name);
  const [unitId, setUnitId] = useState(list.unitId ?? '');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [general, setGeneral] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!full.data) return;
    setGeneral(null);
    if (!name.trim()) {
      setErrors({ name: 'The list needs a name.' });
      document.getElementById(`${ids}-name`)?.focus();
      return;
    }
    setErrors({});
    update.mutate(
      { id: list.id, input: { name: name.trim(), unitId: unitId || null, lines: full.data.lines } },
      {
        onSuccess: (saved) => {
          toast.success('Parts list saved', { description: saved.name });
          onDone();
        },
        onError: (err) => {
          const refused = fieldErrors(err, FIELDS);
          setErrors(refused.fields);
          setGeneral(refused.general);
        },
      },
    );
  };

  if (full.isError) return <LoadError title="The list did not load." error={full.error} onRetry={() => void full.refetch()} retrying={full.isFetching} />;
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <ListFields ids={ids} name={name} onName={setName} unitId={unitId} onUnit={setUnitId} errors={errors} units={fleet.data} unitsPending={fleet.isPending} />
      {general ? <FormError>{general}</FormError> : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending || !full.data}>
          {update.isPending ? 'Saving...' : full.isPending ? 'Loading...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
