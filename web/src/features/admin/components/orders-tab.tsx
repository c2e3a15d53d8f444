import { ORDER_LIMITS, ORDER_STATUSES, ORDER_STATUS_LABELS, ORDER_TRANSITIONS, type Order, type OrderStatus } from '@forgeline/contracts/orders';
import { PackageCheck, TriangleAlert } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { BuyerCompany } from './buyer-company.tsx';
import { ListPager } from '../../../components/ui/list-pager.tsx';
import { ListActions } from './list-chrome.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';
import { serverMessage, statusOf } from '../../../lib/api-error.ts';
import { formatCount } from '../../../lib/format-count.ts';
import { formatDateTime } from '../../../lib/format-date-time.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useOrderExport, useOrderList, useOrderMove, type OrderFilters, type OrderMove } from '../api/orders.ts';

const errorText = (err: unknown) => serverMessage(err) ?? 'Something went wrong. Please try again.';
const EMPTY: OrderFilters = { status: '', q: '', page: 1 };
const money = (n: number, currency: string | null) => `${n.toFixed(2)}${currency ? ` ${currency}` : ''}`;

const STATUS_TONE: Record<OrderStatus, string> = {
  confirmed: 'bg-safety text-ink',
  shipped: 'bg-sky-100 text-sky-900',
  delivered: 'bg-emerald-100 text-emerald-900',
  cancelled: 'bg-zinc-200 text-zinc-800',
};

/** The Orders tab: what buyers accepted on their quote pages, shipped, delivered or cancelled by staff. */
export default function OrdersTab() {
  const [filters, setFilters] = useState<OrderFilters>(EMPTY);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, 300);
  const effective = q === filters.q ? filters : { ...filters, q, page: 1 };
  const list = useOrderList(effective);
  const exportCsv = useOrderExport();
  const [openId, setOpenId] = useState<string | null>(null);
  const ids = useId();
  const data = list.data;
  const open = data?.items.find((o) => o.id === openId) ?? null;
  const totalPages = data?.pagination.totalPages ?? 1;
  const set = (patch: Partial<OrderFilters>) => setFilters({ ...effective, page: 1, ...patch });

  return (
    <div className="space-y-6">
      <section aria-label="Order filters" className="space-y-3">
        <div role="group" aria-label="Status" className="flex flex-wrap gap-2">
          {(['', ...ORDER_STATUSES] as const).map((s) => {
            const n = data ? (s === '' ? Object.values(data.counts).reduce((a, b) => a + b, 0) : data.counts[s]) : null;
            return (
              <button
                key={s || 'all'}
                type="button"
                aria-pressed={effective.status === s}
                onClick={() => set({ status: s })}
                className={`rounded-full border px-3 py-1 text-sm font-semibold ${effective.status === s ? 'border-ink bg-ink text-white' : 'border-zinc-300 bg-white text-ink hover:border-ink'}`}
              >
                {s ? ORDER_STATUS_LABELS[s] : 'All'}
                {n === null ? '' : ` ${formatCount(n)}`}
              </button>
            );
          })}
        </div>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <label className="w-full max-w-md text-sm font-semibold text-ink" htmlFor={`${ids}-q`}>
            Search
            <input
              id={`${ids}-q`}
              value={search}
              maxLength={ORDER_LIMITS.search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="Order or PO number, buyer, part number"
              className={`${formControlClass} w-full`}
            />
          </label>
          <ListActions onRefresh={() => void list.refetch()} onExport={() => exportCsv(effective)} />
        </div>
      </section>

      {list.isPending ? (
        <Spinner label="Loading the orders..." />
      ) : list.isError ? (
        <StateMessage icon={TriangleAlert} tone="error" title="The orders did not load" actions={<Button onClick={() => void list.refetch()}>Retry</Button>}>
          {errorText(list.error)}
        </StateMessage>
      ) : data!.items.length === 0 ? (
        <StateMessage icon={PackageCheck} title="No orders here">
          {effective.status || effective.q ? 'No order matches these filters.' : 'Orders appear here when buyers accept a quote on their quote page.'}
        </StateMessage>
      ) : (
        <div className={`grid gap-6 ${open ? 'xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]' : ''}`}>
          <div>
            <ul aria-label="Orders" className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white">
              {data!.items.map((o) => (
                <li key={o.id}>
                  <button
                    type="button"
                    aria-expanded={o.id === openId}
                    onClick={() => setOpenId(o.id)}
                    className={`flex w-full flex-wrap items-center justify-between gap-2 px-4 py-3 text-left hover:bg-zinc-50 ${o.id === openId ? 'bg-zinc-50' : ''}`}
                  >
                    <span>
                      <span className="font-mono font-bold text-ink">{o.number}</span> · {o.customerName} · PO {o.poNumber}
                      <span className="block text-xs text-steel">
                        {formatDateTime(o.createdAt)} · {o.lines.length} line{o.lines.length === 1 ? '' : 's'} · {o.totals.map((t) => money(t.total, t.currency)).join(' + ') || 'no prices'}
                      </span>
                    </span>
                    <span className={`rounded px-2 py-0.5 text-xs font-bold ${STATUS_TONE[o.status]}`}>{ORDER_STATUS_LABELS[o.status]}</span>
                  </button>
                </li>
              ))}
            </ul>
            <ListPager label="Order pages" page={effective.page} totalPages={totalPages} onPage={(page) => setFilters({ ...effective, page })} />
          </div>
          {open ? <OrderDetail key={`${open.id}-${open.version}`} order={open} /> : null}
        </div>
      )}
    </div>
  );
}

