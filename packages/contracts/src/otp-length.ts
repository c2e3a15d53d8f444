/**
 * Spec section 9: the one-time code has 6 characters (digits). Without zod, so the storefront's sign-in page can
 * import it (a zod schema in a storefront chunk would need `new Function`, which the Content-Security-Policy refuses).
 */
export const OTP_LENGTH = 6;
