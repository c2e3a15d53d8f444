import { heroSlides } from '@forgeline/site-config/hero-slides';
import { lazy, Suspense, useEffect, useState } from 'react';
import { HeroSlideView } from './hero-slide.tsx';

const HeroCarousel = lazy(() => import('./hero-carousel.tsx'));

/**
 * Spec section 4: before mount only the first slide shows, as static links; once mounted the carousel takes over.
 * The carousel code (embla) loads after first paint, so it never delays the hero image.
 */
export function HeroSection() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const first = heroSlides[0];
  const staticSlide = first ? <HeroSlideView slide={first} priority /> : null;
  return (
    <section aria-label="Highlights">
      {mounted ? <Suspense fallback={staticSlide}>{<HeroCarousel />}</Suspense> : staticSlide}
    </section>
  );
}
