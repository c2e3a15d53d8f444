import type { ContactInput, ContactResponse } from '@forgeline/contracts/quotes';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** POST /api/contact; on failure the body carries a `message` the form shows. */
export const sendContactMessage = (body: ContactInput) =>
  apiFetch<ContactResponse>('/api/contact', { method: 'POST', json: body });

export const useSendContactMessage = () => useMutation({ mutationFn: sendContactMessage });

/** The `message` of an error body ("400: {\"message\":\"...\"}"), or null. */
export function serverMessage(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  try {
    const m = (JSON.parse(err.message.replace(/^\d{3}: /, '')) as { message?: unknown }).message;
    return typeof m === 'string' && m ? m : null;
  } catch {
    return null;
  }
}
