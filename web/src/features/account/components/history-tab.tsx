import type { BuyerOrder, BuyerQuote } from '@forgeline/contracts/buyer-history';
import type { InboxStatus } from '@forgeline/contracts/quote-inbox';
import { ExternalLink, FileText, PackageCheck, RefreshCw, Repeat } from 'lucide-react';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';
import { useMyOrders } from '../api/get-orders.ts';
import { useQuoteViewLink } from '../api/create-quote-view-link.ts';
import { useMyQuotes } from '../api/get-quotes.ts';
import { ORDER_STATUS_LABELS, QUOTE_FILTER_STATUSES, QUOTE_STATUS_LABELS } from '../account-constants.ts';
import { failed } from '../field-errors.ts';
import { compactSelectClass, formatDate, formatTotals, plural } from '../format.ts';
import { ListPager } from '../../../components/ui/list-pager.tsx';
import { ReorderDialog, type ReorderSource } from './reorder-dialog.tsx';
import { EmptyState, FormError, LoadError } from './section-states.tsx';

const badge = 'inline-block rounded px-2 py-0.5 text-xs font-bold';
const QUOTE_TONE: Partial<Record<InboxStatus, string>> = { quoted: 'bg-safety text-ink', changes_requested: 'bg-sky-100 text-sky-900', won: 'bg-emerald-100 text-emerald-900' };
const ORDER_TONE: Record<BuyerOrder['status'], string> = {
  confirmed: 'bg-safety text-ink',
  shipped: 'bg-sky-100 text-sky-900',
  delivered: 'bg-emerald-100 text-emerald-900',
  cancelled: 'bg-zinc-200 text-zinc-800',
};

/** The Quotes & orders tab: every request and order of the company, each with its way back (view, reorder). */
export default function HistoryTab() {
  const [reorder, setReorder] = useState<ReorderSource | null>(null);
  return (
    <div className="space-y-10">
      <QuotesSection onReorder={setReorder} />
      <OrdersSection onReorder={setReorder} />
      <ReorderDialog source={reorder} onClose={() => setReorder(null)} />
    </div>
  );
}

