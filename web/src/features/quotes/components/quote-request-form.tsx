import type { QuoteFormState } from '@forgeline/contracts/ssr';
import { productQuoteText, whatsappLink } from '@forgeline/site-config/whatsapp';
import type { ReactNode } from 'react';
import { buttonClass } from '../../../components/ui/button.tsx';
import { CountryOptions } from './country-options.tsx';
import { FieldLabel } from '../../../components/ui/field-label.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { site } from '../../../config/site.ts';

/** Where the gateway takes the form (gateway/src/seo/quote-form.ts). */
export const QUOTE_FORM_ACTION = '/quote-request';

const input = `${formControlClass} w-full`;
/** QUOTE_LIMITS of the contracts (not imported: it would bring zod into the product page's chunk). */
const LIMIT = { name: 120, email: 254, phone: 40, message: 5000 };
/** The fields PlainQuoteForm shows its errors beside; the rest go in the box at the top, unless the caller shows them. */
const OWN_FIELDS = ['customerName', 'customerEmail', 'customerCountry', 'captchaAnswer'];

const errorOf = (state: QuoteFormState | undefined, field: string) => state?.errors?.find((e) => e.field === field)?.message;

/** A plain form field's id, name and error wiring (`quote-<name>`; the error is `quote-<name>-error`). */
export function plainField(state: QuoteFormState | undefined, name: string, id = `quote-${name}`) {
  const error = errorOf(state, name);
  return { id, name, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined };
}

/** The error of a field wired by plainField, where there is one. */
export function PlainFieldError({ state, name, id = `quote-${name}` }: { state: QuoteFormState | undefined; name: string; id?: string }) {
  const error = errorOf(state, name);
  return error ? (
    <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
      {error}
    </p>
  ) : null;
}

/**
 * The body every no-JavaScript quote request form shares: the buyer's details, the honeypot and the quotes service's
 * security check, posting to the gateway; or, when the gateway got no security check, a way to ask on WhatsApp or by
 * e-mail instead. `lead` goes before the buyer's details (a list's lines), `children` after them (a product's
 * quantity); `showsError` names the fields whose errors those show themselves.
 */
