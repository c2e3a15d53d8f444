import {
  INBOX_LIMITS,
  INBOX_STATUSES,
  INBOX_STATUS_LABELS,
  INBOX_TRANSITIONS,
  type InboxDetail,
  type InboxItem,
  type InboxStatus,
} from '@forgeline/contracts/quote-inbox';
import { QUOTE_DECLINE_REASON_LABELS } from '@forgeline/contracts/quote-view-constants';
import { productPath } from '@forgeline/contracts/slug';
import { Inbox as InboxIcon, MessageSquareReply, TriangleAlert } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
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
import {
  useInboxAction,
  useInboxExport,
  useInboxItem,
  useInboxList,
  useInboxStaff,
  useInboxStats,
  type InboxAction,
  type InboxFilters,
} from '../api/inbox.ts';

const STATUS_TONE: Record<InboxStatus, string> = {
  pending: 'bg-safety text-ink',
  in_progress: 'bg-sky-100 text-sky-900',
  quoted: 'bg-violet-100 text-violet-900',
  changes_requested: 'bg-amber-100 text-amber-900',
  won: 'bg-emerald-100 text-emerald-900',
  lost: 'bg-zinc-200 text-zinc-800',
  spam: 'bg-red-100 text-red-900',
  closed: 'bg-zinc-100 text-zinc-600',
};

function StatusBadge({ status }: { status: InboxStatus }) {
  return <span className={`inline-block whitespace-nowrap rounded px-2 py-0.5 text-xs font-bold ${STATUS_TONE[status]}`}>{INBOX_STATUS_LABELS[status]}</span>;
}

const rtf = typeof Intl !== 'undefined' ? new Intl.RelativeTimeFormat('en', { numeric: 'auto' }) : null;
/** "5 minutes ago", "yesterday": the age of a request. */
function age(iso: string, now = Date.now()): string {
  const s = Math.round((Date.parse(iso) - now) / 1000);
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [['second', 60], ['minute', 60], ['hour', 24], ['day', 30], ['month', 12], ['year', Infinity]];
  let v = s;
  for (const [unit, size] of steps) {
    if (Math.abs(v) < size) return rtf ? rtf.format(v, unit) : iso.slice(0, 10);
    v = Math.trunc(v / size);
  }
  return iso.slice(0, 10);
}

const errorText = (err: unknown) => serverMessage(err) ?? 'Something went wrong. Please try again.';

const EMPTY: InboxFilters = { status: '', kind: '', assignee: '', q: '', from: '', to: '', page: 1 };

