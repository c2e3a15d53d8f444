import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createLogger } from '@forgeline/service-kit/logger';
import { serve } from '@forgeline/service-kit/serve';
import { gatewayAssertionHeaders } from '@forgeline/service-kit/gateway-assertion';
import type { AdminActor } from '@forgeline/contracts/admin-access';
import { tempDir } from '@forgeline/test-support/net';
import { createMailer, DEFAULT_MAIL_FROM } from '@forgeline/mailer/mailer';
import { createApp, DEFAULT_RATE_LIMITS, type AuthDeps } from '../src/app.ts';
import { createSqliteAuthStore } from '../src/adapters/sqlite/sqlite-auth-store.ts';
import { createSqliteAccountStore } from '../src/adapters/sqlite/sqlite-account-store.ts';

export const SERVICE_TOKEN = 'test-service-token-0123456789';
export const ADMIN = 'admin@forgeline-parts.example';
export const SECOND_ADMIN = 'ops@forgeline-parts.example';

/**
 * The real auth app on SQLite and the dev mailbox in a temp DATA_DIR, listening on a free port, with a
 * clock the test moves (`advance`).
 */
export async function startAuth(over: Partial<AuthDeps> = {}) {
  const tmp = tempDir('forgeline-auth-');
  let clock = Date.parse('2026-03-01T08:00:00Z');
  const store = over.store ?? createSqliteAuthStore(path.join(tmp.dir, 'auth.sqlite'));
  const accounts = over.accounts ?? createSqliteAccountStore(path.join(tmp.dir, 'accounts.sqlite'));
  const logger = createLogger('auth', 'silent');
  const mailDir = path.join(tmp.dir, 'mail');
  const app = createApp({
    logger,
    mailer: createMailer({ MAIL_FROM: DEFAULT_MAIL_FROM, DATA_DIR: tmp.dir }, logger),
    adminEmails: [ADMIN, SECOND_ADMIN],
    serviceToken: SERVICE_TOKEN,
    otpSecret: 'test-otp-secret-0123456789abcdef',
    sessionTtlMs: 12 * 3_600_000,
    sessionIdleMs: 12 * 3_600_000,
    secureCookies: false,
    auditRetentionMs: 365 * 86_400_000,
    rateLimits: DEFAULT_RATE_LIMITS,
    now: () => clock,
    ...over,
    store,
    accounts,
  });
  app.outbox.start();
  const served = await serve(app, { port: 0, logger, handleSignals: false });
  const url = `http://127.0.0.1:${served.port}`;

  async function post(p: string, body: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(url + p, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  }

  /** Every .eml in the dev mailbox (after the outbox has tried every mail due), as text. */
  async function mails(): Promise<string[]> {
    await app.signIn.drainMail();
    const names = await readdir(mailDir).catch(() => [] as string[]);
    return Promise.all(names.filter((n) => n.endsWith('.eml')).map((n) => readFile(path.join(mailDir, n), 'utf8')));
  }

  /** The code mailed for one code request, found by its Message-ID. */
  async function codeFor(sessionId: string): Promise<string> {
    const mail = (await mails()).find((m) => m.includes(`otp-${sessionId}@`));
    const code = mail && /sign-in code is (\d{6})/.exec(mail)?.[1];
    if (!code) throw new Error(`no code mailed for ${sessionId}`);
    return code;
  }

  async function sendOtp(email = ADMIN) {
    const r = await post('/api/admin/auth/send-otp', { email });
    if (r.status !== 200) throw new Error(`send-otp answered ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body.sessionId as string;
  }

  async function signIn(email = ADMIN) {
    const sessionId = await sendOtp(email);
    const r = await post('/api/admin/auth/verify-otp', { sessionId, otp: await codeFor(sessionId) });
    if (r.status !== 200) throw new Error(`verify-otp answered ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body as { token: string; email: string; expiresAt: string };
  }

  /** What the gateway adds to an admin call it let through. */
  const asAdmin = (actor: AdminActor | string = ADMIN) => gatewayAssertionHeaders(SERVICE_TOKEN, actor);

  const verifySession = (token: string) => post('/internal/sessions/verify', { token }, { 'x-service-token': SERVICE_TOKEN });

  return {
    url,
    /** The app as served (its routes are read by the path-variant test). */
    app,
    dir: tmp.dir,
    store,
    accounts,
    post,
    mails,
    /** Resolves once the outbox has tried every mail due now. */
    drainMail: () => app.signIn.drainMail(),
    codeFor,
    sendOtp,
    signIn,
    verifySession,
    asAdmin,
    now: () => clock,
    advance: (ms: number) => void (clock += ms),
    async stop() {
      await served.close();
      await app.outbox.stop();
      await store.close();
      await accounts.close();
      tmp.remove();
    },
  };
}
export type AuthHarness = Awaited<ReturnType<typeof startAuth>>;
