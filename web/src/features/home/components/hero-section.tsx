import { heroSlides } from '@forgeline/site-config/hero-slides';
import { lazy, Suspense, useEffect, useState } from 'react';
import { HeroSlideView } from './hero-slide.tsx';

const HeroCarousel = lazy(() => import('./hero-carousel.tsx'));

/**
 * Spec section 4: before mount only the first slide shows, as static links; once mounted the carousel takes over.
 * The carousel code (embla) loads after the page's load event, so it never delays the hero image.
 */
export function HeroSection() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    // Swap in the carousel once the page has loaded and the main thread is idle, so it never competes with first paint.
    let idleId: number | undefined;
    let timerId: number | undefined;
    const show = () => setMounted(true);
    const start = () => {
      if (typeof window.requestIdleCallback === 'function') idleId = window.requestIdleCallback(show, { timeout: 1500 });
      else timerId = window.setTimeout(show, 200);
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      window.removeEventListener('load', start);
      if (idleId !== undefined) window.cancelIdleCallback(idleId);
      if (timerId !== undefined) window.clearTimeout(timerId);
    };
  }, []);
  const first = heroSlides[0];
  const staticSlide = first ? <HeroSlideView slide={first} priority /> : null;
  return (
    <section aria-label="Highlights">
      {mounted ? <Suspense fallback={staticSlide}>{<HeroCarousel />}</Suspense> : staticSlide}
    </section>
  );
}