/** The Inbox tab: quote requests and contact messages, their numbers, and one request worked at a time. */
export default function InboxTab() {
  const [filters, setFilters] = useState<InboxFilters>(EMPTY);
  const [text, setText] = useState('');
  const q = useDebouncedValue(text, 300);
  // The debounced search text becomes a filter (back to page 1) when it changes.
  const [searched, setSearched] = useState(q);
  if (searched !== q) {
    setSearched(q);
    setFilters((f) => (f.q === q ? f : { ...f, q, page: 1 }));
  }
  const [openId, setOpenId] = useState<string | null>(null);
  const list = useInboxList(filters);
  const stats = useInboxStats();
  const staff = useInboxStaff().data?.staff ?? [];
  const exportCsv = useInboxExport();
  const set = (patch: Partial<InboxFilters>) => setFilters((f) => ({ ...f, page: 1, ...patch }));
  const ids = useId();
  const data = list.data;
  const totalPages = data?.pagination.totalPages ?? 1;

  return (
    <div className="space-y-6">
      <section aria-label="Inbox numbers" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Requests this week" value={stats.data ? formatCount(stats.data.requestsThisWeek) : '—'} />
        <Stat
          label="Median time to first reply"
          value={stats.data ? (stats.data.medianHoursToFirstReply === null ? 'no replies yet' : `${stats.data.medianHoursToFirstReply} h`) : '—'}
        />
        <Stat
          label="Share won"
          value={stats.data ? (stats.data.shareWon === null ? 'none decided' : `${Math.round(stats.data.shareWon * 100)}%`) : '—'}
          note={
            stats.data?.lostReasons.length
              ? `Declined: ${stats.data.lostReasons.map((r) => `${QUOTE_DECLINE_REASON_LABELS[r.reason].toLowerCase()} ${r.requests}`).join(', ')}`
              : undefined
          }
        />
        <div className="rounded-lg border border-zinc-200 bg-white p-4">
          <p className="text-xs font-bold uppercase tracking-wider text-steel">Top requested parts (30 days)</p>
          {stats.data?.topParts.length ? (
            <ol className="mt-2 space-y-1 text-sm">
              {stats.data.topParts.slice(0, 3).map((p) => (
                <li key={`${p.productId}-${p.productSku}`} className="flex justify-between gap-2">
                  <span className="truncate font-mono" title={p.productName}>
                    {p.productSku}
                  </span>
                  <span className="font-semibold">{p.requests}</span>
                </li>
              ))}
            </ol>
          ) : (
            <p className="mt-2 text-sm text-steel">{stats.data ? 'No requests yet' : '—'}</p>
          )}
        </div>
      </section>

      <section aria-label="Inbox filters" className="space-y-3">
        <div role="group" aria-label="Status" className="flex flex-wrap gap-2">
          {(['', ...INBOX_STATUSES] as const).map((s) => {
            const n = data ? (s === '' ? Object.values(data.counts).reduce((a, b) => a + b, 0) : data.counts[s]) : null;
            return (
              <button
                key={s || 'all'}
                type="button"
                aria-pressed={filters.status === s}
                onClick={() => set({ status: s })}
                className="rounded-full border border-zinc-300 px-3 py-1 text-sm font-semibold text-steel hover:border-ink aria-pressed:border-ink aria-pressed:bg-ink aria-pressed:text-white"
              >
                {s ? INBOX_STATUS_LABELS[s] : 'All'}
                {n !== null ? <span className="ml-1 font-normal opacity-80"> {formatCount(n)}</span> : null}
              </button>
            );
          })}
        </div>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6">
          <label className="text-sm font-semibold text-ink lg:col-span-2" htmlFor={`${ids}-q`}>
            Search
            <input
              id={`${ids}-q`}
              type="search"
              value={text}
              maxLength={INBOX_LIMITS.search}
              onChange={(e) => setText(e.target.value)}
              placeholder="Name, e-mail, part number, message"
              className={`${formControlClass} w-full`}
            />
          </label>
          <label className="text-sm font-semibold text-ink" htmlFor={`${ids}-kind`}>
            Kind
            <select id={`${ids}-kind`} value={filters.kind} onChange={(e) => set({ kind: e.target.value as InboxFilters['kind'] })} className={`${formControlClass} w-full`}>
              <option value="">Quotes and messages</option>
              <option value="quote">Quote requests</option>
              <option value="contact">Contact messages</option>
            </select>
          </label>
          <label className="text-sm font-semibold text-ink" htmlFor={`${ids}-assignee`}>
            Assignee
            <select id={`${ids}-assignee`} value={filters.assignee} onChange={(e) => set({ assignee: e.target.value })} className={`${formControlClass} w-full`}>
              <option value="">Anyone</option>
              <option value="none">Nobody yet</option>
              <StaffOptions staff={staff} />
            </select>
          </label>
          <label className="text-sm font-semibold text-ink" htmlFor={`${ids}-from`}>
            From
            <input id={`${ids}-from`} type="date" value={filters.from} onChange={(e) => set({ from: e.target.value })} className={`${formControlClass} w-full`} />
          </label>
          <label className="text-sm font-semibold text-ink" htmlFor={`${ids}-to`}>
            To
            <input id={`${ids}-to`} type="date" value={filters.to} onChange={(e) => set({ to: e.target.value })} className={`${formControlClass} w-full`} />
          </label>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-steel" aria-live="polite">
            {data ? `${formatCount(data.pagination.total)} request${data.pagination.total === 1 ? '' : 's'}` : ''}
          </p>
          <ListActions onRefresh={() => void list.refetch()} onExport={() => exportCsv(filters)} />
        </div>
      </section>

      {list.isPending ? (
        <Spinner label="Loading the inbox..." />
      ) : list.isError ? (
        <StateMessage icon={TriangleAlert} tone="error" title="The inbox did not load" actions={<Button onClick={() => void list.refetch()}>Retry</Button>}>
          {errorText(list.error)}
        </StateMessage>
      ) : data!.items.length === 0 ? (
        <StateMessage icon={InboxIcon} title="Nothing here">
          {filters === EMPTY ? 'No quote requests or messages yet.' : 'No request matches these filters.'}
        </StateMessage>
      ) : (
        <div className={`grid gap-6 ${openId ? 'xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]' : ''}`}>
          <div>
            <ul aria-label="Requests" className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white">
              {data!.items.map((item) => (
                <li key={item.id}>
                  <InboxRow item={item} open={item.id === openId} onOpen={() => setOpenId(item.id)} />
                </li>
              ))}
            </ul>
            <ListPager label="Inbox pages" page={filters.page} totalPages={totalPages} onPage={(page) => setFilters((f) => ({ ...f, page }))} />
          </div>
          {openId ? <InboxRequest key={openId} id={openId} staff={staff} onClose={() => setOpenId(null)} onShowRequests={setText} /> : null}
        </div>
      )}
    </div>
  );
}

