import type { Captcha } from '@forgeline/contracts/quotes';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** GET /api/captcha -> {num1, num2, token}: an opaque, single-use math check (its answer is kept by the server) that expires in 10 minutes. */
export const getCaptcha = () => apiFetch<Captcha>('/api/captcha', { cache: 'no-store' });

export const captchaQueryOptions = () =>
  queryOptions({ queryKey: ['captcha'], queryFn: getCaptcha, gcTime: 0, staleTime: 0, retry: false });

/** Loads a captcha when the form opens; `refetch()` loads a new one (after every send, good or bad). */
export const useCaptcha = () => useQuery(captchaQueryOptions());
