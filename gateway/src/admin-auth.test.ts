import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@forgeline/service-kit/logger';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { freePort } from '@forgeline/test-support/net';
import { ADMIN, SERVICE_TOKEN, startAuth, type AuthHarness } from '../../services/auth/test/harness.ts';
import { createGatewayApp } from './app.ts';
import { createAdminAuth } from './admin-auth.ts';

/** A stand-in for the services behind the gateway: records what reaches it and answers 200. */
async function startRecorder() {
  const seen: { url: string; adminEmail?: string }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', adminEmail: req.headers['x-admin-email'] as string | undefined });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ success: true, products: [] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const logger = createLogger('gateway', 'silent');

async function startGateway(authUrl: string, serviceUrl: string, serviceToken = SERVICE_TOKEN) {
  const app = createGatewayApp({
    logger,
    services: { catalog: serviceUrl, quotes: serviceUrl, media: serviceUrl, auth: authUrl },
    upstreamTimeoutMs: 5_000,
    uploadTimeoutMs: 5_000,
    webDistDir: '',
    adminAuth: createAdminAuth({ authUrl, serviceToken, logger }),
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
      expect(recorder.seen.at(-1)).toEqual({ url: path, adminEmail: ADMIN });
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
