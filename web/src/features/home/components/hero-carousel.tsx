import { heroSlides, HERO_AUTOPLAY_DELAY_MS } from '@forgeline/site-config/hero-slides';
import Autoplay from 'embla-carousel-autoplay';
import useEmblaCarousel from 'embla-carousel-react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { cn } from '../../../lib/cn.ts';
import { HeroSlideView } from './hero-slide.tsx';

/** The mounted hero: embla, looping, autoplay every 4000 ms that keeps going after interaction. */
export default function HeroCarousel() {
  const [emblaRef, embla] = useEmblaCarousel({ loop: true }, [
    Autoplay({ delay: HERO_AUTOPLAY_DELAY_MS, stopOnInteraction: false, stopOnMouseEnter: false }),
  ]);
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    if (!embla) return;
    const onSelect = () => setSelected(embla.selectedScrollSnap());
    embla.on('select', onSelect);
    onSelect();
    return () => {
      embla.off('select', onSelect);
    };
  }, [embla]);

  const go = useCallback((i: number) => embla?.scrollTo(i), [embla]);

  return (
    <div className="relative" aria-roledescription="carousel" aria-label="Featured equipment sectors">
      <div ref={emblaRef} className="overflow-hidden">
        <div className="flex touch-pan-y">
          {heroSlides.map((slide, i) => (
            <div
              key={slide.id}
              className="min-w-0 shrink-0 grow-0 basis-full"
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${heroSlides.length}`}
              aria-hidden={i !== selected}
              inert={i !== selected}
            >
              <HeroSlideView slide={slide} priority={i === 0} />
            </div>
          ))}
        </div>
      </div>
      <button
        type="button"
        aria-label="Previous slide"
        onClick={() => embla?.scrollPrev()}
        className="absolute left-3 top-1/2 hidden size-11 -translate-y-1/2 place-items-center rounded-full bg-black/40 text-white hover:bg-safety hover:text-ink lg:grid"
      >
        <ChevronLeft className="size-6" aria-hidden="true" />
      </button>
      <button
        type="button"
        aria-label="Next slide"
        onClick={() => embla?.scrollNext()}
        className="absolute right-3 top-1/2 hidden size-11 -translate-y-1/2 place-items-center rounded-full bg-black/40 text-white hover:bg-safety hover:text-ink lg:grid"
      >
        <ChevronRight className="size-6" aria-hidden="true" />
      </button>
      <div className="absolute inset-x-0 bottom-5 flex justify-center gap-1">
        {heroSlides.map((slide, i) => (
          <button
            key={slide.id}
            type="button"
            aria-label={`Go to slide ${i + 1}: ${slide.tagline}`}
            aria-current={i === selected}
            onClick={() => go(i)}
            className="grid h-8 w-8 place-items-center"
          >
            <span className={cn('block h-1.5 rounded-full transition-all', i === selected ? 'w-7 bg-safety' : 'w-3 bg-white/60')} />
          </button>
        ))}
      </div>
    </div>
  );
}
