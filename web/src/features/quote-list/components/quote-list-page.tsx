import { QUOTE_LIST_ADD_PARAM } from '@forgeline/contracts/quote-list-link';
import { productPath } from '@forgeline/contracts/slug';
import { whatsappLink } from '@forgeline/site-config/whatsapp';
import { CheckCircle2, ClipboardList, Loader2, MessageCircle, Send, Trash2 } from 'lucide-react';
import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { Breadcrumb } from '../../../components/ui/breadcrumb.tsx';
import { Button, ButtonLink, ExternalButtonLink } from '../../../components/ui/button.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { StateMessage } from '../../../components/ui/state-message.tsx';
import { site } from '../../../config/site.ts';
import { serverMessage, statusOf } from '../../../lib/api-error.ts';
import { displayBrand } from '../../../lib/brand.ts';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { productImageSources } from '../../../lib/product-image.ts';
import { useServerQuoteList } from '../../../lib/server-quote-form.ts';
import { useCreateQuoteRequest } from '../../quotes/api/create-quote-request.ts';
import { QuoteCustomerFields, useQuoteCustomerForm } from '../../quotes/components/quote-customer-fields.tsx';
import {
  clearQuoteList,
  QUOTE_LINE_TEXT_MAX,
  QUOTE_LIST_MAX_LINES,
  QUOTE_LIST_MAX_QUANTITY,
  quoteListWhatsappText,
  removeLine,
  updateLine,
  useQuoteList,
  type QuoteListLine,
} from '../quote-list-store.ts';
import { AddedFromLink } from './added-from-link.tsx';
import { PartsListImport } from './parts-list-import.tsx';
import { QuoteListRequestForm, QuoteListRequestSent } from './quote-list-request-form.tsx';

/** The list and its controls need JavaScript: without it, when the page has its plain form, they are hidden. */
const APP_PART_ID = 'quote-list-app';

/**
 * What a browser without JavaScript shows: the plain form for a link that adds parts (the server's data), or the
 * confirmation the gateway leads to once it is sent (?sent=<lines>). In a <noscript>, whose content React and the
 * browser ignore when JavaScript runs; the <noscript> itself follows the address alone, so the browser's first render
 * has it where the server's HTML does and hydration matches.
 */
function WithoutJavaScript() {
  const server = useServerQuoteList();
  const [params] = useSearchParams();
  const sent = Number.parseInt(params.get('sent') ?? '', 10);
  const sentShown = sent >= 1 && sent <= QUOTE_LIST_MAX_LINES;
  if (!params.has(QUOTE_LIST_ADD_PARAM) && !sentShown) return null;
  const content = server ? <QuoteListRequestForm data={server} /> : sentShown ? <QuoteListRequestSent count={sent} /> : null;
  return (
    <noscript>
      {content ? (
        <>
          <style>{`#${APP_PART_ID}{display:none}`}</style>
          {content}
        </>
      ) : null}
    </noscript>
  );
}

/** A signed-in buyer keeps the list for their company (issue 35); its dialog loads only when the list has lines. */
const SaveQuoteListAsList = lazy(() => import('../../account/components/save-quote-list-as-list.tsx').then((m) => ({ default: m.SaveQuoteListAsList })));

