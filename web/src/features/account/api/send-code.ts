import type { BuyerCodeResponse } from '@forgeline/contracts/account';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** POST /api/account/sign-in/code: mails a sign-in code (and a link) to the address; the answer is the same for every address. */
export const useSendCode = () => useMutation({ mutationFn: (email: string) => apiFetch<BuyerCodeResponse>('/api/account/sign-in/code', { method: 'POST', json: { email } }) });
