import { ButtonLink } from '../../../components/ui/button.tsx';
import { site } from '../../../config/site.ts';
import { siteIcons } from '../../../lib/site-icons.ts';

export function WhyChooseUs() {
  return (
    <section className="bg-paper py-16 sm:py-20" aria-labelledby="why-heading">
      <div className="container-page">
        <p className="text-center text-sm font-extrabold uppercase tracking-[0.2em] text-safety-deep">Built for uptime</p>
        <h2 id="why-heading" className="mt-3 text-center font-display text-4xl font-extrabold uppercase text-ink sm:text-5xl">
          Why Choose {site.name}
        </h2>
        <ul className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {site.trustIndicators.map((t) => {
            const Icon = siteIcons[t.icon];
            return (
              <li key={t.title} className="rounded-lg border border-zinc-200 bg-white p-6 text-center shadow-sm">
                <span className="mx-auto grid size-14 place-items-center rounded-full bg-safety text-ink">
                  <Icon className="size-7" aria-hidden="true" />
                </span>
                <h3 className="mt-4 font-display text-xl font-bold uppercase text-ink">{t.title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-steel">{t.description}</p>
              </li>
            );
          })}
        </ul>
        <div className="mt-10 text-center">
          <ButtonLink to="/catalog" variant="primary" size="lg">
            Explore Our Products
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
