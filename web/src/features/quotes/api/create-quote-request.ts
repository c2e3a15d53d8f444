import type { QuoteRequestInput, QuoteRequestResponse } from '@forgeline/contracts/quotes';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { recordQuoteRequest } from '../../../lib/search-analytics.ts';

/** POST /api/quote-requests (spec section 7); the confirmation uses the submitted values. */
export const createQuoteRequest = async (body: QuoteRequestInput) => {
  const answer = await apiFetch<QuoteRequestResponse>('/api/quote-requests', { method: 'POST', json: body });
  recordQuoteRequest();
  return answer;
};

export const useCreateQuoteRequest = () => useMutation({ mutationFn: createQuoteRequest });
