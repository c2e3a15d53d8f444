import { quoteCountries } from '@forgeline/site-config/countries';
import { productQuoteText, whatsappLink } from '@forgeline/site-config/whatsapp';
import { CheckCircle2, Loader2, MessageCircle, Send, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Button, ExternalButtonLink } from '../../../components/ui/button.tsx';
import { FieldLabel } from '../../../components/ui/field-label.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { site } from '../../../config/site.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { serverMessage } from '../../../lib/api-error.ts';
import { useCreateQuoteRequest } from '../api/create-quote-request.ts';
import { CountryOptions } from './country-options.tsx';

export interface QuoteDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  product: { id: string; name: string; sku: string; partNumber: string };
}

interface Fields {
  customerName: string;
  customerEmail: string;
  customerCountry: string;
  customerPhone: string;
  quantity: string;
  message: string;
  /** The honeypot: hidden from people, filled by bots; the server drops such requests quietly. */
  website: string;
}

const EMPTY: Fields = { customerName: '', customerEmail: '', customerCountry: '', customerPhone: '', quantity: '1', message: '', website: '' };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Spec section 9: math operands 1 to 20 (the same as CAPTCHA_MIN/MAX in the contracts; not imported, to keep zod out of this chunk). */
const CAPTCHA_MIN = 1;
const CAPTCHA_MAX = 20;
const rand = () => CAPTCHA_MIN + Math.floor(Math.random() * (CAPTCHA_MAX - CAPTCHA_MIN + 1));
const newChallenge = () => ({ a: rand(), b: rand() });

/** Spec section 5: quantity falls back to 1 if blank or invalid. */
export function parseQuantity(text: string): number {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) && n >= 1 ? n : 1;
}

const input = `${formControlClass} w-full`;

