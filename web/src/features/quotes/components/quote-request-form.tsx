import type { QuoteFormState } from '@forgeline/contracts/ssr';
import { productQuoteText, whatsappLink } from '@forgeline/site-config/whatsapp';
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
  const whatsapp = whatsappLink(productQuoteText(product), site.whatsappNumber);
  const v = state?.values ?? {};
  const errorOf = (field: string) => state?.errors?.find((e) => e.field === field)?.message;
  const general = state?.errors?.filter((e) => !['customerName', 'customerEmail', 'customerCountry', 'quantity', 'captchaAnswer'].includes(e.field));
  const field = (name: string) => ({
    id: `quote-${name}`,
    name,
    'aria-invalid': errorOf(name) ? true : undefined,
    'aria-describedby': errorOf(name) ? `quote-${name}-error` : undefined,
  });
  const error = (name: string) =>
    errorOf(name) ? (
      <p id={`quote-${name}-error`} className="mt-1 text-sm text-red-700">
        {errorOf(name)}
      </p>
    ) : null;

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
      ) : !state?.captcha ? (
        <p className="mt-4 text-ink" role="alert">
          The quote form is unavailable right now. Please ask on <a className="font-semibold underline" href={whatsapp}>WhatsApp</a> or write to{' '}
          <a className="font-semibold underline" href={`mailto:${site.email}`}>{site.email}</a>.
        </p>
      ) : (
        <form method="post" action={QUOTE_FORM_ACTION} className="mt-5 space-y-4">
          {general?.length ? (
            <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
              {general.map((e) => (
                <p key={e.field + e.message}>{e.message}</p>
              ))}
            </div>
          ) : null}
          <input type="hidden" name="productId" value={product.id} />
          <input type="hidden" name="captchaToken" value={state.captcha.token} />
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <FieldLabel htmlFor="quote-customerName" required>
                Full Name
              </FieldLabel>
              <input {...field('customerName')} className={input} autoComplete="name" maxLength={LIMIT.name} required defaultValue={v.customerName} />
              {error('customerName')}
            </div>
            <div>
              <FieldLabel htmlFor="quote-customerEmail" required>
                Business Email
              </FieldLabel>
              <input {...field('customerEmail')} type="email" className={input} autoComplete="email" maxLength={LIMIT.email} required defaultValue={v.customerEmail} />
              {error('customerEmail')}
            </div>
            <div>
              <FieldLabel htmlFor="quote-customerCountry" required>
                Country
              </FieldLabel>
              <select {...field('customerCountry')} className={input} autoComplete="country-name" required defaultValue={v.customerCountry ?? ''}>
                <CountryOptions />
              </select>
              {error('customerCountry')}
            </div>
            <div>
              <FieldLabel htmlFor="quote-customerPhone">Phone Number</FieldLabel>
              <input {...field('customerPhone')} type="tel" className={input} autoComplete="tel" maxLength={LIMIT.phone} defaultValue={v.customerPhone} />
            </div>
          </div>
          <div>
            <FieldLabel htmlFor="quote-quantity" required>
              Quantity Required
            </FieldLabel>
            <input {...field('quantity')} type="number" min={1} step={1} inputMode="numeric" className={input} defaultValue={v.quantity ?? '1'} />
            {error('quantity')}
          </div>
          <div>
            <FieldLabel htmlFor="quote-message">Additional Requirements & Message</FieldLabel>
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
            {error('captchaAnswer')}
          </div>
          <button type="submit" className={buttonClass('primary', 'md')}>
            Send Quote Request
          </button>
        </form>
      )}
    </section>
  );
}
