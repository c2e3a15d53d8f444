import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import path from 'node:path';
import { AuthConfigResponseSchema } from '@forgeline/contracts/auth';
import { ADMIN, SECOND_ADMIN, SERVICE_TOKEN, startAuth, type AuthHarness } from './harness.ts';

const MIN = 60_000;
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('admin sign-in over HTTP', () => {
  let auth: AuthHarness;
  beforeEach(async () => {
    auth = await startAuth();
  });
  afterEach(async () => {
    await auth.stop();
  });

  it('tells the login screen which address to prefill: the first admin address', async () => {
    const res = await fetch(`${auth.url}/api/admin/auth/config`);
    expect(await res.json()).toEqual({ defaultEmail: ADMIN });
  });

  it('names no address to anyone when the prefill is off (ADMIN_EMAIL_PREFILL=false), and sign-in works as before', async () => {
    const off = await startAuth({ adminEmailPrefill: false });
    try {
      const res = await fetch(`${off.url}/api/admin/auth/config`);
      expect(res.status).toBe(200);
      expect(AuthConfigResponseSchema.parse(await res.json())).toEqual({ defaultEmail: '' });
      expect((await off.signIn(ADMIN)).email).toBe(ADMIN);
    } finally {
      await off.stop();
    }
  });

  it('signs an admin in with the mailed code and returns token, email and expiresAt 12 hours on', async () => {
    const sessionId = await auth.sendOtp('  Admin@Forgeline-Parts.example ');
    const code = await auth.codeFor(sessionId);
    expect(code).toMatch(/^\d{6}$/);
    const r = await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: code });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, email: ADMIN });
    expect(r.body.token).toMatch(/^[\w-]{40,}$/);
    expect(r.body.expiresAt).toBe(new Date(auth.now() + 12 * 3_600_000).toISOString());
    const check = await auth.verifySession(r.body.token as string);
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ email: ADMIN, expiresAt: r.body.expiresAt });
  });

  it('stores neither the code nor the session token in the clear', async () => {
    const sessionId = await auth.sendOtp();
    const code = await auth.codeFor(sessionId);
    const { token } = await (async () => {
      const r = await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: code });
      return r.body as { token: string };
    })();
    const db = new Database(path.join(auth.dir, 'auth.sqlite'), { readonly: true });
    const dump = JSON.stringify([db.prepare('SELECT * FROM otp_requests').all(), db.prepare('SELECT * FROM sessions').all()]);
    // The code's mail held the code until the mail server took it; a sent mail is not kept.
    expect(db.prepare('SELECT * FROM mail_outbox WHERE id = ?').all(sessionId)).toEqual([]);
    db.close();
    expect(dump).not.toContain(token);
    expect(dump).not.toMatch(new RegExp(`"${code}"`));
  });

  it('answers a non-admin address exactly like an admin one but mails it nothing, and its session never verifies', async () => {
    const admin = await auth.post('/api/admin/auth/send-otp', { email: ADMIN });
    const stranger = await auth.post('/api/admin/auth/send-otp', { email: 'curious@example.com' });
    expect(stranger.status).toBe(admin.status);
    expect(Object.keys(stranger.body).sort()).toEqual(Object.keys(admin.body).sort());
    expect(stranger.body.success).toBe(true);
    const mails = await auth.mails();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`To: ${ADMIN}`);
    const r = await auth.post('/api/admin/auth/verify-otp', { sessionId: stranger.body.sessionId, otp: '123456' });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Invalid OTP');
  });

  it('mails a code to every configured admin address', async () => {
    const s = await auth.signIn(SECOND_ADMIN);
    expect(s.email).toBe(SECOND_ADMIN);
  });

  it('refuses a malformed address or code with 400 naming the field', async () => {
    const bad = await auth.post('/api/admin/auth/send-otp', { email: 'not-an-address' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('email');
    const sessionId = await auth.sendOtp();
    for (const otp of ['12345', '1234567', 'abcdef', 123456]) {
      const r = await auth.post('/api/admin/auth/verify-otp', { sessionId, otp });
      expect(r.status, `otp ${String(otp)}`).toBe(400);
      expect(r.body.message).toContain('otp');
    }
    // malformed input is not an attempt: the right code still works
    expect((await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: await auth.codeFor(sessionId) })).status).toBe(200);
  });

  it('refuses a wrong code with 401 "Invalid OTP"', async () => {
    const sessionId = await auth.sendOtp();
    const r = await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: wrongCode(await auth.codeFor(sessionId)) });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Invalid OTP');
  });

  it('accepts the right code on the 5th attempt after 4 wrong ones', async () => {
    const sessionId = await auth.sendOtp();
    const code = await auth.codeFor(sessionId);
    for (let i = 0; i < 4; i++) expect((await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: wrongCode(code) })).status).toBe(401);
    expect((await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: code })).status).toBe(200);
  });

  it('kills the code after 5 wrong attempts: the 6th is refused even with the right code', async () => {
    const sessionId = await auth.sendOtp();
    const code = await auth.codeFor(sessionId);
    for (let i = 0; i < 5; i++) expect((await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: wrongCode(code) })).status).toBe(401);
    const r = await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: code });
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/too many/i);
    // a fresh code request works again
    await auth.signIn();
  });

  it('refuses a code after its 10 minutes', async () => {
    const sessionId = await auth.sendOtp();
    const code = await auth.codeFor(sessionId);
    auth.advance(10 * MIN - 1);
    const sessionId2 = await auth.sendOtp();
    const code2 = await auth.codeFor(sessionId2);
    auth.advance(1);
    const r = await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: code });
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/expired/i);
    // the one sent a moment later is still valid
    expect((await auth.post('/api/admin/auth/verify-otp', { sessionId: sessionId2, otp: code2 })).status).toBe(200);
  });

  it('refuses a code used once already', async () => {
    const sessionId = await auth.sendOtp();
    const code = await auth.codeFor(sessionId);
    expect((await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: code })).status).toBe(200);
    const again = await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: code });
    expect(again.status).toBe(401);
    expect(again.body.message).toMatch(/already used/i);
  });

  it('lets exactly one of two simultaneous verifies with the right code through', async () => {
    const sessionId = await auth.sendOtp();
    const code = await auth.codeFor(sessionId);
    const results = await Promise.all([0, 1, 2].map(() => auth.post('/api/admin/auth/verify-otp', { sessionId, otp: code })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });

  it('refuses an unknown code request id', async () => {
    const r = await auth.post('/api/admin/auth/verify-otp', { sessionId: 'b3c1d7c0-0000-4000-8000-000000000000', otp: '123456' });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Invalid OTP');
  });

  it('ends a session after its 12 hours', async () => {
    const { token } = await auth.signIn();
    auth.advance(12 * 3_600_000 - 1);
    expect((await auth.verifySession(token)).status).toBe(200);
    auth.advance(1);
    const r = await auth.verifySession(token);
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Session expired');
  });

  it('revokes a session at logout, at once, and logout is idempotent', async () => {
    const { token } = await auth.signIn();
    const other = await auth.signIn();
    const out = await auth.post('/api/admin/auth/logout', {}, { authorization: `Bearer ${token}` });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    const r = await auth.verifySession(token);
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/logged out/);
    expect((await auth.verifySession(other.token)).status).toBe(200);
    expect((await auth.post('/api/admin/auth/logout', {}, { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await auth.post('/api/admin/auth/logout', {})).status).toBe(401);
  });

  it('refuses a forged or malformed token', async () => {
    const { token } = await auth.signIn();
    const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    for (const t of [forged, 'x', 'a'.repeat(43)]) {
      const r = await auth.verifySession(t);
      expect(r.status).toBe(401);
      expect(r.body.message).toBe('Invalid session token');
    }
    expect((await auth.post('/internal/sessions/verify', { token: 42 }, { 'x-service-token': SERVICE_TOKEN })).status).toBe(400);
  });

  it('keeps the session check behind the service token', async () => {
    const { token } = await auth.signIn();
    expect((await auth.post('/internal/sessions/verify', { token })).status).toBe(401);
    expect((await auth.post('/internal/sessions/verify', { token }, { 'x-service-token': 'wrong-token-wrong-token' })).status).toBe(401);
  });
});

describe('admin sign-in rate limits', () => {
  let auth: AuthHarness;
  beforeAll(async () => {
    auth = await startAuth({ rateLimits: { windowMs: 15 * MIN, sendPerEmail: 3, sendPerClient: 6, verifyPerClient: 4 } });
  });
  afterAll(async () => {
    await auth.stop();
  });

  it('limits code requests per address with 429 and a message, then lets them through in the next window', async () => {
    for (let i = 0; i < 3; i++) expect((await auth.post('/api/admin/auth/send-otp', { email: ADMIN })).status).toBe(200);
    const r = await auth.post('/api/admin/auth/send-otp', { email: ADMIN });
    expect(r.status).toBe(429);
    expect(r.body.message).toMatch(/too many code requests for this address/i);
    expect(r.headers.get('retry-after')).toBeTruthy();
    // the limit counts the address as one however it is typed, and mails nothing more
    expect((await auth.post('/api/admin/auth/send-otp', { email: ' ADMIN@forgeline-parts.example' })).status).toBe(429);
    expect(await auth.mails()).toHaveLength(3);
    // another address is still served
    expect((await auth.post('/api/admin/auth/send-otp', { email: SECOND_ADMIN })).status).toBe(200);
    auth.advance(15 * MIN);
    expect((await auth.post('/api/admin/auth/send-otp', { email: ADMIN })).status).toBe(200);
  });

  it('limits code requests per client across addresses', async () => {
    auth.advance(15 * MIN);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await auth.post('/api/admin/auth/send-otp', { email: `u${i}@example.com` })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const r = await auth.post('/api/admin/auth/send-otp', { email: 'another@example.com' });
    expect(r.body.message).toMatch(/from this network/i);
  });

  it('limits verify attempts per client', async () => {
    auth.advance(15 * MIN);
    const sessionId = await auth.sendOtp('x@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: '000000' })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });
});
