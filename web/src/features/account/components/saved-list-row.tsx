import type { SavedListLine, SavedListSummary } from '@forgeline/contracts/account';
import { productPath } from '@forgeline/contracts/slug';
import { ChevronDown, ListPlus, Pencil, Send, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { cn } from '../../../lib/cn.ts';
import { useDeleteList } from '../api/delete-list.ts';
import { listQuery, useSavedList } from '../api/get-list.ts';
import { failed } from '../field-errors.ts';
import { formatDate, plural } from '../format.ts';
import { copySummary, copyToQuoteList, entryOfSavedLine, QUOTE_LIST_PATH, useQuoteListAccess, type CopyResult } from '../quote-list-access.ts';
import { AccountDialog } from './account-dialog.tsx';
import { ListEditDialog } from './list-edit-dialog.tsx';
import { FormError, LoadError } from './section-states.tsx';

/** One saved list: what it is, its lines on demand, and what can be done with it. */
export function SavedListRow({ list, unitName }: { list: SavedListSummary; unitName: string | null }) {
  const ids = useId();
  const client = useQueryClient();
  const navigate = useNavigate();
  const access = useQuoteListAccess();
  const remove = useDeleteList();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<'add' | 'send' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [deleteProblem, setDeleteProblem] = useState<string | null>(null);
  // Send as quote onto a quote list that has lines already: replace them, or add to them?
  const [choosing, setChoosing] = useState<{ lines: SavedListLine[]; onList: number } | null>(null);

  const loadLines = async (what: 'add' | 'send') => {
    setBusy(what);
    setProblem(null);
    try {
      return (await client.fetchQuery(listQuery(list.id))).lines;
    } catch (err) {
      setProblem(failed(err, `The lines of ${list.name} did not load.`));
      return null;
    } finally {
      setBusy(null);
    }
  };

  const report = (r: CopyResult, goTo: boolean) => {
    if (r.stopped) toast.error('Your quote list is full', { description: `${copySummary(r)} ${r.stopped}` });
    else if (!goTo)
      toast.success(`${list.name} is on your quote list`, { description: copySummary(r), action: { label: 'View list', onClick: () => void navigate(QUOTE_LIST_PATH) } });
    if (goTo) void navigate(QUOTE_LIST_PATH);
  };

  const addToQuoteList = async () => {
    const lines = await loadLines('add');
    if (lines) report(copyToQuoteList(access, lines.map(entryOfSavedLine)), false);
  };

  const sendAsQuote = async () => {
    const lines = await loadLines('send');
    if (!lines) return;
    const onList = access.getQuoteList().length;
    if (onList) setChoosing({ lines, onList });
    else report(copyToQuoteList(access, lines.map(entryOfSavedLine)), true);
  };

  const send = (replace: boolean) => {
    if (!choosing) return;
    if (replace) access.clearQuoteList();
    const r = copyToQuoteList(access, choosing.lines.map(entryOfSavedLine));
    setChoosing(null);
    report(r, true);
  };

  return (
    <li className="px-4 py-4">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-3">
        <div className="min-w-0">
          <p className="break-words font-bold text-ink">
            {list.name}
            {unitName ? <span className="ml-2 inline-block rounded bg-zinc-100 px-2 py-0.5 align-middle text-xs font-semibold text-ink">For {unitName}</span> : null}
          </p>
          <p className="mt-0.5 break-words text-sm text-steel">
            {plural(list.lineCount, 'line')} · changed by {list.updatedBy} on {formatDate(list.updatedAt)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" disabled={busy !== null} onClick={() => void addToQuoteList()} aria-label={`Add ${list.name} to the quote list`}>
            <ListPlus className="size-4" aria-hidden="true" /> {busy === 'add' ? 'Adding...' : 'Add to quote list'}
          </Button>
          <Button variant="dark" size="sm" disabled={busy !== null} onClick={() => void sendAsQuote()} aria-label={`Send ${list.name} as a quote request`}>
            <Send className="size-4" aria-hidden="true" /> {busy === 'send' ? 'Opening...' : 'Send as quote'}
          </Button>
        </div>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="outline" size="sm" aria-expanded={open} aria-controls={`${ids}-lines`} onClick={() => setOpen((o) => !o)}>
          <ChevronDown className={cn('size-4 transition-transform', open && 'rotate-180')} aria-hidden="true" />
          {open ? 'Hide the lines' : 'Show the lines'}
          <span className="sr-only"> of {list.name}</span>
        </Button>
        <ListEditDialog
          list={list}
          trigger={
            <Button variant="outline" size="sm" aria-label={`Rename ${list.name} or choose its machine`}>
              <Pencil className="size-4" aria-hidden="true" /> Rename / machine
            </Button>
          }
        />
        <ConfirmDialog
          trigger={
            <Button variant="ghost" size="sm" className="border border-zinc-300" aria-label={`Delete ${list.name}`} onClick={() => setDeleteProblem(null)}>
              <Trash2 className="size-4" aria-hidden="true" /> Delete
            </Button>
          }
          title={`Delete ${list.name}?`}
          description={
            <>
              The list goes for everyone in your company. Your quote list is not changed.
              {deleteProblem ? (
                <span role="alert" className="mt-2 block font-semibold text-red-700">
                  {deleteProblem}
                </span>
              ) : null}
            </>
          }
          confirmLabel="Delete the list"
          pendingLabel="Deleting..."
          pending={remove.isPending}
          onConfirm={(close) =>
            remove.mutate(list.id, {
              onSuccess: () => {
                close();
                toast.success('Parts list deleted', { description: list.name });
              },
              onError: (err) => setDeleteProblem(failed(err, 'The list was not deleted.')),
            })
          }
        />
      </div>
      {problem ? (
        <div className="mt-3">
          <FormError>{problem}</FormError>
        </div>
      ) : null}
      <div id={`${ids}-lines`} hidden={!open}>
        {open ? <ListLines id={list.id} /> : null}
      </div>

      <AccountDialog
        open={choosing !== null}
        onOpenChange={(o) => !o && setChoosing(null)}
        title="Your quote list has lines already"
        description={`It holds ${plural(choosing?.onList ?? 0, 'line')}. Send ${list.name} alone, or with them?`}
      >
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => setChoosing(null)}>
            Cancel
          </Button>
          <Button variant="outline" onClick={() => send(false)}>
            Add to them
          </Button>
          <Button onClick={() => send(true)}>Replace them</Button>
        </div>
      </AccountDialog>
    </li>
  );
}

function ListLines({ id }: { id: string }) {
  const list = useSavedList(id);
  if (list.isPending) return <p className="mt-3 text-sm text-steel" role="status">Loading the lines...</p>;
  if (list.isError)
    return (
      <div className="mt-3">
        <LoadError title="The list's lines did not load." error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />
      </div>
    );
  if (!list.data.lines.length) return <p className="mt-3 text-sm text-steel">This list has no lines.</p>;
  return (
    <ol aria-label={`Lines of ${list.data.name}`} className="mt-3 divide-y divide-zinc-100 rounded-md border border-zinc-200 bg-zinc-50 text-sm">
      {list.data.lines.map((l, i) => (
        <li key={`${l.productId ?? l.text}-${i}`} className="flex gap-3 px-3 py-2">
          <span className="w-14 shrink-0 text-right font-mono font-semibold text-ink">{l.quantity.toLocaleString('en')} ×</span>
          <span className="min-w-0 break-words">
            {l.productId && l.name ? (
              <>
                <Link to={productPath({ id: l.productId, name: l.name, slug: l.slug ?? null })} className="font-semibold text-ink hover:underline">
                  {l.name}
                </Link>
                <span className="block text-steel">
                  {[l.partNumber && `Part # ${l.partNumber}`, l.sku && `SKU ${l.sku}`, l.brandName].filter(Boolean).join(' · ')}
                </span>
              </>
            ) : (
              <>
                <span className="font-mono font-semibold text-ink">{l.text}</span>
                <span className="block text-steel">Your own words (not a catalogue part)</span>
              </>
            )}
            {l.note ? <span className="block text-steel">Note: {l.note}</span> : null}
          </span>
        </li>
      ))}
    </ol>
  );
}
