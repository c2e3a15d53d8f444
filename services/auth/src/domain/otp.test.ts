import { describe, expect, it } from 'vitest';
import { MAX_OTP_ATTEMPTS, OTP_TTL_MS, generateOtp, hashOtp, otpMatches, otpRefusal } from './otp.ts';
import { hashSessionToken, newSessionToken } from './session.ts';

const secret = 'unit-test-secret-0123456789';

describe('one-time codes', () => {
  it('are six digits, leading zeros kept', () => {
    const codes = Array.from({ length: 2000 }, generateOtp);
    for (const c of codes) expect(c).toMatch(/^\d{6}$/);
    expect(new Set(codes).size).toBeGreaterThan(1900);
  });

  it('are stored as a keyed hash bound to their request, never as the code', () => {
    const h = hashOtp(secret, 'req-1', '012345');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toContain('012345');
    expect(hashOtp(secret, 'req-2', '012345')).not.toBe(h);
    expect(hashOtp('another-secret-0123456789', 'req-1', '012345')).not.toBe(h);
  });

  it('match only the right code, and a decoy request matches nothing', () => {
    const record = { id: 'req-1', codeHash: hashOtp(secret, 'req-1', '482913') };
    expect(otpMatches(secret, record, '482913')).toBe(true);
    expect(otpMatches(secret, record, '482914')).toBe(false);
    expect(otpMatches(secret, { id: 'req-1', codeHash: null }, '482913')).toBe(false);
  });

  it('are refused when used, locked after the maximum of attempts, or expired', () => {
    const base = { id: 'r', email: 'a@b.c', codeHash: null, expiresAt: 1_000 + OTP_TTL_MS, attempts: 0, consumedAt: null, createdAt: 1_000 };
    expect(otpRefusal(null, 0)).toBe('unknown');
    expect(otpRefusal(base, 1_000)).toBeNull();
    expect(otpRefusal({ ...base, consumedAt: 5 }, 1_000)).toBe('used');
    expect(otpRefusal({ ...base, attempts: MAX_OTP_ATTEMPTS - 1 }, 1_000)).toBeNull();
    expect(otpRefusal({ ...base, attempts: MAX_OTP_ATTEMPTS }, 1_000)).toBe('locked');
    expect(otpRefusal(base, base.expiresAt - 1)).toBeNull();
    expect(otpRefusal(base, base.expiresAt)).toBe('expired');
  });
});

describe('session tokens', () => {
  it('are 256 random bits, stored as their sha256', () => {
    const t = newSessionToken();
    expect(Buffer.from(t, 'base64url')).toHaveLength(32);
    expect(newSessionToken()).not.toBe(t);
    expect(hashSessionToken(t)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSessionToken(t)).toBe(hashSessionToken(t));
  });
});
