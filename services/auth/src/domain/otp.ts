import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { OTP_LENGTH } from '@forgeline/contracts/auth';
import type { OtpRecord } from '../ports.ts';

/** A code is valid this long after it is sent. */
export const OTP_TTL_MS = 10 * 60_000;
/** Attempts allowed per code; the 6th attempt is refused even with the right code. */
export const MAX_OTP_ATTEMPTS = 5;

/** Six digits from the operating system's cryptographic random source, leading zeros kept. */
export function generateOtp(): string {
  return randomInt(0, 10 ** OTP_LENGTH)
    .toString()
    .padStart(OTP_LENGTH, '0');
}

/** The stored form of a code: HMAC-SHA256 under the server's key, bound to its request id. */
export function hashOtp(secret: string, otpId: string, code: string): string {
  return createHmac('sha256', secret).update(`${otpId}:${code}`).digest('hex');
}

/** Compares in constant time; a decoy record (no hash) is compared against a dummy so it takes the same time. */
export function otpMatches(secret: string, record: Pick<OtpRecord, 'id' | 'codeHash'>, code: string): boolean {
  const given = Buffer.from(hashOtp(secret, record.id, code), 'hex');
  const expected = Buffer.from(record.codeHash ?? '0'.repeat(64), 'hex');
  const same = given.length === expected.length && timingSafeEqual(given, expected);
  return same && record.codeHash !== null;
}

export type OtpRefusal = 'unknown' | 'used' | 'locked' | 'expired';

/** Why a code request can no longer be verified, or null when it can take another attempt. */
export function otpRefusal(record: OtpRecord | null, now: number): OtpRefusal | null {
  if (!record) return 'unknown';
  if (record.consumedAt !== null) return 'used';
  if (record.attempts >= MAX_OTP_ATTEMPTS) return 'locked';
  if (now >= record.expiresAt) return 'expired';
  return null;
}

export const refusalMessage: Record<OtpRefusal | 'wrong', string> = {
  unknown: 'Invalid OTP',
  wrong: 'Invalid OTP',
  used: 'This code was already used; request a new one',
  locked: 'Too many wrong codes; request a new one',
  expired: 'This code has expired; request a new one',
};
