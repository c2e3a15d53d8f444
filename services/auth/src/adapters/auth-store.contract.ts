import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthStore, OtpRecord, SessionRecord } from '../ports.ts';

const T0 = Date.parse('2026-01-01T00:00:00Z');

const otp = (over: Partial<OtpRecord> = {}): OtpRecord => ({
  id: randomUUID(),
  email: 'admin@example.com',
  codeHash: 'a'.repeat(64),
  expiresAt: T0 + 600_000,
  attempts: 0,
  consumedAt: null,
  createdAt: T0,
  ...over,
});
const session = (over: Partial<SessionRecord> = {}): SessionRecord => ({
  tokenHash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
  email: 'admin@example.com',
  expiresAt: T0 + 3_600_000,
  revokedAt: null,
  createdAt: T0,
  ...over,
});

/** The AuthStore contract: every adapter must pass it (sqlite always, mongo against FerretDB when it can start). */
export function describeAuthStore(name: string, factory: () => Promise<{ store: AuthStore; cleanup: () => Promise<void> }>) {
  describe(`AuthStore (${name})`, () => {
    let store: AuthStore;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ store, cleanup } = await factory());
    });
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });

    it('stores a code request and reads it back as written', async () => {
      const r = otp({ codeHash: null });
      await store.createOtp(r);
      expect(await store.getOtp(r.id)).toEqual(r);
      expect(await store.getOtp(randomUUID())).toBeNull();
    });

    it('counts attempts up to the maximum and then refuses to count more', async () => {
      const r = otp();
      await store.createOtp(r);
      for (let i = 1; i <= 5; i++) expect((await store.countOtpAttempt(r.id, 5))?.attempts).toBe(i);
      expect(await store.countOtpAttempt(r.id, 5)).toBeNull();
      expect((await store.getOtp(r.id))?.attempts).toBe(5);
      expect(await store.countOtpAttempt(randomUUID(), 5)).toBeNull();
    });

    it('consumes a code once, and a consumed code takes no more attempts', async () => {
      const r = otp();
      await store.createOtp(r);
      const results = await Promise.all([store.consumeOtp(r.id, T0 + 1), store.consumeOtp(r.id, T0 + 2)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await store.getOtp(r.id))?.consumedAt).not.toBeNull();
      expect(await store.countOtpAttempt(r.id, 5)).toBeNull();
    });

    it('counts concurrent attempts exactly', async () => {
      const r = otp();
      await store.createOtp(r);
      const results = await Promise.all(Array.from({ length: 8 }, () => store.countOtpAttempt(r.id, 5)));
      expect(results.filter((x) => x !== null)).toHaveLength(5);
      expect((await store.getOtp(r.id))?.attempts).toBe(5);
    });

    it('stores sessions by token hash and revokes them once', async () => {
      const s = session();
      await store.createSession(s);
      expect(await store.findSession(s.tokenHash)).toEqual(s);
      expect(await store.revokeSession(s.tokenHash, T0 + 5)).toBe(true);
      expect(await store.revokeSession(s.tokenHash, T0 + 6)).toBe(false);
      expect((await store.findSession(s.tokenHash))?.revokedAt).toBe(T0 + 5);
      expect(await store.findSession('f'.repeat(64))).toBeNull();
      expect(await store.revokeSession('f'.repeat(64), T0)).toBe(false);
    });

    it('counts rate hits per key in fixed windows, takes hits back and resets', async () => {
      const key = `k-${randomUUID()}`;
      const w = 60_000;
      const start = Math.floor(T0 / w) * w;
      expect(await store.hit(key, w, start + 10)).toEqual({ count: 1, resetAt: start + w });
      expect(await store.hit(key, w, start + 20)).toEqual({ count: 2, resetAt: start + w });
      expect((await store.hit(`other-${key}`, w, start + 20)).count).toBe(1);
      await store.unhit(key, w, start + 30);
      expect((await store.hit(key, w, start + 40)).count).toBe(2);
      expect(await store.hit(key, w, start + w)).toEqual({ count: 1, resetAt: start + 2 * w });
      await store.resetHits(key);
      expect((await store.hit(key, w, start + w + 1)).count).toBe(1);
    });

    it('counts concurrent rate hits exactly', async () => {
      const key = `c-${randomUUID()}`;
      const hits = await Promise.all(Array.from({ length: 10 }, () => store.hit(key, 60_000, T0)));
      expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it('purges expired codes, dead sessions and finished windows, keeping live ones', async () => {
      const later = T0 + 10 * 3_600_000;
      const liveOtp = otp({ expiresAt: later + 600_000 });
      const deadOtp = otp({ expiresAt: later - 1 });
      const liveSession = session({ expiresAt: later + 1 });
      const expiredSession = session({ expiresAt: later });
      const revokedSession = session({ expiresAt: later + 1, revokedAt: T0 });
      for (const r of [liveOtp, deadOtp]) await store.createOtp(r);
      for (const s of [liveSession, expiredSession, revokedSession]) await store.createSession(s);
      const key = `p-${randomUUID()}`;
      await store.hit(key, 60_000, T0);
      expect(await store.purgeExpired(later)).toBeGreaterThanOrEqual(4);
      expect(await store.getOtp(liveOtp.id)).not.toBeNull();
      expect(await store.getOtp(deadOtp.id)).toBeNull();
      expect(await store.findSession(liveSession.tokenHash)).not.toBeNull();
      expect(await store.findSession(expiredSession.tokenHash)).toBeNull();
      expect(await store.findSession(revokedSession.tokenHash)).toBeNull();
      expect((await store.hit(key, 60_000, later)).count).toBe(1);
    });

    it('answers ping', async () => {
      expect(await store.ping()).toBe(true);
    });
  });
}
