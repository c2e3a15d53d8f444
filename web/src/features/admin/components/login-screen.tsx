import { OTP_LENGTH } from '@forgeline/contracts/auth';
import { KeyRound, Mail, ShieldCheck } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { useAuthConfig } from '../api/get-auth-config.ts';
import { useSendOtp } from '../api/send-otp.ts';
import { useVerifyOtp } from '../api/verify-otp.ts';
import { useAdminSession } from '../hooks/use-admin-session.tsx';
import { serverMessage, statusOf } from '../../../lib/api-error.ts';

const inputClass =
  'h-11 w-full rounded-md border border-zinc-300 bg-white px-3 text-base text-ink placeholder:text-zinc-400 focus:border-ink focus:outline-none';

/** Spec section 4, Admin login: e-mail (prefilled), send code, then the 6-character code and verify. */
export function LoginScreen() {
  const { signIn } = useAdminSession();
  const config = useAuthConfig();
  const [email, setEmail] = useState('');
  const touched = useRef(false);
  const [otpSessionId, setOtpSessionId] = useState<string | null>(null);
  const [otp, setOtp] = useState('');
  const send = useSendOtp();
  const verify = useVerifyOtp();
  const otpRef = useRef<HTMLInputElement>(null);
  const emailId = useId();
  const otpId = useId();

  // Prefill the default admin address once it is known, unless the user has typed already.
  useEffect(() => {
    if (config.data?.defaultEmail && !touched.current) setEmail(config.data.defaultEmail);
  }, [config.data?.defaultEmail]);

  useEffect(() => {
    if (otpSessionId) otpRef.current?.focus();
  }, [otpSessionId]);

  const onSend = (e: FormEvent) => {
    e.preventDefault();
    const address = email.trim();
    if (!address || send.isPending) return;
    send.mutate(
      { email: address },
      {
        onSuccess: (res) => {
          setOtpSessionId(res.sessionId);
          setOtp('');
          toast.success('OTP Sent', { description: 'Check your email for the OTP code' });
        },
        onError: (err) => toast.error('Failed to send OTP', { description: serverMessage(err) ?? undefined }),
      },
    );
  };

  const onVerify = (e: FormEvent) => {
    e.preventDefault();
    if (!otpSessionId || otp.length !== OTP_LENGTH || verify.isPending) return;
    verify.mutate(
      { sessionId: otpSessionId, otp },
      {
        onSuccess: (res) => {
          toast.success('Login Successful');
          signIn({ email: res.email, expiresAt: res.expiresAt }); // the session itself came as an HttpOnly cookie
        },
        onError: (err) => {
          const status = statusOf(err);
          const message = serverMessage(err);
          if (status === 401 || status === 400) {
            toast.error('Invalid OTP', { description: message && message !== 'Invalid OTP' ? message : undefined });
          } else {
            toast.error('Failed to verify OTP', { description: message ?? undefined });
          }
        },
      },
    );
  };

  return (
    <main className="grid min-h-dvh place-items-center px-4 py-12">
      <div className="w-full max-w-md overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-sm">
        <div className="hazard-stripe h-2" aria-hidden="true" />
        <div className="p-8">
          <div className="mb-6 flex items-center gap-3">
            <span className="grid size-11 place-items-center rounded-full bg-ink text-safety">
              <ShieldCheck className="size-6" aria-hidden="true" />
            </span>
            <div>
              <h1 className="font-display text-3xl font-bold uppercase leading-none">Admin Login</h1>
              <p className="mt-1 text-sm text-steel">We e-mail you a one-time code.</p>
            </div>
          </div>

          <form onSubmit={onSend} className="space-y-3" aria-label="Send code">
            <label htmlFor={emailId} className="block text-sm font-semibold">
              Email
            </label>
            <div className="flex gap-2">
              <input
                id={emailId}
                type="email"
                name="email"
                autoComplete="email"
                className={inputClass}
                value={email}
                onChange={(e) => {
                  touched.current = true;
                  setEmail(e.target.value);
                }}
                placeholder="admin@example.com"
              />
            </div>
            <Button type="submit" variant={otpSessionId ? 'outline' : 'primary'} className="w-full" disabled={!email.trim() || send.isPending}>
              <Mail className="size-4" aria-hidden="true" />
              {send.isPending ? 'Sending...' : otpSessionId ? 'Resend OTP' : 'Send OTP'}
            </Button>
          </form>

          {otpSessionId ? (
            <form onSubmit={onVerify} className="mt-6 space-y-3 border-t border-zinc-200 pt-6" aria-label="Verify code">
              <label htmlFor={otpId} className="block text-sm font-semibold">
                OTP code
              </label>
              <input
                id={otpId}
                ref={otpRef}
                name="otp"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={OTP_LENGTH}
                className={`${inputClass} text-center font-mono text-2xl tracking-[0.5em]`}
                value={otp}
                onChange={(e) => setOtp(e.target.value.replace(/\s/g, '').slice(0, OTP_LENGTH))}
                placeholder="••••••"
              />
              <Button type="submit" variant="dark" className="w-full" disabled={otp.length !== OTP_LENGTH || verify.isPending}>
                <KeyRound className="size-4" aria-hidden="true" />
                {verify.isPending ? 'Verifying...' : 'Verify OTP'}
              </Button>
            </form>
          ) : null}
        </div>
      </div>
    </main>
  );
}
