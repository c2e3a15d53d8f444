import type { ContactInput, ContactResponse } from '@forgeline/contracts/quotes';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** POST /api/contact; on failure the body carries a `message` the form shows. */
export const sendContactMessage = (body: ContactInput) =>
  apiFetch<ContactResponse>('/api/contact', { method: 'POST', json: body });

export const useSendContactMessage = () => useMutation({ mutationFn: sendContactMessage });
