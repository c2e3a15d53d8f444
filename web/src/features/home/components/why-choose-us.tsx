import { TrustIndicatorList } from '../../../components/site/trust-indicator-list.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { site } from '../../../config/site.ts';

export function WhyChooseUs() {
  return (
    <section className="bg-paper py-16 sm:py-20" aria-labelledby="why-heading">
      <div className="container-page">
        <p className="text-center text-sm font-extrabold uppercase tracking-[0.2em] text-safety-deep">Built for uptime</p>
        <h2 id="why-heading" className="mt-3 text-center font-display text-4xl font-extrabold uppercase text-ink sm:text-5xl">
          Why Choose {site.name}
        </h2>
        <TrustIndicatorList on="paper" className="mt-12" />
        <div className="mt-10 text-center">
          <ButtonLink to="/catalog" variant="primary" size="lg">
            Explore Our Products
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
