import { CalendarCheck, Eye, Target } from 'lucide-react';
import { SiteStats } from '../../../components/site/site-stats.tsx';
import { TrustIndicatorList } from '../../../components/site/trust-indicator-list.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { site } from '../../../config/site.ts';
import { useDocumentTitle } from '../../../lib/document-title.ts';
import { PageHero } from '../../../components/site/page-hero.tsx';

const AIMS = [
  {
    icon: Target,
    title: 'Our Mission',
    text: "To keep our customers' machines running by supplying the right spare part, quickly and at a fair price, with honest advice on OEM, genuine and aftermarket options and delivery anywhere in the world.",
  },
  {
    icon: Eye,
    title: 'Our Vision',
    text: 'To be the first call for maintenance teams worldwide: one trusted source for parts across mining, construction, agriculture, material handling and power generation, where no machine waits long for a part.',
  },
];

/** /about: hero, company description, four stats, mission, vision and the five trust indicators (spec section 2). */
export default function AboutPage() {
  useDocumentTitle('About Us');
  return (
    <>
      <PageHero eyebrow={`Since ${site.establishedYear}`} title={`About ${site.name}`}>
        {site.tagline}. OEM, genuine and aftermarket parts for the machines that keep the world working.
      </PageHero>

      <section className="bg-white py-16 sm:py-20" aria-labelledby="who-heading">
        <div className="container-page grid items-center gap-12 lg:grid-cols-2">
          <div>
            <h2 id="who-heading" className="font-display text-3xl font-extrabold uppercase text-ink sm:text-4xl">
              Who We Are
            </h2>
            <p className="mt-5 text-lg leading-relaxed text-steel">{site.description}</p>
            <p className="mt-4 leading-relaxed text-steel">
              Our team works from part numbers, machine models and serial numbers, so the part you receive is the part that
              fits. We ship by Express, Standard or Economy, every parcel tracked and insured, and our specialists answer on
              live chat Monday to Saturday.
            </p>
            <p className="mt-6 inline-flex items-center gap-2 rounded-md bg-paper px-4 py-2 text-sm font-semibold text-ink">
              <CalendarCheck className="size-4 text-safety-deep" aria-hidden="true" /> Established {site.establishedYear}
            </p>
          </div>
          <img
            src="/images/hero/logistics-800.webp"
            alt="Container ship loaded at a port crane"
            width={800}
            height={450}
            loading="lazy"
            decoding="async"
            className="aspect-video w-full rounded-lg object-cover shadow-lg"
          />
        </div>
      </section>

      <section className="relative bg-ink py-14 text-white" aria-labelledby="numbers-heading">
        <div className="container-page">
          <h2 id="numbers-heading" className="text-center font-display text-3xl font-extrabold uppercase sm:text-4xl">
            Our Numbers
          </h2>
          <SiteStats className="mt-10" />
        </div>
      </section>

      <section className="bg-paper py-16 sm:py-20" aria-label="Mission and vision">
        <div className="container-page grid gap-6 md:grid-cols-2">
          {AIMS.map(({ icon: Icon, title, text }) => (
            <article key={title} className="rounded-lg border border-zinc-200 bg-white p-8 shadow-sm">
              <span className="grid size-12 place-items-center rounded-md bg-ink text-safety">
                <Icon className="size-6" aria-hidden="true" />
              </span>
              <h2 className="mt-5 font-display text-3xl font-extrabold uppercase text-ink">{title}</h2>
              <p className="mt-3 leading-relaxed text-steel">{text}</p>
            </article>
          ))}
        </div>
      </section>

      <section className="bg-white py-16 sm:py-20" aria-labelledby="trust-heading">
        <div className="container-page">
          <h2 id="trust-heading" className="text-center font-display text-3xl font-extrabold uppercase text-ink sm:text-4xl">
            Why Customers Trust Us
          </h2>
          <TrustIndicatorList on="white" className="mt-10" />
          <div className="mt-10 flex flex-wrap justify-center gap-3">
            <ButtonLink to="/catalog" variant="dark" size="lg">
              Explore Our Products
            </ButtonLink>
            <ButtonLink to="/contact" variant="outline" size="lg">
              Contact Us
            </ButtonLink>
          </div>
        </div>
      </section>
    </>
  );
}
