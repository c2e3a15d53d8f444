import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditListResponseSchema, LiftSignInLockResponseSchema, SignInLockListResponseSchema } from '@forgeline/contracts/admin-access';
import { DEFAULT_RATE_LIMITS } from '../src/app.ts';
import { ADMIN, SECOND_ADMIN, startAuth, type AuthHarness } from './harness.ts';

/*
 * The account-level backoff (review finding: per-address and per-client limits let a guesser spread over many
 * addresses and code requests try about 2,400 codes a day per admin). Every guess here comes from another client
 * address (X-Forwarded-For, which the service believes from loopback), so only the count per admin address stops it.
 */

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const LOCKED = /^Too many wrong codes for this address: sign-in is locked for \d+ minutes?\. Another admin can lift the lock sooner\.$/;

describe('account-level sign-in backoff', () => {
  let auth: AuthHarness;
  let client = 0;
  /** Each call from a client address never seen before. */
  const from = () => ({ 'x-forwarded-for': `198.51.${Math.floor(++client / 250)}.${(client % 250) + 1}` });

  beforeEach(async () => {
    // The per-address limit on code requests is raised so that what these tests meet is the lock, not that limit.
    auth = await startAuth({ rateLimits: { ...DEFAULT_RATE_LIMITS, sendPerEmail: 1_000 } });
  });
  afterEach(async () => {
    await auth.stop();
  });

  const requestCode = async (email = ADMIN) => {
    const r = await auth.post('/api/admin/auth/send-otp', { email }, from());
    expect(r.status).toBe(200);
    return r.body.sessionId as string;
  };
  const guess = (sessionId: string, otp: string) => auth.post('/api/admin/auth/verify-otp', { sessionId, otp }, from());
  /** `n` wrong codes for an admin address, two per code request, each from another client; the answers' statuses. */
  async function guessWrong(n: number, email = ADMIN): Promise<{ statuses: number[]; last: Awaited<ReturnType<typeof guess>> }> {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof guess>> | undefined;
    while (statuses.length < n) {
      const sessionId = await requestCode(email);
      const wrong = email === ADMIN || email === SECOND_ADMIN ? wrongCode(await auth.codeFor(sessionId)) : '000000';
      for (let k = 0; k < 2 && statuses.length < n; k++) {
        last = await guess(sessionId, wrong);
        statuses.push(last.status);
      }
    }
    return { statuses, last: last! };
  }
  const staffCall = async (method: string, path: string, actor: Parameters<AuthHarness['asAdmin']>[0] = SECOND_ADMIN) => {
    const res = await fetch(auth.url + path, { method, headers: await auth.asAdmin(actor) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const locks = async () => SignInLockListResponseSchema.parse((await staffCall('GET', '/api/admin/sign-in-locks')).body).locks;
  const auditEntries = async (action: string) =>
    AuditListResponseSchema.parse((await staffCall('GET', `/api/admin/audit?action=${action}&limit=200`)).body).entries.filter((e) => e.action === action);

  it('locks an admin address after 10 wrong codes from many clients, refuses even the right code alike, and a second admin lifts it', async () => {
    const spare = await requestCode(); // a live code the guesser does not know
    const spareCode = await auth.codeFor(spare);

    const { statuses, last } = await guessWrong(10);
    expect(statuses).toEqual([...Array(9).fill(401), 429]);
    expect(last.body.message).toMatch(LOCKED);
    expect(last.headers.get('retry-after')).toBe(String(15 * 60));

    // While locked: a wrong and the right code get the very same answer, and neither is checked or counted.
    auth.advance(MIN);
    const wrong = await guess(spare, wrongCode(spareCode));
    const right = await guess(spare, spareCode);
    expect(right.status).toBe(429);
    expect({ status: right.status, message: right.body.message, retryAfter: right.headers.get('retry-after') }).toEqual({
      status: wrong.status,
      message: wrong.body.message,
      retryAfter: wrong.headers.get('retry-after'),
    });
    expect(Object.keys(right.body).sort()).toEqual(Object.keys(wrong.body).sort());
    expect(right.body.message).toMatch(LOCKED);

    // send-otp answers as for any address; no code goes out, only one notice for this lock, however often asked.
    const mailsBefore = (await auth.mails()).length;
    const asked = await auth.post('/api/admin/auth/send-otp', { email: ADMIN }, from());
    const stranger = await auth.post('/api/admin/auth/send-otp', { email: 'curious@example.com' }, from());
    expect(asked.status).toBe(200);
    expect(Object.keys(asked.body).sort()).toEqual(Object.keys(stranger.body).sort());
    await requestCode();
    const newMails = (await auth.mails()).slice(mailsBefore);
    expect(newMails.some((m) => m.includes(`otp-${asked.body.sessionId as string}@`))).toBe(false);
    expect(newMails.filter((m) => /sign-in code is \d{6}/.test(m))).toEqual([]);
    expect(newMails).toHaveLength(1);
    expect(newMails[0]).toContain('Subject: Forgeline Parts admin sign-in locked');
    expect(newMails[0]).toContain(`To: ${ADMIN}`);

    // Staff see it (another admin address is not affected); the audit log has the lock.
    expect(await locks()).toEqual([
      expect.objectContaining({ email: ADMIN, failures: 10, locks: 1, locked: true, lockedUntil: new Date(auth.now() + 14 * MIN).toISOString() }),
    ]);
    expect((await auth.signIn(SECOND_ADMIN)).email).toBe(SECOND_ADMIN);
    const [locked] = await auditEntries('sign-in.locked');
    expect(locked).toMatchObject({ actorKind: 'anonymous', status: 429 });
    expect(locked!.target).toContain(ADMIN);

    // The lock over, the next wrong code locks again, twice as long.
    auth.advance(14 * MIN);
    const again = await guessWrong(1);
    expect(again.statuses).toEqual([429]);
    expect(again.last.headers.get('retry-after')).toBe(String(30 * 60));
    expect(await locks()).toEqual([expect.objectContaining({ email: ADMIN, failures: 11, locks: 2, locked: true })]);
    expect(await auditEntries('sign-in.locked')).toHaveLength(2);

    // Only staff lift it: not an API key, not the admin locked out (a second person vouches), and another admin can.
    const key = { kind: 'api_key' as const, name: 'key:ERP sync', keyId: 'k1', scopes: ['catalog:read' as const, 'catalog:write' as const] };
    const lockPath = `/api/admin/sign-in-locks/${encodeURIComponent(ADMIN)}`;
    expect((await staffCall('GET', '/api/admin/sign-in-locks', key)).status).toBe(403);
    expect((await staffCall('DELETE', lockPath, key)).status).toBe(403);
    const own = await staffCall('DELETE', lockPath, ADMIN);
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/your own address/);
    const lifted = await staffCall('DELETE', lockPath);
    expect(lifted.status).toBe(200);
    expect(LiftSignInLockResponseSchema.parse(lifted.body).lifted).toMatchObject({ email: ADMIN, failures: 11, locks: 2, locked: true });
    expect((await staffCall('DELETE', lockPath)).status).toBe(404);
    expect(await locks()).toEqual([]);
    const [unlocked] = await auditEntries('sign-in.unlocked');
    expect(unlocked).toMatchObject({ actor: SECOND_ADMIN, actorKind: 'admin', target: ADMIN, status: 200 });

    // Lifted: the right code signs in.
    expect((await auth.signIn(ADMIN)).email).toBe(ADMIN);
  });

  it('forgets the count after a day: 9 wrong codes a day never lock', async () => {
    expect((await guessWrong(9)).statuses).toEqual(Array(9).fill(401));
    auth.advance(DAY);
    expect((await guessWrong(9)).statuses).toEqual(Array(9).fill(401));
    expect(await locks()).toEqual([expect.objectContaining({ email: ADMIN, failures: 9, locked: false })]);
    expect((await guessWrong(1)).statuses).toEqual([429]);
  });

  it('lets the right code through as the 10th attempt without counting it', async () => {
    await guessWrong(9);
    expect((await auth.signIn(ADMIN)).email).toBe(ADMIN);
    expect(await locks()).toEqual([expect.objectContaining({ email: ADMIN, failures: 9, locks: 0, locked: false })]);
    expect((await guessWrong(1)).statuses).toEqual([429]);
  });

  it('checks no more than 10 codes of a burst of 25 guesses sent at once', async () => {
    const codes = await Promise.all(Array.from({ length: 5 }, () => requestCode()));
    const wrongs = await Promise.all(codes.map(async (id) => wrongCode(await auth.codeFor(id))));
    const answers = await Promise.all(codes.flatMap((id, i) => Array.from({ length: 5 }, () => guess(id, wrongs[i]!))));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(9);
    expect(statuses.filter((s) => s === 429)).toHaveLength(16);
    expect(await locks()).toEqual([expect.objectContaining({ failures: 10, locks: 1 })]);
  });

  it('locks any address alike, so its answers tell no admin from another; staff see only admin addresses', async () => {
    const stranger = 'curious@example.com';
    const { statuses, last } = await guessWrong(10, stranger);
    expect(statuses).toEqual([...Array(9).fill(401), 429]);
    expect(last.body.message).toMatch(LOCKED);
    expect(last.headers.get('retry-after')).toBe(String(15 * 60));
    expect((await auth.post('/api/admin/auth/send-otp', { email: stranger }, from())).status).toBe(200);
    expect(await locks()).toEqual([]);
    expect(await auditEntries('sign-in.locked')).toEqual([]);
    expect((await staffCall('DELETE', `/api/admin/sign-in-locks/${stranger}`)).status).toBe(404);
    expect((await staffCall('DELETE', '/api/admin/sign-in-locks/not-an-address')).status).toBe(400);
    // Admin addresses are untouched.
    expect((await auth.signIn(ADMIN)).email).toBe(ADMIN);
  });
});