export function PlainQuoteForm({
  state,
  whatsapp,
  lead,
  children,
  showsError = () => false,
  submitLabel = 'Send Quote Request',
  messageLabel = 'Additional Requirements & Message',
}: {
  state: QuoteFormState | undefined;
  /** The WhatsApp link offered when the form cannot be sent. */
  whatsapp: string;
  lead?: ReactNode;
  children?: ReactNode;
  showsError?: (field: string) => boolean;
  submitLabel?: string;
  messageLabel?: string;
}) {
  if (!state?.captcha) {
    return (
      <p className="mt-4 text-ink" role="alert">
        The quote form is unavailable right now. Please ask on <a className="font-semibold underline" href={whatsapp}>WhatsApp</a> or write to{' '}
        <a className="font-semibold underline" href={`mailto:${site.email}`}>{site.email}</a>.
      </p>
    );
  }
  const v = state.values ?? {};
  const field = (name: string) => plainField(state, name);
  const general = state.errors?.filter((e) => !OWN_FIELDS.includes(e.field) && !showsError(e.field));
  return (
    <form method="post" action={QUOTE_FORM_ACTION} className="mt-5 space-y-4">
      {general?.length ? (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {general.map((e) => (
            <p key={e.field + e.message}>{e.message}</p>
          ))}
        </div>
      ) : null}
      <input type="hidden" name="captchaToken" value={state.captcha.token} />
      {lead}
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <FieldLabel htmlFor="quote-customerName" required>
            Full Name
          </FieldLabel>
          <input {...field('customerName')} className={input} autoComplete="name" maxLength={LIMIT.name} required defaultValue={v.customerName} />
          <PlainFieldError state={state} name="customerName" />
        </div>
        <div>
          <FieldLabel htmlFor="quote-customerEmail" required>
            Business Email
          </FieldLabel>
          <input {...field('customerEmail')} type="email" className={input} autoComplete="email" maxLength={LIMIT.email} required defaultValue={v.customerEmail} />
          <PlainFieldError state={state} name="customerEmail" />
        </div>
        <div>
          <FieldLabel htmlFor="quote-customerCountry" required>
            Country
          </FieldLabel>
          <select {...field('customerCountry')} className={input} autoComplete="country-name" required defaultValue={v.customerCountry ?? ''}>
            <CountryOptions />
          </select>
          <PlainFieldError state={state} name="customerCountry" />
        </div>
        <div>
          <FieldLabel htmlFor="quote-customerPhone">Phone Number</FieldLabel>
          <input {...field('customerPhone')} type="tel" className={input} autoComplete="tel" maxLength={LIMIT.phone} defaultValue={v.customerPhone} />
        </div>
      </div>
      {children}
      <div>
        <FieldLabel htmlFor="quote-message">{messageLabel}</FieldLabel>
        <textarea {...field('message')} rows={4} className={input} maxLength={LIMIT.message} defaultValue={v.message} />
      </div>
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor="quote-website">Website</label>
        <input id="quote-website" name="website" tabIndex={-1} autoComplete="off" />
      </div>
      <div className="rounded-md bg-paper p-4">
        <FieldLabel htmlFor="quote-captchaAnswer" required>
          Security check: what is {state.captcha.num1} + {state.captcha.num2}?
        </FieldLabel>
        <input {...field('captchaAnswer')} type="text" inputMode="numeric" pattern="[0-9]*" autoComplete="off" className={`${input} max-w-32`} required />
        <PlainFieldError state={state} name="captchaAnswer" />
      </div>
      <button type="submit" className={buttonClass('primary', 'md')}>
        {submitLabel}
      </button>
    </form>
  );
}

/**
 * The quote request as a plain HTML form, for buyers without JavaScript: the product page puts it in a <noscript>
 * when the address has ?quote=1 (where "Get Instant Quote" leads). It posts to the gateway, which sends the same
 * request the quote dialog sends (with the quotes service's security check) and comes back here with what was wrong,
 * keeping what was typed, or to the confirmation (?quote=sent).
 */
export function QuoteRequestForm({
  product,
  state,
  sent,
}: {
  product: { id: string; name: string; sku: string; partNumber: string };
  state: QuoteFormState | undefined;
  sent: boolean;
}) {
  const v = state?.values ?? {};
  return (
    <section id="quote" aria-labelledby="quote-heading" className="mt-10 rounded-lg border-2 border-ink bg-white p-5 sm:p-8">
      <h2 id="quote-heading" className="font-display text-2xl font-extrabold uppercase text-ink">
        {sent ? 'Quote Request Sent' : 'Get Instant Quote'}
      </h2>
      <p className="mt-1 text-sm text-steel">
        {product.name} · SKU {product.sku}
        {product.partNumber ? ` · Part No. ${product.partNumber}` : ''}
      </p>
      {sent ? (
        <p className="mt-4 text-ink" role="status">
          Thank you! Your quote request has been received. We'll reply within 24 hours by e-mail.
        </p>
      ) : (
        <PlainQuoteForm state={state} whatsapp={whatsappLink(productQuoteText(product), site.whatsappNumber)} showsError={(f) => f === 'quantity'}>
          <input type="hidden" name="productId" value={product.id} />
          <div>
            <FieldLabel htmlFor="quote-quantity" required>
              Quantity Required
            </FieldLabel>
            <input {...plainField(state, 'quantity')} type="number" min={1} step={1} inputMode="numeric" className={input} defaultValue={v.quantity ?? '1'} />
            <PlainFieldError state={state} name="quantity" />
          </div>
        </PlainQuoteForm>
      )}
    </section>
  );
}
