import { Mail } from 'lucide-react';
import { site } from '../../../config/site.ts';

/**
 * PLACEHOLDER until the quotes feature lands its contact form here (name, email, country code, phone, subject,
 * message, math captcha; POST /api/contact). The contact page renders this file's default export.
 */
export default function ContactForm() {
  return (
    <p className="flex items-center gap-3 rounded-md bg-paper p-4 text-steel">
      <Mail className="size-5 shrink-0 text-safety-deep" aria-hidden="true" />
      <span>
        Write to us at{' '}
        <a href={`mailto:${site.email}`} className="font-semibold text-ink underline">
          {site.email}
        </a>
        .
      </span>
    </p>
  );
}
