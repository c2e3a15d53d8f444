import { site } from '../../../config/site.ts';

export function StatsBand() {
  const stats = [
    { value: site.stats.clients, label: 'Clients Globally' },
    { value: site.stats.shipments, label: 'Shipments Delivered' },
    { value: site.stats.products, label: 'Products' },
    { value: site.stats.countries, label: 'Countries Served' },
  ];
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
        <dl className="mt-12 grid grid-cols-2 gap-px overflow-hidden rounded-lg bg-ink-line lg:grid-cols-4">
          {stats.map((s) => (
            <div key={s.label} className="flex flex-col-reverse items-center bg-ink-soft px-4 py-8 text-center">
              <dt className="mt-2 text-xs font-bold uppercase tracking-[0.18em] text-zinc-300 sm:text-sm">{s.label}</dt>
              <dd className="font-display text-4xl font-extrabold text-safety sm:text-5xl">{s.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
