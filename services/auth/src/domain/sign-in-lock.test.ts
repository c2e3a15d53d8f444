import { describe, expect, it } from 'vitest';
import { DEFAULT_SIGN_IN_LOCK, FAILURE_MEMORY_MS, giveBack, isLocked, lockLength, takeAttempt, type SignInLockRecord } from './sign-in-lock.ts';

const MIN = 60_000;
const T0 = Date.parse('2026-03-01T08:00:00Z');
const policy = DEFAULT_SIGN_IN_LOCK; // 10 failures, 15 minutes, doubling up to a day
const email = 'admin@example.com';

/** Applies a change the way a store does, returning the result and keeping the record. */
function ledger() {
  let record: SignInLockRecord | null = null;
  let n = 0;
  return {
    get record() {
      return record;
    },
    fail(t: number) {
      const { next, result } = takeAttempt(record, email, `a${n++}`, t, policy);
      if (next !== undefined) record = next;
      return result;
    },
    right(t: number) {
      const id = `a${n++}`;
      const taken = takeAttempt(record, email, id, t, policy);
      if (taken.next !== undefined) record = taken.next;
      if (!taken.result.allowed) return taken.result;
      const back = giveBack(record, id, t);
      if (back.next !== undefined) record = back.next;
      return taken.result;
    },
  };
}

describe('the account-level sign-in backoff', () => {
  it('locks an address at its 10th wrong code within a day, for 15 minutes', () => {
    const l = ledger();
    for (let i = 1; i < 10; i++) expect(l.fail(T0 + i * MIN)).toMatchObject({ allowed: true, lockStarted: false });
    expect(l.fail(T0 + 10 * MIN)).toMatchObject({ allowed: true, lockStarted: true });
    expect(l.record).toMatchObject({ failures: 10, locks: 1, lockedAt: T0 + 10 * MIN, lockedUntil: T0 + 25 * MIN });
    expect(isLocked(l.record, T0 + 25 * MIN - 1)).toBe(true);
    expect(isLocked(l.record, T0 + 25 * MIN)).toBe(false);
  });

  it('checks no code while locked, right or wrong, and does not count those attempts', () => {
    const l = ledger();
    for (let i = 0; i < 10; i++) l.fail(T0);
    const before = l.record;
    expect(l.right(T0 + MIN)).toMatchObject({ allowed: false, lock: { lockedUntil: T0 + 15 * MIN } });
    expect(l.fail(T0 + 2 * MIN)).toMatchObject({ allowed: false });
    expect(l.record).toEqual(before);
  });

  it('doubles the lock at each wrong code after one, up to a day', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => lockLength(policy, n) / MIN)).toEqual([15, 30, 60, 120, 240, 480, 960, 1440, 1440]);
    const l = ledger();
    for (let i = 0; i < 10; i++) l.fail(T0);
    let t = T0 + 15 * MIN;
    expect(l.fail(t)).toMatchObject({ allowed: true, lockStarted: true });
    expect(l.record!.lockedUntil! - t).toBe(30 * MIN);
    t = l.record!.lockedUntil!;
    l.fail(t);
    expect(l.record!.lockedUntil! - t).toBe(60 * MIN);
  });

  it('forgets the count a day after the first failure, or a day after the last lock ended', () => {
    const l = ledger();
    for (let i = 0; i < 9; i++) l.fail(T0);
    expect(l.fail(T0 + FAILURE_MEMORY_MS)).toMatchObject({ allowed: true, lockStarted: false });
    expect(l.record).toMatchObject({ failures: 1, windowStart: T0 + FAILURE_MEMORY_MS, locks: 0 });

    const m = ledger();
    for (let i = 0; i < 10; i++) m.fail(T0); // locked until T0 + 15 min
    expect(m.record!.forgetAt).toBe(T0 + 15 * MIN + FAILURE_MEMORY_MS);
    expect(m.fail(T0 + 15 * MIN + FAILURE_MEMORY_MS - 1)).toMatchObject({ lockStarted: true }); // still remembered: lock 2
    expect(m.record!.locks).toBe(2);
  });

  it('gives a right code its place back, so it never adds to the count', () => {
    const l = ledger();
    for (let i = 0; i < 9; i++) l.fail(T0);
    for (let i = 0; i < 3; i++) expect(l.right(T0 + i)).toMatchObject({ allowed: true });
    expect(l.record).toMatchObject({ failures: 9, locks: 0, lockedUntil: null });
  });

  it('lifts a lock that the right code itself started, but not one another attempt started', () => {
    const l = ledger();
    for (let i = 0; i < 9; i++) l.fail(T0);
    expect(l.right(T0 + 1)).toMatchObject({ allowed: true, lockStarted: true });
    expect(isLocked(l.record, T0 + 2)).toBe(false);
    expect(l.record).toMatchObject({ failures: 9, locks: 0 });

    // The right code's attempt (r) is under way when a wrong one (w) starts the lock: r's place goes back, the lock stays.
    let record: SignInLockRecord | null = null;
    for (let i = 0; i < 8; i++) record = takeAttempt(record, email, `f${i}`, T0, policy).next ?? record;
    record = takeAttempt(record, email, 'r', T0, policy).next!;
    const w = takeAttempt(record, email, 'w', T0, policy);
    expect(w.result).toMatchObject({ allowed: true, lockStarted: true });
    record = giveBack(w.next!, 'r', T0 + 1).next!;
    expect(isLocked(record, T0 + 2)).toBe(true);
    expect(record.failures).toBe(9);
  });
});