function StaffOptions({ staff }: { staff: string[] }) {
  return staff.map((s) => (
    <option key={s} value={s}>
      {s}
    </option>
  ));
}

function TextAreaField(props: { id: string; label: string; value: string; onChange: (v: string) => void; maxLength: number; rows: number }) {
  return (
    <label className="block text-sm font-semibold text-ink" htmlFor={props.id}>
      {props.label}
      <textarea
        id={props.id}
        value={props.value}
        maxLength={props.maxLength}
        onChange={(e) => props.onChange(e.target.value)}
        rows={props.rows}
        className={`${formControlClass} w-full`}
      />
    </label>
  );
}

function Stat({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-lg border border-zinc-200 bg-white p-4">
      <p className="text-xs font-bold uppercase tracking-wider text-steel">{label}</p>
      <p className="mt-1 font-display text-2xl font-extrabold text-ink">{value}</p>
      {note ? <p className="mt-1 text-xs text-steel">{note}</p> : null}
    </div>
  );
}

function InboxRow({ item, open, onOpen }: { item: InboxItem; open: boolean; onOpen: () => void }) {
  const what = item.firstLine
    ? `${item.firstLine.productSku} · ${item.firstLine.productName}${item.lineCount > 1 ? ` (+${item.lineCount - 1} more)` : ''} × ${item.firstLine.quantity}`
    : item.subject || 'Contact message';
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-current={open ? 'true' : undefined}
      className="grid w-full gap-1 px-4 py-3 text-left hover:bg-zinc-50 aria-[current=true]:bg-amber-50 sm:grid-cols-[7rem_minmax(0,1fr)_8rem]"
    >
      <span className="flex items-center gap-2 sm:block">
        <StatusBadge status={item.status} />
        <span className="text-xs text-steel sm:mt-1 sm:block">{item.kind === 'quote' ? 'Quote' : 'Message'}</span>
      </span>
      <span className="min-w-0">
        <span className="block truncate font-semibold text-ink">
          {item.customerName} <span className="font-normal text-steel">@{item.emailDomain}</span>
        </span>
        <span className="block truncate text-sm text-steel">{what}</span>
      </span>
      <span className="text-xs text-steel sm:text-right">
        <span className="block">{age(item.createdAt)}</span>
        <span className="block">{item.country}</span>
        <span className="block truncate">{item.assignee ?? 'unassigned'}</span>
      </span>
    </button>
  );
}

