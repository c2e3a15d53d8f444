import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { CAPTCHA_MAX, CAPTCHA_MIN, type Captcha } from '@forgeline/contracts/quotes';

/** Spec: the contact captcha's token expires after 10 minutes. */
export const CAPTCHA_TTL_MS = 10 * 60_000;

export interface CaptchaClaims {
  id: string;
  num1: number;
  num2: number;
  expiresAt: number;
}

export type CaptchaCheck =
  | { ok: true; claims: CaptchaClaims }
  | { ok: false; reason: 'invalid' | 'expired' | 'replayed' | 'wrong'; message: string };

/** Texts the contact form shows as they are (spec section 8: the server's message). */
export const CAPTCHA_MESSAGES = {
  invalid: 'The security check is not valid. Please solve the new math problem.',
  expired: 'The security check has expired. Please solve the new math problem.',
  replayed: 'This security check has already been used. Please solve the new math problem.',
  wrong: 'Incorrect answer to the math problem. Please try again.',
} as const;

/**
 * Issues and checks math captchas (no I/O: the used-token record is the caller's). The token is `<id>.<num1>.<num2>.<expiresAt>.<hmac>`: the server keeps nothing
 * until a token is used, and then only its id (so it can be used once).
 */
export class CaptchaSigner {
  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  issue(): Captcha {
    const claims: CaptchaClaims = {
      id: randomUUID(),
      num1: randomInt(CAPTCHA_MIN, CAPTCHA_MAX + 1),
      num2: randomInt(CAPTCHA_MIN, CAPTCHA_MAX + 1),
      expiresAt: this.now() + CAPTCHA_TTL_MS,
    };
    const body = `${claims.id}.${claims.num1}.${claims.num2}.${claims.expiresAt}`;
    return { num1: claims.num1, num2: claims.num2, token: `${body}.${this.sign(body)}` };
  }

  /**
   * Checks a token and its answer, in this order: signature, expiry, first use (`markUsed` records the token id and
   * answers false when it was already used), answer. A wrong answer uses the token up, so one token cannot be
   * tried with every answer.
   */
  async check(token: string, answer: number, markUsed: (id: string, expiresAt: Date) => Promise<boolean>): Promise<CaptchaCheck> {
    const claims = this.verify(token);
    if (!claims) return { ok: false, reason: 'invalid', message: CAPTCHA_MESSAGES.invalid };
    if (claims.expiresAt <= this.now()) return { ok: false, reason: 'expired', message: CAPTCHA_MESSAGES.expired };
    if (!(await markUsed(claims.id, new Date(claims.expiresAt)))) {
      return { ok: false, reason: 'replayed', message: CAPTCHA_MESSAGES.replayed };
    }
    if (answer !== claims.num1 + claims.num2) return { ok: false, reason: 'wrong', message: CAPTCHA_MESSAGES.wrong };
    return { ok: true, claims };
  }

  /** The claims of a well-signed token (expired or not), else null. */
  verify(token: string): CaptchaClaims | null {
    const parts = token.split('.');
    if (parts.length !== 5) return null;
    const [id, n1, n2, exp, sig] = parts as [string, string, string, string, string];
    const expected = Buffer.from(this.sign(`${id}.${n1}.${n2}.${exp}`));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return { id, num1: Number(n1), num2: Number(n2), expiresAt: Number(exp) };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}

/** The captcha key: CAPTCHA_SECRET when given, else one derived from the service token (never the token itself). */
export function captchaSecret(config: { CAPTCHA_SECRET?: string; SERVICE_TOKEN: string }): string {
  return config.CAPTCHA_SECRET ?? createHmac('sha256', config.SERVICE_TOKEN).update('forgeline-captcha-v1').digest('hex');
}
