import { QUOTE_DECLINE_REASON_LABELS, QUOTE_DECLINE_REASONS, QUOTE_PO_DOCUMENT, QUOTE_VIEW_LIMITS } from '@forgeline/contracts/quote-view-constants';
import type { QuoteView, QuoteViewVersion } from '@forgeline/contracts/quote-view';
import type { QuoteViewFormState } from '@forgeline/contracts/ssr';
import { CheckCircle2, FileText, Link2Off } from 'lucide-react';
import type { ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { buttonClass } from '../../../components/ui/button.tsx';
import { FieldLabel } from '../../../components/ui/field-label.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { PageNotFound } from '../../../components/ui/page-not-found.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { useQuoteView, useQuoteViewForm } from '../api/get-quote-view.ts';

/** Where each answer's form posts: the gateway takes it to the quotes service (gateway/src/seo/quote-view-page.ts). */
export const quoteViewAction = (token: string, action: QuoteViewFormState['action']) => `/quote/view/${encodeURIComponent(token)}/${action}`;

const input = `${formControlClass} w-full`;
const money = (n: number, currency: string | null) =>
  currency ? new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'code' }).format(n) : n.toFixed(2);
const date = (iso: string) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(iso));

const STATUS: Record<QuoteView['status'], string> = {
  open: 'Open: waiting for your answer',
  changes_requested: 'Changes asked: a revised quote will follow',
  accepted: 'Accepted',
  declined: 'Declined',
  expired: 'Expired',
  requoting: 'A new quote is on its way',
  closed: 'Closed',
};

const DONE: Record<string, string> = {
  accept: 'Thank you: your order is confirmed. We have e-mailed you a confirmation.',
  changes: 'Your request for changes has been sent. We will e-mail you a revised quote.',
  decline: 'You declined this quote. Thank you for letting us know.',
  reopen: 'Your request is back with us: we will send you a new quote.',
};

/**
 * The buyer's own quote page, opened from the link in a quote reply (no account: the link is the key). Server-rendered
 * by the gateway; its three answers are plain forms that post to the gateway, so they work the same with and without
 * JavaScript, and a refused answer comes back here with what was typed and what was wrong.
 */
