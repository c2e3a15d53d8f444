import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import Database from 'better-sqlite3';
import mongoose from 'mongoose';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SmtpMailer } from '@forgeline/mailer/mailer';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '@forgeline/mailer/smtp-test-server';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { startFerretDb, type RunningFerretDb } from '@forgeline/test-support/ferretdb';
import { createMongoAuthStore } from '../src/adapters/mongo/mongo-auth-store.ts';
import type { AuthStore } from '../src/ports.ts';
import { ADMIN, SERVICE_TOKEN, startAuth, type AuthHarness } from './harness.ts';

/*
 * Issue #19: an SMTP outage delays sign-in codes and loses none. The mail server is a real SMTP server
 * (smtp-server) that is not there at first (connections refused) and comes up on the port auth was given.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function until<T>(read: () => T | Promise<T>, done: (v: T) => boolean, what: string, everyMs = 25): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await read();
    if (done(v)) return v;
    if (i > 2_000) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

// The outbox on both storage adapters: SQLite always, MongoDB's through FerretDB when it can start.
const ferret = await startFerretDb();
const ferretSkip = 'skip' in ferret ? ferret.skip : null;
if (ferretSkip) console.warn(`[auth mail outage on MongoDB] skipped: ${ferretSkip}`);
/** A store for the app, and a reader of its outbox as stored (rows or documents), through a connection of its own. */
type RawOutbox = (auth: AuthHarness) => Promise<Record<string, unknown>[]>;
const stores: { name: string; skip: string | null; make: () => Promise<{ store?: AuthStore; raw: RawOutbox }> }[] = [
  {
    name: 'SQLite',
    skip: null,
    make: async () => ({
      raw: async (auth) => {
        const db = new Database(path.join(auth.dir, 'auth.sqlite'), { readonly: true });
        try {
          return db.prepare('SELECT * FROM mail_outbox').all() as Record<string, unknown>[];
        } finally {
          db.close();
        }
      },
    }),
  },
  {
    name: 'MongoDB (FerretDB)',
    skip: ferretSkip,
    make: async () => {
      const url = `${(ferret as RunningFerretDb).url}/auth-outage-${process.pid}-${Date.now()}`;
      return {
        store: await createMongoAuthStore(url),
        raw: async () => {
          const conn = await mongoose.createConnection(url).asPromise();
          try {
            return await conn.db!.collection('auth_mail_outbox').find().toArray();
          } finally {
            await conn.close();
          }
        },
      };
    },
  },
];

const codeIn = (mail: ReceivedMail) => /sign-in code is (\d{6})/.exec(mail.data.replace(/=\r?\n/g, ''))?.[1];

