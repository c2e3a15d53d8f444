import { createHash, randomBytes, randomInt } from 'node:crypto';
import { CAPTCHA_MAX, CAPTCHA_MIN, type Captcha } from '@forgeline/contracts/quotes';
import type { CaptchaStore } from '../ports.ts';

/** Spec: the contact captcha's token expires after 10 minutes. */
export const CAPTCHA_TTL_MS = 10 * 60_000;
/**
 * A challenge is kept this long after it expires, so an old token gets "expired" rather than "not valid"; then it is
 * purged (at most once a minute per process, on an issue).
 */
export const CAPTCHA_KEEP_AFTER_EXPIRY_MS = 60 * 60_000;
const PURGE_EVERY_MS = 60_000;

/** 24 random bytes: 192 bits, 32 base64url characters. */
const TOKEN_BYTES = 24;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export type CaptchaCheck = { ok: true } | { ok: false; reason: 'invalid' | 'expired' | 'replayed' | 'wrong'; message: string };

/** Texts the contact form shows as they are (spec section 8: the server's message). */
export const CAPTCHA_MESSAGES = {
  invalid: 'The security check is not valid. Please solve the new math problem.',
  expired: 'The security check has expired. Please solve the new math problem.',
  replayed: 'This security check has already been used. Please solve the new math problem.',
  wrong: 'Incorrect answer to the math problem. Please try again.',
} as const;

const refuse = (reason: keyof typeof CAPTCHA_MESSAGES): CaptchaCheck => ({ ok: false, reason, message: CAPTCHA_MESSAGES[reason] });

/** The store's key of a token: its SHA-256 (base64url). The store never holds a token that could be handed in. */
export const captchaKey = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Math captchas whose answer lives server-side. The token is opaque: 192 random bits, nothing else. The store keeps
 * the expected sum and the expiry under the token's hash; a check takes the challenge (atomically, across
 * processes), so each token is checked once whatever the answer: a wrong answer uses it up too, and one token cannot
 * be tried with every answer.
 */
export class Captchas {
  private purgeAt = 0;

  constructor(
    private readonly store: CaptchaStore,
    private readonly now: () => number = Date.now,
  ) {}

  async issue(): Promise<Captcha> {
    const now = this.now();
    if (now >= this.purgeAt) {
      this.purgeAt = now + PURGE_EVERY_MS;
      await this.store.purgeCaptchas(new Date(now - CAPTCHA_KEEP_AFTER_EXPIRY_MS));
    }
    const num1 = randomInt(CAPTCHA_MIN, CAPTCHA_MAX + 1);
    const num2 = randomInt(CAPTCHA_MIN, CAPTCHA_MAX + 1);
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    await this.store.saveCaptcha(captchaKey(token), num1 + num2, new Date(now + CAPTCHA_TTL_MS));
    return { num1, num2, token };
  }

  /**
   * Checks a token and its answer: a token this service did not issue (or long purged) is invalid; one checked
   * before, replayed; then expiry; then the answer. The challenge is used up by this check whatever its outcome.
   */
  async check(token: string, answer: number): Promise<CaptchaCheck> {
    if (!TOKEN_PATTERN.test(token)) return refuse('invalid');
    const taken = await this.store.takeCaptcha(captchaKey(token));
    if (taken === null) return refuse('invalid');
    if (taken === 'used') return refuse('replayed');
    if (taken.expiresAt.getTime() <= this.now()) return refuse('expired');
    if (answer !== taken.answer) return refuse('wrong');
    return { ok: true };
  }
}
