import type { BuyerLine } from '@forgeline/contracts/buyer-history';
import type { ProductLookupItem, ProductSummary } from '@forgeline/contracts/products';
import { ListPlus } from 'lucide-react';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useMyOrder } from '../api/get-order.ts';
import { useMyQuote } from '../api/get-quote.ts';
import { useProductLookup } from '../api/lookup-products.ts';
import { plural } from '../format.ts';
import { copySummary, copyToQuoteList, QUOTE_LIST_PATH, useQuoteListAccess, type QuoteEntry } from '../quote-list-access.ts';
import { AccountDialog } from './account-dialog.tsx';
import { LoadError } from './section-states.tsx';

/** What a reorder copies: a quote request's lines or an order's. `title` names it in a sentence ("order FL-1024"). */
export interface ReorderSource {
  kind: 'quote' | 'order';
  id: string;
  title: string;
}

/** Product ids are UUIDs; anything else (an old or hand-made line) is not asked about and reads as no longer sold. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One line of a reorder as it stands today: a part on sale as it is; one superseded (or taken off) with its
 * replacement, where the buyer chooses which goes on the list; one no longer sold, which can go as a text line; or a
 * line that was the buyer's own words to begin with.
 */
type Row =
  | { kind: 'current'; line: BuyerLine; product: ProductSummary }
  | { kind: 'replaced'; line: BuyerLine; product: ProductSummary | null; replacement: ProductSummary }
  | { kind: 'gone'; line: BuyerLine }
  | { kind: 'text'; line: BuyerLine };

/** The choice on a line: the replacement, the part as it was, the line as text, or leave it out. */
type Choice = 'replacement' | 'original' | 'text' | 'skip';

function rowsOf(lines: readonly BuyerLine[], items: readonly ProductLookupItem[]): Row[] {
  const byId = new Map(items.map((i) => [i.requested, i]));
  return lines.map((line): Row => {
    if (!line.productId) return { kind: 'text', line };
    const item = byId.get(line.productId);
    if (item?.replacedBy && item.status !== 'current') return { kind: 'replaced', line, product: item.status === 'superseded' ? item.product : null, replacement: item.replacedBy };
    if (item?.status === 'current' && item.product) return { kind: 'current', line, product: item.product };
    return { kind: 'gone', line };
  });
}

const defaultChoice = (r: Row): Choice => (r.kind === 'replaced' ? 'replacement' : r.kind === 'current' ? 'original' : 'text');
const partName = (p: { sku: string; name: string }) => `${p.sku} — ${p.name}`;
const lineText = (l: BuyerLine) => [l.sku, l.name].filter(Boolean).join(' ').trim();

/**
 * "Reorder": the lines of a quote request or an order, checked against today's catalogue (POST /api/products/lookup),
 * each saying what will go on the quote list, then "Add to quote list".
 */
export function ReorderDialog({ source, onClose }: { source: ReorderSource | null; onClose: () => void }) {
  return (
    <AccountDialog
      open={source !== null}
      onOpenChange={(open) => !open && onClose()}
      wide
      title={source ? `Reorder ${source.title}` : 'Reorder'}
      description="Each line as the catalogue has it today. The lines go on your quote list, where you send the request as always."
    >
      {source ? <ReorderBody key={`${source.kind}-${source.id}`} source={source} onClose={onClose} /> : null}
    </AccountDialog>
  );
}

function ReorderBody({ source, onClose }: { source: ReorderSource; onClose: () => void }) {
  const quote = useMyQuote(source.kind === 'quote' ? source.id : null);
  const order = useMyOrder(source.kind === 'order' ? source.id : null);
  const detail = source.kind === 'quote' ? quote : order;
  const lines = detail.data?.lines;
  const ids = lines ? [...new Set(lines.flatMap((l) => (l.productId && UUID.test(l.productId) ? [l.productId] : [])))] : undefined;
  const lookup = useProductLookup(ids);

  if (detail.isPending) return <Spinner label="Loading the lines..." />;
  if (detail.isError)
    return <LoadError title={`The lines of ${source.title} did not load.`} error={detail.error} onRetry={() => void detail.refetch()} retrying={detail.isFetching} />;
  if (!lines?.length) return <p className="text-sm text-steel">There are no lines to reorder.</p>;
  if (lookup.isPending) return <Spinner label="Checking the parts against today's catalogue..." />;
  if (lookup.isError)
    return <LoadError title="The parts could not be checked against today's catalogue." error={lookup.error} onRetry={() => void lookup.refetch()} retrying={lookup.isFetching} />;
  return <ReorderLines rows={rowsOf(lines, lookup.data.items)} onClose={onClose} />;
}

