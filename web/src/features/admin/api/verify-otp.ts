import type { VerifyOtpRequest, VerifyOtpResponse } from '@forgeline/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

/** POST /api/admin/auth/verify-otp {sessionId, otp} -> {success, token, email, expiresAt}. */
export const verifyOtp = (body: VerifyOtpRequest) =>
  apiFetch<VerifyOtpResponse>('/api/admin/auth/verify-otp', { method: 'POST', json: body });

export const useVerifyOtp = () => useMutation({ mutationFn: verifyOtp });
