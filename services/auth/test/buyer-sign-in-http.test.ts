import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFerretDb, type RunningFerretDb } from '@forgeline/test-support/ferretdb';
import { createMongoAuthStore } from '../src/adapters/mongo/mongo-auth-store.ts';
import type { AuthStore } from '../src/ports.ts';
import { ADMIN, SERVICE_TOKEN, startAuth, type AuthHarness } from './harness.ts';

/**
 * A buyer's sign-in (issue 35) over HTTP, on both storage adapters: any address gets a code (or the link in its mail),
 * the session lives in its own cookie, and the two audiences never cross: a buyer's code or session is refused by
 * every staff check, a staff one by every buyer check.
 */
const ferret = await startFerretDb();
const mongoSkip = 'skip' in ferret ? ferret.skip : null;
if (mongoSkip) console.warn(`[auth] buyer sign-in on MongoDB skipped: ${mongoSkip}`);
afterAll(async () => {
  if (!('skip' in ferret)) await ferret.stop();
});

describeBuyerSignIn('SQLite', undefined);
describeBuyerSignIn('MongoDB (FerretDB)', () => createMongoAuthStore(`${(ferret as RunningFerretDb).url}/auth-buyer-${randomUUID().slice(0, 8)}`), mongoSkip);

function describeBuyerSignIn(name: string, makeStore: (() => Promise<AuthStore>) | undefined, skip?: string | null) {
  describe.skipIf(Boolean(skip))(`buyer sign-in over HTTP (${name})`, () => {
    let auth: AuthHarness;
    beforeEach(async () => {
      auth = await startAuth(makeStore ? { store: await makeStore(), publicUrl: 'https://shop.example' } : { publicUrl: 'https://shop.example' });
    });
    afterEach(async () => {
      await auth.stop();
    });

    const cookieOf = (headers: Headers) => /fl_buyer=([^;]+)/.exec(headers.get('set-cookie') ?? '')?.[1];
    const get = async (p: string, headers: Record<string, string> = {}) => {
      const res = await fetch(auth.url + p, { headers });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    async function buyerCode(email: string) {
      const sent = await auth.post('/api/account/sign-in/code', { email });
      expect(sent.status).toBe(200);
      const sessionId = sent.body.sessionId as string;
      return { sessionId, code: await auth.codeFor(sessionId) };
    }

    it('signs any address in with the mailed code into a cookie of its own, and signs it out', async () => {
      const email = `planner-${randomUUID().slice(0, 6)}@quarry.example`;
      const { sessionId, code } = await buyerCode(email.toUpperCase());
      // The mail has the code and a link that carries it in the fragment (never sent to a server).
      const mail = (await auth.mails()).find((m) => m.includes(`otp-${sessionId}@`))!;
      expect(mail).toContain('Subject: Your Forgeline Parts sign-in code');
      expect(mail.replace(/=\r?\n/g, '')).toContain(`https://shop.example/account/sign-in#code=3D${sessionId}.${code}`);
      const ok = await auth.post('/api/account/sign-in/verify', { sessionId, otp: code });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ success: true, email });
      expect(ok.body).not.toHaveProperty('token');
      const setCookie = ok.headers.get('set-cookie')!;
      expect(setCookie).toMatch(/^fl_buyer=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
      const cookie = `fl_buyer=${cookieOf(ok.headers)}`;
      expect((await get('/api/account/session', { cookie })).body).toMatchObject({ email });

      const out = await fetch(`${auth.url}/api/account/sign-out`, { method: 'POST', headers: { cookie } });
      expect(out.status).toBe(200);
      expect(out.headers.get('set-cookie')).toMatch(/^fl_buyer=; Path=\/; Expires=Thu, 01 Jan 1970/);
      expect((await get('/api/account/session', { cookie })).status).toBe(401);
      expect((await get('/api/account/session')).body).toMatchObject({ message: 'Not signed in' });
    });

    it("never crosses audiences: a buyer's code or session opens nothing of staff's, and the reverse", async () => {
      // The admin's own address signs in as a buyer too, but that session is a buyer's.
      const buyer = await buyerCode(ADMIN);
      const asStaff = await auth.post('/api/admin/auth/verify-otp', { sessionId: buyer.sessionId, otp: buyer.code });
      expect(asStaff).toMatchObject({ status: 401, body: { message: 'Invalid OTP' } });
      const ok = await auth.post('/api/account/sign-in/verify', { sessionId: buyer.sessionId, otp: buyer.code });
      const buyerToken = cookieOf(ok.headers)!;
      // The gateway's staff check, the staff session route by bearer and by cookie: all refuse it.
      expect((await auth.verifySession(buyerToken)).status).toBe(401);
      expect((await get('/api/admin/auth/session', { authorization: `Bearer ${buyerToken}` })).status).toBe(401);
      expect((await get('/api/admin/auth/session', { cookie: `fl_admin=${buyerToken}` })).status).toBe(401);
      // A staff sign-out with the buyer's token revokes nothing.
      await auth.post('/api/admin/auth/logout', {}, { authorization: `Bearer ${buyerToken}` });
      expect((await get('/api/account/session', { cookie: `fl_buyer=${buyerToken}` })).status).toBe(200);

      // Staff's code and session are refused on the buyer side.
      const staffId = await auth.sendOtp(ADMIN);
      const staffCode = await auth.codeFor(staffId);
      expect((await auth.post('/api/account/sign-in/verify', { sessionId: staffId, otp: staffCode })).status).toBe(401);
      const staff = await auth.signIn(ADMIN);
      expect((await get('/api/account/session', { cookie: `fl_buyer=${staff.token}` })).status).toBe(401);
      await fetch(`${auth.url}/api/account/sign-out`, { method: 'POST', headers: { cookie: `fl_buyer=${staff.token}` } });
      expect((await auth.verifySession(staff.token)).status).toBe(200);
      expect((await auth.post('/internal/sessions/verify', { token: staff.token }, { 'x-service-token': SERVICE_TOKEN })).body).toMatchObject({ email: ADMIN });
    });

    it("keeps the staff rules: one use, five attempts, expiry, a wrong code's 401, and a buyer's guesses never lock staff out", async () => {
      const email = `guess-${randomUUID().slice(0, 6)}@quarry.example`;
      const { sessionId, code } = await buyerCode(email);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      expect(await auth.post('/api/account/sign-in/verify', { sessionId, otp: wrong })).toMatchObject({ status: 401, body: { message: 'Invalid OTP' } });
      expect((await auth.post('/api/account/sign-in/verify', { sessionId, otp: code })).status).toBe(200);
      expect(await auth.post('/api/account/sign-in/verify', { sessionId, otp: code })).toMatchObject({ status: 401, body: { message: 'This code was already used; request a new one' } });
      const late = await buyerCode(email);
      auth.advance(10 * 60_000);
      expect((await auth.post('/api/account/sign-in/verify', { sessionId: late.sessionId, otp: late.code })).body.message).toBe('This code has expired; request a new one');
      const bad = await auth.post('/api/account/sign-in/code', { email: 'not an address' });
      expect(bad.status).toBe(400);
      expect((bad.body.issues as { path: string }[])[0]!.path).toBe('email');

      // A buyer's wrong code for the admin's address counts on the buyer side of that address only.
      const round = await buyerCode(ADMIN);
      await auth.post('/api/account/sign-in/verify', { sessionId: round.sessionId, otp: String((Number(round.code) + 1) % 1_000_000).padStart(6, '0') });
      expect((await auth.store.getSignInLock(`buyer:${ADMIN}`))?.failures).toBe(1);
      expect(await auth.store.getSignInLock(ADMIN)).toBeNull();
      expect((await auth.signIn(ADMIN)).email).toBe(ADMIN);
    });
  });
}