function LineRow({ line, index }: { line: QuoteListLine; index: number }) {
  const uid = useId();
  const [quantity, setQuantity] = useState(String(line.quantity));
  const label = line.product ? `${line.product.partNumber || line.product.sku} ${line.product.name}` : line.text!;
  // Another tab (or an added duplicate) changed the quantity: show it, unless the buyer is typing here.
  const [seen, setSeen] = useState(line.quantity);
  if (seen !== line.quantity) {
    setSeen(line.quantity);
    setQuantity(String(line.quantity));
  }
  const image = line.product ? productImageSources(line.product.image, '64px', 96) : null;
  return (
    <li className="grid grid-cols-[4rem_1fr] gap-3 p-3 sm:grid-cols-[4rem_1fr_auto] sm:gap-4 sm:p-4">
      <div className="grid size-16 place-items-center overflow-hidden rounded bg-zinc-100">
        {image ? (
          <img {...image} alt="" width={64} height={64} loading="lazy" className="size-full object-contain p-1" />
        ) : (
          <ClipboardList className="size-7 text-steel" aria-hidden="true" />
        )}
      </div>
      <div className="min-w-0">
        {line.product ? (
          <>
            <Link to={productPath(line.product)} className="font-bold uppercase leading-snug text-ink hover:underline">
              {line.product.name}
            </Link>
            <p className="mt-0.5 text-sm text-steel">
              Part #: <span className="font-mono font-semibold text-ink">{line.product.partNumber || 'N/A'}</span> · SKU {line.product.sku} ·{' '}
              {displayBrand(line.product.brandName)}
            </p>
          </>
        ) : (
          <>
            <p className="break-words font-mono font-semibold text-ink">{line.text}</p>
            <p className="mt-0.5 text-sm text-steel">Not matched in the catalogue: sent as you wrote it.</p>
          </>
        )}
        <label htmlFor={`${uid}-note`} className="sr-only">
          Note for line {index + 1}, {label}
        </label>
        <input
          id={`${uid}-note`}
          className={`${formControlClass} mt-2 h-9 w-full text-sm`}
          placeholder="Note (optional): serial number, brand wanted, urgency..."
          maxLength={QUOTE_LINE_TEXT_MAX}
          value={line.note}
          onChange={(e) => updateLine(line.key, { note: e.target.value })}
        />
      </div>
      <div className="col-span-2 flex items-center justify-end gap-2 sm:col-span-1 sm:flex-col sm:items-end">
        <label htmlFor={`${uid}-qty`} className="text-sm text-steel">
          <span className="sr-only">Quantity for line {index + 1}, {label}</span>
          <span aria-hidden="true">Qty</span>
        </label>
        <input
          id={`${uid}-qty`}
          type="number"
          inputMode="numeric"
          min={1}
          max={QUOTE_LIST_MAX_QUANTITY}
          className={`${formControlClass} h-9 w-24 text-right`}
          value={quantity}
          onChange={(e) => {
            const v = e.target.value.replace(/[^\d]/g, '').slice(0, 7);
            setQuantity(v);
            const n = Number.parseInt(v, 10);
            if (n >= 1) updateLine(line.key, { quantity: n });
          }}
          onBlur={() => setQuantity(String(line.quantity))}
        />
        <Button variant="ghost" size="sm" onClick={() => removeLine(line.key)} aria-label={`Remove line ${index + 1}, ${label}`}>
          <Trash2 className="size-4" aria-hidden="true" /> <span className="hidden sm:inline">Remove</span>
        </Button>
      </div>
    </li>
  );
}

