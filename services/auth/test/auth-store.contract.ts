import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyRecord, AuditRecord, AuthStore, OtpRecord, OutboxMailRecord, SessionRecord } from '../src/ports.ts';
import { DEFAULT_SIGN_IN_LOCK, takeAttempt, type SignInLockRecord } from '../src/domain/sign-in-lock.ts';

const T0 = Date.parse('2026-01-01T00:00:00Z');

const otp = (over: Partial<OtpRecord> = {}): OtpRecord => ({
  id: randomUUID(),
  email: 'admin@example.com',
  codeHash: 'a'.repeat(64),
  expiresAt: T0 + 600_000,
  attempts: 0,
  consumedAt: null,
  createdAt: T0,
  audience: 'staff',
  ...over,
});
const mailFor = (r: OtpRecord, over: Partial<OutboxMailRecord> = {}): OutboxMailRecord => ({
  id: r.id,
  refId: r.id,
  // The store keeps what it is given; the app gives it sealed mails only (domain/mail-seal.ts).
  sealed: `v1.${randomUUID()}.${randomUUID()}`,
  expiresAt: r.expiresAt,
  createdAt: r.createdAt,
  ...over,
});
const session = (over: Partial<SessionRecord> = {}): SessionRecord => ({
  tokenHash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
  email: 'admin@example.com',
  expiresAt: T0 + 3_600_000,
  revokedAt: null,
  createdAt: T0,
  lastSeenAt: T0,
  audience: 'staff',
  ...over,
});
const apiKey = (over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: randomUUID(),
  name: 'ERP sync',
  prefix: 'flk_abcd1234',
  keyHash: randomUUID().replace(/-/g, '').padEnd(64, '1'),
  scopes: ['catalog:read', 'catalog:write'],
  createdBy: 'admin@example.com',
  createdAt: T0,
  lastUsedAt: null,
  revokedAt: null,
  ...over,
});
const audit = (over: Partial<AuditRecord> = {}): AuditRecord => ({
  id: randomUUID(),
  at: T0,
  actor: 'admin@example.com',
  actorKind: 'admin',
  action: 'product.update',
  target: 'PATCH /api/admin/products/p1',
  ip: '203.0.113.7',
  status: 200,
  requestId: 'req-1',
  ...over,
});

