import type { QuoteRequestInput, QuoteRequestResponse } from '@forgeline/contracts/quotes';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** POST /api/quote-requests (spec section 7); the confirmation uses the submitted values. */
export const createQuoteRequest = (body: QuoteRequestInput) =>
  apiFetch<QuoteRequestResponse>('/api/quote-requests', { method: 'POST', json: body });

export const useCreateQuoteRequest = () => useMutation({ mutationFn: createQuoteRequest });
