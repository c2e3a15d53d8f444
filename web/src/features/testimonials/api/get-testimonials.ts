import type { Testimonial } from '@forgeline/contracts/products';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { TESTIMONIALS_RETRIES, TESTIMONIALS_STALE_MS, testimonialsRetryDelay } from '../../../config/constants.ts';

/** GET /api/testimonials?featured=true */
export async function getFeaturedTestimonials(): Promise<Testimonial[]> {
  try {
    return await apiFetch<Testimonial[]>('/api/testimonials?featured=true');
  } catch {
    throw new Error('Failed to fetch testimonials');
  }
}

/** Spec section 9: retried 3 times, delay 1000 ms doubling up to 30000 ms, fresh for 300000 ms. */
export const featuredTestimonialsQuery = () =>
  queryOptions({
    queryKey: ['testimonials', { featured: true }],
    queryFn: getFeaturedTestimonials,
    retry: TESTIMONIALS_RETRIES,
    retryDelay: testimonialsRetryDelay,
    staleTime: TESTIMONIALS_STALE_MS,
  });

export const useFeaturedTestimonials = () => useQuery(featuredTestimonialsQuery());
