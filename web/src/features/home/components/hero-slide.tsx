import type { HeroSlide } from '@forgeline/site-config/hero-slides';
import { HERO_BADGE } from '@forgeline/site-config/hero-slides';
import { PackageCheck } from 'lucide-react';
import { ButtonLink } from '../../../components/ui/button.tsx';

/** The 800 px wide copy written next to each 1600 px hero image (web/public/images/hero). */
export const heroSrcSet = (image: string) => `${image.replace(/\.webp$/, '-800.webp')} 800w, ${image} 1600w`;

/** One hero slide: background photo, tagline, title, description, Contact Us and Browse Parts, the stock badge. */
export function HeroSlideView({ slide, priority = false }: { slide: HeroSlide; priority?: boolean }) {
  return (
    <div className="relative isolate flex min-h-[520px] items-center overflow-hidden bg-ink sm:min-h-[560px] lg:min-h-[620px]">
      <img
        src={slide.image}
        srcSet={heroSrcSet(slide.image)}
        sizes="100vw"
        alt={slide.imageAlt}
        width={1600}
        height={900}
        loading={priority ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : 'auto'}
        decoding={priority ? 'sync' : 'async'}
        className="absolute inset-0 -z-10 size-full object-cover"
      />
      <div className="absolute inset-0 -z-10 bg-gradient-to-t from-ink/90 via-ink/60 to-ink/30 sm:bg-gradient-to-r sm:from-ink sm:via-ink/75 sm:to-ink/10" aria-hidden="true" />
      {/* Centred in the box, so while the HTML is still arriving a first paint of part of the copy would jump up as the
          rest comes in (a layout shift of ~0.07 in 2 of 8 home loads at 4x CPU). Hidden until its last line has been
          parsed; browsers without :has() show it as before. */}
      <div className="container-page py-14 [&:not(:has([data-hero-end]))]:invisible">
        <div className="max-w-2xl">
          <p className="inline-flex items-center gap-2 rounded-sm bg-safety px-3 py-1 text-xs font-extrabold uppercase tracking-[0.18em] text-ink">
            {slide.tagline}
          </p>
          <h2 className="mt-5 font-display text-4xl font-extrabold uppercase leading-[0.95] text-white sm:text-6xl lg:text-7xl">
            {slide.title}
          </h2>
          <p className="mt-5 max-w-xl text-base leading-relaxed text-zinc-200 sm:text-lg">{slide.description}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <ButtonLink to="/contact" variant="primary" size="lg">
              Contact Us
            </ButtonLink>
            <ButtonLink to="/categories" variant="outline-light" size="lg">
              Browse Parts
            </ButtonLink>
          </div>
          <p data-hero-end="" className="mt-8 inline-flex items-center gap-2 rounded-full border border-white/25 bg-white/10 px-4 py-2 text-sm font-semibold text-white backdrop-blur">
            <PackageCheck className="size-4 text-safety" aria-hidden="true" />
            {HERO_BADGE}
          </p>
        </div>
      </div>
    </div>
  );
}
