import { z } from 'zod';

/** Limits on what a visitor may type (spec section 5); the server refuses anything longer with a 400 naming the field. */
export const QUOTE_LIMITS = {
  name: 120,
  email: 254,
  phone: 40,
  country: 80,
  message: 5000,
  subject: 200,
  maxQuantity: 1_000_000,
} as const;

/** Spec section 9: the math check adds two integers from 1 to 20. */
export const CAPTCHA_MIN = 1;
export const CAPTCHA_MAX = 20;
/** Spec section 9: status default 'pending'. */
export const QUOTE_STATUS_PENDING = 'pending';

const trimmed = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const required = (max: number, message = 'is required') => trimmed(max).min(1, message);
const optionalText = (max: number) => trimmed(max).optional().default('');
const email = z.string().trim().max(QUOTE_LIMITS.email).pipe(z.email('must be a valid e-mail address'));
/**
 * The honeypot: a field hidden from people (`website`). Browsers leave it empty; form-filling bots fill it.
 * A filled honeypot is answered like a success and nothing is stored.
 */
const honeypot = z.string().max(500).optional();

const quantity = z
  .number('must be a whole number')
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(QUOTE_LIMITS.maxQuantity, `must be at most ${QUOTE_LIMITS.maxQuantity}`)
  .default(1);

/** A quote request asks for at most this many lines. */
export const QUOTE_MAX_LINES = 200;

/** One line of a multi-part request: a catalogue product, or what the buyer typed when nothing matched. */
export const QuoteLineInputSchema = z
  .object({
    productId: trimmed(100).optional(),
    text: trimmed(500).optional(),
    quantity,
    note: trimmed(500).optional(),
  })
  .refine((l) => Boolean(l.productId) || Boolean(l.text), { message: 'needs a productId or a text', path: ['productId'] });
export type QuoteLineInput = z.input<typeof QuoteLineInputSchema>;

/**
 * POST /api/quote-requests (spec section 7): one product (`productId`, `quantity`), or `lines` (1 to 200) for a
 * list of parts. The single-product body of the specification is unchanged.
 */
export const QuoteRequestInputSchema = z
  .object({
  productId: trimmed(100).optional(),
  lines: z
    .array(QuoteLineInputSchema)
    .min(1, 'must have at least one line')
    .max(QUOTE_MAX_LINES, `must have at most ${QUOTE_MAX_LINES} lines`)
    .optional(),
  customerName: required(QUOTE_LIMITS.name),
  customerEmail: email,
  customerPhone: optionalText(QUOTE_LIMITS.phone),
  customerCountry: required(QUOTE_LIMITS.country, 'Please select your country'),
  quantity,
  message: optionalText(QUOTE_LIMITS.message),
  website: honeypot,
  /**
   * Optional server-checked math captcha (GET /api/captcha), checked when a token is given: the quote dialog checks
   * its sum in the browser; the no-JavaScript quote form (the gateway's POST /quote-request) always sends one.
   */
  captchaAnswer: z
    .union([z.number(), z.string().trim().regex(/^-?\d{1,6}$/, 'must be a whole number').transform(Number)])
    .pipe(z.number('must be a whole number').int('must be a whole number'))
    .optional(),
  captchaToken: trimmed(1000).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.lines && q.productId) ctx.addIssue({ code: 'custom', path: ['lines'], message: 'send either productId or lines, not both' });
    else if (!q.lines && !q.productId) ctx.addIssue({ code: 'custom', path: ['productId'], message: 'is required' });
  });
export type QuoteRequestInput = z.input<typeof QuoteRequestInputSchema>;
export type QuoteRequestParsed = z.infer<typeof QuoteRequestInputSchema>;

/** A stored line: the product's name, SKU and part number at the time of the request, or the buyer's text. */
export const QuoteLineSchema = z.object({
  productId: z.string().nullable(),
  productName: z.string(),
  productSku: z.string(),
  partNumber: z.string(),
  text: z.string().nullable(),
  quantity: z.number().int(),
  note: z.string(),
});
export type QuoteLine = z.infer<typeof QuoteLineSchema>;

/**
 * Spec section 3, Quote request (as stored), plus the product's name and SKU at the time of the request. A request
 * for a list of parts has `lines`; its top-level product fields then describe the first line.
 */
export const QuoteRequestSchema = z.object({
  id: z.string(),
  productId: z.string(),
  productName: z.string(),
  productSku: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  customerPhone: z.string(),
  customerCountry: z.string(),
  quantity: z.number().int(),
  message: z.string(),
  status: z.string(),
  createdAt: z.string(),
  lines: z.array(QuoteLineSchema).optional(),
});
export type QuoteRequest = z.infer<typeof QuoteRequestSchema>;

export const QuoteRequestResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  status: z.string(),
  message: z.string(),
});
export type QuoteRequestResponse = z.infer<typeof QuoteRequestResponseSchema>;

/** GET /api/captcha: the sum num1 + num2 answers it; the token is opaque (the answer stays on the server), expires and can be used once. */
export const CaptchaSchema = z.object({
  num1: z.number().int(),
  num2: z.number().int(),
  token: z.string(),
});
export type Captcha = z.infer<typeof CaptchaSchema>;

/** POST /api/contact (spec sections 3 and 7). */
export const ContactInputSchema = z.object({
  name: required(QUOTE_LIMITS.name),
  email,
  countryCode: optionalText(8),
  phone: optionalText(QUOTE_LIMITS.phone),
  subject: optionalText(QUOTE_LIMITS.subject),
  message: required(QUOTE_LIMITS.message),
  /** An integer; a numeric string ("12") is accepted too, since it comes from a text box. */
  captchaAnswer: z.union([z.number(), z.string().trim().regex(/^-?\d{1,6}$/, 'must be a whole number').transform(Number)]).pipe(
    z.number('must be a whole number').int('must be a whole number'),
  ),
  captchaToken: required(1000),
  website: honeypot,
});
export type ContactInput = z.input<typeof ContactInputSchema>;
export type ContactParsed = z.infer<typeof ContactInputSchema>;

export const ContactMessageSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  countryCode: z.string(),
  phone: z.string(),
  subject: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
export type ContactMessage = z.infer<typeof ContactMessageSchema>;

export const ContactResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export type ContactResponse = z.infer<typeof ContactResponseSchema>;