function OrderDetail({ order: o }: { order: Order }) {
  const move = useOrderMove();
  const ids = useId();
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const [reason, setReason] = useState('');
  const next = ORDER_TRANSITIONS[o.status];
  const send = async (m: OrderMove) => {
    try {
      await move.mutateAsync({ order: o, move: m });
      toast.success(`Order ${o.number}: ${ORDER_STATUS_LABELS[m.status]}`, { description: 'The buyer has been e-mailed.' });
    } catch (err) {
      toast.error(statusOf(err) === 409 ? 'Not saved' : 'Something went wrong', { description: errorText(err) });
    }
  };
  const ship = (e: FormEvent) => {
    e.preventDefault();
    if (!carrier.trim() || !tracking.trim()) return void toast.error('Give the carrier and the tracking number.');
    void send({ status: 'shipped', carrier: carrier.trim(), trackingNumber: tracking.trim() });
  };
  const cancel = (e: FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) return void toast.error('Say why the order is cancelled.');
    void send({ status: 'cancelled', reason: reason.trim() });
  };
  return (
    <section aria-label={`Order ${o.number}`} className="space-y-4 rounded-lg border border-zinc-200 bg-white p-5">
      <header>
        <h2 className="font-display text-2xl font-extrabold text-ink">Order {o.number}</h2>
        <p className="text-sm text-steel">
          {ORDER_STATUS_LABELS[o.status]} · placed {formatDateTime(o.createdAt)} · quote version {o.quoteVersion} · PO {o.poNumber}
        </p>
      </header>
      <dl className="grid gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-semibold text-steel">Buyer</dt>
          <dd className="text-ink">
            {o.customerName} &lt;{o.customerEmail}&gt;
          </dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="sr-only">Buyer&apos;s company</dt>
          <dd>
            <BuyerCompany email={o.customerEmail} />
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-steel">Deliver to</dt>
          <dd className="whitespace-pre-wrap text-ink">{[o.delivery.company, o.delivery.address].filter(Boolean).join('\n')}</dd>
        </div>
        <div>
          <dt className="font-semibold text-steel">Contact</dt>
          <dd className="text-ink">{[o.delivery.contactName, o.delivery.contactPhone].filter(Boolean).join(', ')}</dd>
        </div>
        {o.poDocument ? (
          <div>
            <dt className="font-semibold text-steel">PO document</dt>
            <dd>
              <a href={`/api/admin/orders/${encodeURIComponent(o.id)}/po-document`} download className="font-semibold text-ink underline underline-offset-2">
                {o.poDocument.name}
              </a>{' '}
              <span className="text-steel">({Math.max(1, Math.round(o.poDocument.size / 1024)).toLocaleString('en')} kB, PDF)</span>
            </dd>
          </div>
        ) : null}
        {o.shipment ? (
          <div>
            <dt className="font-semibold text-steel">Shipment</dt>
            <dd className="text-ink">
              {o.shipment.carrier} · {o.shipment.trackingNumber}
            </dd>
          </div>
        ) : null}
        {o.cancelReason ? (
          <div>
            <dt className="font-semibold text-steel">Cancelled because</dt>
            <dd className="text-ink">{o.cancelReason}</dd>
          </div>
        ) : null}
        {o.note ? (
          <div className="sm:col-span-2">
            <dt className="font-semibold text-steel">Buyer's note</dt>
            <dd className="whitespace-pre-wrap text-ink">{o.note}</dd>
          </div>
        ) : null}
      </dl>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Lines of order {o.number}</caption>
          <thead className="text-xs uppercase text-steel">
            <tr>
              <th scope="col" className="py-1 pr-3">SKU</th>
              <th scope="col" className="py-1 pr-3">Part</th>
              <th scope="col" className="py-1 pr-3 text-right">Qty</th>
              <th scope="col" className="py-1 text-right">Unit price</th>
            </tr>
          </thead>
          <tbody>
            {o.lines.map((l, i) => (
              <tr key={i} className="border-t border-zinc-200">
                <td className="py-1 pr-3 font-mono">{l.productSku || '-'}</td>
                <td className="py-1 pr-3">{l.productName}</td>
                <td className="py-1 pr-3 text-right">{l.quantity}</td>
                <td className="py-1 text-right">{l.unitPrice === null ? '-' : money(l.unitPrice, l.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-2 text-right text-sm font-bold text-ink">Total {o.totals.map((t) => money(t.total, t.currency)).join(' + ') || '-'}</p>
      </div>
      {next.includes('shipped') ? (
        <form onSubmit={ship} className="grid gap-2 rounded-md bg-zinc-50 p-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end" aria-label="Mark shipped">
          <label className="text-sm font-semibold text-ink" htmlFor={`${ids}-carrier`}>
            Carrier
            <input id={`${ids}-carrier`} value={carrier} maxLength={ORDER_LIMITS.carrier} onChange={(e) => setCarrier(e.target.value)} className={`${formControlClass} w-full`} />
          </label>
          <label className="text-sm font-semibold text-ink" htmlFor={`${ids}-tracking`}>
            Tracking number
            <input id={`${ids}-tracking`} value={tracking} maxLength={ORDER_LIMITS.trackingNumber} onChange={(e) => setTracking(e.target.value)} className={`${formControlClass} w-full`} />
          </label>
          <Button type="submit" size="sm" disabled={move.isPending}>
            Mark shipped
          </Button>
        </form>
      ) : null}
      {next.includes('delivered') ? (
        <Button size="sm" variant="outline" disabled={move.isPending} onClick={() => void send({ status: 'delivered' })}>
          Mark delivered
        </Button>
      ) : null}
      {next.includes('cancelled') ? (
        <form onSubmit={cancel} className="grid gap-2 sm:grid-cols-[1fr_auto] sm:items-end" aria-label="Cancel the order">
          <label className="text-sm font-semibold text-ink" htmlFor={`${ids}-reason`}>
            Reason to cancel
            <input id={`${ids}-reason`} value={reason} maxLength={ORDER_LIMITS.reason} onChange={(e) => setReason(e.target.value)} className={`${formControlClass} w-full`} />
          </label>
          <Button type="submit" size="sm" variant="ghost" disabled={move.isPending} className="border border-zinc-300">
            Cancel order
          </Button>
        </form>
      ) : null}
    </section>
  );
}
