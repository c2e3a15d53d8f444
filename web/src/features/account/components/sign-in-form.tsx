import { OTP_LENGTH } from '@forgeline/contracts/otp-length';
import { Mail } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { FieldLabel } from '../../../components/ui/field-label.tsx';
import { formControlClass } from '../../../components/ui/form-control.ts';
import { serverMessage } from '../../../lib/api-error.ts';
import { useSendCode } from '../api/send-code.ts';
import { useVerifyCode } from '../api/verify-code.ts';

const input = `${formControlClass} w-full`;
const failed = (err: unknown, fallback: string) => serverMessage(err) ?? fallback;

/** `#code=<request id>.<code>` from the mail's link, or null. */
function codeFromLink(hash: string): { sessionId: string; otp: string } | null {
  const m = /^#code=([\w-]{1,100})\.(\d+)$/.exec(hash);
  return m && m[2]!.length === OTP_LENGTH ? { sessionId: m[1]!, otp: m[2]! } : null;
}

/** The sign-in: a code mailed to the buyer (or the mail's link, which carries it in the address's fragment). */
export function SignInForm() {
  const ids = useId();
  const location = useLocation();
  // The mail's link: the code is filled in from the fragment (no server saw it), and the address bar cleared of it.
  const [fromLink] = useState(() => codeFromLink(location.hash));
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<{ sessionId: string; email: string } | null>(fromLink && { sessionId: fromLink.sessionId, email: '' });
  const [otp, setOtp] = useState(fromLink?.otp ?? '');
  const sendCode = useSendCode();
  const verify = useVerifyCode();
  useEffect(() => {
    if (fromLink) window.history.replaceState(window.history.state, '', location.pathname);
  }, [fromLink, location.pathname]);

  const ask = (e: FormEvent) => {
    e.preventDefault();
    sendCode.mutate(email, { onSuccess: (r) => setSent({ sessionId: r.sessionId, email }) });
  };
  const check = (e: FormEvent) => {
    e.preventDefault();
    if (sent) verify.mutate({ sessionId: sent.sessionId, otp: otp.trim() });
  };

  return (
    <section aria-labelledby="sign-in-heading" className="rounded-lg border border-zinc-200 bg-white p-6">
      <h1 id="sign-in-heading" className="font-display text-3xl font-extrabold uppercase text-ink">
        Sign in
      </h1>
      <p className="mt-2 text-sm text-steel">No password: we e-mail you a code. Without an account everything works as before; with one, this browser knows you.</p>
      {!sent ? (
        <form onSubmit={ask} className="mt-5 space-y-4" noValidate={false}>
          <div>
            <FieldLabel htmlFor={`${ids}-email`} required>
              Your work e-mail
            </FieldLabel>
            <input
              id={`${ids}-email`}
              type="email"
              required
              maxLength={254}
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={sendCode.isError ? true : undefined}
              aria-describedby={sendCode.isError ? `${ids}-email-error` : undefined}
              className={input}
            />
            {sendCode.isError ? (
              <p id={`${ids}-email-error`} role="alert" className="mt-1 text-sm text-red-700">
                {failed(sendCode.error, 'The code could not be sent. Please try again.')}
              </p>
            ) : null}
          </div>
          <Button type="submit" disabled={sendCode.isPending}>
            <Mail className="size-4" aria-hidden="true" /> {sendCode.isPending ? 'Sending...' : 'E-mail me a code'}
          </Button>
        </form>
      ) : (
        <form onSubmit={check} className="mt-5 space-y-4">
          <p role="status" className="text-sm text-ink">
            {sent.email ? (
              <>
                We sent a code to <strong>{sent.email}</strong>. It works once, for 10 minutes.
              </>
            ) : (
              'Your code is filled in from the link: press Sign in.'
            )}
          </p>
          <div>
            <FieldLabel htmlFor={`${ids}-otp`} required>
              The {OTP_LENGTH}-digit code
            </FieldLabel>
            <input
              id={`${ids}-otp`}
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              pattern={`\\d{${OTP_LENGTH}}`}
              maxLength={OTP_LENGTH}
              value={otp}
              onChange={(e) => setOtp(e.target.value)}
              aria-invalid={verify.isError ? true : undefined}
              aria-describedby={verify.isError ? `${ids}-otp-error` : undefined}
              className={`${input} font-mono tracking-widest`}
            />
            {verify.isError ? (
              <p id={`${ids}-otp-error`} role="alert" className="mt-1 text-sm text-red-700">
                {failed(verify.error, 'Signing in failed. Please try again.')}
              </p>
            ) : null}
          </div>
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={verify.isPending}>
              {verify.isPending ? 'Signing in...' : 'Sign in'}
            </Button>
            <Button
              variant="outline"
              onClick={() => {
                setSent(null);
                setOtp('');
                verify.reset();
              }}
            >
              Use another address
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