describe('sign-in codes while the mail server is out', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  afterAll(async () => {
    if (!ferretSkip) await (ferret as RunningFerretDb).stop();
  });

  for (const { name, skip, make } of stores) {
    const title = `answers the code request as usual, keeps the mail (${name}), and delivers it once when SMTP comes back (one outage, one recovery logged)`;
    it.skipIf(skip !== null)(skip ? `${title} (skipped: ${skip})` : title, async () => {
      const logs: { level: number; msg: string }[] = [];
      const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
      const port = await freePort();
      const received: ReceivedMail[] = [];
      const mailer = new SmtpMailer(`smtp://127.0.0.1:${port}`, 'Forgeline Parts <no-reply@forgeline.parts>');
      cleanups.push(() => mailer.close());
      const { store, raw } = await make();
      const auth = await startAuth({ mailer, logger, now: () => Date.now(), outbox: { baseDelayMs: 50, maxDelayMs: 200, pollMs: 50 }, ...(store ? { store } : {}) });
      cleanups.push(() => auth.stop());

      // SMTP is down: the request answers exactly as one for an address that gets no mail at all.
      const admin = await auth.post('/api/admin/auth/send-otp', { email: ADMIN });
      const stranger = await auth.post('/api/admin/auth/send-otp', { email: 'curious@example.com' });
      expect(admin.status).toBe(200);
      expect(Object.keys(admin.body).sort()).toEqual(Object.keys(stranger.body).sort());
      expect(admin.body).toMatchObject({ success: true, sessionId: expect.any(String) });
      const sessionId = admin.body.sessionId as string;

      // Tried and refused, then retried after its backoff (at least twice more).
      await until(() => logs.filter((l) => l.msg.startsWith('mail server still unreachable')).length, (n) => n >= 2, 'retries');
      expect(await auth.store.pendingMails()).toBe(1);
      expect(received).toEqual([]);
      // What waits is sealed: neither the code nor the address nor the text is readable in the stored row.
      const waiting = await raw(auth);
      expect(waiting.map((m) => m._id ?? m.id)).toEqual([sessionId]);
      const atRest = JSON.stringify(waiting);
      for (const clear of ['sign-in code', ADMIN]) expect(atRest).not.toContain(clear);

      let smtp: TestSmtp | undefined = await startTestSmtp(received, port);
      cleanups.push(() => smtp?.stop());
      const [mail] = await until(() => received, (r) => r.length > 0, 'the code mail');
      expect(mail!.messageId).toBe(`<otp-${sessionId}@forgeline.parts>`);
      expect(mail!.to).toEqual([ADMIN]);
      await until(() => auth.store.pendingMails(), (n) => n === 0, 'the outbox to empty');
      expect(atRest).not.toContain(codeIn(mail!));
      expect(await raw(auth)).toEqual([]); // sent: deleted
      // The mailed code works.
      const signedIn = await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: codeIn(mail!) });
      expect(signedIn.status).toBe(200);

      // Exactly once: nothing left to send, and another pass sends nothing more.
      await auth.drainMail();
      expect(received.map((m) => m.messageId)).toEqual([`<otp-${sessionId}@forgeline.parts>`]);
      const outage = logs.filter((l) => l.msg.startsWith('mail server unreachable'));
      const recovery = logs.filter((l) => l.msg.startsWith('mail server reachable again'));
      expect(outage).toHaveLength(1);
      expect(outage[0]!.level).toBe(50); // error
      expect(recovery).toHaveLength(1);
      expect(recovery[0]!.level).toBe(30); // info

      // A second outage is logged again, once.
      await smtp.stop();
      smtp = undefined;
      const next = await auth.post('/api/admin/auth/send-otp', { email: ADMIN });
      expect(next.status).toBe(200);
      await until(() => logs.filter((l) => l.msg.startsWith('mail server unreachable')).length, (n) => n === 2, 'the second outage');
    });
  }

  it('delivers a code requested while SMTP was down after the service was killed and started again', async () => {
    const tmp = tempDir('auth-mail-restart-');
    cleanups.push(() => tmp.remove());
    const smtpPort = await freePort();
    const { MONGO_URL: _unused, ...inherited } = process.env; // the embedded SQLite store
    const env = {
      ...inherited,
      DATA_DIR: tmp.dir,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      ADMIN_EMAILS: ADMIN,
      OTP_SECRET: 'test-otp-secret-0123456789abcdef',
      SERVICE_TOKEN,
      LOG_LEVEL: 'info',
      OUTBOX_BASE_DELAY_MS: '100',
      OUTBOX_MAX_DELAY_MS: '400',
      OUTBOX_POLL_MS: '100',
      OUTBOX_LEASE_MS: '3000',
    };
    const start = async () => {
      const port = await freePort();
      const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'services/auth/src/main.ts'], {
        cwd: repoRoot,
        env: { ...env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      cleanups.push(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      });
      const url = `http://127.0.0.1:${port}`;
      await until(
        async () => {
          if (child.exitCode !== null) throw new Error(`auth exited early: ${out}`);
          return fetch(`${url}/readyz`).then((r) => r.ok, () => false);
        },
        Boolean,
        'auth to start',
        100,
      );
      return { child, url, exited, log: () => out };
    };

    const first = await start();
    const res = await fetch(`${first.url}/api/admin/auth/send-otp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: ADMIN }) });
    expect(res.status).toBe(200);
    const { sessionId } = (await res.json()) as { sessionId: string };
    await until(() => first.log(), (l) => l.includes('mail server unreachable'), 'the first attempt to fail');
    // Killed while the mail server is still down: nothing is drained, nothing is marked.
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await start();
    await until(() => second.log(), (l) => /"pendingMails":1\b.*outbox resuming/.test(l), 'the resumed outbox');
    await until(() => second.log(), (l) => l.includes('mail server unreachable'), 'the resumed mail to be tried');
    const received: ReceivedMail[] = [];
    const smtp = await startTestSmtp(received, smtpPort);
    cleanups.push(() => smtp.stop());
    await until(() => second.log(), (l) => l.includes('mail server reachable again'), 'the recovery');
    expect(received.map((m) => m.messageId)).toEqual([`<otp-${sessionId}@forgeline.parts>`]);
    // The code from before the restart signs in on the new process.
    const verify = await fetch(`${second.url}/api/admin/auth/verify-otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId, otp: codeIn(received[0]!) }),
    });
    expect(verify.status).toBe(200);
    // Stopped cleanly, it has sent that mail once and nothing else.
    second.child.kill('SIGTERM');
    await second.exited;
    expect(second.child.exitCode).toBe(0);
    expect(received).toHaveLength(1);
  }, 120_000);
});
