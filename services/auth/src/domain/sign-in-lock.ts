/**
 * The account-level backoff: failed codes are counted per address (whatever client or code request they come
 * from), and once an address has had `afterFailures` of them within a day it is locked, for `firstLockMs`, then
 * twice as long at each further failure, up to `maxLockMs`. While locked, no code for it is even checked.
 *
 * Pure functions over one record; the store applies them atomically (AuthStore.changeSignInLock), so every
 * replica counts the same. Every verify attempt takes its place in the count *before* its code is checked and
 * gives it back if the code was right: attempts sent at once can never get more codes checked than the count
 * allows.
 */

import type { LockChange, SignInLockRecord } from '../ports.ts';
// The record's shape is the store's (ports.ts); these are the rules over it.
export type { LockChange, SignInLockRecord };

const DAY_MS = 24 * 3_600_000;

/** How long failures are remembered: a day after the first, or after the last lock ended. */
export const FAILURE_MEMORY_MS = DAY_MS;

export interface SignInLockPolicy {
  /** Failed codes for one address within a day before it is locked. */
  afterFailures: number;
  /** The first lock; each next failure in the same count locks twice as long as the one before. */
  firstLockMs: number;
  maxLockMs: number;
}

export const DEFAULT_SIGN_IN_LOCK: SignInLockPolicy = { afterFailures: 10, firstLockMs: 15 * 60_000, maxLockMs: DAY_MS };

export const isLocked = (r: SignInLockRecord | null, now: number): r is SignInLockRecord & { lockedUntil: number } =>
  r !== null && r.lockedUntil !== null && now < r.lockedUntil;

/** The n-th lock of a count (1-based). */
export const lockLength = (policy: SignInLockPolicy, n: number) => Math.min(policy.firstLockMs * 2 ** Math.max(0, n - 1), policy.maxLockMs);

const forgetAt = (r: Pick<SignInLockRecord, 'windowStart' | 'lockedUntil'>) => Math.max(r.windowStart, r.lockedUntil ?? 0) + FAILURE_MEMORY_MS;

/** The record as it stands at `now`: a count whose day is over is forgotten. */
export function current(r: SignInLockRecord | null, now: number): SignInLockRecord | null {
  return r && now < r.forgetAt ? r : null;
}

export type Attempt =
  /** Locked: the code is not checked at all. */
  | { allowed: false; lock: SignInLockRecord & { lockedUntil: number } }
  /** The code may be checked; `lockStarted`: this attempt was the last one allowed and a lock runs from now. */
  | { allowed: true; lockStarted: boolean; record: SignInLockRecord };

/** Takes one verify attempt for `email`, counted as a failure until `giveBack` says its code was right. */
export function takeAttempt(stored: SignInLockRecord | null, email: string, attemptId: string, now: number, policy: SignInLockPolicy): LockChange<Attempt> {
  const r = current(stored, now) ?? { email, failures: 0, windowStart: now, locks: 0, lockedAt: null, lockedUntil: null, lockedBy: null, forgetAt: now + FAILURE_MEMORY_MS };
  if (isLocked(r, now)) return { next: undefined, result: { allowed: false, lock: r } };
  const failures = r.failures + 1;
  if (failures < policy.afterFailures) {
    const next = { ...r, failures };
    return { next, result: { allowed: true, lockStarted: false, record: next } };
  }
  const locks = r.locks + 1;
  const lockedUntil = now + lockLength(policy, locks);
  const next = { ...r, failures, locks, lockedAt: now, lockedUntil, lockedBy: attemptId, forgetAt: forgetAt({ windowStart: r.windowStart, lockedUntil }) };
  return { next, result: { allowed: true, lockStarted: true, record: next } };
}

/**
 * Gives an attempt's place back: its code was right, or was never checked (the code request died meanwhile).
 * A lock that this very attempt started ends with it; a lock started by another attempt stays.
 */
export function giveBack(stored: SignInLockRecord | null, attemptId: string, now: number): LockChange<void> {
  const r = current(stored, now);
  if (!r) return { next: undefined, result: undefined };
  const failures = Math.max(0, r.failures - 1);
  if (failures === 0 && r.locks === 0) return { next: null, result: undefined }; // nothing left to remember
  if (r.lockedBy !== attemptId || !isLocked(r, now)) return { next: { ...r, failures }, result: undefined };
  const locks = r.locks - 1;
  const lockedUntil = locks > 0 ? now : null; // the lock before this one ended already
  return {
    next: { ...r, failures, locks, lockedAt: locks > 0 ? r.lockedAt : null, lockedUntil, lockedBy: null, forgetAt: forgetAt({ windowStart: r.windowStart, lockedUntil }) },
    result: undefined,
  };
}