function QuotesSection({ onReorder }: { onReorder: (s: ReorderSource) => void }) {
  const ids = useId();
  const [filters, setFilters] = useState<{ page: number; status: InboxStatus | '' }>({ page: 1, status: '' });
  const quotes = useMyQuotes(filters);
  const data = quotes.data;
  return (
    <section aria-labelledby={`${ids}-h`} className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 max-w-2xl">
          <h2 id={`${ids}-h`} className="font-display text-2xl font-extrabold uppercase text-ink">
            Quote requests {data?.pagination.total ? <span className="text-steel">({data.pagination.total.toLocaleString('en')})</span> : null}
          </h2>
          <p className="mt-1 text-sm text-steel">Every request your company has sent, whoever sent it.</p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <label htmlFor={`${ids}-status`} className="text-sm font-semibold text-ink">
            Status
            <select
              id={`${ids}-status`}
              value={filters.status}
              onChange={(e) => setFilters({ page: 1, status: e.target.value as InboxStatus | '' })}
              className={cn(compactSelectClass, 'mt-1')}
            >
              <option value="">All</option>
              {QUOTE_FILTER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {QUOTE_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <Button variant="outline" size="sm" disabled={quotes.isFetching} onClick={() => void quotes.refetch()}>
            <RefreshCw className={cn('size-4', quotes.isFetching && 'animate-spin')} aria-hidden="true" /> Refresh
          </Button>
        </div>
      </div>
      {quotes.isPending ? (
        <Spinner label="Loading your quote requests..." />
      ) : quotes.isError ? (
        <LoadError title="Your quote requests did not load." error={quotes.error} onRetry={() => void quotes.refetch()} retrying={quotes.isFetching} />
      ) : data!.items.length === 0 ? (
        <EmptyState icon={FileText} title={filters.status ? 'None with this status' : 'No quote requests yet'}>
          {filters.status
            ? 'Choose another status, or All.'
            : 'Requests sent from the quote list with your company’s addresses show here, with their quotes and what became of them.'}
        </EmptyState>
      ) : (
        <>
          <ul aria-label="Your quote requests" aria-busy={quotes.isFetching} className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white">
            {data!.items.map((q) => (
              <QuoteRow key={q.id} quote={q} onReorder={onReorder} />
            ))}
          </ul>
          {data!.pagination.totalPages > 1 ? (
            <ListPager label="Quote request pages" page={filters.page} totalPages={data!.pagination.totalPages} onPage={(page) => setFilters((f) => ({ ...f, page }))} />
          ) : null}
        </>
      )}
    </section>
  );
}

function QuoteRow({ quote: q, onReorder }: { quote: BuyerQuote; onReorder: (s: ReorderSource) => void }) {
  const link = useQuoteViewLink();
  const navigate = useNavigate();
  const v = q.latestVersion;
  const date = `request of ${formatDate(q.createdAt)}`;
  // Two requests of a day are told apart by what they asked for first.
  const label = `${date}, ${q.firstLine}`;
  const view = () =>
    link.mutate(q.id, {
      onSuccess: ({ url }) => {
        const to = new URL(url, window.location.href);
        // The quote page is the storefront's own (/quote/view/…): opened in the app, else as any page.
        if (to.origin === window.location.origin) void navigate(`${to.pathname}${to.search}${to.hash}`);
        else window.location.assign(to.href);
      },
    });
  return (
    <li className="px-4 py-4">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-3">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-steel">
            <span className="font-semibold text-ink">{formatDate(q.createdAt)}</span>
            <span className="break-all">{q.email}</span>
            <span className={cn(badge, QUOTE_TONE[q.status] ?? 'bg-zinc-100 text-ink')}>{QUOTE_STATUS_LABELS[q.status]}</span>
          </p>
          <p className="mt-1 break-words font-bold text-ink">
            {q.firstLine}
            {q.lineCount > 1 ? <span className="font-normal text-steel"> and {plural(q.lineCount - 1, 'more line')}</span> : null}
          </p>
          <p className="mt-0.5 break-words text-sm text-steel">
            {v ? (
              <>
                Quote v{v.version}: <strong className="text-ink">{formatTotals(v.totals) ?? 'no prices'}</strong>, valid until {formatDate(v.validUntil)}
              </>
            ) : (
              'Not quoted yet'
            )}
            {q.orderNumber ? (
              <>
                {' '}
                · Order <span className="font-mono font-semibold text-ink">{q.orderNumber}</span>
              </>
            ) : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {v ? (
            <Button size="sm" variant="outline" disabled={link.isPending} onClick={view} aria-label={`View the quote for the ${label}`}>
              <ExternalLink className="size-4" aria-hidden="true" /> {link.isPending ? 'Opening...' : 'View quote'}
            </Button>
          ) : null}
          <Button size="sm" onClick={() => onReorder({ kind: 'quote', id: q.id, title: `the ${date}` })} aria-label={`Reorder the ${label}`}>
            <Repeat className="size-4" aria-hidden="true" /> Reorder
          </Button>
        </div>
      </div>
      {link.isError ? (
        <div className="mt-2">
          <FormError>{failed(link.error, 'The quote page could not be opened.')}</FormError>
        </div>
      ) : null}
    </li>
  );
}

function OrdersSection({ onReorder }: { onReorder: (s: ReorderSource) => void }) {
  const ids = useId();
  const [page, setPage] = useState(1);
  const orders = useMyOrders(page);
  const data = orders.data;
  return (
    <section aria-labelledby={`${ids}-h`} className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 max-w-2xl">
          <h2 id={`${ids}-h`} className="font-display text-2xl font-extrabold uppercase text-ink">
            Orders {data?.pagination.total ? <span className="text-steel">({data.pagination.total.toLocaleString('en')})</span> : null}
          </h2>
          <p className="mt-1 text-sm text-steel">The quotes your company accepted, and where each order is.</p>
        </div>
        <Button variant="outline" size="sm" disabled={orders.isFetching} onClick={() => void orders.refetch()}>
          <RefreshCw className={cn('size-4', orders.isFetching && 'animate-spin')} aria-hidden="true" /> Refresh
        </Button>
      </div>
      {orders.isPending ? (
        <Spinner label="Loading your orders..." />
      ) : orders.isError ? (
        <LoadError title="Your orders did not load." error={orders.error} onRetry={() => void orders.refetch()} retrying={orders.isFetching} />
      ) : data!.items.length === 0 ? (
        <EmptyState icon={PackageCheck} title="No orders yet">
          An order shows here once a quote is accepted on its quote page, with its PO number and, once shipped, the carrier and tracking number.
        </EmptyState>
      ) : (
        <>
          <ul aria-label="Your orders" aria-busy={orders.isFetching} className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white">
            {data!.items.map((o) => (
              <OrderRow key={o.id} order={o} onReorder={onReorder} />
            ))}
          </ul>
          {data!.pagination.totalPages > 1 ? <ListPager label="Order pages" page={page} totalPages={data!.pagination.totalPages} onPage={setPage} /> : null}
        </>
      )}
    </section>
  );
}

function OrderRow({ order: o, onReorder }: { order: BuyerOrder; onReorder: (s: ReorderSource) => void }) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-x-4 gap-y-3 px-4 py-4">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="font-mono font-bold text-ink">{o.number}</span>
          <span className={cn(badge, ORDER_TONE[o.status])}>{ORDER_STATUS_LABELS[o.status]}</span>
        </p>
        <dl className="mt-1 grid gap-x-4 gap-y-0.5 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-steel">Placed</dt>
          <dd className="min-w-0 break-words text-ink">
            {formatDate(o.createdAt)} by <span className="break-all">{o.email}</span>
          </dd>
          <dt className="text-steel">PO number</dt>
          <dd className="min-w-0 break-words font-mono text-ink">{o.poNumber || '—'}</dd>
          <dt className="text-steel">Shipment</dt>
          <dd className="min-w-0 break-words text-ink">
            {o.shipment ? (
              <>
                {o.shipment.carrier} · <span className="font-mono">{o.shipment.trackingNumber}</span>
              </>
            ) : o.status === 'cancelled' ? (
              '—'
            ) : (
              'Not shipped yet'
            )}
          </dd>
          <dt className="text-steel">Total</dt>
          <dd className="min-w-0 break-words text-ink">
            <strong>{formatTotals(o.totals) ?? '—'}</strong> · {plural(o.lineCount, 'line')}
          </dd>
        </dl>
      </div>
      <Button size="sm" onClick={() => onReorder({ kind: 'order', id: o.id, title: `order ${o.number}` })} aria-label={`Reorder order ${o.number}`}>
        <Repeat className="size-4" aria-hidden="true" /> Reorder
      </Button>
    </li>
  );
}
