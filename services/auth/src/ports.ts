import type { ApiKeyScope } from '@forgeline/contracts/admin-access';
import type { MailMessage } from '@forgeline/mailer/mailer';
import type { MailOutboxStore } from '@forgeline/mailer/outbox';

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

/**
 * A sign-in code's mail waiting in the outbox (packages/mailer/src/outbox.ts) until the mail server takes it.
 * It holds the code in clear, so it is kept no longer than needed: deleted once sent, and never sent (then
 * purged) once the code has expired, since the code in it would no longer work.
 */
export interface OutboxMailRecord {
  /** The code request's id (also in the Message-ID). */
  id: string;
  refId: string;
  message: MailMessage;
  expiresAt: number;
  createdAt: number;
}

/** A signed-in admin. Only the sha256 of the bearer token is stored. */
export interface SessionRecord {
  tokenHash: string;
  email: string;
  expiresAt: number;
  revokedAt: number | null;
  createdAt: number;
  /** The last call made with it (the idle timeout runs from here). */
  lastSeenAt: number;
}

/** An API key for the seller's own systems. Only the sha256 of the key is stored. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  /** The key's first characters, shown to recognise it. */
  prefix: string;
  keyHash: string;
  scopes: ApiKeyScope[];
  createdBy: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** One staff action (see AuditEntry in the contracts); times in epoch ms. */
export interface AuditRecord {
  id: string;
  at: number;
  actor: string;
  actorKind: 'admin' | 'api_key' | 'anonymous';
  action: string;
  target: string | null;
  ip: string | null;
  status: number | null;
  requestId: string | null;
}

export interface AuditFilter {
  /** Part of the actor, case-insensitive. */
  actor?: string;
  /** An action name or its start. */
  action?: string;
  from?: number;
  to?: number;
  /** Entries older than this (at, id) position: the previous page's last. */
  before?: { at: number; id: string };
  limit: number;
}

export interface RateHit {
  count: number;
  resetAt: number;
}

/**
 * Auth's storage: code requests and their mails, sessions and the rate-limit counters (fixed windows), shared by
 * every replica. As a MailOutboxStore it hands out unexpired mails (claimDueMails, times as Dates of epoch ms) and
 * deletes a mail once marked sent.
 */
export interface AuthStore extends MailOutboxStore {
  /** Stores a code request and, for an admin's, the mail carrying its code (both, or neither where it can). */
  createOtp(record: OtpRecord, mail?: OutboxMailRecord): Promise<void>;
  /** Mails not yet sent, expired ones included until purged. */
  pendingMails(): Promise<number>;
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
  /** Records a call made with the session (moves its idle timeout on). */
  touchSession(tokenHash: string, at: number): Promise<void>;

  createApiKey(record: ApiKeyRecord): Promise<void>;
  /** Every key, revoked ones too, newest first. */
  listApiKeys(): Promise<ApiKeyRecord[]>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  /** Revokes a live key; false when unknown or already revoked. */
  revokeApiKey(id: string, at: number): Promise<boolean>;
  touchApiKey(id: string, at: number): Promise<void>;

  appendAudit(records: AuditRecord[]): Promise<void>;
  /** Newest first, filtered; at most `limit`. */
  listAudit(filter: AuditFilter): Promise<AuditRecord[]>;
  /** Deletes entries older than `before`; returns how many went. */
  purgeAudit(before: number): Promise<number>;

  /** Adds a hit to `key`'s current fixed window of `windowMs` and returns the window's count. */
  hit(key: string, windowMs: number, now: number): Promise<RateHit>;
  /** Takes a hit back from the current window (never below zero). */
  unhit(key: string, windowMs: number, now: number): Promise<void>;
  /** Forgets every window of `key`. */
  resetHits(key: string): Promise<void>;

  /** Deletes expired codes and their unsent mails, sessions past expiry or revoked, and finished rate windows; returns how many rows went. */
  purgeExpired(now: number): Promise<number>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