function InboxRequest({ id, staff, onClose, onShowRequests }: { id: string; staff: string[]; onClose: () => void; onShowRequests: (search: string) => void }) {
  const q = useInboxItem(id);
  const action = useInboxAction(q.data);
  const ids = useId();
  const [note, setNote] = useState('');
  // Opening a request moves focus (and, on a phone where it sits below the list, the screen) to its heading.
  const heading = useRef<HTMLHeadingElement>(null);
  const loaded = q.data !== undefined;
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);

  const run = async (a: InboxAction, done: string) => {
    try {
      await action.mutateAsync(a);
      toast.success(done);
      return true;
    } catch (err) {
      if (statusOf(err) === 409) void q.refetch();
      toast.error(statusOf(err) === 409 ? 'Not saved' : 'Something went wrong', { description: errorText(err) });
      return false;
    }
  };

  if (q.isPending) return <Spinner label="Opening the request..." />;
  if (q.isError) {
    return (
      <StateMessage icon={TriangleAlert} tone="error" title="The request did not open" actions={<Button onClick={onClose}>Close</Button>}>
        {errorText(q.error)}
      </StateMessage>
    );
  }
  const r = q.data;
  const moves = INBOX_TRANSITIONS[r.status].filter((s) => s !== r.status);
  const busy = action.isPending;

  return (
    <section aria-labelledby={`${ids}-title`} className="space-y-5 rounded-lg border border-zinc-200 bg-white p-5">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-xs font-bold uppercase tracking-wider text-steel">{r.kind === 'quote' ? 'Quote request' : 'Contact message'}</p>
          <h2 id={`${ids}-title`} ref={heading} tabIndex={-1} className="font-display text-2xl font-bold uppercase text-ink focus:outline-none">
            {r.customerName}
          </h2>
          <p className="text-sm text-steel">Received {formatDateTime(r.createdAt)}</p>
        </div>
        <div className="flex items-center gap-2">
          <StatusBadge status={r.status} />
          <Button variant="ghost" size="sm" onClick={onClose}>
            Close
          </Button>
        </div>
      </header>

      <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="font-semibold text-steel">E-mail</dt>
        <dd className="truncate">
          <a className="text-ink underline" href={`mailto:${r.customerEmail}`}>
            {r.customerEmail}
          </a>
        </dd>
        <dt className="font-semibold text-steel">Phone</dt>
        <dd>{r.customerPhone || '—'}</dd>
        <dt className="font-semibold text-steel">Country</dt>
        <dd>{r.country || '—'}</dd>
        {r.kind === 'contact' ? (
          <>
            <dt className="font-semibold text-steel">Subject</dt>
            <dd>{r.subject || '—'}</dd>
          </>
        ) : null}
      </dl>
      <BuyerCompany email={r.customerEmail} onShowRequests={onShowRequests} />

      {r.lines.length ? (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Parts asked for</caption>
          <thead>
            <tr className="border-b border-zinc-200 text-xs uppercase text-steel">
              <th className="py-1 pr-2">Part</th>
              <th className="py-1 pr-2">SKU</th>
              <th className="py-1 text-right">Qty</th>
            </tr>
          </thead>
          <tbody>
            {r.lines.map((l, i) => (
              <tr key={`${l.productId}-${i}`} className="border-b border-zinc-100">
                <td className="py-1 pr-2">
                  {l.productId ? (
                    <a className="text-ink underline" href={productPath({ id: l.productId, name: l.productName })} target="_blank" rel="noreferrer">
                      {l.productName}
                    </a>
                  ) : (
                    // What the buyer typed, matched to no catalogue part.
                    <span className="italic">{l.productName}</span>
                  )}
                </td>
                <td className="py-1 pr-2 font-mono">{l.productSku}</td>
                <td className="py-1 text-right">{formatCount(l.quantity)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}

      <div>
        <h3 className="text-sm font-bold uppercase text-steel">Message</h3>
        <p className="mt-1 whitespace-pre-wrap text-sm text-ink">{r.message || '—'}</p>
      </div>

      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm font-semibold text-ink" htmlFor={`${ids}-assignee`}>
          Assignee
          <select
            id={`${ids}-assignee`}
            value={r.assignee ?? ''}
            disabled={busy}
            onChange={(e) => void run({ kind: 'patch', body: { assignee: e.target.value || null } }, 'Assignee changed')}
            className={`${formControlClass} w-56`}
          >
            <option value="">Nobody</option>
            <StaffOptions staff={staff} />
          </select>
        </label>
        <div role="group" aria-label="Move to" className="flex flex-wrap gap-2">
          {moves.map((s) => (
            <Button key={s} variant="outline" size="sm" disabled={busy} onClick={() => void run({ kind: 'patch', body: { status: s } }, `Moved to ${INBOX_STATUS_LABELS[s]}`)}>
              Mark {INBOX_STATUS_LABELS[s]}
            </Button>
          ))}
        </div>
      </div>

      <ReplyForm key={`${r.id}-${r.lines.length}`} request={r} busy={busy} onSend={(body) => run({ kind: 'reply', body }, 'Reply sent')} />

      <form
        className="space-y-2"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          if (!note.trim()) return;
          void run({ kind: 'patch', body: { note: note.trim() } }, 'Note added').then((ok) => ok && setNote(''));
        }}
      >
        <TextAreaField id={`${ids}-note`} label="Internal note" value={note} onChange={setNote} maxLength={INBOX_LIMITS.note} rows={2} />
        <Button type="submit" variant="outline" size="sm" disabled={busy || !note.trim()}>
          Add note
        </Button>
      </form>

      <div>
        <h3 className="text-sm font-bold uppercase text-steel">History</h3>
        {r.history.length ? (
          <ol aria-label="History" className="mt-2 space-y-2 border-l-2 border-zinc-200 pl-3 text-sm">
            {r.history
              .slice()
              .reverse()
              .map((h, i) => (
                <li key={`${h.at}-${i}`}>
                  <p className="text-xs text-steel">
                    {formatDateTime(h.at)} · {h.actor}
                  </p>
                  <p className="text-ink">
                    {h.type === 'status'
                      ? `Moved from ${INBOX_STATUS_LABELS[h.from as InboxStatus] ?? h.from} to ${INBOX_STATUS_LABELS[h.to as InboxStatus] ?? h.to}`
                      : h.type === 'assignee'
                        ? `Assigned to ${h.to ?? 'nobody'}`
                        : h.type === 'note'
                          ? `Note: ${h.text}`
                          : h.type === 'buyer'
                            ? buyerAnswerText(h)
                            : `Replied to ${h.to}: ${h.text}`}
                  </p>
                </li>
              ))}
          </ol>
        ) : (
          <p className="mt-1 text-sm text-steel">Nothing done yet.</p>
        )}
      </div>
    </section>
  );
}

/** A buyer's answer on their quote page, as one line of the history. */
function buyerAnswerText(h: InboxDetail['history'][number]): string {
  const b = h.buyer;
  if (!b) return h.text ?? '';
  if (b.action === 'accept') return `Accepted version ${b.version}: order ${b.orderNumber ?? ''} (PO ${b.poNumber ?? '-'})${h.text ? `. Note: ${h.text}` : ''}`;
  if (b.action === 'decline') return `Declined: ${b.reason ? QUOTE_DECLINE_REASON_LABELS[b.reason] : 'no reason'}${h.text ? `. ${h.text}` : ''}`;
  const asked = (b.lines ?? []).flatMap((l, i) => {
    const wants = [l.quantity !== null ? `qty ${l.quantity}` : '', l.targetPrice !== null ? `target ${l.targetPrice}` : ''].filter(Boolean);
    return wants.length ? [`line ${i + 1}: ${wants.join(', ')}`] : [];
  });
  return `Asked for changes to version ${b.version}${asked.length ? ` (${asked.join('; ')})` : ''}: ${h.text ?? ''}`;
}

function ReplyForm({
  request,
  busy,
  onSend,
}: {
  request: InboxDetail;
  busy: boolean;
  onSend: (body: Extract<InboxAction, { kind: 'reply' }>['body']) => Promise<boolean>;
}) {
  const ids = useId();
  const [message, setMessage] = useState('');
  const [currency, setCurrency] = useState('USD');
  const [validUntil, setValidUntil] = useState('');
  const [lines, setLines] = useState(() => request.lines.map((l) => ({ qty: String(l.quantity), price: '', lead: '' })));
  const [error, setError] = useState<string | null>(null);
  const canReply = request.status === (request.kind === 'quote' ? 'quoted' : 'closed') || INBOX_TRANSITIONS[request.status].includes(request.kind === 'quote' ? 'quoted' : 'closed');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!message.trim()) return setError('Write a message to the buyer.');
    const bad = lines.findIndex((l) => l.price.trim() !== '' && !(Number(l.price) >= 0));
    if (bad >= 0) return setError(`Line ${bad + 1}: the price must be a number.`);
    const badQty = lines.findIndex((l) => !/^\d+$/.test(l.qty.trim()) || Number(l.qty) < 1);
    if (badQty >= 0) return setError(`Line ${badQty + 1}: the quantity must be a whole number of at least 1.`);
    setError(null);
    const sent = await onSend({
      message: message.trim(),
      lines: lines.map((l, i) => ({
        // Another quantity than asked (a revised quote, after the buyer asked for changes); else as requested.
        ...(Number(l.qty) !== request.lines[i]?.quantity ? { quantity: Number(l.qty) } : {}),
        unitPrice: l.price.trim() === '' ? null : Number(l.price),
        currency: currency.trim() || null,
        leadTime: l.lead.trim() || null,
      })),
      validUntil: validUntil || null,
    });
    if (sent) setMessage('');
  };

  if (!canReply) return null;
  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-3 rounded-md bg-zinc-50 p-4" aria-labelledby={`${ids}-h`}>
      <h3 id={`${ids}-h`} className="flex items-center gap-2 text-sm font-bold uppercase text-ink">
        <MessageSquareReply className="size-4" aria-hidden="true" /> Reply to {request.customerEmail}
      </h3>
      {request.lines.length ? (
        <div className="space-y-2">
          {request.lines.map((l, i) => (
            <div key={`${l.productId}-${i}`} className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_6rem_8rem_10rem]">
              <span className="self-center truncate text-sm font-mono">
                {l.productSku || l.productName} × {l.quantity}
              </span>
              <label className="text-xs font-semibold text-steel">
                Quantity ({l.productSku || `line ${i + 1}`})
                <input
                  inputMode="numeric"
                  value={lines[i]?.qty ?? ''}
                  onChange={(e) => setLines((ls) => ls.map((x, j) => (j === i ? { ...x, qty: e.target.value } : x)))}
                  className={`${formControlClass} w-full`}
                />
              </label>
              <label className="text-xs font-semibold text-steel">
                Unit price ({l.productSku})
                <input
                  inputMode="decimal"
                  value={lines[i]?.price ?? ''}
                  onChange={(e) => setLines((ls) => ls.map((x, j) => (j === i ? { ...x, price: e.target.value } : x)))}
                  className={`${formControlClass} w-full`}
                />
              </label>
              <label className="text-xs font-semibold text-steel">
                Lead time ({l.productSku})
                <input
                  value={lines[i]?.lead ?? ''}
                  maxLength={INBOX_LIMITS.leadTime}
                  placeholder="e.g. 3-5 days"
                  onChange={(e) => setLines((ls) => ls.map((x, j) => (j === i ? { ...x, lead: e.target.value } : x)))}
                  className={`${formControlClass} w-full`}
                />
              </label>
            </div>
          ))}
          <div className="flex flex-wrap gap-3">
            <label className="text-xs font-semibold text-steel">
              Currency
              <input value={currency} maxLength={3} onChange={(e) => setCurrency(e.target.value.toUpperCase())} className={`${formControlClass} w-24`} />
            </label>
            <label className="text-xs font-semibold text-steel">
              Prices valid until
              <input type="date" value={validUntil} onChange={(e) => setValidUntil(e.target.value)} className={`${formControlClass} w-44`} />
            </label>
          </div>
        </div>
      ) : null}
      <TextAreaField id={`${ids}-message`} label="Message to the buyer" value={message} onChange={setMessage} maxLength={INBOX_LIMITS.reply} rows={4} />
      {error ? (
        <p role="alert" className="text-sm font-semibold text-red-700">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={busy}>
        Send reply
      </Button>
    </form>
  );
}
