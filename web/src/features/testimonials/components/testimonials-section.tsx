import { Quote, Star } from 'lucide-react';
import { POSITIVE_FEEDBACK_RATE } from '../../../config/constants.ts';
import { useFeaturedTestimonials } from '../api/get-testimonials.ts';

/** Used when a testimonial has no photo (spec section 3). */
const DEFAULT_PHOTO = '/images/customer-default.svg';
/** Two full rows on desktop; the rest would only push the page down. */
const MAX_CARDS = 6;

/** Spec section 4: 'Loading testimonials...', hidden silently on error or when empty, else the cards. */
export function TestimonialsSection() {
  const { data, isPending, isError } = useFeaturedTestimonials();
  if (isError) return null;
  if (!isPending && (!data || data.length === 0)) return null;
  return (
    <section className="bg-white py-16 sm:py-20" aria-labelledby="testimonials-heading">
      <div className="container-page">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <p className="text-sm font-extrabold uppercase tracking-[0.2em] text-safety-deep">Customer reviews</p>
            <h2 id="testimonials-heading" className="mt-3 font-display text-4xl font-extrabold uppercase text-ink sm:text-5xl">
              What Our Clients Say
            </h2>
          </div>
          <p className="flex items-center gap-3 rounded-md bg-ink px-4 py-3 text-white">
            <span className="font-display text-3xl font-extrabold text-safety">{POSITIVE_FEEDBACK_RATE}</span>
            <span className="text-sm leading-tight">positive<br />feedback</span>
          </p>
        </div>
        {isPending ? (
          <p role="status" className="py-12 text-center text-steel">
            Loading testimonials...
          </p>
        ) : (
          <ul className="mt-10 grid grid-cols-1 gap-5 md:grid-cols-2 lg:grid-cols-3">
            {data.slice(0, MAX_CARDS).map((t) => (
              <li key={t.id} className="relative flex flex-col rounded-lg border border-zinc-200 bg-paper p-6">
                <Quote className="absolute right-5 top-5 size-8 text-zinc-300" aria-hidden="true" />
                <div className="flex gap-0.5 text-safety-deep" role="img" aria-label="Rated 5 out of 5">
                  {Array.from({ length: 5 }, (_, i) => (
                    <Star key={i} className="size-4 fill-safety stroke-safety-deep" aria-hidden="true" />
                  ))}
                </div>
                <blockquote className="mt-4 flex-1 leading-relaxed text-ink">“{t.review}”</blockquote>
                <div className="mt-6 flex items-center gap-3">
                  <img
                    src={t.customerPhoto || DEFAULT_PHOTO}
                    alt=""
                    width={44}
                    height={44}
                    loading="lazy"
                    decoding="async"
                    onError={(e) => {
                      if (!e.currentTarget.src.endsWith(DEFAULT_PHOTO)) e.currentTarget.src = DEFAULT_PHOTO;
                    }}
                    className="size-11 rounded-full object-cover"
                  />
                  <div>
                    <p className="font-semibold text-ink">{t.customerName}</p>
                    <p className="text-sm text-steel">{t.customerLocation}</p>
                  </div>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
