import type { OutboxBacklog } from '@forgeline/mailer/outbox';
import type { ApiKeyScope } from '@forgeline/contracts/admin-access';

/** Times are epoch milliseconds throughout. */

/** One code request. `codeHash` is null for an address that is not an admin's (a decoy that never verifies). */
/**
 * Who a code or session is for: staff (the admin panel, ADMIN_EMAILS only) or a buyer (their account, any address).
 * Never interchangeable: a buyer's code or session is refused wherever a staff one is asked for, and the reverse.
 * Absent in records from before buyers could sign in: staff.
 */
export type Audience = 'staff' | 'buyer';

export interface OtpRecord {
  id: string;
  email: string;
  audience?: Audience;
  codeHash: string | null;
  expiresAt: number;
  /** Verify attempts counted so far, right or wrong. */
  attempts: number;
  consumedAt: number | null;
  createdAt: number;
}

/**
 * A mail of auth's (a sign-in code, a lock notice) waiting in the outbox (packages/mailer/src/outbox.ts) until the mail
 * server takes it. The store only ever sees it sealed (domain/mail-seal.ts): it is opened when it is sent, deleted
 * once sent, and never handed out (then deleted) once past `expiresAt`, since the code in it would no longer work.
 */
export interface OutboxMailRecord {
  /** The code request's id for a code (also in the Message-ID). */
  id: string;
  refId: string;
  /** `sealMail`'s output: the MailMessage, encrypted. */
  sealed: string;
  expiresAt: number;
  createdAt: number;
}

/** A sealed mail as a claim hands it out. */
export interface ClaimedSealedMail {
  id: string;
  refId: string;
  sealed: string;
  /** Attempts started so far, this one included. */
  attempts: number;
}

/** A signed-in admin. Only the sha256 of the bearer token is stored. */
export interface SessionRecord {
  tokenHash: string;
  email: string;
  audience?: Audience;
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
 * Auth's storage: code requests and their mails, sessions, the sign-in locks and the rate-limit counters (fixed
 * windows), shared by every replica. Its outbox holds sealed mails only; `sealedOutbox` (sealed-outbox.ts) opens
 * them for the shared Outbox.
 */
export interface AuthStore {
  /** Stores a code request and, for an admin's, the sealed mail carrying its code (both, or neither where it can). */
  createOtp(record: OtpRecord, mail?: OutboxMailRecord): Promise<void>;
  /** Adds a mail unless one with its id is there already (a lock notice: one per lock); true when added. */
  enqueueMail(mail: OutboxMailRecord): Promise<boolean>;
  /**
   * Claims up to `limit` unexpired mails due at `now` for `leaseMs` (attempts + 1; no other claimer gets them until
   * the lease ends or they are marked), atomically across processes. Expired mails are deleted on the way.
   */
  claimDueMails(now: Date, limit: number, leaseMs: number): Promise<ClaimedSealedMail[]>;
  /** Sent, or cannot be opened: the mail goes. */
  deleteMail(id: string): Promise<void>;
  markFailed(id: string, nextAttemptAt: Date, error: string): Promise<void>;
  /** Mails not yet sent, expired ones included until purged. */
  pendingMails(): Promise<number>;
  /** What waits in the outbox (#37 metrics): mails not yet sent, those that failed at least once, the oldest's creation. */
  mailBacklog(): Promise<OutboxBacklog>;
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

  /**
   * Reads `email`'s sign-in lock record, lets `change` (a pure function: it may run more than once) decide the next
   * one, and writes that, all atomically across replicas; returns what `change` returned for the record it was given.
   */
  changeSignInLock<T>(email: string, change: (stored: SignInLockRecord | null) => LockChange<T>): Promise<T>;
  getSignInLock(email: string): Promise<SignInLockRecord | null>;
  /** Every record, forgotten ones included until purged. */
  listSignInLocks(): Promise<SignInLockRecord[]>;

