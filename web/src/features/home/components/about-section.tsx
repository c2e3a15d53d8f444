import { Award, CalendarCheck } from 'lucide-react';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { site } from '../../../config/site.ts';

export function AboutSection() {
  return (
    <section className="bg-white py-16 sm:py-20" aria-labelledby="about-heading">
      <div className="container-page grid items-center gap-12 lg:grid-cols-2">
        <div className="relative">
          <img
            src="/images/hero/construction-800.webp"
            alt="Excavator and crane at work on a construction site"
            width={800}
            height={450}
            loading="lazy"
            decoding="async"
            className="aspect-[4/3] w-full rounded-lg object-cover"
          />
          <div className="absolute -bottom-5 left-5 rounded-md bg-safety px-5 py-3 font-display text-2xl font-extrabold uppercase text-ink shadow-xl">
            #1 Parts Store
          </div>
        </div>
        <div>
          <p className="text-sm font-extrabold uppercase tracking-[0.2em] text-safety-deep">About us</p>
          <h2 id="about-heading" className="mt-3 font-display text-4xl font-extrabold uppercase leading-none text-ink sm:text-5xl">
            Your Partner for Industrial Spare Parts
          </h2>
          <p className="mt-5 text-lg leading-relaxed text-steel">{site.description}</p>
          <div className="mt-6 flex flex-wrap gap-4 text-sm font-semibold text-ink">
            <span className="inline-flex items-center gap-2 rounded-md bg-paper px-4 py-2">
              <CalendarCheck className="size-4 text-safety-deep" aria-hidden="true" /> Established {site.establishedYear}
            </span>
            <span className="inline-flex items-center gap-2 rounded-md bg-paper px-4 py-2">
              <Award className="size-4 text-safety-deep" aria-hidden="true" /> OEM · Genuine · Aftermarket
            </span>
          </div>
          <ButtonLink to="/about" variant="dark" size="lg" className="mt-8">
            Learn More About Us
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
