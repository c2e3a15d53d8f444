import { policies, type PolicyKind } from '@forgeline/site-config/policies';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { PageHero } from '../../../components/site/page-hero.tsx';
import { ForgetSearches } from './forget-searches.tsx';

const OTHERS: { kind: PolicyKind; label: string }[] = [
  { kind: 'privacy', label: 'Privacy Policy' },
  { kind: 'refund-policy', label: 'Returns Policy' },
  { kind: 'shipping-policy', label: 'Shipping Policy' },
  { kind: 'disclaimer', label: 'Disclaimer' },
];

/** /privacy, /refund-policy, /shipping-policy, /disclaimer: static text from the site configuration. */
export default function PolicyPage({ kind }: { kind: PolicyKind }) {
  const policy = policies[kind];
  useDocumentTitle(policy.title);
  return (
    <>
      <PageHero eyebrow="Policies" title={policy.title}>
        <p>{policy.summary}</p>
        <p className="mt-3 text-sm font-semibold uppercase tracking-wider text-zinc-400">Last updated: {policy.lastUpdated}</p>
      </PageHero>
      <div className="container-page grid gap-10 py-14 lg:grid-cols-[1fr_16rem]">
        <article className="max-w-3xl space-y-9 rounded-lg border border-zinc-200 bg-white p-6 sm:p-10">
          {policy.sections.map((section) => (
            <section key={section.heading}>
              <h2 className="font-display text-2xl font-extrabold uppercase text-ink">{section.heading}</h2>
              {section.paragraphs?.map((p) => (
                <p key={p} className="mt-3 leading-relaxed text-steel">
                  {p}
                </p>
              ))}
              {section.bullets ? (
                <ul className="mt-3 space-y-2">
                  {section.bullets.map((b) => (
                    <li key={b} className="flex gap-3 leading-relaxed text-steel">
                      <span className="mt-2.5 size-1.5 shrink-0 rounded-full bg-safety-deep" aria-hidden="true" />
                      <span>{b}</span>
                    </li>
                  ))}
                </ul>
              ) : null}
            </section>
          ))}
          {kind === 'privacy' ? <ForgetSearches /> : null}
        </article>
        <nav aria-label="Other policies">
          <h2 className="text-xs font-extrabold uppercase tracking-[0.2em] text-steel">Other policies</h2>
          <ul className="mt-3 space-y-1 text-sm font-semibold">
            {OTHERS.filter((o) => o.kind !== kind).map((o) => (
              <li key={o.kind}>
                <Link to={`/${o.kind}`} className="block rounded-md px-3 py-2 text-ink hover:bg-white">
                  {o.label}
                </Link>
              </li>
            ))}
            <li>
              <Link to="/faq" className="block rounded-md px-3 py-2 text-ink hover:bg-white">
                FAQ
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </>
  );
}
