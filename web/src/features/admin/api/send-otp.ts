import type { SendOtpRequest, SendOtpResponse } from '@forgeline/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** POST /api/admin/auth/send-otp {email} -> {success, sessionId}. */
export const sendOtp = (body: SendOtpRequest) =>
  apiFetch<SendOtpResponse>('/api/admin/auth/send-otp', { method: 'POST', json: body });

export const useSendOtp = () => useMutation({ mutationFn: sendOtp });
