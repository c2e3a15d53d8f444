import { quoteCountries } from '@forgeline/site-config/countries';
import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import { useBuyerEmail } from '../../../lib/my-fleet.ts';
import { toast } from 'sonner';
import { FieldLabel } from '../../../components/ui/field-label.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { CountryOptions } from './country-options.tsx';

/**
 * The buyer's side of every quote request (the product's quote dialog and the quote list page): name, e-mail,
 * country, phone, message, the honeypot and the math check, with the same checks and messages in both places.
 */
export interface CustomerFields {
  customerName: string;
  customerEmail: string;
  customerCountry: string;
  customerPhone: string;
  message: string;
  /** The honeypot: hidden from people, filled by bots; the server drops such requests quietly. */
  website: string;
}

const EMPTY: CustomerFields = { customerName: '', customerEmail: '', customerCountry: '', customerPhone: '', message: '', website: '' };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Spec section 9: math operands 1 to 20 (the same as CAPTCHA_MIN/MAX in the contracts; not imported, to keep zod out of this chunk). */
const CAPTCHA_MIN = 1;
const CAPTCHA_MAX = 20;
const rand = () => CAPTCHA_MIN + Math.floor(Math.random() * (CAPTCHA_MAX - CAPTCHA_MIN + 1));
const newChallenge = () => ({ a: rand(), b: rand() });

export const quoteInputClass = `${formControlClass} w-full`;

export function QuoteField({ id, label, required, error, children }: { id: string; label: string; required?: boolean; error?: string; children: ReactNode }) {
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

export type QuoteCustomerForm = ReturnType<typeof useQuoteCustomerForm>;

export function useQuoteCustomerForm() {
  const uid = useId();
  const ids = useCallback((name: string) => `${uid}-${name}`, [uid]);
  const [fields, setFields] = useState<CustomerFields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof CustomerFields, string>>>({});
  // Drawn in the browser after mounting: a page rendered on the server must hydrate with the same text.
  const [challenge, setChallenge] = useState<{ a: number; b: number } | null>(null);
  const [answer, setAnswer] = useState('');
  // eslint-disable-next-line react-hooks/set-state-in-effect -- random, so drawn after hydration, never while rendering
  useEffect(() => setChallenge(newChallenge()), []);
  // A signed-in buyer's address is filled in (issue 35), unless something was typed already.
  const buyerEmail = useBuyerEmail();
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the address arrives after mounting (their session)
    if (buyerEmail) setFields((f) => (f.customerEmail ? f : { ...f, customerEmail: buyerEmail }));
  }, [buyerEmail]);

  const change = (name: keyof CustomerFields) => (e: { target: { value: string } }) => {
    setFields((f) => ({ ...f, [name]: e.target.value }));
    if (errors[name]) setErrors((er) => ({ ...er, [name]: undefined }));
  };

  /** Checks the fields and the sum; on a problem shows it, focuses it and answers false. */
  const validate = (): boolean => {
    const found: typeof errors = {};
    if (!fields.customerName.trim()) found.customerName = 'Please enter your full name';
    if (!EMAIL.test(fields.customerEmail.trim())) found.customerEmail = 'Please enter a valid email address';
    if (!fields.customerCountry.trim()) found.customerCountry = 'Please select your country';
    setErrors(found);
    const firstBad = (Object.keys(found) as (keyof CustomerFields)[])[0];
    if (firstBad) {
      document.getElementById(ids(firstBad))?.focus();
      return false;
    }
    if (!challenge || Number.parseInt(answer, 10) !== challenge.a + challenge.b) {
      toast.error('Math Verification Failed', { description: 'Please solve the math problem correctly to continue.' });
      setChallenge(newChallenge());
      setAnswer('');
      document.getElementById(ids('math'))?.focus();
      return false;
    }
    return true;
  };

  /** The request's customer part, trimmed (the honeypot only when filled). */
  const values = () => ({
    customerName: fields.customerName.trim(),
    customerEmail: fields.customerEmail.trim(),
    customerPhone: fields.customerPhone.trim(),
    customerCountry: fields.customerCountry,
    message: fields.message.trim(),
    ...(fields.website ? { website: fields.website } : {}),
  });

  // Stable, so a dialog's effect can reset the form when it closes.
  const reset = useCallback(() => {
    setFields(EMPTY);
    setErrors({});
    setAnswer('');
    setChallenge(newChallenge());
  }, []);
  const renewChallenge = useCallback(() => setChallenge(newChallenge()), []);

  return { ids, fields, setFields, errors, setErrors, change, challenge, answer, setAnswer, validate, values, reset, renewChallenge };
}

