import Database from 'better-sqlite3';
import type { ApiKeyScope } from '@forgeline/contracts/admin-access';
import type { ApiKeyRecord, Audience, AuditRecord, AuthStore, ClaimedSealedMail, OtpRecord, RateHit, SessionRecord, SignInLockRecord } from '../../ports.ts';

interface OtpRow {
  id: string;
  email: string;
  code_hash: string | null;
  expires_at: number;
  attempts: number;
  consumed_at: number | null;
  created_at: number;
  audience: Audience | null;
}
interface MailRow {
  id: string;
  ref_id: string;
  sealed: string;
  attempts: number;
}
interface LockRow {
  email: string;
  failures: number;
  window_start: number;
  locks: number;
  locked_at: number | null;
  locked_until: number | null;
  locked_by: string | null;
  forget_at: number;
}
interface SessionRow {
  token_hash: string;
  email: string;
  expires_at: number;
  revoked_at: number | null;
  created_at: number;
  last_seen_at: number | null;
  audience: Audience | null;
}
interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  key_hash: string;
  scopes: string;
  created_by: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}
interface AuditRow {
  id: string;
  at: number;
  actor: string;
  actor_kind: AuditRecord['actorKind'];
  action: string;
  target: string | null;
  ip: string | null;
  status: number | null;
  request_id: string | null;
}

const toOtp = (r: OtpRow): OtpRecord => ({
  id: r.id,
  email: r.email,
  codeHash: r.code_hash,
  expiresAt: r.expires_at,
  attempts: r.attempts,
  consumedAt: r.consumed_at,
  createdAt: r.created_at,
  audience: r.audience ?? 'staff',
});
const toLock = (r: LockRow): SignInLockRecord => ({
  email: r.email,
  failures: r.failures,
  windowStart: r.window_start,
  locks: r.locks,
  lockedAt: r.locked_at,
  lockedUntil: r.locked_until,
  lockedBy: r.locked_by,
  forgetAt: r.forget_at,
});
const toSession = (r: SessionRow): SessionRecord => ({
  tokenHash: r.token_hash,
  email: r.email,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at ?? r.created_at,
  audience: r.audience ?? 'staff',
});
const toApiKey = (r: ApiKeyRow): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  keyHash: r.key_hash,
  scopes: r.scopes.split(' ').filter(Boolean) as ApiKeyScope[],
  createdBy: r.created_by,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});