/** The AuthStore contract: every adapter must pass it (sqlite always, mongo against FerretDB when it can start). */
export function describeAuthStore(
  name: string,
  factory: () => Promise<{
    store: AuthStore;
    cleanup: () => Promise<void>;
    /** A second store on the same data, as another replica opens it; absent where that cannot be atomic (FerretDB 1.x). */
    replica?: () => Promise<AuthStore>;
  }>,
) {
  describe(`AuthStore (${name})`, () => {
    let store: AuthStore;
    let cleanup: () => Promise<void>;
    let replica: (() => Promise<AuthStore>) | undefined;
    beforeAll(async () => {
      ({ store, cleanup, replica } = await factory());
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

    it("keeps whom a code and a session are for (a buyer's, staff's), and reads an older record without it as staff's", async () => {
      const code = otp({ audience: 'buyer', email: 'planner@quarry.example' });
      await store.createOtp(code);
      expect(await store.getOtp(code.id)).toEqual(code);
      const s = session({ audience: 'buyer', email: 'planner@quarry.example' });
      await store.createSession(s);
      expect(await store.findSession(s.tokenHash)).toEqual(s);
      const { audience: _a, ...older } = otp();
      await store.createOtp(older);
      expect((await store.getOtp(older.id))?.audience).toBe('staff');
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

    it("keeps a code's mail with its request, hands it to one claimer at a time and forgets it once sent", async () => {
      const r = otp({ email: `a-${randomUUID().slice(0, 8)}@example.com` });
      const before = await store.pendingMails();
      const mail = mailFor(r);
      await store.createOtp(r, mail);
      expect(await store.getOtp(r.id)).toEqual(r);
      expect(await store.pendingMails()).toBe(before + 1);
      const now = new Date(T0 + 1);
      const claims = await Promise.all([store.claimDueMails(now, 50, 1_000), store.claimDueMails(now, 50, 1_000), store.claimDueMails(now, 50, 1_000)]);
      const mine = claims.flat().filter((m) => m.id === r.id);
      expect(mine).toEqual([{ id: r.id, refId: r.id, sealed: mail.sealed, attempts: 1 }]);
      // Leased: nobody else gets it until the lease ends; then it is claimed again (its claimer died).
      expect((await store.claimDueMails(new Date(T0 + 500), 50, 1_000)).some((m) => m.id === r.id)).toBe(false);
      const again = (await store.claimDueMails(new Date(T0 + 1_001), 50, 1_000)).find((m) => m.id === r.id);
      expect(again?.attempts).toBe(2);
      // The metrics' backlog (#37): it waits, it was tried, and it is the oldest of what waits at most.
      const backlog = await store.mailBacklog();
      expect(backlog.pending).toBe(before + 1);
      expect(backlog.failing).toBeGreaterThanOrEqual(1);
      expect(backlog.oldestAt!.getTime()).toBeLessThanOrEqual(mail.createdAt);
      await store.deleteMail(r.id); // sent
      expect(await store.pendingMails()).toBe(before);
      expect((await store.claimDueMails(new Date(T0 + 5_000), 50, 1_000)).some((m) => m.id === r.id)).toBe(false);
    });

    it('retries a failed mail when it comes due, and deletes one whose code expired instead of handing it out', async () => {
      const r = otp({ expiresAt: T0 + 60_000 });
      await store.createOtp(r, mailFor(r));
      const first = (await store.claimDueMails(new Date(T0), 50, 30_000)).find((m) => m.id === r.id);
      expect(first?.attempts).toBe(1);
      await store.markFailed(r.id, new Date(T0 + 2_000), 'connect ECONNREFUSED 127.0.0.1:25');
      // Marked failed: the lease is over, but the mail waits for its retry time.
      expect((await store.claimDueMails(new Date(T0 + 1_999), 50, 30_000)).some((m) => m.id === r.id)).toBe(false);
      const retry = (await store.claimDueMails(new Date(T0 + 2_000), 50, 30_000)).find((m) => m.id === r.id);
      expect(retry?.attempts).toBe(2);
      await store.markFailed(r.id, new Date(T0 + 4_000), 'still down');
      const pending = await store.pendingMails();
      expect((await store.claimDueMails(new Date(T0 + 60_000), 50, 30_000)).some((m) => m.id === r.id)).toBe(false);
      expect(await store.pendingMails()).toBeLessThan(pending); // gone at the first claim past its expiry
      expect(await store.purgeExpired(T0 + 60_000)).toBeGreaterThanOrEqual(1); // the code
      expect(await store.getOtp(r.id)).toBeNull();
    });

    it('adds a mail of its own once by id (a lock notice) and hands it out like a code mail', async () => {
      const id = `lock-${randomUUID()}`;
      const mail: OutboxMailRecord = { id, refId: randomUUID(), sealed: 'v1.a.b', expiresAt: T0 + 900_000, createdAt: T0 };
      expect(await store.enqueueMail(mail)).toBe(true);
      expect(await store.enqueueMail({ ...mail, sealed: 'v1.c.d' })).toBe(false);
      const claimed = (await store.claimDueMails(new Date(T0 + 1), 50, 1_000)).filter((m) => m.id === id);
      expect(claimed).toEqual([{ id, refId: mail.refId, sealed: 'v1.a.b', attempts: 1 }]);
      await store.deleteMail(id);
    });

    it('changes a sign-in lock record atomically: creates, reads, lists, leaves, deletes', async () => {
      const email = `lock-${randomUUID().slice(0, 8)}@example.com`;
      expect(await store.getSignInLock(email)).toBeNull();
      const record: SignInLockRecord = { email, failures: 1, windowStart: T0, locks: 0, lockedAt: null, lockedUntil: null, lockedBy: null, forgetAt: T0 + 86_400_000 };
      expect(await store.changeSignInLock(email, (stored) => ({ next: record, result: stored }))).toBeNull();
      expect(await store.getSignInLock(email)).toEqual(record);
      const locked = { ...record, failures: 10, locks: 1, lockedAt: T0 + 5, lockedUntil: T0 + 900_005, lockedBy: 'attempt-1', forgetAt: T0 + 87_300_005 };
      expect(await store.changeSignInLock(email, (stored) => ({ next: locked, result: stored?.failures }))).toBe(1);
      expect(await store.getSignInLock(email)).toEqual(locked);
      expect((await store.listSignInLocks()).find((r) => r.email === email)).toEqual(locked);
      expect(await store.changeSignInLock(email, () => ({ next: undefined, result: 'left' }))).toBe('left');
      expect(await store.getSignInLock(email)).toEqual(locked);
      await store.changeSignInLock(email, () => ({ next: null, result: undefined }));
      expect(await store.getSignInLock(email)).toBeNull();
      expect(await store.changeSignInLock(email, (stored) => ({ next: null, result: stored }))).toBeNull(); // nothing to delete
    });

    it('counts concurrent failed codes for one address exactly, and locks it once', async () => {
      const email = `busy-${randomUUID().slice(0, 8)}@example.com`;
      const results = await Promise.all(
        Array.from({ length: 14 }, (_, i) => store.changeSignInLock(email, (stored) => takeAttempt(stored, email, `a${i}`, T0, DEFAULT_SIGN_IN_LOCK))),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(DEFAULT_SIGN_IN_LOCK.afterFailures);
      expect(results.filter((r) => r.allowed && r.lockStarted)).toHaveLength(1);
      expect(results.filter((r) => !r.allowed)).toHaveLength(14 - DEFAULT_SIGN_IN_LOCK.afterFailures);
      expect(await store.getSignInLock(email)).toMatchObject({ failures: DEFAULT_SIGN_IN_LOCK.afterFailures, locks: 1, lockedUntil: T0 + DEFAULT_SIGN_IN_LOCK.firstLockMs });
    });

    it('counts failed codes sent to two replicas at once exactly', async (ctx) => {
      if (!replica) return ctx.skip(`no second store on the same data for ${name}: its test server does not make concurrent writes atomic`);
      const other = await replica();
      try {
        const email = `both-${randomUUID().slice(0, 8)}@example.com`;
        const policy = { ...DEFAULT_SIGN_IN_LOCK, afterFailures: 30 };
        const results = await Promise.all(
          Array.from({ length: 24 }, (_, i) => (i % 2 ? other : store).changeSignInLock(email, (stored) => takeAttempt(stored, email, `r${i}`, T0, policy))),
        );
        expect(results.every((r) => r.allowed)).toBe(true);
        expect((await store.getSignInLock(email))?.failures).toBe(24);
      } finally {
        await other.close();
      }
    });

    it('forgets a sign-in count at its time, keeping live ones', async () => {
      const base = { failures: 3, windowStart: T0, locks: 0, lockedAt: null, lockedUntil: null, lockedBy: null };
      const gone = `gone-${randomUUID().slice(0, 8)}@example.com`;
      const kept = `kept-${randomUUID().slice(0, 8)}@example.com`;
      await store.changeSignInLock(gone, () => ({ next: { ...base, email: gone, forgetAt: T0 + 1_000 }, result: undefined }));
      await store.changeSignInLock(kept, () => ({ next: { ...base, email: kept, forgetAt: T0 + 1_001 }, result: undefined }));
      expect(await store.purgeExpired(T0 + 1_000)).toBeGreaterThanOrEqual(1);
      expect(await store.getSignInLock(gone)).toBeNull();
      expect(await store.getSignInLock(kept)).not.toBeNull();
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

    it('moves a session\'s last call forward, never back', async () => {
      const s = session();
      await store.createSession(s);
      await store.touchSession(s.tokenHash, T0 + 100);
      expect((await store.findSession(s.tokenHash))?.lastSeenAt).toBe(T0 + 100);
      await store.touchSession(s.tokenHash, T0 + 50);
      expect((await store.findSession(s.tokenHash))?.lastSeenAt).toBe(T0 + 100);
      await store.touchSession('e'.repeat(64), T0); // unknown: nothing happens
    });

    it('stores API keys by hash, lists them newest first, records use and revokes once', async () => {
      const older = apiKey({ createdAt: T0 - 10, scopes: ['quotes:read'] });
      const newer = apiKey({ name: 'Inbox bot', createdAt: T0 + 10 });
      await store.createApiKey(older);
      await store.createApiKey(newer);
      expect(await store.findApiKeyByHash(older.keyHash)).toEqual(older);
      expect(await store.findApiKeyByHash('0'.repeat(64))).toBeNull();
      const ids = (await store.listApiKeys()).map((k) => k.id);
      expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
      await store.touchApiKey(newer.id, T0 + 20);
      expect((await store.findApiKeyByHash(newer.keyHash))?.lastUsedAt).toBe(T0 + 20);
      expect(await store.revokeApiKey(newer.id, T0 + 30)).toBe(true);
      expect(await store.revokeApiKey(newer.id, T0 + 31)).toBe(false);
      expect(await store.revokeApiKey(randomUUID(), T0)).toBe(false);
      expect((await store.findApiKeyByHash(newer.keyHash))?.revokedAt).toBe(T0 + 30);
      await expect(store.createApiKey(apiKey({ keyHash: older.keyHash }))).rejects.toThrow();
    });

    it('keeps the audit log newest first, filters it, pages it by position and purges old entries', async () => {
      const actor = `ops-${randomUUID().slice(0, 8)}@example.com`;
      const base = T0 + 1_000_000;
      const entries = Array.from({ length: 7 }, (_, i) =>
        audit({ actor, at: base + Math.floor(i / 2), action: i % 2 ? 'catalog.import' : 'product.update' }),
      );
      await store.appendAudit(entries);
      await store.appendAudit([entries[0]!]); // a batch sent again: no duplicate
      const all = await store.listAudit({ actor: actor.toUpperCase().slice(0, 12), limit: 50 });
      expect(all).toHaveLength(7);
      expect(all.map((e) => e.at)).toEqual([...all.map((e) => e.at)].sort((a, b) => b - a));
      expect(all.find((e) => e.id === entries[0]!.id)).toEqual(entries[0]);
      expect((await store.listAudit({ actor, action: 'catalog.', limit: 50 })).map((e) => e.action)).toEqual(['catalog.import', 'catalog.import', 'catalog.import']);
      expect(await store.listAudit({ actor, from: base + 3, limit: 50 })).toHaveLength(1);
      expect(await store.listAudit({ actor, to: base, limit: 50 })).toHaveLength(2);
      expect(await store.listAudit({ actor: '100%_', limit: 50 })).toEqual([]); // wildcards are literal
      // Pages of 3 by (at, id) position: every entry once, in order.
      const seen: string[] = [];
      let before: { at: number; id: string } | undefined;
      for (;;) {
        const page = await store.listAudit({ actor, limit: 3, before });
        seen.push(...page.map((e) => e.id));
        if (page.length < 3) break;
        const last = page[page.length - 1]!;
        before = { at: last.at, id: last.id };
      }
      expect(seen).toEqual(all.map((e) => e.id));
      expect(await store.purgeAudit(base + 3)).toBeGreaterThanOrEqual(6);
      expect((await store.listAudit({ actor, limit: 50 })).map((e) => e.at)).toEqual([base + 3]);
    });

    it('answers ping', async () => {
      expect(await store.ping()).toBe(true);
    });
  });
}
