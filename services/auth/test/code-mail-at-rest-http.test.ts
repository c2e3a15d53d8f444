import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@forgeline/service-kit/logger';
import { tempDir } from '@forgeline/test-support/net';
import { createMailer, DEFAULT_MAIL_FROM, type Mailer } from '@forgeline/mailer/mailer';
import { ADMIN, startAuth, type AuthHarness } from './harness.ts';

/*
 * Review finding: the outbox kept a code's mail text, code included, readable in auth's database until it was sent.
 * Now it is sealed (AES-256-GCM) from the moment it is stored, opened only to be handed to the mail server, deleted
 * once sent, and deleted unsent once its code has expired. These tests read the raw SQLite rows; the MongoDB
 * adapter's raw documents are read in mail-outage.test.ts (FerretDB).
 */

const MIN = 60_000;

/** The dev mailbox behind a switch: while off, every send fails as an unreachable mail server does. */
function switchableMailbox() {
  const tmp = tempDir('forgeline-auth-mailbox-');
  const inner = createMailer({ MAIL_FROM: DEFAULT_MAIL_FROM, DATA_DIR: tmp.dir }, createLogger('mail', 'silent'));
  let up = false;
  const mailer: Mailer = {
    async send(msg) {
      if (!up) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ECONNECTION' });
      await inner.send(msg);
    },
  };
  return {
    mailer,
    up: () => void (up = true),
    async mails(): Promise<string[]> {
      const dir = path.join(tmp.dir, 'mail');
      const names = await readdir(dir).catch(() => [] as string[]);
      return Promise.all(names.filter((n) => n.endsWith('.eml')).map((n) => readFile(path.join(dir, n), 'utf8')));
    },
    remove: () => tmp.remove(),
  };
}

describe('code mails at rest in the outbox (SQLite)', () => {
  let auth: AuthHarness;
  let box: ReturnType<typeof switchableMailbox>;
  beforeEach(async () => {
    box = switchableMailbox();
    auth = await startAuth({ mailer: box.mailer });
  });
  afterEach(async () => {
    await auth.stop();
    box.remove();
  });

  /** auth.sqlite's outbox rows as they are on disk, read by another connection. */
  const rawOutbox = () => {
    const db = new Database(path.join(auth.dir, 'auth.sqlite'), { readonly: true });
    try {
      return db.prepare('SELECT * FROM mail_outbox').all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  };

  it('keeps a waiting code mail sealed, deletes it once sent, and the code in it signs in', async () => {
    const sessionId = await auth.sendOtp();
    await auth.drainMail(); // tried: the mail server is not there
    const waiting = rawOutbox();
    expect(waiting.map((r) => r.id)).toEqual([sessionId]);
    const atRest = JSON.stringify(waiting);
    for (const clear of ['sign-in code', ADMIN, 'Forgeline Parts admin']) expect(atRest).not.toContain(clear);
    expect(waiting[0]!.sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);

    box.up();
    auth.advance(MIN); // the retry comes due
    await auth.drainMail();
    const mails = await box.mails();
    expect(mails).toHaveLength(1);
    const code = /sign-in code is (\d{6})/.exec(mails[0]!)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(atRest).not.toContain(code);
    expect(atRest).not.toMatch(/(?<![\w-])\d{6}(?![\w-])/); // no six digits standing alone anywhere in the row
    expect(rawOutbox()).toEqual([]); // sent: nothing left, sealed or not

    const r = await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: code });
    expect(r.status).toBe(200);
  });

  it('never sends a code mail past its code\'s expiry, and keeps nothing of it', async () => {
    const sessionId = await auth.sendOtp();
    await auth.drainMail();
    expect(rawOutbox()).toHaveLength(1);
    auth.advance(10 * MIN);
    box.up();
    await auth.drainMail();
    expect(await box.mails()).toEqual([]);
    expect(rawOutbox()).toEqual([]);
    expect(await auth.store.pendingMails()).toBe(0);
    const r = await auth.post('/api/admin/auth/verify-otp', { sessionId, otp: '123456' });
    expect(r.body.message).toMatch(/expired/i);
  });
});
