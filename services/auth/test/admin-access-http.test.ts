import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeySchema, AuditListResponseSchema, CreateApiKeyResponseSchema } from '@forgeline/contracts/admin-access';
import { ADMIN, startAuth, type AuthHarness } from './harness.ts';

const cookieOf = (res: { headers: Headers }) => res.headers.getSetCookie().find((c) => c.startsWith('fl_admin=') || c.startsWith('__Host-fl_admin='));
const pair = (setCookie: string) => setCookie.split(';')[0]!;

describe('admin session cookie', () => {
  let auth: AuthHarness;
  beforeAll(async () => {
    auth = await startAuth({ sessionIdleMs: 30 * 60_000 });
  });
  afterAll(() => auth?.stop());

  async function signInResponse() {
    const sessionId = await auth.sendOtp();
    return auth.post('/api/admin/auth/verify-otp', { sessionId, otp: await auth.codeFor(sessionId) });
  }
  const session = (cookie: string) => fetch(`${auth.url}/api/admin/auth/session`, { headers: { cookie } });

  it('sets the session as an HttpOnly, SameSite=Strict cookie beside the token of the contract', async () => {
    const res = await signInResponse();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, email: ADMIN, token: expect.any(String) });
    const set = cookieOf(res)!;
    expect(set).toMatch(/^fl_admin=[\w-]+;/);
    expect(pair(set)).toBe(`fl_admin=${res.body.token as string}`);
    expect(set).toMatch(/; HttpOnly/i);
    expect(set).toMatch(/; SameSite=Strict/i);
    expect(set).toMatch(/; Path=\//);
    expect(set).not.toMatch(/Secure/i); // served over http here
    expect(Number(/Max-Age=(\d+)/.exec(set)?.[1])).toBe(12 * 3600);
  });

  it('answers who the cookie signs in, and 401 without it or with a bad one', async () => {
    const res = await signInResponse();
    const cookie = pair(cookieOf(res)!);
    const ok = await session(cookie);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(await ok.json()).toEqual({ email: ADMIN, expiresAt: res.body.expiresAt });
    expect((await fetch(`${auth.url}/api/admin/auth/session`)).status).toBe(401);
    expect((await session('fl_admin=not-a-session')).status).toBe(401);
    // The bearer token still works, for scripts.
    expect((await fetch(`${auth.url}/api/admin/auth/session`, { headers: { authorization: `Bearer ${res.body.token as string}` } })).status).toBe(200);
  });

  it('ends an unused session after the idle timeout, while calls keep a used one alive', async () => {
    const used = pair(cookieOf(await signInResponse())!);
    const idle = pair(cookieOf(await signInResponse())!);
    for (let i = 0; i < 4; i++) {
      auth.advance(10 * 60_000);
      expect((await session(used)).status).toBe(200);
    }
    const res = await session(idle);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toBe('Session expired after a period without use');
  });

  it('logs out by cookie: the session ends on the server and the cookie is cleared', async () => {
    const cookie = pair(cookieOf(await signInResponse())!);
    const out = await fetch(`${auth.url}/api/admin/auth/logout`, { method: 'POST', headers: { cookie } });
    expect(out.status).toBe(200);
    const cleared = cookieOf(out)!;
    expect(cleared).toMatch(/^fl_admin=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect((await session(cookie)).status).toBe(401);
  });

  it('makes the cookie Secure with the __Host- prefix when the site is served over https', async () => {
    const secure = await startAuth({ secureCookies: true });
    try {
      const sessionId = await secure.sendOtp();
      const res = await secure.post('/api/admin/auth/verify-otp', { sessionId, otp: await secure.codeFor(sessionId) });
      const set = cookieOf(res)!;
      expect(set).toMatch(/^__Host-fl_admin=[\w-]+;/);
      expect(set).toMatch(/; Secure/);
      expect(set).not.toMatch(/Domain=/i);
      const ok = await fetch(`${secure.url}/api/admin/auth/session`, { headers: { cookie: pair(set) } });
      expect(ok.status).toBe(200);
      // The plain name is not read on an https site.
      expect((await fetch(`${secure.url}/api/admin/auth/session`, { headers: { cookie: pair(set).replace('__Host-', '') } })).status).toBe(401);
    } finally {
      await secure.stop();
    }
  });
});

