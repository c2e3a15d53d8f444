import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { ProductImage } from '../../../components/product/product-image.tsx';
import { cn } from '../../../lib/cn.ts';
import { FALLBACK_PRODUCT_IMAGE } from '../../../lib/product-image.ts';

/** Image carousel with previous/next and thumbnails; index resets when the product changes and wraps at both ends. */
export function ProductGallery({ productId, name, images }: { productId: string; name: string; images: string[] }) {
  const list = images.length > 0 ? images : [FALLBACK_PRODUCT_IMAGE];
  const [index, setIndex] = useState(0);
  const [indexFor, setIndexFor] = useState(productId);
  if (indexFor !== productId) {
    setIndexFor(productId);
    setIndex(0);
  }
  const current = Math.min(index, list.length - 1);
  const step = (d: number) => setIndex((i) => (i + d + list.length) % list.length);
  const multi = list.length > 1;

  return (
    <div aria-roledescription="carousel" aria-label={`${name} images`}>
      <div className="relative overflow-hidden rounded-lg border border-zinc-200 bg-white">
        <ProductImage
          key={`${productId}-${current}`}
          src={list[current] ?? FALLBACK_PRODUCT_IMAGE}
          alt={multi ? `${name} – image ${current + 1} of ${list.length}` : name}
          width={1200}
          height={1200}
          displayWidth={1200}
          sizes="(min-width: 1024px) 600px, 100vw"
          priority
          className="aspect-square w-full object-contain p-4 sm:p-8"
        />
        {multi ? (
          <>
            <button
              type="button"
              aria-label="Previous image"
              onClick={() => step(-1)}
              className="absolute left-3 top-1/2 grid size-10 -translate-y-1/2 place-items-center rounded-full bg-ink/80 text-white hover:bg-ink"
            >
              <ChevronLeft className="size-5" aria-hidden="true" />
            </button>
            <button
              type="button"
              aria-label="Next image"
              onClick={() => step(1)}
              className="absolute right-3 top-1/2 grid size-10 -translate-y-1/2 place-items-center rounded-full bg-ink/80 text-white hover:bg-ink"
            >
              <ChevronRight className="size-5" aria-hidden="true" />
            </button>
            <span className="absolute bottom-3 right-3 rounded bg-ink/80 px-2 py-0.5 text-xs font-semibold text-white" aria-live="polite">
              {current + 1} / {list.length}
            </span>
          </>
        ) : null}
      </div>
      {multi ? (
        <ul className="mt-3 flex gap-2 overflow-x-auto pb-1" aria-label="Thumbnails">
          {list.map((src, i) => (
            <li key={`${src}-${i}`} className="shrink-0">
              <button
                type="button"
                onClick={() => setIndex(i)}
                aria-label={`Show image ${i + 1}`}
                aria-current={i === current}
                className={cn(
                  'block size-16 overflow-hidden rounded-md border-2 bg-white sm:size-20',
                  i === current ? 'border-safety' : 'border-zinc-200 hover:border-ink',
                )}
              >
                <ProductImage src={src} alt="" width={160} height={160} displayWidth={160} sizes="80px" className="size-full object-contain p-1" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