function ReorderLines({ rows, onClose }: { rows: Row[]; onClose: () => void }) {
  const ids = useId();
  const access = useQuoteListAccess();
  const navigate = useNavigate();
  const [choices, setChoices] = useState<Choice[]>(() => rows.map(defaultChoice));
  const choose = (i: number, c: Choice) => setChoices((all) => all.map((x, j) => (j === i ? c : x)));

  const entries = rows.flatMap((r, i): QuoteEntry[] => {
    const c = choices[i]!;
    const common = { quantity: r.line.quantity, note: r.line.note };
    if (c === 'skip') return [];
    if (c === 'text') return [{ text: r.kind === 'text' ? r.line.name : lineText(r.line), ...common }];
    if (r.kind === 'current') return [{ product: access.productOfSummary(r.product), ...common }];
    if (r.kind === 'replaced') {
      const p = c === 'original' && r.product ? r.product : r.replacement;
      return [{ product: access.productOfSummary(p), ...common }];
    }
    return [];
  });

  const add = () => {
    const result = copyToQuoteList(access, entries);
    if (result.stopped) toast.error('Your quote list is full', { description: `${copySummary(result)} ${result.stopped}` });
    else toast.success('Added to your quote list', { description: copySummary(result), action: { label: 'View list', onClick: () => void navigate(QUOTE_LIST_PATH) } });
    onClose();
  };

  return (
    <div className="space-y-4">
      <ol aria-label="Lines to reorder" className="divide-y divide-zinc-200 rounded-md border border-zinc-200 text-sm">
        {rows.map((r, i) => (
          <li key={i} className="px-3 py-3">
            <p className="break-words">
              <span className="font-mono font-semibold text-ink">{r.line.quantity.toLocaleString('en')} ×</span>{' '}
              <span className="font-semibold text-ink">{r.line.name}</span>
              {r.line.sku ? <span className="text-steel"> · {r.line.sku}</span> : null}
            </p>
            {r.line.note ? <p className="break-words text-steel">Note: {r.line.note}</p> : null}
            <div className="mt-1.5">
              <LineChoice row={r} name={`${ids}-${i}`} choice={choices[i]!} onChoose={(c) => choose(i, c)} />
            </div>
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap items-center justify-end gap-2">
        <span className="mr-auto text-sm text-steel" aria-live="polite">
          {plural(entries.length, 'line')} will go on your quote list.
        </span>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button disabled={entries.length === 0} onClick={add}>
          <ListPlus className="size-4" aria-hidden="true" /> Add to quote list
        </Button>
      </div>
    </div>
  );
}

const ok = 'font-semibold text-green-800';
const warn = 'font-semibold text-amber-800';

function LineChoice({ row, name, choice, onChoose }: { row: Row; name: string; choice: Choice; onChoose: (c: Choice) => void }) {
  if (row.kind === 'current') return <p className={ok}>On sale: added as it is.</p>;
  if (row.kind === 'text' || row.kind === 'gone') {
    return (
      <>
        {row.kind === 'gone' ? <p className={warn}>No longer sold.</p> : <p className="text-steel">Your own words, not a catalogue part.</p>}
        <label className="mt-1 flex items-start gap-2">
          <input type="checkbox" className="mt-1" checked={choice === 'text'} onChange={(e) => onChoose(e.target.checked ? 'text' : 'skip')} />
          <span>Add it as a free-text line</span>
        </label>
      </>
    );
  }
  const options: { value: Choice; label: string }[] = [
    { value: 'replacement', label: `Add the replacement: ${partName(row.replacement)}` },
    row.product ? { value: 'original', label: `Add the part as before: ${partName(row.product)}` } : { value: 'text', label: 'Add the old part as a free-text line' },
    { value: 'skip', label: 'Leave it out' },
  ];
  return (
    <fieldset>
      <legend className={warn}>
        {row.product ? 'Superseded' : 'No longer sold'} by {partName(row.replacement)}
      </legend>
      <div className="mt-1 space-y-1">
        {options.map((o) => (
          <label key={o.value} className="flex items-start gap-2">
            <input type="radio" name={name} className="mt-1" value={o.value} checked={choice === o.value} onChange={() => onChoose(o.value)} />
            <span className="min-w-0 break-words">{o.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
