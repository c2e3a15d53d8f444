import { z } from 'zod';

import { OTP_LENGTH } from './otp-length.ts';

export { OTP_LENGTH };

/** The gateway passes the signed-in admin's address to the services behind /api/admin/* in this header. */
export const ADMIN_EMAIL_HEADER = 'x-admin-email';

/** An e-mail address as the login form sends it: trimmed and lower-cased, so "Admin@X" and "admin@x" are one admin. */
export const AdminEmailSchema = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .toLowerCase()
  .pipe(z.email('must be a valid e-mail address'));

/** ADMIN_EMAILS: comma-separated admin addresses (auth sends them codes; the quotes inbox assigns requests to them). */
export const AdminEmailsEnvSchema = z
  .string()
  .default('admin@forgeline-parts.example')
  .transform((s) => s.split(',').map((e) => e.trim()).filter(Boolean))
  .pipe(z.array(AdminEmailSchema).min(1, 'must name at least one address'));

/** POST /api/admin/auth/send-otp */
export const SendOtpRequestSchema = z.object({ email: AdminEmailSchema });
export type SendOtpRequest = z.infer<typeof SendOtpRequestSchema>;
/** The same answer for any well-formed address (admin or not), so the form cannot tell who is an admin. */
export const SendOtpResponseSchema = z.object({ success: z.literal(true), sessionId: z.string() });
export type SendOtpResponse = z.infer<typeof SendOtpResponseSchema>;

/** POST /api/admin/auth/verify-otp */
export const VerifyOtpRequestSchema = z.object({
  sessionId: z.string().trim().min(1, 'is required').max(100),
  otp: z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), `must be ${OTP_LENGTH} digits`),
});
export type VerifyOtpRequest = z.infer<typeof VerifyOtpRequestSchema>;

/** Spec section 3, Admin session: token, email, expiresAt (ISO 8601). The web app keeps it in localStorage. */
export const AdminSessionSchema = z.object({
  token: z.string().min(1),
  email: z.string(),
  expiresAt: z.string(),
});
export type AdminSession = z.infer<typeof AdminSessionSchema>;

export const VerifyOtpResponseSchema = AdminSessionSchema.extend({ success: z.literal(true) });
export type VerifyOtpResponse = z.infer<typeof VerifyOtpResponseSchema>;

/** POST /api/admin/auth/logout (Authorization: Bearer <token>): revokes the session; idempotent. */
export const LogoutResponseSchema = z.object({ success: z.literal(true) });
export type LogoutResponse = z.infer<typeof LogoutResponseSchema>;

/** GET /api/admin/auth/config: what the login screen prefills; `''` when auth's ADMIN_EMAIL_PREFILL is false. */
export const AuthConfigResponseSchema = z.object({ defaultEmail: z.string() });
export type AuthConfigResponse = z.infer<typeof AuthConfigResponseSchema>;

/** Internal POST /internal/sessions/verify (service token): 200 with the session, or 401. */
export const VerifySessionRequestSchema = z.object({ token: z.string().min(1, 'is required').max(200) });
export type VerifySessionRequest = z.infer<typeof VerifySessionRequestSchema>;
export const VerifySessionResponseSchema = z.object({ email: z.string(), expiresAt: z.string() });
export type VerifySessionResponse = z.infer<typeof VerifySessionResponseSchema>;

/** Reads "Authorization: Bearer <token>"; null when absent or malformed. */
export function bearerToken(header: string | undefined | null): string | null {
  if (!header) return null;
  const m = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,200})\s*$/i.exec(header);
  return m?.[1] ?? null;
}
