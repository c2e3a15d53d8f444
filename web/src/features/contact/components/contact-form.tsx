import { contactCountries, DEFAULT_CONTACT_DIAL_CODE } from '@forgeline/site-config/countries';
import { Loader2, RefreshCw, Send } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { FieldLabel } from '../../../components/ui/field-label.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { useCaptcha } from '../api/get-captcha.ts';
import { serverMessage } from '../../../lib/api-error.ts';
import { useSendContactMessage } from '../api/send-contact-message.ts';

interface Fields {
  name: string;
  email: string;
  countryCode: string;
  phone: string;
  subject: string;
  message: string;
  captchaAnswer: string;
  /** The honeypot: hidden from people, filled by bots; the server drops such messages quietly. */
  website: string;
}

const EMPTY: Fields = {
  name: '',
  email: '',
  countryCode: DEFAULT_CONTACT_DIAL_CODE,
  phone: '',
  subject: '',
  message: '',
  captchaAnswer: '',
  website: '',
};

export const CAPTCHA_LOAD_FAILED = 'Failed to load security check. Please refresh the page.';

// `input` fills its row; the country select beside the phone keeps a fixed width.
const input = `${formControlClass} w-full`;

/**
 * The contact page's message form (spec sections 2, 4, 5, 8): the captcha loads on open; submit is disabled while
 * it loads or while sending; after a send, good or bad, a new captcha loads.
 */
export default function ContactForm() {
  const uid = useId();
  const id = (name: string) => `${uid}-${name}`;
  const [fields, setFields] = useState<Fields>(EMPTY);
  const captcha = useCaptcha();
  const send = useSendContactMessage();
  const loadingCaptcha = captcha.isFetching;
  const sending = send.isPending;

  useEffect(() => {
    if (captcha.isError) toast.error(CAPTCHA_LOAD_FAILED);
  }, [captcha.isError, captcha.errorUpdatedAt]);

  const change = (name: keyof Fields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: e.target.value }));

  const newCaptcha = () => {
    setFields((f) => ({ ...f, captchaAnswer: '' }));
    void captcha.refetch();
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (sending || loadingCaptcha) return;
    if (!fields.name.trim() || !fields.email.trim() || !fields.message.trim()) {
      toast.error('Please fill in all required fields.');
      return;
    }
    if (!fields.captchaAnswer.trim()) {
      toast.error('Please solve the math problem.');
      document.getElementById(id('captcha'))?.focus();
      return;
    }
    if (!captcha.data) {
      toast.error(CAPTCHA_LOAD_FAILED);
      return;
    }
    try {
      await send.mutateAsync({
        name: fields.name.trim(),
        email: fields.email.trim(),
        countryCode: fields.countryCode,
        phone: fields.phone.trim(),
        subject: fields.subject.trim(),
        message: fields.message.trim(),
        captchaAnswer: Number.parseInt(fields.captchaAnswer, 10),
        captchaToken: captcha.data.token,
        ...(fields.website ? { website: fields.website } : {}),
      });
      toast.success('Message Sent', { description: "Thank you for contacting us. We'll get back to you soon!" });
      setFields(EMPTY);
      void captcha.refetch();
    } catch (err) {
      toast.error(serverMessage(err) ?? 'Failed to send message. Please try again.');
      newCaptcha();
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4" aria-busy={sending}>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <FieldLabel htmlFor={id('name')} required>
            Name
          </FieldLabel>
          <input id={id('name')} className={input} autoComplete="name" value={fields.name} onChange={change('name')} maxLength={120} required />
        </div>
        <div>
          <FieldLabel htmlFor={id('email')} required>
            Email
          </FieldLabel>
          <input
            id={id('email')}
            type="email"
            className={input}
            autoComplete="email"
            inputMode="email"
            value={fields.email}
            onChange={change('email')}
            maxLength={254}
            required
          />
        </div>
      </div>
      <div>
        <FieldLabel htmlFor={id('phone')}>Phone</FieldLabel>
        <div className="flex gap-2">
          <select
            id={id('countryCode')}
            aria-label="Country code"
            className={`${formControlClass} w-32 shrink-0`}
            value={fields.countryCode}
            onChange={change('countryCode')}
          >
            {contactCountries.map((c) => (
              <option key={c.code} value={c.dialCode}>
                {c.code} {c.dialCode}
              </option>
            ))}
          </select>
          <input id={id('phone')} type="tel" className={`${input} min-w-0 flex-1`} autoComplete="tel-national" value={fields.phone} onChange={change('phone')} maxLength={40} />
        </div>
      </div>
      <div>
        <FieldLabel htmlFor={id('subject')}>Subject</FieldLabel>
        <input id={id('subject')} className={input} value={fields.subject} onChange={change('subject')} maxLength={200} />
      </div>
      <div>
        <FieldLabel htmlFor={id('message')} required>
          Message
        </FieldLabel>
        <textarea id={id('message')} rows={5} className={input} value={fields.message} onChange={change('message')} maxLength={5000} required />
      </div>
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={id('website')}>Website</label>
        <input id={id('website')} name="website" tabIndex={-1} autoComplete="off" value={fields.website} onChange={change('website')} />
      </div>
      <div className="rounded-md bg-paper p-4">
        <FieldLabel htmlFor={id('captcha')} required>
          {captcha.data ? `Security check: what is ${captcha.data.num1} + ${captcha.data.num2}?` : 'Security check'}
        </FieldLabel>
        {captcha.isError && !loadingCaptcha ? (
          <p className="mt-1 text-sm text-red-700" role="alert">
            {CAPTCHA_LOAD_FAILED}
          </p>
        ) : null}
        <div className="mt-1 flex items-center gap-2">
          <input
            id={id('captcha')}
            type="text"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="off"
            className={`${input} mt-0 max-w-32`}
            value={fields.captchaAnswer}
            onChange={(e) => setFields((f) => ({ ...f, captchaAnswer: e.target.value.replace(/[^\d]/g, '').slice(0, 3) }))}
            disabled={!captcha.data}
            required
          />
          <Button variant="ghost" size="sm" onClick={newCaptcha} disabled={loadingCaptcha || sending} aria-label="New security check">
            <RefreshCw className={`size-4 ${loadingCaptcha ? 'animate-spin' : ''}`} aria-hidden="true" />
          </Button>
        </div>
      </div>
      <Button type="submit" variant="primary" size="lg" className="w-full sm:w-auto" disabled={loadingCaptcha || sending}>
        {sending ? (
          <>
            <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Sending...
          </>
        ) : (
          <>
            <Send className="size-4" aria-hidden="true" /> Send Message
          </>
        )}
      </Button>
    </form>
  );
}
