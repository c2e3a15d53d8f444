import { QUOTE_LIST_FORM_FIELDS, quoteListLineErrorField } from '@forgeline/contracts/quote-list-link';
import { productPath } from '@forgeline/contracts/slug';
import type { QuoteListFormData } from '@forgeline/contracts/ssr';
import { whatsappLink } from '@forgeline/site-config/whatsapp';
import { Link } from 'react-router-dom';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { site } from '../../../config/site.ts';
import { displayBrand } from '../../../lib/brand.ts';
import { PlainQuoteForm } from '../../quotes/components/quote-request-form.tsx';
import { QUOTE_LIST_MAX_QUANTITY, quoteListWhatsappText } from '../quote-list-store.ts';
import { NotSoldParts } from './not-sold-parts.tsx';

/** The section's id: the gateway's confirmation (/quote?sent=<lines>#quote-list-request) scrolls to it. */
export const QUOTE_LIST_REQUEST_ID = 'quote-list-request';

const plural = (n: number) => `${n} part${n === 1 ? '' : 's'}`;

/**
 * A link that adds parts (/quote?add=…, an assembly page's form) for buyers without JavaScript: the parts as a plain
 * form, each quantity editable, with the buyer's details and the security check (PlainQuoteForm), posting to the
 * gateway, which sends one request for every line and comes back with the confirmation or, refused, with this form
 * again as it was sent and what was wrong. The quote list page puts it in a <noscript>: with JavaScript the parts go
 * on the buyer's own list instead.
 */
export function QuoteListRequestForm({ data }: { data: QuoteListFormData }) {
  const { lines, form } = data;
  const lineError = (productId: string) => form.errors?.find((e) => e.field === quoteListLineErrorField(productId))?.message;
  const shown = new Set(lines.map((l) => quoteListLineErrorField(l.product.id)));
  const whatsapp = whatsappLink(
    quoteListWhatsappText(lines.map((l) => ({ key: l.product.id, product: { ...l.product, image: '' }, quantity: l.quantity, note: '' }))),
    site.whatsappNumber,
  );
  const partsList = (
    <fieldset>
      <legend className="font-display text-lg font-extrabold uppercase text-ink">Parts ({lines.length})</legend>
      <ol className="mt-2 divide-y divide-zinc-200 rounded-lg border border-zinc-200">
        {lines.map(({ product, quantity }, i) => {
          const error = lineError(product.id);
          const id = `quote-line-${i}`;
          return (
            <li key={product.id} className="flex items-start justify-between gap-3 p-3">
              <div className="min-w-0">
                <Link to={productPath(product)} className="font-bold uppercase leading-snug text-ink hover:underline">
                  {product.name}
                </Link>
                <p className="mt-0.5 text-sm text-steel">
                  Part #: <span className="font-mono font-semibold text-ink">{product.partNumber || 'N/A'}</span> · SKU {product.sku} · {displayBrand(product.brandName)}
                </p>
                {error ? (
                  <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
                    {error}
                  </p>
                ) : null}
              </div>
              <div className="flex shrink-0 items-center gap-2">
                <input type="hidden" name={QUOTE_LIST_FORM_FIELDS.productId} value={product.id} />
                <label htmlFor={`${id}-qty`} className="text-sm text-steel">
                  <span className="sr-only">
                    Quantity for line {i + 1}, {product.partNumber || product.sku} {product.name}
                  </span>
                  <span aria-hidden="true">Qty</span>
                </label>
                <input
                  id={`${id}-qty`}
                  name={QUOTE_LIST_FORM_FIELDS.quantity}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={QUOTE_LIST_MAX_QUANTITY}
                  step={1}
                  required
                  defaultValue={quantity}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                  className={`${formControlClass} h-10 w-24 text-right`}
                />
              </div>
            </li>
          );
        })}
      </ol>
    </fieldset>
  );

  return (
    <section id={QUOTE_LIST_REQUEST_ID} aria-labelledby={`${QUOTE_LIST_REQUEST_ID}-heading`} className="mt-8 rounded-lg border-2 border-ink bg-white p-5 sm:p-8">
      <h2 id={`${QUOTE_LIST_REQUEST_ID}-heading`} className="font-display text-2xl font-extrabold uppercase text-ink">
        Request a quote for these parts
      </h2>
      <p className="mt-1 text-sm text-steel">Check the quantities, add your details, and we'll quote every line in one reply.</p>
      <NotSoldParts parts={data.notSold} />
      {lines.length ? (
        <PlainQuoteForm
          state={form}
          whatsapp={whatsapp}
          lead={partsList}
          showsError={(field) => shown.has(field)}
          submitLabel={`Send Quote Request (${plural(lines.length)})`}
          messageLabel="Delivery location, urgency, machine model and serial"
        />
      ) : (
        <p className="mt-4 text-ink">
          None of the parts from the link can be quoted.{' '}
          <Link to="/catalog" className="font-semibold underline">
            Browse the catalog
          </Link>
          .
        </p>
      )}
    </section>
  );
}

/** The confirmation the gateway leads to once the plain form's request is sent (/quote?sent=<lines>). */
export function QuoteListRequestSent({ count }: { count: number }) {
  return (
    <section id={QUOTE_LIST_REQUEST_ID} aria-labelledby={`${QUOTE_LIST_REQUEST_ID}-heading`} className="mt-8 rounded-lg border border-emerald-300 bg-emerald-50 p-6">
      <h2 id={`${QUOTE_LIST_REQUEST_ID}-heading`} className="font-display text-2xl font-extrabold uppercase text-ink">
        Quote Request Sent
      </h2>
      <p className="mt-2 text-ink" role="status">
        {`Thank you! Your request for ${plural(count)} has been received. We'll reply within 24 hours by e-mail.`}
      </p>
    </section>
  );
}
