import Database from 'better-sqlite3';
import type { AuthStore, OtpRecord, RateHit, SessionRecord } from '../../ports.ts';

interface OtpRow {
  id: string;
  email: string;
  code_hash: string | null;
  expires_at: number;
  attempts: number;
  consumed_at: number | null;
  created_at: number;
}
interface SessionRow {
  token_hash: string;
  email: string;
  expires_at: number;
  revoked_at: number | null;
  created_at: number;
}

const toOtp = (r: OtpRow): OtpRecord => ({
  id: r.id,
  email: r.email,
  codeHash: r.code_hash,
  expiresAt: r.expires_at,
  attempts: r.attempts,
  consumedAt: r.consumed_at,
  createdAt: r.created_at,
});
const toSession = (r: SessionRow): SessionRecord => ({
  tokenHash: r.token_hash,
  email: r.email,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  createdAt: r.created_at,
});

/** Auth storage in one SQLite file (WAL), e.g. `${DATA_DIR}/auth.sqlite`. */
export function createSqliteAuthStore(file: string): AuthStore {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
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
    CREATE TABLE IF NOT EXISTS sessions (
      token_hash TEXT PRIMARY KEY,
      email TEXT NOT NULL,
      expires_at INTEGER NOT NULL,
      revoked_at INTEGER,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS sessions_expires ON sessions (expires_at);
    CREATE TABLE IF NOT EXISTS rate_windows (
      key TEXT NOT NULL,
      window_start INTEGER NOT NULL,
      reset_at INTEGER NOT NULL,
      count INTEGER NOT NULL,
      PRIMARY KEY (key, window_start)
    );
  `);

  const q = {
    insertOtp: db.prepare(
      `INSERT INTO otp_requests (id, email, code_hash, expires_at, attempts, consumed_at, created_at)
       VALUES (@id, @email, @codeHash, @expiresAt, @attempts, @consumedAt, @createdAt)`,
    ),
    getOtp: db.prepare<[string], OtpRow>('SELECT * FROM otp_requests WHERE id = ?'),
    countAttempt: db.prepare<[string, number], OtpRow>(
      `UPDATE otp_requests SET attempts = attempts + 1
       WHERE id = ? AND consumed_at IS NULL AND attempts < ? RETURNING *`,
    ),
    consume: db.prepare<[number, string]>('UPDATE otp_requests SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL'),
    insertSession: db.prepare(
      `INSERT INTO sessions (token_hash, email, expires_at, revoked_at, created_at)
       VALUES (@tokenHash, @email, @expiresAt, @revokedAt, @createdAt)`,
    ),
    findSession: db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE token_hash = ?'),
    revoke: db.prepare<[number, string]>('UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL'),
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
    async createOtp(record) {
      q.insertOtp.run(record);
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
      q.insertSession.run(record);
    },
    async findSession(tokenHash) {
      const row = q.findSession.get(tokenHash);
      return row ? toSession(row) : null;
    },
    async revokeSession(tokenHash, at) {
      return q.revoke.run(at, tokenHash).changes === 1;
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
    async purgeExpired(now) {
      return db.transaction(
        () => q.purgeOtps.run(now).changes + q.purgeSessions.run(now).changes + q.purgeRates.run(now).changes,
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