function Field({ id, label, required, error, children }: { id: string; label: string; required?: boolean; error?: string; children: ReactNode }) {
  return (
    <div>
      <FieldLabel htmlFor={id} required={required}>
        {label}
      </FieldLabel>
      {children}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The quote dialog of the product page (spec sections 2, 4, 5, 8): form -> submitting -> sent, or back to the form
 * with everything kept on error. A new math check on every opening; closing is blocked while submitting and resets it.
 */
export function QuoteDialog({ open, onOpenChange, product }: QuoteDialogProps) {
  const uid = useId();
  const ids = (name: string) => `${uid}-${name}`;
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const [challenge, setChallenge] = useState(newChallenge);
  const [answer, setAnswer] = useState('');
  const [sentTo, setSentTo] = useState<{ name: string; email: string } | null>(null);
  const mutation = useCreateQuoteRequest();
  const submitting = mutation.isPending;

  // A new challenge each time the dialog opens; closing resets the form and the success state.
  useEffect(() => {
    if (open) {
      setChallenge(newChallenge());
      return;
    }
    setFields(EMPTY);
    setErrors({});
    setAnswer('');
    setSentTo(null);
    mutation.reset();
  }, [open]);

  const change = (name: keyof Fields) => (e: { target: { value: string } }) => {
    setFields((f) => ({ ...f, [name]: e.target.value }));
    if (errors[name]) setErrors((er) => ({ ...er, [name]: undefined }));
  };

  const requestClose = (next: boolean) => {
    if (!next && submitting) return; // blocked while submitting
    onOpenChange(next);
  };

  const country = quoteCountries.find((c) => c.name === fields.customerCountry);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (submitting) return;
    const found: typeof errors = {};
    if (!fields.customerName.trim()) found.customerName = 'Please enter your full name';
    if (!EMAIL.test(fields.customerEmail.trim())) found.customerEmail = 'Please enter a valid email address';
    if (!fields.customerCountry.trim()) found.customerCountry = 'Please select your country';
    setErrors(found);
    const firstBad = (Object.keys(found) as (keyof Fields)[])[0];
    if (firstBad) {
      document.getElementById(ids(firstBad))?.focus();
      return;
    }
    if (Number.parseInt(answer, 10) !== challenge.a + challenge.b) {
      toast.error('Math Verification Failed', { description: 'Please solve the math problem correctly to continue.' });
      setChallenge(newChallenge());
      setAnswer('');
      document.getElementById(ids('math'))?.focus();
      return;
    }
    const email = fields.customerEmail.trim();
    try {
      await mutation.mutateAsync({
        productId: product.id,
        customerName: fields.customerName.trim(),
        customerEmail: email,
        customerPhone: fields.customerPhone.trim(),
        customerCountry: fields.customerCountry,
        quantity: parseQuantity(fields.quantity),
        message: fields.message.trim(),
        ...(fields.website ? { website: fields.website } : {}),
      });
      setSentTo({ name: fields.customerName.trim(), email });
      toast.success('Quote Request Sent Successfully! ✅', {
        description: `Confirmation email sent to ${email}. We'll contact you within 2-4 hours.`,
      });
    } catch (err) {
      const limited = err instanceof ApiError && err.status === 429;
      toast.error('Failed to Send Quote Request', {
        description: (limited && serverMessage(err)) || 'Please check your details and try again, or contact us directly via WhatsApp.',
      });
    }
  }

  const whatsapp = whatsappLink(productQuoteText(product), site.whatsappNumber);

  return (
    <Dialog.Root open={open} onOpenChange={requestClose}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <Dialog.Content
          className="fixed inset-x-0 bottom-0 z-50 max-h-[100dvh] overflow-y-auto rounded-t-xl bg-white p-5 shadow-2xl sm:inset-auto sm:top-1/2 sm:left-1/2 sm:w-full sm:max-w-xl sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-xl sm:p-6"
          onEscapeKeyDown={(e) => submitting && e.preventDefault()}
          onPointerDownOutside={(e) => submitting && e.preventDefault()}
          onInteractOutside={(e) => submitting && e.preventDefault()}
          aria-describedby={`${uid}-desc`}
        >
          <div className="flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="font-display text-xl font-extrabold uppercase text-ink">
                {sentTo ? 'Quote Request Sent' : 'Get Instant Quote'}
              </Dialog.Title>
              <Dialog.Description id={`${uid}-desc`} className="mt-1 text-sm text-steel">
                {product.name} · SKU {product.sku}
                {product.partNumber ? ` · Part No. ${product.partNumber}` : ''}
              </Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <button
                type="button"
                disabled={submitting}
                className="rounded-md p-2 text-steel hover:bg-black/5 disabled:opacity-40"
                aria-label="Close"
              >
                <X className="size-5" aria-hidden="true" />
              </button>
            </Dialog.Close>
          </div>

          {sentTo ? (
            <div className="mt-6 text-center" role="status">
              <CheckCircle2 className="mx-auto size-14 text-green-700" aria-hidden="true" />
              <p className="mt-4 text-lg font-bold text-ink">Thank you, {sentTo.name}!</p>
              <p className="mt-2 text-steel">
                Your quote request has been received. We'll reply within 24 hours to <strong className="text-ink">{sentTo.email}</strong>.
              </p>
              <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
                <ExternalButtonLink href={whatsapp} variant="whatsapp">
                  <MessageCircle className="size-5" aria-hidden="true" /> Chat on WhatsApp
                </ExternalButtonLink>
                <Button variant="dark" onClick={() => onOpenChange(false)}>
                  Close
                </Button>
              </div>
            </div>
          ) : (
            <form className="mt-5 space-y-4" onSubmit={submit} noValidate aria-busy={submitting}>
              <fieldset disabled={submitting} className="space-y-4">
                <div className="grid gap-4 sm:grid-cols-2">
                  <Field id={ids('customerName')} label="Full Name" required error={errors.customerName}>
                    <input
                      id={ids('customerName')}
                      className={input}
                      autoComplete="name"
                      value={fields.customerName}
                      onChange={change('customerName')}
                      aria-invalid={Boolean(errors.customerName)}
                      aria-describedby={errors.customerName ? `${ids('customerName')}-error` : undefined}
                      maxLength={120}
                      required
                    />
                  </Field>
                  <Field id={ids('customerEmail')} label="Business Email" required error={errors.customerEmail}>
                    <input
                      id={ids('customerEmail')}
                      type="email"
                      className={input}
                      autoComplete="email"
                      inputMode="email"
                      value={fields.customerEmail}
                      onChange={change('customerEmail')}
                      aria-invalid={Boolean(errors.customerEmail)}
                      aria-describedby={errors.customerEmail ? `${ids('customerEmail')}-error` : undefined}
                      maxLength={254}
                      required
                    />
                  </Field>
                  <Field id={ids('customerCountry')} label="Country" required error={errors.customerCountry}>
                    <select
                      id={ids('customerCountry')}
                      className={input}
                      autoComplete="country-name"
                      value={fields.customerCountry}
                      onChange={(e) => {
                        const next = quoteCountries.find((c) => c.name === e.target.value);
                        // A phone still empty, or holding only the previous dial code, starts with the new one.
                        setFields((f) => {
                          const prev = quoteCountries.find((c) => c.name === f.customerCountry);
                          const bare = !f.customerPhone.trim() || f.customerPhone.trim() === prev?.dialCode;
                          return { ...f, customerCountry: e.target.value, customerPhone: bare && next ? `${next.dialCode} ` : f.customerPhone };
                        });
                        if (errors.customerCountry) setErrors((er) => ({ ...er, customerCountry: undefined }));
                      }}
                      aria-invalid={Boolean(errors.customerCountry)}
                      aria-describedby={errors.customerCountry ? `${ids('customerCountry')}-error` : undefined}
                      required
                    >
                      <CountryOptions />
                    </select>
                  </Field>
                  <Field id={ids('customerPhone')} label="Phone Number">
                    <input
                      id={ids('customerPhone')}
                      type="tel"
                      className={input}
                      autoComplete="tel"
                      placeholder={country ? `${country.dialCode} ...` : '+1 555 0100'}
                      value={fields.customerPhone}
                      onChange={change('customerPhone')}
                      maxLength={40}
                    />
                  </Field>
                </div>
                <Field id={ids('quantity')} label="Quantity Required" required>
                  <input
                    id={ids('quantity')}
                    type="number"
                    min={1}
                    step={1}
                    inputMode="numeric"
                    className={input}
                    value={fields.quantity}
                    onChange={change('quantity')}
                  />
                </Field>
                <Field id={ids('message')} label="Additional Requirements & Message">
                  <textarea
                    id={ids('message')}
                    rows={4}
                    className={input}
                    placeholder="Delivery location, urgency, alternative part numbers..."
                    value={fields.message}
                    onChange={change('message')}
                    maxLength={5000}
                  />
                </Field>
                <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
                  <label htmlFor={ids('website')}>Website</label>
                  <input id={ids('website')} name="website" tabIndex={-1} autoComplete="off" value={fields.website} onChange={change('website')} />
                </div>
                <div className="rounded-md bg-paper p-4">
                  <label htmlFor={ids('math')} className="block text-sm font-semibold text-ink">
                    Security check: what is {challenge.a} + {challenge.b}? <span className="text-red-700">*</span>
                  </label>
                  <input
                    id={ids('math')}
                    type="text"
                    inputMode="numeric"
                    pattern="[0-9]*"
                    autoComplete="off"
                    className={`${input} max-w-32`}
                    value={answer}
                    onChange={(e) => setAnswer(e.target.value.replace(/[^\d]/g, '').slice(0, 3))}
                    required
                  />
                </div>
              </fieldset>
              <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
                <Button variant="outline" disabled={submitting} onClick={() => requestClose(false)}>
                  Cancel
                </Button>
                <Button type="submit" variant="primary" disabled={submitting}>
                  {submitting ? (
                    <>
                      <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Processing...
                    </>
                  ) : (
                    <>
                      <Send className="size-4" aria-hidden="true" /> Send Quote Request
                    </>
                  )}
                </Button>
              </div>
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export default QuoteDialog;
