import { SiteStats } from '../../../components/site/site-stats.tsx';
import { site } from '../../../config/site.ts';

export function StatsBand() {
  return (
    <section className="relative overflow-hidden bg-ink py-16 text-white sm:py-20" aria-labelledby="stats-heading">
      <div className="hazard-stripe absolute inset-x-0 top-0 h-1.5" aria-hidden="true" />
      <div className="container-page">
        <h2 id="stats-heading" className="text-center font-display text-4xl font-extrabold uppercase sm:text-5xl">
          Empowering Global Businesses
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-zinc-300">
          Since {site.establishedYear}, fleets, contractors and dealers have relied on us for the right part, on time.
        </p>
        <SiteStats className="mt-12" />
      </div>
    </section>
  );
}
