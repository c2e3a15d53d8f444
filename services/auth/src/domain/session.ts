import { createHash, randomBytes } from 'node:crypto';
import type { SessionRecord } from '../ports.ts';

/** An opaque bearer token: 32 random bytes, base64url. Only its hash is stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export type SessionRefusal = 'unknown' | 'revoked' | 'expired' | 'idle';

/** Why a session no longer signs anyone in: absolute lifetime (`expiresAt`), or unused for `idleMs`. */
export function sessionRefusal(record: SessionRecord | null, now: number, idleMs = Infinity): SessionRefusal | null {
  if (!record) return 'unknown';
  if (record.revokedAt !== null) return 'revoked';
  if (now >= record.expiresAt) return 'expired';
  if (now - record.lastSeenAt >= idleMs) return 'idle';
  return null;
}

export const sessionRefusalMessage: Record<SessionRefusal, string> = {
  unknown: 'Invalid session token',
  revoked: 'Session has been logged out',
  expired: 'Session expired',
  idle: 'Session expired after a period without use',
};