/**
 * The fields themselves. `children` goes between the contact fields and the message (the dialog's quantity);
 * `messagePlaceholder` suits the page it is on.
 */
export function QuoteCustomerFields({ form, children, messagePlaceholder }: { form: QuoteCustomerForm; children?: ReactNode; messagePlaceholder: string }) {
  const { ids, fields, errors, change, setFields, setErrors, challenge, answer, setAnswer } = form;
  const country = quoteCountries.find((c) => c.name === fields.customerCountry);
  const described = (name: keyof CustomerFields) => (errors[name] ? `${ids(name)}-error` : undefined);
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <QuoteField id={ids('customerName')} label="Full Name" required error={errors.customerName}>
          <input
            id={ids('customerName')}
            className={quoteInputClass}
            autoComplete="name"
            value={fields.customerName}
            onChange={change('customerName')}
            aria-invalid={Boolean(errors.customerName)}
            aria-describedby={described('customerName')}
            maxLength={120}
            required
          />
        </QuoteField>
        <QuoteField id={ids('customerEmail')} label="Business Email" required error={errors.customerEmail}>
          <input
            id={ids('customerEmail')}
            type="email"
            className={quoteInputClass}
            autoComplete="email"
            inputMode="email"
            value={fields.customerEmail}
            onChange={change('customerEmail')}
            aria-invalid={Boolean(errors.customerEmail)}
            aria-describedby={described('customerEmail')}
            maxLength={254}
            required
          />
        </QuoteField>
        <QuoteField id={ids('customerCountry')} label="Country" required error={errors.customerCountry}>
          <select
            id={ids('customerCountry')}
            className={quoteInputClass}
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
            aria-describedby={described('customerCountry')}
            required
          >
            <CountryOptions />
          </select>
        </QuoteField>
        <QuoteField id={ids('customerPhone')} label="Phone Number">
          <input
            id={ids('customerPhone')}
            type="tel"
            className={quoteInputClass}
            autoComplete="tel"
            placeholder={country ? `${country.dialCode} ...` : '+1 555 0100'}
            value={fields.customerPhone}
            onChange={change('customerPhone')}
            maxLength={40}
          />
        </QuoteField>
      </div>
      {children}
      <QuoteField id={ids('message')} label="Additional Requirements & Message">
        <textarea
          id={ids('message')}
          rows={4}
          className={quoteInputClass}
          placeholder={messagePlaceholder}
          value={fields.message}
          onChange={change('message')}
          maxLength={5000}
        />
      </QuoteField>
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={ids('website')}>Website</label>
        <input id={ids('website')} name="website" tabIndex={-1} autoComplete="off" value={fields.website} onChange={change('website')} />
      </div>
      <div className="rounded-md bg-paper p-4">
        <label htmlFor={ids('math')} className="block text-sm font-semibold text-ink">
          Security check: what is {challenge ? `${challenge.a} + ${challenge.b}` : '… + …'}? <span className="text-red-700">*</span>
        </label>
        <input
          id={ids('math')}
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          className={`${quoteInputClass} max-w-32`}
          value={answer}
          onChange={(e) => setAnswer(e.target.value.replace(/[^\d]/g, '').slice(0, 3))}
          required
        />
      </div>
    </>
  );
}
