import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@forgeline/service-kit/logger';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { eventually } from '@forgeline/test-support/eventually';
import { freePort } from '@forgeline/test-support/net';
import { httpRequest, rawRequest } from '@forgeline/test-support/raw-http';
import { ADMIN, SERVICE_TOKEN, startAuth, type AuthHarness } from '../../services/auth/test/harness.ts';
import { DEFAULT_RATE_LIMITS } from '../../services/auth/src/app.ts';
import { createGatewayApp } from '../src/app.ts';
import { createAdminAuth, type AdminAuthOptions } from '../src/admin-auth.ts';
import { createAuditSink } from '../src/audit-sink.ts';
import { verifyGatewayAssertion } from '@forgeline/service-kit/gateway-assertion';
import type { AdminActor } from '@forgeline/contracts/admin-access';

/**
 * A stand-in for the services behind the gateway: records what reaches it, with the actor the gateway's assertion
 * names (checked as a service checks it), and answers 200.
 */
async function startRecorder() {
  const seen: { url: string; adminEmail?: string; actor?: AdminActor; claimedEmail?: string }[] = [];
  const server = http.createServer((req, res) => {
    const assertion = req.headers['x-gateway-assertion'] as string | undefined;
    const claimedEmail = req.headers['x-admin-email'] as string | undefined;
    void (assertion ? verifyGatewayAssertion(SERVICE_TOKEN, assertion).catch(() => undefined) : Promise.resolve(undefined)).then((actor) => {
      seen.push({ url: req.url ?? '', adminEmail: actor?.name, ...(actor ? { actor } : {}), ...(claimedEmail ? { claimedEmail } : {}) });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: true, products: [] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const logger = createLogger('gateway', 'silent');

async function startGateway(authUrl: string, serviceUrl: string, serviceToken = SERVICE_TOKEN, extra: Partial<AdminAuthOptions> = {}) {
  const app = createGatewayApp({
    logger,
    // The auth service's own admin routes (keys, audit) go to the real auth; the rest to the recorder.
    services: { catalog: serviceUrl, quotes: serviceUrl, media: serviceUrl, auth: authUrl },
    upstreamTimeoutMs: 5_000,
    uploadTimeoutMs: 5_000,
    webDistDir: '',
    adminAuth: createAdminAuth({ authUrl, serviceToken, logger, ...extra }),
  });
  return serve(app, { port: 0, logger, handleSignals: false });
}

describe('gateway admin check against the real auth service', () => {
  let auth: AuthHarness;
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  let gateway: Served;
  let gw: string;

  beforeAll(async () => {
    auth = await startAuth();
    recorder = await startRecorder();
    gateway = await startGateway(auth.url, recorder.url);
    gw = `http://127.0.0.1:${gateway.port}`;
  });
  afterAll(async () => {
    await gateway?.close();
    await recorder?.close();
    await auth?.stop();
  });

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(gw + path, { headers });
    return { status: res.status, type: res.headers.get('content-type') ?? '', body: (await res.json()) as { message?: string } };
  };

  /** Signs in through the gateway, reading the code from the dev mailbox. */
  async function signInThroughGateway() {
    const sent = await fetch(`${gw}/api/admin/auth/send-otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN }),
    });
    expect(sent.status).toBe(200);
    const { sessionId } = (await sent.json()) as { sessionId: string };
    const verified = await fetch(`${gw}/api/admin/auth/verify-otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId, otp: await auth.codeFor(sessionId) }),
    });
    expect(verified.status).toBe(200);
    return ((await verified.json()) as { token: string }).token;
  }

  const adminRoutes = ['/api/admin/products?search=pump', '/api/admin/search-products-by-code?q=1R-0750', '/api/admin/upload-bulk-zip'];

  it('refuses every admin route without a token with 401 JSON, before any service sees it', async () => {
    const before = recorder.seen.length;
    for (const path of adminRoutes) {
      const r = await get(path);
      expect(r.status, path).toBe(401);
      expect(r.type).toContain('application/json');
      expect(r.body.message).toMatch(/sign-in required/i);
    }
    expect((await get('/api/admin/products', { authorization: 'Basic YWRtaW46YWRtaW4=' })).status).toBe(401);
    expect(recorder.seen.length).toBe(before);
  });

  it('refuses a forged token with 401', async () => {
    const before = recorder.seen.length;
    const token = await signInThroughGateway();
    const forged = token.slice(0, -3) + (token.endsWith('abc') ? 'xyz' : 'abc');
    const r = await get('/api/admin/products', { authorization: `Bearer ${forged}` });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Invalid session token');
    expect(recorder.seen.length).toBe(before);
  });

  it('lets a live session through and tells the service who the admin is, whatever the client claims', async () => {
    const token = await signInThroughGateway();
    for (const path of adminRoutes) {
      const r = await get(path, { authorization: `Bearer ${token}`, 'x-admin-email': 'mallory@example.com' });
      expect(r.status, path).toBe(200);
      expect(recorder.seen.at(-1)).toMatchObject({ url: path, adminEmail: ADMIN, actor: { kind: 'admin', name: ADMIN } });
      expect(recorder.seen.at(-1)?.claimedEmail).toBeUndefined(); // the client's claim never reaches a service
    }
  });

  it('leaves the sign-in routes open without a token', async () => {
    const res = await fetch(`${gw}/api/admin/auth/config`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ defaultEmail: ADMIN });
  });

  it('refuses a session at once after logout through the gateway', async () => {
    const token = await signInThroughGateway();
    expect((await get('/api/admin/products', { authorization: `Bearer ${token}` })).status).toBe(200);
    const out = await fetch(`${gw}/api/admin/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBe(200);
    const r = await get('/api/admin/products', { authorization: `Bearer ${token}` });
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/logged out/i);
  });

  it("drops the service's half of a request whose body broke off during the admin check, and logs no error for it", async () => {
    // The client's broken chunk arrives with its head: Node answers 400 and closes the connection while the admin
    // check is still out at auth, so the proxy starts on a request that is already gone. Its upstream half used to
    // wait out the upstream timeout (15 s in production) for a body that never ends, then log "upstream failed".
    const lines: string[] = [];
    const watched = createLogger('gateway', 'info', { write: (line) => void lines.push(line) });
    const app = createGatewayApp({
      logger: watched,
      services: { catalog: recorder.url, quotes: recorder.url, media: recorder.url, auth: auth.url },
      upstreamTimeoutMs: 60_000,
      uploadTimeoutMs: 60_000,
      webDistDir: '',
      adminAuth: createAdminAuth({ authUrl: auth.url, serviceToken: SERVICE_TOKEN, logger: watched }),
    });
    const g = await serve(app, { port: 0, logger: watched, handleSignals: false });
    try {
      const token = await signInThroughGateway();
      const head = httpRequest('PATCH', '/api/admin/products/p1', [
        ['Host', `127.0.0.1:${g.port}`],
        ['Authorization', `Bearer ${token}`],
        ['Content-Type', 'application/json'],
        ['Transfer-Encoding', 'chunked'],
      ]);
      const answer = await rawRequest(g.port, Buffer.concat([head, Buffer.from('zz\r\n{"name":"x"}\r\n')]));
      expect(answer.status).toBe(400);
      const dropped = await eventually('the upstream half dropped', async () => lines.find((l) => l.includes('client gone before its answer')), 20_000, 100);
      expect(JSON.parse(dropped)).toMatchObject({ level: 30, url: '/api/admin/products/p1' });
      expect(lines.filter((l) => JSON.parse(l).level >= 50)).toEqual([]);
    } finally {
      await g.close();
    }
  });

  it('refuses a session after it expires', async () => {
    const token = await signInThroughGateway();
    auth.advance(12 * 3_600_000);
    const r = await get('/api/admin/products', { authorization: `Bearer ${token}` });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Session expired');
  });
});

describe('gateway admin check when auth cannot answer', () => {
  it('answers 503 JSON when the auth service is down', async () => {
    const recorder = await startRecorder();
    const deadAuth = `http://127.0.0.1:${await freePort()}`;
    const gateway = await startGateway(deadAuth, recorder.url);
    try {
      const res = await fetch(`http://127.0.0.1:${gateway.port}/api/admin/products`, { headers: { authorization: 'Bearer abcdef' } });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { message: string }).message).toMatch(/sign-in service is unavailable/);
      expect(recorder.seen).toHaveLength(0);
    } finally {
      await gateway.close();
      await recorder.close();
    }
  });

  it('answers 503, not 401, when gateway and auth disagree on the service token', async () => {
    const auth = await startAuth();
    const recorder = await startRecorder();
    const gateway = await startGateway(auth.url, recorder.url, 'some-other-service-token');
    try {
      const { token } = await auth.signIn();
      const res = await fetch(`http://127.0.0.1:${gateway.port}/api/admin/products`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(503);
      expect(recorder.seen).toHaveLength(0);
    } finally {
      await gateway.close();
      await recorder.close();
      await auth.stop();
    }
  });
});