  /**
   * Deletes expired codes and their unsent mails, sessions past expiry or revoked, finished rate windows and
   * forgotten sign-in counts; returns how many rows went.
   */
  purgeExpired(now: number): Promise<number>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** One address's count (times in epoch ms). Kept for every address asked about, admin or not, so both behave alike. */
export interface SignInLockRecord {
  /** Lower-cased, as the form sends it. */
  email: string;
  /** Failed codes since `windowStart`; an attempt under way counts until its code turns out right. */
  failures: number;
  /** The first failure of this count. */
  windowStart: number;
  /** Locks since `windowStart`: the next one lasts firstLockMs × 2^locks (at most maxLockMs). */
  locks: number;
  /** The current or last lock; null before the first. */
  lockedAt: number | null;
  lockedUntil: number | null;
  /** The attempt that started the current lock: it lifts the lock again if its own code was right. */
  lockedBy: string | null;
  /** When this count is forgotten: a day after `windowStart` or after `lockedUntil`, whichever is later. */
  forgetAt: number;
}

/** What a store's atomic change makes of the record: a new one, null to delete it, undefined to leave it as is. */
export interface LockChange<T> {
  next: SignInLockRecord | null | undefined;
  result: T;
}

// ---- Buyers' accounts (issue 35) -------------------------------------------------------------------------------

export type CompanyRole = 'admin' | 'buyer';

export interface CompanyRecord {
  id: string;
  name: string;
  /** The e-mail domain it was made for (unique), or null: a one-person company (public mail domain, or domain taken). */
  domain: string | null;
  createdAt: number;
}
/** A buyer's place in a company: one company per address. */
export interface MemberRecord {
  email: string;
  companyId: string;
  role: CompanyRole;
  joinedAt: number;
}
export interface InviteRecord {
  id: string;
  companyId: string;
  email: string;
  role: CompanyRole;
  invitedBy: string;
  createdAt: number;
  expiresAt: number;
}
export interface FleetUnitRecord {
  id: string;
  companyId: string;
  unitName: string;
  make: string;
  model: string;
  serial: string | null;
  hours: number | null;
  createdAt: number;
  updatedAt: number;
}
export interface SavedListRecord {
  id: string;
  companyId: string;
  name: string;
  unitId: string | null;
  /** The lines as the contract's SavedListLine, kept whole. */
  lines: unknown[];
  createdBy: string;
  updatedBy: string;
  createdAt: number;
  updatedAt: number;
}
export type SavedListHead = Omit<SavedListRecord, 'lines'> & { lineCount: number };

/**
 * Buyers' companies, their members and invites, fleets and saved parts lists. Every read and write of a company's
 * things names the company: an id from another company finds nothing.
 */
export interface AccountStore {
  getMember(email: string): Promise<MemberRecord | null>;
  listMembers(companyId: string): Promise<MemberRecord[]>;
  /** Adds the member unless the address already has a company; false then. */
  addMember(member: MemberRecord): Promise<boolean>;
  setMemberRole(companyId: string, email: string, role: CompanyRole): Promise<boolean>;
  removeMember(companyId: string, email: string): Promise<boolean>;

  getCompany(id: string): Promise<CompanyRecord | null>;
  findCompanyByDomain(domain: string): Promise<CompanyRecord | null>;
  /** Adds the company with its first member in one step; false (nothing written) when its domain is taken. */
  createCompany(company: CompanyRecord, firstMember: MemberRecord): Promise<boolean>;
  renameCompany(id: string, name: string): Promise<boolean>;
  /** The company and everything of it: members, invites, fleet, lists. */
  deleteCompany(id: string): Promise<boolean>;

  /** Replaces an invite of the same company and address. */
  putInvite(invite: InviteRecord): Promise<void>;
  listInvites(companyId: string): Promise<InviteRecord[]>;
  /** The address's unexpired invites, oldest first. */
  invitesFor(email: string, now: number): Promise<InviteRecord[]>;
  deleteInvite(companyId: string, id: string): Promise<boolean>;
  deleteInvitesFor(email: string): Promise<void>;

  listUnits(companyId: string): Promise<FleetUnitRecord[]>;
  getUnit(companyId: string, id: string): Promise<FleetUnitRecord | null>;
  /** Adds or replaces (by id) a unit; false when another unit of the company has its name. */
  putUnit(unit: FleetUnitRecord): Promise<boolean>;
  deleteUnit(companyId: string, id: string): Promise<boolean>;

  listLists(companyId: string): Promise<SavedListHead[]>;
  getList(companyId: string, id: string): Promise<SavedListRecord | null>;
  putList(list: SavedListRecord): Promise<void>;
  deleteList(companyId: string, id: string): Promise<boolean>;
  /** Lists tied to a unit no longer do (the unit was deleted). */
  untieLists(companyId: string, unitId: string): Promise<void>;

  close(): Promise<void>;
}
