import { z } from 'zod';
import { AdminEmailSchema, VerifyOtpRequestSchema } from './auth.ts';

/**
 * A buyer's account (issue 35): sign-in without a password, by an e-mail code or the link in its mail, into a session
 * of its own, apart from staff's: its own cookie, refused on every staff route, and a staff session refused here.
 *   POST /api/account/sign-in/code    { email }              -> { success, sessionId }  (the same for any address)
 *   POST /api/account/sign-in/verify  { sessionId, otp }     -> { success, email, expiresAt } and the session cookie
 *   GET  /api/account/session                                -> { email, expiresAt } or 401
 *   POST /api/account/sign-out                               -> { success } (the cookie cleared)
 */

/** The buyer session's cookie: `__Host-` over HTTPS (no sub-domain can plant or read it), as the staff one. */
export const buyerCookieName = (secure: boolean) => (secure ? '__Host-fl_buyer' : 'fl_buyer');

export const BuyerCodeRequestSchema = z.object({ email: AdminEmailSchema });
export type BuyerCodeRequest = z.infer<typeof BuyerCodeRequestSchema>;
export const BuyerCodeResponseSchema = z.object({ success: z.literal(true), sessionId: z.string() });
export type BuyerCodeResponse = z.infer<typeof BuyerCodeResponseSchema>;

export const BuyerVerifyRequestSchema = VerifyOtpRequestSchema;
export type BuyerVerifyRequest = z.infer<typeof BuyerVerifyRequestSchema>;

/** The signed-in buyer. The session's token is only ever in its httpOnly cookie, never in a body. */
export const BuyerSessionSchema = z.object({ email: z.string(), expiresAt: z.string() });
export type BuyerSession = z.infer<typeof BuyerSessionSchema>;
export const BuyerVerifyResponseSchema = BuyerSessionSchema.extend({ success: z.literal(true) });
export type BuyerVerifyResponse = z.infer<typeof BuyerVerifyResponseSchema>;

export const BuyerSignOutResponseSchema = z.object({ success: z.literal(true) });
export type BuyerSignOutResponse = z.infer<typeof BuyerSignOutResponseSchema>;