export default function QuoteViewPage() {
  const token = useParams().token ?? '';
  const [params] = useSearchParams();
  const { data: view, isPending, isError } = useQuoteView(token);
  const form = useQuoteViewForm(token);
  useDocumentTitle(view ? `Quote ${view.reference}` : 'Your quote');

  if (isPending) return <Spinner label="Loading your quote" />;
  if (isError) {
    return (
      <PageNotFound title="Your quote could not be loaded">
        Something went wrong on our side. Please reload the page in a minute, or reply to our e-mail.
      </PageNotFound>
    );
  }
  if (!view) {
    return (
      <PageNotFound icon={Link2Off} title="This quote link is not valid">
        It may have expired or been withdrawn. Reply to our e-mail or ask us for a new quote.
      </PageNotFound>
    );
  }
  const latest = view.versions.at(-1)!;
  const done = params.get('done');
  return (
    <div className="container-page py-8 sm:py-12">
      <header className="flex flex-wrap items-end justify-between gap-3 border-b border-zinc-200 pb-5">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wider text-steel">Quotation for {view.customerName}</p>
          <h1 className="font-display text-3xl font-extrabold uppercase text-ink sm:text-4xl">Quote {view.reference}</h1>
          <p className="mt-1 text-sm text-steel">Requested {date(view.requestedAt)}</p>
        </div>
        <p className="rounded bg-zinc-100 px-3 py-1 text-sm font-bold text-ink" data-status={view.status}>
          {STATUS[view.status]}
        </p>
      </header>

      {done && DONE[done] ? (
        <p role="status" className="mt-6 flex items-start gap-2 rounded-md border border-emerald-300 bg-emerald-50 p-4 text-emerald-900">
          <CheckCircle2 className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <span>
            {DONE[done]}
            {done === 'accept' && view.order ? ` Order number: ${view.order.number}.` : ''}
          </span>
        </p>
      ) : null}
      {view.order ? (
        <p className="mt-6 rounded-md border border-zinc-200 bg-white p-4 text-ink">
          <strong>Order {view.order.number}</strong> · version {view.order.quoteVersion} accepted {date(view.order.createdAt)} · your PO {view.order.poNumber}
          {view.order.poDocument ? ` (${view.order.poDocument.name} attached)` : ''}
        </p>
      ) : null}
      {view.status === 'expired' ? (
        <div className="mt-6 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <p>This quote expired on {date(`${latest.validUntil}T00:00:00Z`)}. Prices may have changed since.</p>
          {form?.action === 'reopen' && form.errors[0] ? (
            <p role="alert" className="mt-2 font-semibold text-red-800">
              {form.errors[0].message}
            </p>
          ) : null}
          {view.canReopen ? (
            <form method="post" action={quoteViewAction(token, 'reopen')} className="mt-3">
              <button type="submit" className={buttonClass('primary', 'md')}>
                Ask for a new quote
              </button>
            </form>
          ) : null}
        </div>
      ) : null}

      <VersionSection token={token} version={latest} latest />
      {view.versions.length > 1 ? (
        <section aria-labelledby="earlier-versions" className="mt-8">
          <h2 id="earlier-versions" className="text-lg font-bold text-ink">
            Earlier versions
          </h2>
          {view.versions
            .slice(0, -1)
            .reverse()
            .map((v) => (
              <details key={v.version} className="mt-2 rounded-md border border-zinc-200 bg-white p-3">
                <summary className="cursor-pointer font-semibold text-ink">
                  Version {v.version}, {date(v.quotedAt)}
                </summary>
                <VersionSection token={token} version={v} />
              </details>
            ))}
        </section>
      ) : null}

      {view.canAccept || view.canAskChanges || view.canDecline ? (
        <div className="mt-10 grid gap-6 lg:grid-cols-2">
          {view.canAccept ? <AcceptForm token={token} version={latest} state={form?.action === 'accept' ? form : null} /> : null}
          <div className="space-y-6">
            {view.canAskChanges ? <ChangesForm token={token} version={latest} state={form?.action === 'changes' ? form : null} /> : null}
            {view.canDecline ? <DeclineForm token={token} state={form?.action === 'decline' ? form : null} /> : null}
          </div>
        </div>
      ) : null}

      <section aria-labelledby="quote-history" className="mt-10">
        <h2 id="quote-history" className="text-lg font-bold text-ink">
          History
        </h2>
        <ol className="mt-2 space-y-2 border-l-2 border-zinc-200 pl-4 text-sm">
          {view.history.map((h, i) => (
            <li key={`${h.at}-${i}`}>
              <span className="text-steel">{date(h.at)}</span> · <span className="text-ink">{h.what}</span>
              {h.text ? <span className="block whitespace-pre-wrap text-steel">{h.text}</span> : null}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

/** One version: the seller's message, the lines with prices, the totals per currency and the validity. */
function VersionSection({ token, version: v, latest = false }: { token: string; version: QuoteViewVersion; latest?: boolean }) {
  const id = `version-${v.version}`;
  return (
    <section aria-labelledby={latest ? id : undefined} className={latest ? 'mt-8' : 'mt-3'}>
      {latest ? (
        <h2 id={id} className="flex items-center gap-2 text-xl font-bold text-ink">
          <FileText className="size-5" aria-hidden="true" /> Version {v.version}
        </h2>
      ) : null}
      <p className="mt-1 text-sm text-steel">
        Quoted {date(v.quotedAt)} · prices valid until {date(`${v.validUntil}T00:00:00Z`)} ·{' '}
        <a className="font-semibold text-ink underline" href={`/api/quote-view/${encodeURIComponent(token)}/pdf?version=${v.version}`} rel="nofollow">
          Download PDF<span className="sr-only"> of version {v.version}</span>
        </a>
      </p>
      {v.message ? <p className="mt-3 whitespace-pre-wrap text-ink">{v.message}</p> : null}
      <div className="mt-4 overflow-x-auto rounded-md border border-zinc-200 bg-white">
        <table className="w-full min-w-[36rem] text-left text-sm">
          <caption className="sr-only">Parts quoted in version {v.version}</caption>
          <thead className="bg-zinc-50 text-xs uppercase tracking-wider text-steel">
            <tr>
              <th scope="col" className="px-3 py-2">Part</th>
              <th scope="col" className="px-3 py-2">SKU</th>
              <th scope="col" className="px-3 py-2 text-right">Qty</th>
              <th scope="col" className="px-3 py-2 text-right">Unit price</th>
              <th scope="col" className="px-3 py-2 text-right">Line total</th>
              <th scope="col" className="px-3 py-2">Lead time</th>
            </tr>
          </thead>
          <tbody>
            {v.lines.map((l, i) => (
              <tr key={i} className="border-t border-zinc-200">
                <td className="px-3 py-2 text-ink">{l.productName}</td>
                <td className="px-3 py-2 font-mono">{l.productSku || '-'}</td>
                <td className="px-3 py-2 text-right">{l.quantity}</td>
                <td className="px-3 py-2 text-right">{l.unitPrice === null ? 'on request' : money(l.unitPrice, l.currency)}</td>
                <td className="px-3 py-2 text-right">{l.lineTotal === null ? '-' : money(l.lineTotal, l.currency)}</td>
                <td className="px-3 py-2">{l.leadTime ?? '-'}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            {v.totals.map((t) => (
              <tr key={t.currency} className="border-t-2 border-zinc-300 font-bold">
                <th scope="row" colSpan={4} className="px-3 py-2 text-right">
                  Total {t.currency}
                </th>
                <td className="px-3 py-2 text-right">{money(t.total, t.currency || null)}</td>
                <td />
              </tr>
            ))}
          </tfoot>
        </table>
      </div>
    </section>
  );
}

/** A form's field errors and its general one, from a refused answer. */
function useFormErrors(state: QuoteViewFormState | null, prefix: string) {
  const errorOf = (field: string) => state?.errors.find((e) => e.field === field)?.message;
  const value = (field: string, fallback = '') => state?.values[field] ?? fallback;
  const field = (name: string) => ({
    id: `${prefix}-${name}`,
    name,
    'aria-invalid': errorOf(name) ? true : undefined,
    'aria-describedby': errorOf(name) ? `${prefix}-${name}-error` : undefined,
  });
  const error = (name: string) =>
    errorOf(name) ? (
      <p id={`${prefix}-${name}-error`} className="mt-1 text-sm text-red-700">
        {errorOf(name)}
      </p>
    ) : null;
  return { errorOf, value, field, error };
}

function FormCard({
  id,
  title,
  children,
  action,
  general,
  encType,
}: {
  id: string;
  title: string;
  children: ReactNode;
  action: string;
  general: string | undefined;
  /** multipart/form-data for a form that sends a file. */
  encType?: string;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-lg border border-zinc-200 bg-white p-5">
      <h2 id={`${id}-heading`} className="font-display text-xl font-extrabold uppercase text-ink">
        {title}
      </h2>
      {general ? (
        <p role="alert" className="mt-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {general}
        </p>
      ) : null}
      <form method="post" action={action} encType={encType} className="mt-4 space-y-4">
        {children}
      </form>
    </section>
  );
}

function AcceptForm({ token, version: v, state }: { token: string; version: QuoteViewVersion; state: QuoteViewFormState | null }) {
  const { errorOf, value, field, error } = useFormErrors(state, 'accept');
  return (
    <FormCard id="accept" title="Accept and order" action={quoteViewAction(token, 'accept')} general={errorOf('') ?? errorOf('version')} encType="multipart/form-data">
      <input type="hidden" name="version" value={v.version} />
      <fieldset>
        <legend className="text-sm font-semibold text-ink">Quantities to order (0 leaves a part out)</legend>
        <div className="mt-2 space-y-2">
          {v.lines.map((l, i) => (
            <div key={i}>
              <label htmlFor={`accept-qty-${i}`} className="block text-sm text-ink">
                {l.productSku || l.productName} (quoted {l.quantity}
                {l.unitPrice === null ? ', no price yet' : ''})
              </label>
              <input
                {...field(`qty-${i}`)}
                type="number"
                inputMode="numeric"
                min={0}
                max={l.quantity}
                defaultValue={value(`qty-${i}`, String(l.unitPrice === null ? 0 : l.quantity))}
                className={`${formControlClass} w-28`}
              />
              {error(`qty-${i}`)}
            </div>
          ))}
        </div>
      </fieldset>
      <div>
        <FieldLabel htmlFor="accept-poNumber" required>
          Your purchase order number
        </FieldLabel>
        <input {...field('poNumber')} required maxLength={QUOTE_VIEW_LIMITS.poNumber} defaultValue={value('poNumber')} className={input} />
        {error('poNumber')}
      </div>
      <div>
        <FieldLabel htmlFor="accept-company">Company</FieldLabel>
        <input {...field('company')} maxLength={QUOTE_VIEW_LIMITS.name} autoComplete="organization" defaultValue={value('company')} className={input} />
        {error('company')}
      </div>
      <div>
        <FieldLabel htmlFor="accept-address" required>
          Delivery address
        </FieldLabel>
        <textarea {...field('address')} required rows={3} maxLength={QUOTE_VIEW_LIMITS.address} autoComplete="street-address" defaultValue={value('address')} className={input} />
        {error('address')}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <FieldLabel htmlFor="accept-contactName" required>
            Contact for the delivery
          </FieldLabel>
          <input {...field('contactName')} required maxLength={QUOTE_VIEW_LIMITS.name} autoComplete="name" defaultValue={value('contactName')} className={input} />
          {error('contactName')}
        </div>
        <div>
          <FieldLabel htmlFor="accept-contactPhone">Contact phone</FieldLabel>
          <input {...field('contactPhone')} type="tel" maxLength={QUOTE_VIEW_LIMITS.phone} autoComplete="tel" defaultValue={value('contactPhone')} className={input} />
          {error('contactPhone')}
        </div>
      </div>
      <div>
        <FieldLabel htmlFor="accept-note">Note for us (optional)</FieldLabel>
        <textarea {...field('note')} rows={2} maxLength={QUOTE_VIEW_LIMITS.message} defaultValue={value('note')} className={input} />
        {error('note')}
      </div>
      {/* Last in the form: the fields reach the server before the file, so a refused file still leaves them filled in. */}
      <div>
        <FieldLabel htmlFor="accept-poDocument">Your purchase order as a PDF (optional)</FieldLabel>
        <input
          {...field(QUOTE_PO_DOCUMENT.field)}
          type="file"
          accept={`${QUOTE_PO_DOCUMENT.type},.pdf`}
          aria-describedby={errorOf(QUOTE_PO_DOCUMENT.field) ? `accept-${QUOTE_PO_DOCUMENT.field}-error` : 'accept-poDocument-hint'}
          className="mt-1 block w-full text-sm text-ink file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-zinc-50 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-ink hover:file:bg-zinc-100"
        />
        <p id="accept-poDocument-hint" className="mt-1 text-sm text-steel">
          A PDF of at most {QUOTE_PO_DOCUMENT.maxMb} MB.{state?.errors.length ? ' If you attached one, attach it again: a browser does not keep a chosen file.' : ''}
        </p>
        {error(QUOTE_PO_DOCUMENT.field)}
      </div>
      <button type="submit" className={buttonClass('primary', 'lg', 'w-full sm:w-auto')}>
        Accept version {v.version} and order
      </button>
    </FormCard>
  );
}

function ChangesForm({ token, version: v, state }: { token: string; version: QuoteViewVersion; state: QuoteViewFormState | null }) {
  const { errorOf, value, field, error } = useFormErrors(state, 'changes');
  return (
    <FormCard id="changes" title="Ask for changes" action={quoteViewAction(token, 'changes')} general={errorOf('') ?? errorOf('version')}>
      <input type="hidden" name="version" value={v.version} />
      <fieldset>
        <legend className="text-sm font-semibold text-ink">Per part, another quantity or a target price (leave blank to keep)</legend>
        <div className="mt-2 space-y-3">
          {v.lines.map((l, i) => (
            <div key={i} className="grid grid-cols-2 gap-3">
              <div>
                <label htmlFor={`changes-qty-${i}`} className="block text-sm text-ink">
                  Quantity: {l.productSku || l.productName}
                </label>
                <input {...field(`qty-${i}`)} type="number" inputMode="numeric" min={1} defaultValue={value(`qty-${i}`)} className={input} />
                {error(`qty-${i}`)}
              </div>
              <div>
                <label htmlFor={`changes-target-${i}`} className="block text-sm text-ink">
                  Target price{l.currency ? ` (${l.currency})` : ''}: {l.productSku || l.productName}
                </label>
                <input {...field(`target-${i}`)} inputMode="decimal" defaultValue={value(`target-${i}`)} className={input} />
                {error(`target-${i}`)}
              </div>
            </div>
          ))}
        </div>
      </fieldset>
      <div>
        <FieldLabel htmlFor="changes-message" required>
          Message
        </FieldLabel>
        <textarea {...field('message')} required rows={3} maxLength={QUOTE_VIEW_LIMITS.message} defaultValue={value('message')} className={input} />
        {error('message')}
      </div>
      <button type="submit" className={buttonClass('outline', 'md')}>
        Ask for changes
      </button>
    </FormCard>
  );
}

function DeclineForm({ token, state }: { token: string; state: QuoteViewFormState | null }) {
  const { errorOf, value, field, error } = useFormErrors(state, 'decline');
  return (
    <FormCard id="decline" title="Decline" action={quoteViewAction(token, 'decline')} general={errorOf('')}>
      <div>
        <FieldLabel htmlFor="decline-reason" required>
          Why not?
        </FieldLabel>
        <select {...field('reason')} required defaultValue={value('reason')} className={input}>
          <option value="" disabled>
            Choose a reason
          </option>
          {QUOTE_DECLINE_REASONS.map((r) => (
            <option key={r} value={r}>
              {QUOTE_DECLINE_REASON_LABELS[r]}
            </option>
          ))}
        </select>
        {error('reason')}
      </div>
      <div>
        <FieldLabel htmlFor="decline-text">Anything to add (optional)</FieldLabel>
        <textarea {...field('text')} rows={2} maxLength={QUOTE_VIEW_LIMITS.declineText} defaultValue={value('text')} className={input} />
        {error('text')}
      </div>
      <button type="submit" className={buttonClass('ghost', 'md', 'border border-zinc-300')}>
        Decline this quote
      </button>
    </FormCard>
  );
}