describe('admin sessions by cookie, cross-site refusal, API keys and the audit log, through the gateway', () => {
  const PUBLIC = 'http://shop.example';
  let auth: AuthHarness;
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  let gateway: Served;
  let gw: string;
  let audit: ReturnType<typeof createAuditSink>;

  beforeAll(async () => {
    auth = await startAuth({ rateLimits: { ...DEFAULT_RATE_LIMITS, sendPerEmail: 100 } }); // this suite signs in often
    recorder = await startRecorder();
    audit = createAuditSink({ authUrl: auth.url, serviceToken: SERVICE_TOKEN, logger, flushMs: 20 });
    gateway = await startGateway(auth.url, recorder.url, SERVICE_TOKEN, { publicUrl: PUBLIC, keyRateLimitPerMinute: 5, audit });
    gw = `http://127.0.0.1:${gateway.port}`;
  });
  afterAll(async () => {
    await gateway?.close();
    await recorder?.close();
    await auth?.stop();
  });

  const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
    const res = await fetch(gw + path, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as Record<string, unknown> };
  };

  /** Signs in through the gateway as the panel does; returns the Cookie header value and the token of the contract. */
  async function signIn() {
    const sent = await call('POST', '/api/admin/auth/send-otp', {}, { email: ADMIN });
    const sessionId = sent.body.sessionId as string;
    const verified = await call('POST', '/api/admin/auth/verify-otp', {}, { sessionId, otp: await auth.codeFor(sessionId) });
    expect(verified.status).toBe(200);
    const set = verified.headers.getSetCookie().find((c) => c.startsWith('fl_admin='))!;
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Strict/i);
    return { cookie: set.split(';')[0]!, token: verified.body.token as string };
  }

  it('accepts the session cookie alone for reads, and for writes from the site itself', async () => {
    const { cookie } = await signIn();
    const read = await call('GET', '/api/admin/products', { cookie });
    expect(read.status).toBe(200);
    expect(recorder.seen.at(-1)).toMatchObject({ url: '/api/admin/products', adminEmail: ADMIN });
    expect((await call('PATCH', '/api/admin/products/p1', { cookie, origin: PUBLIC }, { price: 1 })).status).toBe(200);
    expect((await call('PATCH', '/api/admin/products/p1', { cookie, 'sec-fetch-site': 'same-origin' }, { price: 1 })).status).toBe(200);
    const session = await call('GET', '/api/admin/auth/session', { cookie });
    expect(session).toMatchObject({ status: 200, body: { email: ADMIN } });
  });

  it('refuses a state-changing call made with the cookie from another site (or without any origin) with 403', async () => {
    const { cookie } = await signIn();
    const before = recorder.seen.length;
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }, {}] as Record<string, string>[]) {
      for (const [method, path] of [['POST', '/api/admin/catalog/imports'], ['PATCH', '/api/admin/products/p1'], ['DELETE', '/api/admin/api-keys/x'], ['POST', '/api/admin/auth/logout']] as const) {
        // A DELETE goes without a body (one is a 400 at the gateway before any other check).
        const r = await call(method, path, { cookie, ...headers }, method === 'DELETE' ? undefined : {});
        expect(r.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(r.body.message).toMatch(/cross-site request refused/i);
      }
    }
    expect(recorder.seen.length).toBe(before);
    // The session is still alive: the forged logout did nothing.
    expect((await call('GET', '/api/admin/auth/session', { cookie })).status).toBe(200);
    // A bearer token is not sent by browsers on their own: scripts need no Origin.
    const { token } = await signIn();
    expect((await call('PATCH', '/api/admin/products/p1', { authorization: `Bearer ${token}` }, { price: 2 })).status).toBe(200);
  });

  it('logs out by cookie: the cookie is cleared and the session refused at once', async () => {
    const { cookie } = await signIn();
    const out = await fetch(`${gw}/api/admin/auth/logout`, { method: 'POST', headers: { cookie, origin: PUBLIC } });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().join()).toMatch(/fl_admin=;/);
    expect((await call('GET', '/api/admin/products', { cookie })).status).toBe(401);
  });

  it('lets an API key call the routes of its scopes only, refuses a revoked one, and limits its rate', async () => {
    const { cookie } = await signIn();
    const staff = { cookie, origin: PUBLIC };
    const created = await call('POST', '/api/admin/api-keys', staff, { name: 'ERP sync', scopes: ['catalog:read'] });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    const bearer = { authorization: `Bearer ${key}` };

    const ok = await call('GET', '/api/admin/catalog/export.csv', bearer);
    expect(ok.status).toBe(200);
    expect(recorder.seen.at(-1)?.actor).toEqual({ kind: 'api_key', name: 'key:ERP sync', keyId: created.body.id, scopes: ['catalog:read'] });

    const write = await call('POST', '/api/admin/catalog/imports', bearer, {});
    expect(write).toMatchObject({ status: 403, body: { message: 'This API key lacks the scope catalog:write' } });
    expect((await call('GET', '/api/admin/quotes', bearer)).body.message).toBe('This API key lacks the scope quotes:read');
    for (const path of ['/api/admin/upload-bulk-zip', '/api/admin/api-keys', '/api/admin/audit', '/api/admin/products/p1/upload-image']) {
      const read = path === '/api/admin/api-keys' || path === '/api/admin/audit';
      const r = await call(read ? 'GET' : 'POST', path, bearer, read ? undefined : {});
      expect(r.status, path).toBe(403);
      expect(r.body.message).toMatch(/API keys cannot call this route/);
    }

    // 5 calls a minute in this test: the 2 reads above used 1 (refusals by scope are not counted); 4 more pass.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call('GET', '/api/admin/products', bearer)).status);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses.at(-1)).toBe(429);

    expect((await call('DELETE', `/api/admin/api-keys/${created.body.id as string}`, staff)).status).toBe(200);
    const revoked = await call('GET', '/api/admin/catalog/export.csv', bearer);
    expect(revoked).toMatchObject({ status: 401, body: { message: 'This API key has been revoked' } });
    expect((await call('GET', '/api/admin/products', { authorization: 'Bearer flk_forged' })).status).toBe(401);
  });

  it('records staff actions in the audit log: who, what, from where, how it ended', async () => {
    const { cookie } = await signIn();
    const staff = { cookie, origin: PUBLIC, 'x-forwarded-for': '203.0.113.9' };
    await call('PATCH', '/api/admin/products/p-audit', staff, { price: 3 });
    await call('POST', '/api/admin/catalog/imports', staff, {});
    const created = await call('POST', '/api/admin/api-keys', staff, { name: 'Inbox bot', scopes: ['quotes:read'] });
    await call('GET', '/api/admin/quotes?status=new', { authorization: `Bearer ${created.body.key as string}` });
    await call('GET', '/api/admin/products', staff); // a staff read: not recorded
    // Not an address: the entry names the connection's own instead, and the batch is not refused for it.
    await call('PATCH', '/api/admin/products/p-forged', { ...staff, 'x-forwarded-for': '9'.repeat(300) }, { price: 4 });
    await audit.flush();

    const log = await call('GET', '/api/admin/audit?limit=200', { cookie });
    expect(log.status).toBe(200);
    const entries = log.body.entries as { actor: string; actorKind: string; action: string; target: string; ip: string; status: number }[];
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: ADMIN, actorKind: 'admin', action: 'product.update', target: 'PATCH /api/admin/products/p-audit', status: 200 }),
        expect.objectContaining({ actor: ADMIN, action: 'catalog.import', target: 'POST /api/admin/catalog/imports' }),
        expect.objectContaining({ actor: ADMIN, action: 'api-key.create', status: 201 }),
        expect.objectContaining({ actor: 'key:Inbox bot', actorKind: 'api_key', action: 'quote.read', target: 'GET /api/admin/quotes', status: 200 }),
        expect.objectContaining({ actor: ADMIN, action: 'sign-in' }),
      ]),
    );
    // The address is the client's as the trusted proxy in front (loopback here, nginx in compose) forwarded it.
    expect(entries.find((e) => e.target === 'PATCH /api/admin/products/p-audit')?.ip).toBe('203.0.113.9');
    expect(entries.find((e) => e.target === 'PATCH /api/admin/products/p-forged')?.ip).toBe('127.0.0.1');
    expect(entries.some((e) => e.action === 'product.list' && e.actorKind === 'admin')).toBe(false);
    const products = (await call('GET', `/api/admin/audit?action=product.&actor=${ADMIN}`, { cookie })).body.entries as typeof entries;
    expect(products.map((e) => e.target)).toContain('PATCH /api/admin/products/p-audit');
    expect(products.every((e) => e.action.startsWith('product.') && e.actor === ADMIN)).toBe(true);
  });
});
