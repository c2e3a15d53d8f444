import { z } from 'zod';
import { AdminEmailSchema } from './auth.ts';

/**
 * Staff access beyond the sign-in itself: the session cookie the admin panel relies on, API keys for the seller's
 * own systems, the assertion the gateway signs for the services, and the audit log of staff actions.
 */

// ---- Session cookie --------------------------------------------------------------------------------------------

/**
 * The admin session's cookie. Over HTTPS it takes the `__Host-` prefix, which browsers only accept with `Secure`,
 * `Path=/` and no `Domain`, so no sub-domain can plant or read it.
 */
export const sessionCookieName = (secure: boolean) => (secure ? '__Host-fl_admin' : 'fl_admin');

/** One cookie's value from a Cookie header, or null. */
export function readCookie(header: string | undefined | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9._~+/=-]{1,200}$/.test(value) ? value : null;
    }
  }
  return null;
}

/** GET /api/admin/auth/session: who the cookie (or bearer token) signs in, for the panel after a reload. */
export const CurrentSessionResponseSchema = z.object({ email: z.string(), expiresAt: z.string() });
export type CurrentSessionResponse = z.infer<typeof CurrentSessionResponseSchema>;

// ---- API keys --------------------------------------------------------------------------------------------------

/** What a key may do: read or change the catalogue (import, export, edit), read or answer the quote inbox. */
export const API_KEY_SCOPES = ['catalog:read', 'catalog:write', 'quotes:read', 'quotes:write'] as const;
export const ApiKeyScopeSchema = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof ApiKeyScopeSchema>;

/** Keys start with this, so the gateway tells a key from a session token without asking, and scanners find leaks. */
export const API_KEY_PREFIX = 'flk_';
export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

/** POST /api/admin/api-keys */
export const CreateApiKeyRequestSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(80, 'must be at most 80 characters'),
  scopes: z
    .array(ApiKeyScopeSchema)
    .min(1, 'choose at least one scope')
    .max(API_KEY_SCOPES.length)
    .transform((s) => [...new Set(s)]),
});
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequestSchema>;

export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, to recognise it; the rest is never shown again. */
  prefix: z.string(),
  scopes: z.array(ApiKeyScopeSchema),
  createdBy: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;
/** The key itself is in this answer only: it is stored hashed. */
export const CreateApiKeyResponseSchema = ApiKeySchema.extend({ key: z.string() });
export type CreateApiKeyResponse = z.infer<typeof CreateApiKeyResponseSchema>;
export const ApiKeyListResponseSchema = z.object({ keys: z.array(ApiKeySchema) });
export type ApiKeyListResponse = z.infer<typeof ApiKeyListResponseSchema>;

/** Internal POST /internal/api-keys/verify (service token): 200 with the key, or 401. Records the use. */
export const VerifyApiKeyRequestSchema = z.object({ key: z.string().min(1, 'is required').max(200) });
export const VerifyApiKeyResponseSchema = z.object({ id: z.string(), name: z.string(), scopes: z.array(ApiKeyScopeSchema) });
export type VerifyApiKeyResponse = z.infer<typeof VerifyApiKeyResponseSchema>;

// ---- The gateway's assertion -----------------------------------------------------------------------------------

/** Header carrying the JWT the gateway signs for each admin call it lets through (services refuse admin calls without). */
export const GATEWAY_ASSERTION_HEADER = 'x-gateway-assertion';
/** Who an admin call acts for: a signed-in member of staff, or an API key (then `scopes` bound it). */
export const AdminActorSchema = z.object({
  kind: z.enum(['admin', 'api_key']),
  /** The admin's e-mail, or `key:<name>` for a key. */
  name: z.string().min(1).max(300),
  keyId: z.string().optional(),
  scopes: z.array(ApiKeyScopeSchema).optional(),
});
export type AdminActor = z.infer<typeof AdminActorSchema>;

// ---- Audit log -------------------------------------------------------------------------------------------------

export const AUDIT_ACTOR_KINDS = ['admin', 'api_key', 'anonymous'] as const;

/** One staff action: who, when, what, from where, and how it ended. */
export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.string(),
  actorKind: z.enum(AUDIT_ACTOR_KINDS),
  /** e.g. `sign-in`, `catalog.import`, `product.update`, `media.upload`, `quote.update`, `api-key.create`. */
  action: z.string(),
  /** The request line or the thing acted on. */
  target: z.string().nullable(),
  ip: z.string().nullable(),
  /** The HTTP status the action ended with. */
  status: z.number().int().nullable(),
  requestId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** Internal POST /internal/audit (service token): entries the gateway saw, in batches. */
export const RecordAuditRequestSchema = z.object({
  entries: z
    .array(
      AuditEntrySchema.omit({ id: true }).extend({
        actor: z.string().max(300),
        action: z.string().max(100),
        target: z.string().max(500).nullable(),
        ip: z.string().max(100).nullable(),
        requestId: z.string().max(100).nullable(),
      }),
    )
    .min(1)
    .max(500),
});
export type RecordAuditRequest = z.infer<typeof RecordAuditRequestSchema>;

const isoDate = z.iso.datetime({ offset: true }).or(z.iso.date());

/** GET /api/admin/audit?actor=&action=&from=&to=&cursor=&limit= (newest first). */
export const AuditQuerySchema = z.object({
  actor: z.string().trim().max(300).optional().describe('Who (part of an e-mail or key name)'),
  action: z.string().trim().max(100).optional().describe('What (an action name or its start, e.g. catalog.)'),
  from: isoDate.optional().describe('From this time (ISO 8601)'),
  to: isoDate.optional().describe('Up to this time (ISO 8601)'),
  cursor: z.string().max(100).optional().describe('nextCursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;
export const AuditListResponseSchema = z.object({ entries: z.array(AuditEntrySchema), nextCursor: z.string().nullable() });
export type AuditListResponse = z.infer<typeof AuditListResponseSchema>;

// ---- Sign-in locks ---------------------------------------------------------------------------------------------

/**
 * An admin address's failed sign-in codes and its lock (auth's account-level backoff): after too many wrong codes
 * within a day the address is locked, for longer at each further failure. Staff see them and lift them.
 */
export const SignInLockSchema = z.object({
  email: z.string(),
  /** Wrong codes counted since `since`. */
  failures: z.number().int(),
  since: z.string(),
  /** Locks since `since`; the next one lasts twice as long as the last. */
  locks: z.number().int(),
  /** The current or last lock (null before the first); `locked` says whether it still runs. */
  lockedAt: z.string().nullable(),
  lockedUntil: z.string().nullable(),
  locked: z.boolean(),
  /** When the count is forgotten if nothing more fails. */
  resetsAt: z.string(),
});
export type SignInLock = z.infer<typeof SignInLockSchema>;

/** GET /api/admin/sign-in-locks: admin addresses with failed codes in their count, locked ones first. Staff only. */
export const SignInLockListResponseSchema = z.object({ locks: z.array(SignInLockSchema) });
export type SignInLockListResponse = z.infer<typeof SignInLockListResponseSchema>;

/** DELETE /api/admin/sign-in-locks/{email}: the address as the sign-in form takes it (trimmed, lower-cased). */
export const SignInLockParamsSchema = z.object({ email: AdminEmailSchema.describe("The admin's e-mail address (letter case does not matter)") });

/** DELETE /api/admin/sign-in-locks/{email}: ends the lock and forgets the count. Staff only, never one's own. */
export const LiftSignInLockResponseSchema = z.object({ success: z.literal(true), lifted: SignInLockSchema });
export type LiftSignInLockResponse = z.infer<typeof LiftSignInLockResponseSchema>;
