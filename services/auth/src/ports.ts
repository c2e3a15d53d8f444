/** Times are epoch milliseconds throughout. */

/** One code request. `codeHash` is null for an address that is not an admin's (a decoy that never verifies). */
export interface OtpRecord {
  id: string;
  email: string;
  codeHash: string | null;
  expiresAt: number;
  /** Verify attempts counted so far, right or wrong. */
  attempts: number;
  consumedAt: number | null;
  createdAt: number;
}

/** A signed-in admin. Only the sha256 of the bearer token is stored. */
export interface SessionRecord {
  tokenHash: string;
  email: string;
  expiresAt: number;
  revokedAt: number | null;
  createdAt: number;
}

export interface RateHit {
  count: number;
  resetAt: number;
}

/** Auth's storage: code requests, sessions and the rate-limit counters (fixed windows), shared by every replica. */
export interface AuthStore {
  createOtp(record: OtpRecord): Promise<void>;
  getOtp(id: string): Promise<OtpRecord | null>;
  /**
   * Counts one verify attempt, atomically, unless the code is used or already has `maxAttempts` attempts.
   * Returns the record after counting, or null when nothing was counted (unknown, used or locked).
   */
  countOtpAttempt(id: string, maxAttempts: number): Promise<OtpRecord | null>;
  /** Marks the code used; false if it already was (two verifies racing with the right code: one wins). */
  consumeOtp(id: string, at: number): Promise<boolean>;

  createSession(record: SessionRecord): Promise<void>;
  findSession(tokenHash: string): Promise<SessionRecord | null>;
  /** Revokes a live session; false when unknown or already revoked. */
  revokeSession(tokenHash: string, at: number): Promise<boolean>;

  /** Adds a hit to `key`'s current fixed window of `windowMs` and returns the window's count. */
  hit(key: string, windowMs: number, now: number): Promise<RateHit>;
  /** Takes a hit back from the current window (never below zero). */
  unhit(key: string, windowMs: number, now: number): Promise<void>;
  /** Forgets every window of `key`. */
  resetHits(key: string): Promise<void>;

  /** Deletes expired codes, sessions past expiry or revoked, and finished rate windows; returns how many rows went. */
  purgeExpired(now: number): Promise<number>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
