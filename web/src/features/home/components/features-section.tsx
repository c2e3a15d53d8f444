import { ButtonLink } from '../../../components/ui/button.tsx';
import { site } from '../../../config/site.ts';
import { siteIcons } from '../../../lib/site-icons.ts';

export function FeaturesSection() {
  return (
    <section className="bg-white py-16 sm:py-20" aria-labelledby="features-heading">
      <div className="container-page">
        <div className="grid gap-10 lg:grid-cols-[1fr_1.4fr] lg:items-end">
          <div>
            <p className="text-sm font-extrabold uppercase tracking-[0.2em] text-safety-deep">Why buyers source with us</p>
            <h2 id="features-heading" className="mt-3 font-display text-4xl font-extrabold uppercase leading-none text-ink sm:text-5xl">
              Premium Industrial Equipment Parts
            </h2>
          </div>
          <p className="text-lg leading-relaxed text-steel">
            OEM, genuine and aftermarket parts for the machines that keep mines, job sites, farms, warehouses and power
            plants running, matched by part number and shipped worldwide.
          </p>
        </div>
        <ul className="mt-12 grid gap-5 md:grid-cols-3">
          {site.features.map((f) => {
            const Icon = siteIcons[f.icon];
            return (
              <li key={f.title} className="group relative overflow-hidden rounded-lg border border-zinc-200 bg-paper p-7">
                <span className="absolute inset-x-0 top-0 h-1 bg-safety" aria-hidden="true" />
                <span className="grid size-14 place-items-center rounded-md bg-ink text-safety">
                  <Icon className="size-7" aria-hidden="true" />
                </span>
                <h3 className="mt-5 font-display text-2xl font-bold uppercase text-ink">{f.title}</h3>
                <p className="mt-2 leading-relaxed text-steel">{f.description}</p>
              </li>
            );
          })}
        </ul>
        <div className="mt-10 flex flex-wrap gap-3">
          <ButtonLink to="/catalog" variant="dark" size="lg">
            Browse All Products
          </ButtonLink>
          <ButtonLink to="/contact" variant="outline" size="lg">
            Get Quote
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