const toAudit = (r: AuditRow): AuditRecord => ({
  id: r.id,
  at: r.at,
  actor: r.actor,
  actorKind: r.actor_kind,
  action: r.action,
  target: r.target,
  ip: r.ip,
  status: r.status,
  requestId: r.request_id,
});
/** LIKE with the user's text taken literally. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Auth storage in one SQLite file (WAL), e.g. `${DATA_DIR}/auth.sqlite`. */
export function createSqliteAuthStore(file: string): AuthStore {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  // Files made before the outbox was sealed held code mails in clear (a `message` column): that table goes, and
  // with it any code not yet mailed (at most ten minutes' worth; a new request sends a new one).
  const mailColumns = db.prepare<[], { name: string }>('PRAGMA table_info(mail_outbox)').all();
  if (mailColumns.some((c) => c.name === 'message')) db.exec('DROP TABLE mail_outbox');
  db.exec(`
    CREATE TABLE IF NOT EXISTS otp_requests (
      id TEXT PRIMARY KEY,
      email TEXT NOT NULL,
      code_hash TEXT,
      expires_at INTEGER NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      consumed_at INTEGER,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS otp_requests_expires ON otp_requests (expires_at);
    CREATE TABLE IF NOT EXISTS mail_outbox (
      id TEXT PRIMARY KEY,
      ref_id TEXT NOT NULL,
      sealed TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL,
      lease_until INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      expires_at INTEGER NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS mail_outbox_due ON mail_outbox (next_attempt_at);
    CREATE INDEX IF NOT EXISTS mail_outbox_expires ON mail_outbox (expires_at);
    CREATE TABLE IF NOT EXISTS sessions (
      token_hash TEXT PRIMARY KEY,
      email TEXT NOT NULL,
      expires_at INTEGER NOT NULL,
      revoked_at INTEGER,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS sessions_expires ON sessions (expires_at);
    CREATE TABLE IF NOT EXISTS api_keys (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      prefix TEXT NOT NULL,
      key_hash TEXT NOT NULL UNIQUE,
      scopes TEXT NOT NULL,
      created_by TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      last_used_at INTEGER,
      revoked_at INTEGER
    );
    CREATE TABLE IF NOT EXISTS audit_log (
      id TEXT PRIMARY KEY,
      at INTEGER NOT NULL,
      actor TEXT NOT NULL,
      actor_kind TEXT NOT NULL,
      action TEXT NOT NULL,
      target TEXT,
      ip TEXT,
      status INTEGER,
      request_id TEXT
    );
    CREATE INDEX IF NOT EXISTS audit_log_at ON audit_log (at, id);
    CREATE TABLE IF NOT EXISTS sign_in_locks (
      email TEXT PRIMARY KEY,
      failures INTEGER NOT NULL,
      window_start INTEGER NOT NULL,
      locks INTEGER NOT NULL,
      locked_at INTEGER,
      locked_until INTEGER,
      locked_by TEXT,
      forget_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS sign_in_locks_forget ON sign_in_locks (forget_at);
    CREATE TABLE IF NOT EXISTS rate_windows (
      key TEXT NOT NULL,
      window_start INTEGER NOT NULL,
      reset_at INTEGER NOT NULL,
      count INTEGER NOT NULL,
      PRIMARY KEY (key, window_start)
    );
  `);

  // Files made before the idle timeout existed: add its column.
  const sessionColumns = db.prepare<[], { name: string }>('PRAGMA table_info(sessions)').all();
  if (!sessionColumns.some((c) => c.name === 'last_seen_at')) db.exec('ALTER TABLE sessions ADD COLUMN last_seen_at INTEGER');
  // And before buyers could sign in: whom a code or session is for (NULL: staff).
  if (!sessionColumns.some((c) => c.name === 'audience')) db.exec('ALTER TABLE sessions ADD COLUMN audience TEXT');
  const otpColumns = db.prepare<[], { name: string }>('PRAGMA table_info(otp_requests)').all();
  if (!otpColumns.some((c) => c.name === 'audience')) db.exec('ALTER TABLE otp_requests ADD COLUMN audience TEXT');

  const q = {
    insertOtp: db.prepare(
      `INSERT INTO otp_requests (id, email, code_hash, expires_at, attempts, consumed_at, created_at, audience)
       VALUES (@id, @email, @codeHash, @expiresAt, @attempts, @consumedAt, @createdAt, @audience)`,
    ),
    getOtp: db.prepare<[string], OtpRow>('SELECT * FROM otp_requests WHERE id = ?'),
    insertMail: db.prepare(
      `INSERT INTO mail_outbox (id, ref_id, sealed, attempts, next_attempt_at, lease_until, expires_at, created_at)
       VALUES (@id, @refId, @sealed, 0, @createdAt, 0, @expiresAt, @createdAt)`,
    ),
    enqueueMail: db.prepare(
      `INSERT OR IGNORE INTO mail_outbox (id, ref_id, sealed, attempts, next_attempt_at, lease_until, expires_at, created_at)
       VALUES (@id, @refId, @sealed, 0, @createdAt, 0, @expiresAt, @createdAt)`,
    ),
    dueMails: db.prepare<[number, number, number, number], MailRow>(
      `SELECT id, ref_id, sealed, attempts FROM mail_outbox
       WHERE next_attempt_at <= ? AND lease_until <= ? AND expires_at > ?
       ORDER BY next_attempt_at, id LIMIT ?`,
    ),
    leaseMail: db.prepare<[number, string]>('UPDATE mail_outbox SET lease_until = ?, attempts = attempts + 1 WHERE id = ?'),
    deleteMail: db.prepare<[string]>('DELETE FROM mail_outbox WHERE id = ?'),
    failMail: db.prepare<[number, string, string]>('UPDATE mail_outbox SET next_attempt_at = ?, lease_until = 0, last_error = ? WHERE id = ?'),
    countMails: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM mail_outbox'),
    purgeMails: db.prepare<[number]>('DELETE FROM mail_outbox WHERE expires_at <= ?'),
    getLock: db.prepare<[string], LockRow>('SELECT * FROM sign_in_locks WHERE email = ?'),
    listLocks: db.prepare<[], LockRow>('SELECT * FROM sign_in_locks ORDER BY email'),
    putLock: db.prepare(
      `INSERT INTO sign_in_locks (email, failures, window_start, locks, locked_at, locked_until, locked_by, forget_at)
       VALUES (@email, @failures, @windowStart, @locks, @lockedAt, @lockedUntil, @lockedBy, @forgetAt)
       ON CONFLICT (email) DO UPDATE SET failures = excluded.failures, window_start = excluded.window_start, locks = excluded.locks,
         locked_at = excluded.locked_at, locked_until = excluded.locked_until, locked_by = excluded.locked_by, forget_at = excluded.forget_at`,
    ),
    deleteLock: db.prepare<[string]>('DELETE FROM sign_in_locks WHERE email = ?'),
    purgeLocks: db.prepare<[number]>('DELETE FROM sign_in_locks WHERE forget_at <= ?'),
    countAttempt: db.prepare<[string, number], OtpRow>(
      `UPDATE otp_requests SET attempts = attempts + 1
       WHERE id = ? AND consumed_at IS NULL AND attempts < ? RETURNING *`,
    ),
    consume: db.prepare<[number, string]>('UPDATE otp_requests SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL'),
    insertSession: db.prepare(
      `INSERT INTO sessions (token_hash, email, expires_at, revoked_at, created_at, last_seen_at, audience)
       VALUES (@tokenHash, @email, @expiresAt, @revokedAt, @createdAt, @lastSeenAt, @audience)`,
    ),
    findSession: db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE token_hash = ?'),
    revoke: db.prepare<[number, string]>('UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL'),
    touch: db.prepare<[number, string, number]>('UPDATE sessions SET last_seen_at = ? WHERE token_hash = ? AND coalesce(last_seen_at, 0) < ?'),
    insertKey: db.prepare(
      `INSERT INTO api_keys (id, name, prefix, key_hash, scopes, created_by, created_at, last_used_at, revoked_at)
       VALUES (@id, @name, @prefix, @keyHash, @scopes, @createdBy, @createdAt, @lastUsedAt, @revokedAt)`,
    ),
    listKeys: db.prepare<[], ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at DESC, id DESC'),
    findKey: db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = ?'),
    revokeKey: db.prepare<[number, string]>('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    touchKey: db.prepare<[number, string]>('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
    insertAudit: db.prepare(
      `INSERT OR IGNORE INTO audit_log (id, at, actor, actor_kind, action, target, ip, status, request_id)
       VALUES (@id, @at, @actor, @actorKind, @action, @target, @ip, @status, @requestId)`,
    ),
    purgeAudit: db.prepare<[number]>('DELETE FROM audit_log WHERE at < ?'),
    hit: db.prepare<[string, number, number], { count: number; reset_at: number }>(
      `INSERT INTO rate_windows (key, window_start, reset_at, count) VALUES (?, ?, ?, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1
       RETURNING count, reset_at`,
    ),
    unhit: db.prepare<[string, number]>(
      'UPDATE rate_windows SET count = count - 1 WHERE key = ? AND window_start = ? AND count > 0',
    ),
    resetHits: db.prepare<[string]>('DELETE FROM rate_windows WHERE key = ?'),
    purgeOtps: db.prepare<[number]>('DELETE FROM otp_requests WHERE expires_at <= ?'),
    purgeSessions: db.prepare<[number]>('DELETE FROM sessions WHERE expires_at <= ? OR revoked_at IS NOT NULL'),
    purgeRates: db.prepare<[number]>('DELETE FROM rate_windows WHERE reset_at <= ?'),
  };

  return {
    async createOtp(record, mail) {
      db.transaction(() => {
        q.insertOtp.run({ ...record, audience: record.audience ?? 'staff' });
        if (mail) q.insertMail.run(mail);
      })();
    },
    async enqueueMail(mail) {
      return q.enqueueMail.run(mail).changes === 1;
    },
    async claimDueMails(now, limit, leaseMs) {
      const t = now.getTime();
      // IMMEDIATE: the write lock is taken before the read, so two processes never claim the same mail.
      return db
        .transaction((): ClaimedSealedMail[] => {
          q.purgeMails.run(t); // past their expiry: never sent, and not kept
          const rows = q.dueMails.all(t, t, t, limit);
          for (const r of rows) q.leaseMail.run(t + leaseMs, r.id);
          return rows.map((r) => ({ id: r.id, refId: r.ref_id, sealed: r.sealed, attempts: r.attempts + 1 }));
        })
        .immediate();
    },
    async deleteMail(id) {
      q.deleteMail.run(id);
    },
    async markFailed(id, nextAttemptAt, error) {
      q.failMail.run(nextAttemptAt.getTime(), error.slice(0, 500), id);
    },
    async pendingMails() {
      return q.countMails.get()!.n;
    },
    async mailBacklog() {
      const r = db
        .prepare<[], { pending: number; failing: number | null; oldest: number | null }>('SELECT COUNT(*) AS pending, SUM(attempts > 0) AS failing, MIN(created_at) AS oldest FROM mail_outbox')
        .get()!;
      return { pending: r.pending, failing: r.failing ?? 0, oldestAt: r.oldest === null ? null : new Date(r.oldest) };
    },
    async getOtp(id) {
      const row = q.getOtp.get(id);
      return row ? toOtp(row) : null;
    },
    async countOtpAttempt(id, maxAttempts) {
      const row = q.countAttempt.get(id, maxAttempts);
      return row ? toOtp(row) : null;
    },
    async consumeOtp(id, at) {
      return q.consume.run(at, id).changes === 1;
    },
    async createSession(record) {
      q.insertSession.run({ ...record, audience: record.audience ?? 'staff' });
    },
    async findSession(tokenHash) {
      const row = q.findSession.get(tokenHash);
      return row ? toSession(row) : null;
    },
    async revokeSession(tokenHash, at) {
      return q.revoke.run(at, tokenHash).changes === 1;
    },
    async touchSession(tokenHash, at) {
      q.touch.run(at, tokenHash, at);
    },
    async createApiKey(record) {
      q.insertKey.run({ ...record, scopes: record.scopes.join(' ') });
    },
    async listApiKeys() {
      return q.listKeys.all().map(toApiKey);
    },
    async findApiKeyByHash(keyHash) {
      const row = q.findKey.get(keyHash);
      return row ? toApiKey(row) : null;
    },
    async revokeApiKey(id, at) {
      return q.revokeKey.run(at, id).changes === 1;
    },
    async touchApiKey(id, at) {
      q.touchKey.run(at, id);
    },
    async appendAudit(records) {
      db.transaction(() => {
        for (const r of records) q.insertAudit.run(r);
      })();
    },
    async listAudit(f) {
      const where: string[] = [];
      const args: (string | number)[] = [];
      if (f.actor) {
        where.push("actor LIKE ? ESCAPE '\\'");
        args.push(`%${likeEscape(f.actor)}%`);
      }
      if (f.action) {
        where.push("action LIKE ? ESCAPE '\\'");
        args.push(`${likeEscape(f.action)}%`);
      }
      if (f.from !== undefined) {
        where.push('at >= ?');
        args.push(f.from);
      }
      if (f.to !== undefined) {
        where.push('at <= ?');
        args.push(f.to);
      }
      if (f.before) {
        where.push('(at < ? OR (at = ? AND id < ?))');
        args.push(f.before.at, f.before.at, f.before.id);
      }
      const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY at DESC, id DESC LIMIT ?`;
      return db.prepare<(string | number)[], AuditRow>(sql).all(...args, f.limit).map(toAudit);
    },
    async purgeAudit(before) {
      return q.purgeAudit.run(before).changes;
    },
    async hit(key, windowMs, now): Promise<RateHit> {
      const start = Math.floor(now / windowMs) * windowMs;
      const row = q.hit.get(key, start, start + windowMs)!;
      return { count: row.count, resetAt: row.reset_at };
    },
    async unhit(key, windowMs, now) {
      q.unhit.run(key, Math.floor(now / windowMs) * windowMs);
    },
    async resetHits(key) {
      q.resetHits.run(key);
    },
    async changeSignInLock(email, change) {
      // IMMEDIATE: read and write under the write lock, so replicas sharing the file count one after another.
      return db
        .transaction(() => {
          const row = q.getLock.get(email);
          const { next, result } = change(row ? toLock(row) : null);
          if (next === null) q.deleteLock.run(email);
          else if (next !== undefined) q.putLock.run({ ...next, email });
          return result;
        })
        .immediate();
    },
    async getSignInLock(email) {
      const row = q.getLock.get(email);
      return row ? toLock(row) : null;
    },
    async listSignInLocks() {
      return q.listLocks.all().map(toLock);
    },
    async purgeExpired(now) {
      return db.transaction(
        () =>
          q.purgeOtps.run(now).changes +
          q.purgeMails.run(now).changes +
          q.purgeSessions.run(now).changes +
          q.purgeRates.run(now).changes +
          q.purgeLocks.run(now).changes,
      )();
    },
    async ping() {
      return db.prepare('SELECT 1 AS ok').get() !== undefined;
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
