import { parseQuoteListAdds, QUOTE_LIST_ADD_PARAM, type QuoteListAdd } from '@forgeline/contracts/quote-list-link';
import { useMutation } from '@tanstack/react-query';
import { CheckCircle2, Loader2, TriangleAlert, X } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { lookUpProducts } from '../../account/api/lookup-products.ts';
import { ensureProducts, productOfSummary, QUOTE_LIST_MAX_LINES, QUOTE_LIST_MAX_QUANTITY, useQuoteList, type EnsureOutcome } from '../quote-list-store.ts';
import { NotSoldParts, type NotSoldPart } from './not-sold-parts.tsx';

const LIMITS = { maxLines: QUOTE_LIST_MAX_LINES, maxQuantity: QUOTE_LIST_MAX_QUANTITY };

export interface LinkReport {
  counts: Record<EnsureOutcome, number>;
  notSold: NotSoldPart[];
}

/** Looks the parts up (current, superseded or not sold) and puts the ones on sale on the list. */
async function addFromLink(adds: QuoteListAdd[]): Promise<LinkReport> {
  const { items } = await lookUpProducts(adds.map((a) => a.productId));
  const onSale = items.flatMap((item, i) => (item.product ? [{ product: productOfSummary(item.product), quantity: adds[i]!.quantity }] : []));
  const counts: Record<EnsureOutcome, number> = { added: 0, raised: 0, kept: 0, full: 0 };
  for (const outcome of ensureProducts(onSale)) counts[outcome]++;
  return { counts, notSold: items.filter((item) => !item.product).map((item) => ({ id: item.requested, replacedBy: item.replacedBy })) };
}

const parts = (n: number) => `${n} part${n === 1 ? '' : 's'}`;

/** What a link did, in sentences: "3 parts added to your quote list." and the rest. */
export function linkReportSentences({ counts }: LinkReport): string[] {
  const sentences: string[] = [];
  if (counts.added) sentences.push(`${parts(counts.added)} added to your quote list.`);
  if (counts.raised) sentences.push(`${parts(counts.raised)} already on it: quantity raised to the one asked.`);
  if (counts.kept) sentences.push(`${parts(counts.kept)} already on it with as many or more: left as ${counts.kept === 1 ? 'it was' : 'they were'}.`);
  if (counts.full) sentences.push(`${parts(counts.full)} not added: the list is full (${QUOTE_LIST_MAX_LINES} lines). Send this request, then start another.`);
  if (!sentences.length) sentences.push('No part from the link was added.');
  return sentences;
}

/**
 * A link that adds parts (/quote?add=<id>~<quantity>…, an assembly page's form): once the buyer's list is readable
 * (after hydration), the parts are looked up and put on it with at least the quantities asked, and the address
 * becomes /quote (replaced, so a reload or Back adds nothing twice); then this says what was added and what could not
 * be. If the lookup fails, the address keeps the parts, so "Try again" (or a reload) asks again.
 */
export function AddedFromLink() {
  const [params, setParams] = useSearchParams();
  const key = params.getAll(QUOTE_LIST_ADD_PARAM).join('\n');
  const asked = useMemo(() => (key ? parseQuoteListAdds(key.split('\n'), LIMITS) : []), [key]);
  const ready = useQuoteList() !== null;
  const add = useMutation({
    mutationFn: addFromLink,
    onSuccess: () =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete(QUOTE_LIST_ADD_PARAM);
          return next;
        },
        { replace: true },
      ),
  });
  const { mutate } = add;
  // Once per link (Strict Mode runs an effect twice; the same link opened again is a new page, or a new `key`).
  const started = useRef<string | null>(null);
  useEffect(() => {
    if (!ready || !key || started.current === key) return;
    started.current = key;
    mutate(asked);
  }, [ready, key, asked, mutate]);

  if (add.isPending) {
    return (
      <p role="status" className="mt-6 flex items-center gap-2 rounded-lg border border-zinc-200 bg-white p-4 text-ink">
        <Loader2 className="size-5 animate-spin text-safety-deep" aria-hidden="true" /> Adding {parts(asked.length)} from the link to your quote list...
      </p>
    );
  }
  if (add.isError) {
    return (
      <div role="alert" className="mt-6 flex flex-wrap items-center gap-3 rounded-lg border border-red-300 bg-red-50 p-4 text-red-800">
        <TriangleAlert className="size-5 shrink-0" aria-hidden="true" />
        <p className="flex-1">The parts from the link could not be added just now. Your list is as it was.</p>
        <Button variant="dark" size="sm" onClick={() => mutate(asked)}>
          Try again
        </Button>
      </div>
    );
  }
  if (!add.data) return null;
  const nothing = !add.data.counts.added && !add.data.counts.raised && !add.data.counts.kept;
  return (
    <div
      role="status"
      className={`mt-6 flex items-start gap-3 rounded-lg border p-4 text-ink ${nothing ? 'border-amber-300 bg-amber-50' : 'border-emerald-300 bg-emerald-50'}`}
    >
      {nothing ? (
        <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-800" aria-hidden="true" />
      ) : (
        <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-green-700" aria-hidden="true" />
      )}
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{linkReportSentences(add.data).join(' ')}</p>
        <NotSoldParts parts={add.data.notSold} />
      </div>
      <Button variant="ghost" size="sm" className="shrink-0 px-2" onClick={() => add.reset()} aria-label="Dismiss">
        <X className="size-4" aria-hidden="true" />
      </Button>
    </div>
  );
}