describe('API keys and the audit log (auth service)', () => {
  let auth: AuthHarness;
  beforeAll(async () => {
    auth = await startAuth();
  });
  afterAll(() => auth?.stop());

  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(auth.url + path, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> };
  };

  it('refuses every admin route without the gateway assertion, whatever headers come with it', async () => {
    for (const [method, path] of [
      ['GET', '/api/admin/api-keys'],
      ['POST', '/api/admin/api-keys'],
      ['DELETE', '/api/admin/api-keys/x'],
      ['GET', '/api/admin/audit'],
    ] as const) {
      const res = await call(method, path, { 'x-admin-email': ADMIN, authorization: 'Bearer whatever' }, method === 'POST' ? { bad: 1 } : undefined);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.message).toMatch(/through the gateway/);
    }
    const forged = await call('GET', '/api/admin/api-keys', { 'x-gateway-assertion': 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' });
    expect(forged.status).toBe(401);
  });

  it('creates a key shown once, lists it without the key, verifies it for the gateway and revokes it', async () => {
    const staff = await auth.asAdmin();
    const bad = await call('POST', '/api/admin/api-keys', staff, { name: '', scopes: ['catalog:admin'] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.issues)).toMatch(/name/);
    expect(JSON.stringify(bad.body.issues)).toMatch(/scopes/);

    const created = await call('POST', '/api/admin/api-keys', staff, { name: 'ERP sync', scopes: ['catalog:read', 'catalog:write', 'catalog:read'] });
    expect(created.status).toBe(201);
    const key = CreateApiKeyResponseSchema.parse(created.body);
    expect(key.key).toMatch(/^flk_[\w-]{43}$/);
    expect(key.key.startsWith(key.prefix)).toBe(true);
    expect(key).toMatchObject({ name: 'ERP sync', scopes: ['catalog:read', 'catalog:write'], createdBy: ADMIN, lastUsedAt: null, revokedAt: null });

    const listed = await call('GET', '/api/admin/api-keys', staff);
    expect(listed.status).toBe(200);
    const keys = (listed.body.keys as unknown[]).map((k) => ApiKeySchema.strict().parse(k));
    expect(keys.map((k) => k.id)).toContain(key.id);
    expect(JSON.stringify(listed.body)).not.toContain(key.key);

    const internal = { 'x-service-token': 'test-service-token-0123456789' };
    const verified = await call('POST', '/internal/api-keys/verify', internal, { key: key.key });
    expect(verified).toEqual({ status: 200, body: { id: key.id, name: 'ERP sync', scopes: ['catalog:read', 'catalog:write'] } });
    const used = (await call('GET', '/api/admin/api-keys', staff)).body.keys as { id: string; lastUsedAt: string | null }[];
    expect(used.find((k) => k.id === key.id)?.lastUsedAt).toBe(new Date(auth.now()).toISOString());
    expect((await call('POST', '/internal/api-keys/verify', internal, { key: `${key.key}x` })).status).toBe(401);
    expect((await call('POST', '/internal/api-keys/verify', {}, { key: key.key })).status).toBe(401); // no service token

    // A key cannot manage keys or read the audit log.
    const asKey = await auth.asAdmin({ kind: 'api_key', name: 'key:ERP sync', keyId: key.id, scopes: ['catalog:read'] });
    expect((await call('GET', '/api/admin/api-keys', asKey)).status).toBe(403);
    expect((await call('GET', '/api/admin/audit', asKey)).status).toBe(403);

    expect((await call('DELETE', `/api/admin/api-keys/${key.id}`, staff)).status).toBe(200);
    expect((await call('DELETE', `/api/admin/api-keys/${key.id}`, staff)).status).toBe(200); // idempotent
    expect((await call('DELETE', '/api/admin/api-keys/no-such-key', staff)).status).toBe(404);
    const revoked = await call('POST', '/internal/api-keys/verify', internal, { key: key.key });
    expect(revoked).toMatchObject({ status: 401, body: { message: 'This API key has been revoked' } });
  });

  it('records sign-in, refused codes and sign-out itself, takes the gateway\'s entries, and lists them filtered and paged', async () => {
    const session = await auth.signIn();
    const wrong = await auth.sendOtp();
    await auth.post('/api/admin/auth/verify-otp', { sessionId: wrong, otp: '000000' });
    await auth.post('/api/admin/auth/logout', {}, { authorization: `Bearer ${session.token}` });
    const at = new Date(auth.now()).toISOString();
    const internal = { 'x-service-token': 'test-service-token-0123456789' };
    const entries = Array.from({ length: 5 }, (_, i) => ({
      at,
      actor: 'key:ERP sync',
      actorKind: 'api_key',
      action: 'catalog.import',
      target: `POST /api/admin/catalog/imports #${i}`,
      ip: '198.51.100.4',
      status: 202,
      requestId: `r${i}`,
    }));
    expect((await call('POST', '/internal/audit', internal, { entries })).status).toBe(204);
    expect((await call('POST', '/internal/audit', {}, { entries })).status).toBe(401);
    expect((await call('POST', '/internal/audit', internal, { entries: [{ ...entries[0], actorKind: 'root' }] })).status).toBe(400);

    const staff = await auth.asAdmin();
    const all = AuditListResponseSchema.parse((await call('GET', '/api/admin/audit?limit=200', staff)).body);
    const actions = all.entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['sign-in', 'sign-in.refused', 'sign-out', 'catalog.import']));
    const signIn = all.entries.find((e) => e.action === 'sign-in')!;
    expect(signIn).toMatchObject({ actor: ADMIN, actorKind: 'admin', status: 200 });
    expect(signIn.ip).toMatch(/127\.0\.0\.1/);

    const imports = await call('GET', '/api/admin/audit?action=catalog.&actor=erp&limit=2', staff);
    const page1 = AuditListResponseSchema.parse(imports.body);
    expect(page1.entries).toHaveLength(2);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const seen = [...page1.entries];
    let cursor = page1.nextCursor;
    while (cursor) {
      const next = AuditListResponseSchema.parse((await call('GET', `/api/admin/audit?action=catalog.&actor=erp&limit=2&cursor=${cursor}`, staff)).body);
      seen.push(...next.entries);
      cursor = next.nextCursor;
    }
    expect(seen.map((e) => e.target).sort()).toEqual(entries.map((e) => e.target).sort());
    expect((await call('GET', '/api/admin/audit?cursor=garbage', staff)).status).toBe(400);
    expect((await call('GET', '/api/admin/audit?limit=5000', staff)).status).toBe(400);
    const future = await call('GET', '/api/admin/audit?from=2099-01-01', staff);
    expect(future.body.entries).toEqual([]);
  });
});
