import { ChevronDown, MessageCircle } from 'lucide-react';
import { Accordion } from 'radix-ui';
import { faqCategories } from '@forgeline/site-config/faq';
import { WHATSAPP_GREETING, whatsappLink } from '@forgeline/site-config/whatsapp';
import { ButtonLink, ExternalButtonLink } from '../../../components/ui/button.tsx';
import { site } from '../../../config/site.ts';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { PageHero } from '../../../components/site/page-hero.tsx';

/** /faq: six categories, each a single-open collapsible accordion (spec section 2), then Contact Us and WhatsApp. */
export default function FaqPage() {
  useDocumentTitle('Frequently Asked Questions');
  return (
    <>
      <PageHero eyebrow="Help centre" title="Frequently Asked Questions">
        Ordering, shipping, payment, returns, international orders and technical support: the answers buyers ask for most.
      </PageHero>
      <div className="container-page grid gap-10 py-14 lg:grid-cols-[16rem_1fr]">
        <nav aria-label="FAQ categories" className="hidden lg:block">
          <ul className="sticky top-36 space-y-1 text-sm font-semibold">
            {faqCategories.map((c) => (
              <li key={c.id}>
                <a href={`#faq-${c.id}`} className="block rounded-md px-3 py-2 text-steel hover:bg-white hover:text-ink">
                  {c.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="space-y-10">
          {faqCategories.map((category) => (
            <section key={category.id} id={`faq-${category.id}`} aria-labelledby={`faq-${category.id}-title`} className="scroll-mt-36">
              <h2 id={`faq-${category.id}-title`} className="font-display text-2xl font-extrabold uppercase text-ink sm:text-3xl">
                {category.title}
              </h2>
              <Accordion.Root type="single" collapsible className="mt-4 divide-y divide-zinc-200 overflow-hidden rounded-lg border border-zinc-200 bg-white">
                {category.items.map((item, i) => (
                  <Accordion.Item key={item.question} value={`${category.id}-${i}`}>
                    <Accordion.Header asChild>
                      <h3>
                        <Accordion.Trigger className="group flex w-full items-center justify-between gap-4 px-5 py-4 text-left font-semibold text-ink hover:bg-paper data-[state=open]:bg-paper">
                          {item.question}
                          <ChevronDown
                            className="size-5 shrink-0 text-steel transition-transform group-data-[state=open]:rotate-180"
                            aria-hidden="true"
                          />
                        </Accordion.Trigger>
                      </h3>
                    </Accordion.Header>
                    <Accordion.Content className="px-5 pb-5 pt-1 leading-relaxed text-steel">{item.answer}</Accordion.Content>
                  </Accordion.Item>
                ))}
              </Accordion.Root>
            </section>
          ))}
          <aside className="rounded-lg bg-ink p-8 text-white" aria-labelledby="faq-more-heading">
            <h2 id="faq-more-heading" className="font-display text-3xl font-extrabold uppercase">
              Still have questions?
            </h2>
            <p className="mt-2 text-zinc-300">Our parts specialists reply within 24 hours. {site.businessHours}.</p>
            <div className="mt-6 flex flex-wrap gap-3">
              <ButtonLink to="/contact" variant="primary" size="lg">
                Contact Us
              </ButtonLink>
              <ExternalButtonLink href={whatsappLink(WHATSAPP_GREETING, site.whatsappNumber)} variant="whatsapp" size="lg">
                <MessageCircle className="size-5" aria-hidden="true" /> Chat on WhatsApp
              </ExternalButtonLink>
            </div>
          </aside>
        </div>
      </div>
    </>
  );
}
