import type { SavedList } from '@forgeline/contracts/account';
import { Save } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { statusOf } from '../../../lib/api-error.ts';
import { useBuyerSignedIn } from '../../../lib/my-fleet.ts';
import { useCreateList } from '../api/create-list.ts';
import { useFleet } from '../api/get-fleet.ts';
import { fieldErrors } from '../field-errors.ts';
import { plural } from '../format.ts';
import { toSavedLines, type QuoteListLineLike } from '../quote-list-access.ts';
import { AccountDialog } from './account-dialog.tsx';
import { ListFields } from './list-fields.tsx';
import { FormError } from './section-states.tsx';

const FIELDS = ['name', 'unitId', 'lines'] as const;
type Field = (typeof FIELDS)[number];

/**
 * "Save the quote list as a parts list": a name and, if it is for one, the machine; the quote list's lines (parts with
 * what their cards showed, typed lines as text) become a list the whole company sees. On the account's Parts lists
 * tab as it is, and in SaveQuoteListAsList's dialog.
 */
export function SaveQuoteListForm({ lines, onSaved, onCancel }: { lines: readonly QuoteListLineLike[]; onSaved?: (list: SavedList) => void; onCancel?: () => void }) {
  const ids = useId();
  const [name, setName] = useState('');
  const [unitId, setUnitId] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const create = useCreateList();
  const fleet = useFleet();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setGeneral(null);
    if (!name.trim()) {
      setErrors({ name: 'Give the list a name: what it is for ("07 — 500 h service").' });
      document.getElementById(`${ids}-name`)?.focus();
      return;
    }
    setErrors({});
    create.mutate(
      { name: name.trim(), unitId: unitId || null, lines: toSavedLines(lines) },
      {
        onSuccess: (list) => {
          toast.success('Saved as a parts list', { description: `${list.name}: ${plural(list.lines.length, 'line')}` });
          setName('');
          setUnitId('');
          onSaved?.(list);
        },
        onError: (err) => {
          if (statusOf(err) === 401) return setGeneral('You are signed out: sign in again to save the list.');
          const refused = fieldErrors(err, FIELDS);
          setErrors(refused.fields);
          setGeneral(refused.general ?? (refused.fields.lines ? `The lines: ${refused.fields.lines}` : null));
        },
      },
    );
  };

  if (lines.length === 0) {
    return (
      <p className="text-sm text-steel">
        Your quote list is empty. Add parts to it (or paste a list on the{' '}
        <Link to="/quote" className="font-semibold text-ink underline">
          quote list page
        </Link>
        ), then save it here for the next time.
      </p>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-steel">Saves the {plural(lines.length, 'line')} of your quote list, with their quantities and notes, for everyone in your company.</p>
      <ListFields
        ids={ids}
        name={name}
        onName={setName}
        unitId={unitId}
        onUnit={setUnitId}
        errors={errors}
        units={fleet.data}
        unitsPending={fleet.isPending}
        className="grid gap-4 sm:grid-cols-2"
      />
      {general ? <FormError>{general}</FormError> : null}
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel ? (
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" disabled={create.isPending}>
          <Save className="size-4" aria-hidden="true" /> {create.isPending ? 'Saving...' : 'Save as a parts list'}
        </Button>
      </div>
    </form>
  );
}

/**
 * A button that opens SaveQuoteListForm in a dialog, for the quote list page: `lines` is the quote list as the page has
 * it (useQuoteList()). A browser with no buyer signed in gets a link to sign in instead.
 */
export function SaveQuoteListAsList({ lines }: { lines: readonly QuoteListLineLike[] }) {
  const signedIn = useBuyerSignedIn();
  const [open, setOpen] = useState(false);
  if (!signedIn) {
    return (
      <Link to="/account" className="text-sm font-semibold text-ink underline underline-offset-2">
        Sign in to save this list for your company
      </Link>
    );
  }
  return (
    <AccountDialog
      open={open}
      onOpenChange={setOpen}
      title="Save as a parts list"
      description="A list your company keeps in its account, to send as a quote again or to add to the quote list."
      trigger={
        <Button variant="outline" size="sm" disabled={lines.length === 0}>
          <Save className="size-4" aria-hidden="true" /> Save as a parts list
        </Button>
      }
    >
      {open ? <SaveQuoteListForm lines={lines} onSaved={() => setOpen(false)} onCancel={() => setOpen(false)} /> : null}
    </AccountDialog>
  );
}