/** /quote: the buyer's quote list, a pasted or uploaded parts list, and one request for all of it. */
export default function QuoteListPage() {
  useDocumentTitle('Quote List');
  const lines = useQuoteList();
  const form = useQuoteCustomerForm();
  const mutation = useCreateQuoteRequest();
  const [sent, setSent] = useState<{ name: string; email: string; count: number } | null>(null);
  const submitting = mutation.isPending;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (submitting || !lines?.length || !form.validate()) return;
    const customer = form.values();
    try {
      await mutation.mutateAsync({
        ...customer,
        lines: lines.map((l) => ({
          ...(l.product ? { productId: l.product.id } : { text: l.text }),
          quantity: l.quantity,
          ...(l.note.trim() ? { note: l.note.trim() } : {}),
        })),
      });
      setSent({ name: customer.customerName, email: customer.customerEmail, count: lines.length });
      clearQuoteList();
      form.reset();
      toast.success('Quote Request Sent Successfully! ✅', {
        description: `Confirmation email sent to ${customer.customerEmail}. We'll contact you within 2-4 hours.`,
      });
      window.scrollTo({ top: 0 });
    } catch (err) {
      const status = statusOf(err);
      toast.error('Failed to Send Quote Request', {
        description:
          ((status === 429 || status === 400) && serverMessage(err)) || 'Please check your details and try again, or contact us directly via WhatsApp.',
      });
    }
  }

  return (
    <div className="container-page py-8 sm:py-10">
      <Breadcrumb tone="light" items={[{ label: 'Home', to: '/' }, { label: 'Quote List' }]} />
      <h1 className="mt-4 font-display text-3xl font-extrabold uppercase text-ink sm:text-5xl">Your Quote List</h1>
      <p className="mt-2 max-w-2xl text-steel">
        Collect every part you need, with quantities and notes, and ask for one quote. Up to {QUOTE_LIST_MAX_LINES} lines; the list stays in this browser
        until you send it.
      </p>

      <AddedFromLink />
      <WithoutJavaScript />

      {sent ? (
        <div className="mt-8 rounded-lg border border-emerald-300 bg-emerald-50 p-6 text-center" role="status">
          <CheckCircle2 className="mx-auto size-12 text-green-700" aria-hidden="true" />
          <p className="mt-3 text-lg font-bold text-ink">Thank you, {sent.name}!</p>
          <p className="mt-1 text-steel">
            Your request for {sent.count} part{sent.count === 1 ? '' : 's'} has been received. We'll reply within 24 hours to{' '}
            <strong className="text-ink">{sent.email}</strong>.
          </p>
          <Button variant="dark" className="mt-4" onClick={() => setSent(null)}>
            Start a new list
          </Button>
        </div>
      ) : null}

      <div id={APP_PART_ID} className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="space-y-8">
          <section aria-labelledby="quote-lines-heading">
            <h2 id="quote-lines-heading" className="font-display text-xl font-extrabold uppercase text-ink">
              Parts {lines?.length ? `(${lines.length})` : ''}
            </h2>
            {lines === null ? (
              <Spinner label="Loading your list..." />
            ) : lines.length === 0 ? (
              <StateMessage icon={ClipboardList} title="Your quote list is empty" actions={<ButtonLink to="/catalog">Browse the catalog</ButtonLink>}>
                Add parts with “Add to quote list” on any part, or paste your list below.
              </StateMessage>
            ) : (
              <>
                <ol className="mt-3 divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white" aria-label="Quote list lines">
                  {lines.map((l, i) => (
                    <LineRow key={l.key} line={l} index={i} />
                  ))}
                </ol>
                <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm text-steel">
                  <span>
                    {lines.length} of {QUOTE_LIST_MAX_LINES} lines
                  </span>
                  <Suspense fallback={null}>
                    <SaveQuoteListAsList lines={lines} />
                  </Suspense>
                  <button
                    type="button"
                    className="underline hover:text-ink"
                    onClick={() => {
                      if (window.confirm('Remove every line from your quote list?')) clearQuoteList();
                    }}
                  >
                    Clear the list
                  </button>
                </div>
              </>
            )}
          </section>
          <PartsListImport />
        </div>

        <section aria-labelledby="quote-send-heading" className="h-fit rounded-lg border-2 border-ink bg-white p-5 sm:p-6 lg:sticky lg:top-40">
          <h2 id="quote-send-heading" className="font-display text-xl font-extrabold uppercase text-ink">
            Request a quote
          </h2>
          <form className="mt-4 space-y-4" onSubmit={(e) => void submit(e)} noValidate aria-busy={submitting}>
            <fieldset disabled={submitting || !lines?.length} className="space-y-4">
              <QuoteCustomerFields form={form} messagePlaceholder="Delivery location, urgency, machine model and serial..." />
            </fieldset>
            <Button type="submit" variant="primary" size="lg" className="w-full" disabled={submitting || !lines?.length}>
              {submitting ? (
                <>
                  <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Processing...
                </>
              ) : (
                <>
                  <Send className="size-4" aria-hidden="true" />
                  {lines?.length ? `Send Quote Request (${lines.length} part${lines.length === 1 ? '' : 's'})` : 'Send Quote Request'}
                </>
              )}
            </Button>
          </form>
          {lines?.length ? (
            <ExternalButtonLink href={whatsappLink(quoteListWhatsappText(lines), site.whatsappNumber)} variant="whatsapp" className="mt-3 w-full">
              <MessageCircle className="size-5" aria-hidden="true" /> Send the list on WhatsApp
            </ExternalButtonLink>
          ) : null}
        </section>
      </div>
    </div>
  );
}
