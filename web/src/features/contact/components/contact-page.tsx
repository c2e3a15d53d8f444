import { Clock, HelpCircle, Mail, MessageCircle, Phone } from 'lucide-react';
import type { ReactNode } from 'react';
import { contactFaqCards } from '@forgeline/site-config/faq';
import { CONTACT_CHAT_TEXT, whatsappLink } from '@forgeline/site-config/whatsapp';
import { ExternalButtonLink } from '../../../components/ui/button.tsx';
import { phoneHref, site } from '../../../config/site.ts';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import ContactForm from './contact-form.tsx';
import { PageHero } from '../../../components/site/page-hero.tsx';

function InfoRow({ icon: Icon, label, children }: { icon: typeof Phone; label: string; children: ReactNode }) {
  return (
    <li className="flex gap-4">
      <span className="grid size-11 shrink-0 place-items-center rounded-md bg-ink text-safety">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <div>
        <h3 className="text-xs font-extrabold uppercase tracking-[0.18em] text-steel">{label}</h3>
        <div className="mt-1 font-semibold text-ink">{children}</div>
      </div>
    </li>
  );
}

/** /contact: phone, two e-mails, hours, WhatsApp, the message form (quotes feature) and four FAQ cards. */
export default function ContactPage() {
  useDocumentTitle('Contact Us');
  return (
    <>
      <PageHero eyebrow="We reply within 24 hours" title="Contact Us">
        Questions about a part, a quote or an order? Call, e-mail, chat on WhatsApp or send us a message.
      </PageHero>
      <div className="container-page grid gap-8 py-14 lg:grid-cols-[24rem_1fr]">
        <aside className="space-y-6" aria-labelledby="contact-info-heading">
          <div className="rounded-lg border border-zinc-200 bg-white p-6">
            <h2 id="contact-info-heading" className="font-display text-2xl font-extrabold uppercase text-ink">
              Get in Touch
            </h2>
            <ul className="mt-6 space-y-5">
              <InfoRow icon={Phone} label="Phone">
                <a href={phoneHref} className="hover:text-safety-deep">
                  {site.phone}
                </a>
              </InfoRow>
              <InfoRow icon={Mail} label="E-mail">
                <a href={`mailto:${site.email}`} className="block py-0.5 text-sm [overflow-wrap:anywhere] hover:text-safety-deep sm:text-base">
                  {site.email}
                </a>
                <a href={`mailto:${site.alternateEmail}`} className="block py-0.5 text-sm [overflow-wrap:anywhere] hover:text-safety-deep sm:text-base">
                  {site.alternateEmail}
                </a>
              </InfoRow>
              <InfoRow icon={Clock} label="Business hours">
                {site.businessHours}
              </InfoRow>
            </ul>
          </div>
          <div className="rounded-lg bg-ink p-6 text-white">
            <h2 className="font-display text-2xl font-extrabold uppercase">Chat With Us</h2>
            <p className="mt-2 text-sm text-zinc-300">The fastest way to reach a parts specialist, Monday to Saturday.</p>
            <ExternalButtonLink href={whatsappLink(CONTACT_CHAT_TEXT, site.whatsappNumber)} variant="whatsapp" size="lg" className="mt-5 w-full">
              <MessageCircle className="size-5" aria-hidden="true" /> Chat on WhatsApp
            </ExternalButtonLink>
          </div>
        </aside>
        <section className="rounded-lg border border-zinc-200 bg-white p-6 sm:p-8" aria-labelledby="contact-form-heading">
          <h2 id="contact-form-heading" className="font-display text-2xl font-extrabold uppercase text-ink">
            Send Us a Message
          </h2>
          <p className="mt-1 text-sm text-steel">Fields marked * are required. We reply within 24 hours.</p>
          <div className="mt-6">
            <ContactForm />
          </div>
        </section>
      </div>
      <section className="bg-white py-14" aria-labelledby="contact-faq-heading">
        <div className="container-page">
          <h2 id="contact-faq-heading" className="font-display text-3xl font-extrabold uppercase text-ink">
            Frequently Asked Questions
          </h2>
          <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {contactFaqCards.map((card) => (
              <li key={card.question} className="rounded-lg border border-zinc-200 bg-paper p-6">
                <HelpCircle className="size-6 text-safety-deep" aria-hidden="true" />
                <h3 className="mt-3 font-semibold text-ink">{card.question}</h3>
                <p className="mt-2 text-sm leading-relaxed text-steel">{card.answer}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}
