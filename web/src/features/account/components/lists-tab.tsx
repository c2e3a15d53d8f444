import { ClipboardList } from 'lucide-react';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useFleet } from '../api/get-fleet.ts';
import { useSavedLists } from '../api/get-lists.ts';
import { useQuoteListAccess } from '../quote-list-access.ts';
import { SaveQuoteListForm } from './save-quote-list-as-list.tsx';
import { SavedListRow } from './saved-list-row.tsx';
import { EmptyState, LoadError } from './section-states.tsx';

/** The Parts lists tab: the company's saved lists (open, copy to the quote list, send, rename, delete) and the quote list saved as one. */
export default function ListsTab() {
  const lists = useSavedLists();
  const fleet = useFleet();
  const { useQuoteList } = useQuoteListAccess();
  const quoteLines = useQuoteList();
  const unitName = (id: string | null) => (id ? (fleet.data?.find((u) => u.id === id)?.unitName ?? null) : null);

  return (
    <div className="space-y-8">
      <section aria-labelledby="lists-heading" className="space-y-4">
        <div className="max-w-2xl">
          <h2 id="lists-heading" className="font-display text-2xl font-extrabold uppercase text-ink">
            Parts lists {lists.data?.length ? <span className="text-steel">({lists.data.length})</span> : null}
          </h2>
          <p className="mt-1 text-sm text-steel">
            The lists your company keeps: a service kit per machine, the parts you order every month. Add one to your quote list, or send it as a quote
            request in two clicks.
          </p>
        </div>
        {lists.isPending ? (
          <Spinner label="Loading your parts lists..." />
        ) : lists.isError ? (
          <LoadError title="Your parts lists did not load." error={lists.error} onRetry={() => void lists.refetch()} retrying={lists.isFetching} />
        ) : lists.data.length === 0 ? (
          <EmptyState icon={ClipboardList} title="No parts lists yet">
            Save your quote list below as a parts list, and the parts for the next service or the monthly order are one click away for everyone in your
            company.
          </EmptyState>
        ) : (
          <ul aria-label="Your parts lists" className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white">
            {lists.data.map((l) => (
              <SavedListRow key={l.id} list={l} unitName={unitName(l.unitId)} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="save-list-heading" className="rounded-lg border border-zinc-200 bg-white p-5">
        <h2 id="save-list-heading" className="font-display text-xl font-extrabold uppercase text-ink">
          Save your quote list as a parts list
        </h2>
        <div className="mt-3">{quoteLines === null ? <Spinner label="Reading your quote list..." /> : <SaveQuoteListForm lines={quoteLines} />}</div>
      </section>
    </div>
  );
}
