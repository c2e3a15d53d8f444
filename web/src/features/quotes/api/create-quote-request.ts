import type { QuoteRequestInput, QuoteRequestResponse } from '@forgeline/contracts/quotes';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** POST /api/quote-requests (spec section 7); the confirmation uses the submitted values. */
export const createQuoteRequest = (body: QuoteRequestInput) =>
  apiFetch<QuoteRequestResponse>('/api/quote-requests', { method: 'POST', json: body });

export const useCreateQuoteRequest = () => useMutation({ mutationFn: createQuoteRequest });

/** The `message` of an error body ("429: {\"message\":\"...\"}"), or null. */
export function serverMessage(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  try {
    const m = (JSON.parse(err.message.replace(/^\d{3}: /, '')) as { message?: unknown }).message;
    return typeof m === 'string' && m ? m : null;
  } catch {
    return null;
  }
}
