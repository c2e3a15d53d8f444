import { z } from 'zod';
import {
  ApiKeyListResponseSchema,
  AuditListResponseSchema,
  AuditQuerySchema,
  CreateApiKeyRequestSchema,
  CreateApiKeyResponseSchema,
  CurrentSessionResponseSchema,
  LiftSignInLockResponseSchema,
  SignInLockListResponseSchema,
  SignInLockParamsSchema,
} from '../admin-access.ts';
import {
  AuthConfigResponseSchema,
  LogoutResponseSchema,
  SendOtpRequestSchema,
  SendOtpResponseSchema,
  VerifyOtpRequestSchema,
  VerifyOtpResponseSchema,
} from '../auth.ts';
import { ADMIN_ERRORS, body, errors, HEADERS_TOO_LARGE, json, open, parameters, staff, textId, type Paths } from './shared.ts';

const signIn = ['Staff sign-in'];
const keysAndAudit = ['API keys & audit'];

/** DELETE /api/admin/api-keys/{id}. No contract names this answer; the shape is the auth service's. */
const RevokedSchema = z.object({ success: z.literal(true) });

/**
 * Staff access (auth service): the e-mailed-code sign-in (open: it is how a session is obtained), the session, the
 * sign-in locks, API keys and the audit log. Keys, locks and the log are for signed-in staff only: a key gets 403.
 */
export const staffPaths: Paths = {
  '/api/admin/auth/config': {
    get: {
      tags: signIn,
      operationId: 'getSignInConfig',
      security: open,
      summary: 'What the sign-in screen prefills (an empty defaultEmail when the prefill is off)',
      responses: { 200: json(AuthConfigResponseSchema, 'The settings'), ...HEADERS_TOO_LARGE },
    },
  },
  '/api/admin/auth/send-otp': {
    post: {
      tags: signIn,
      operationId: 'sendSignInCode',
      security: open,
      summary: 'Mail a 6-digit sign-in code to an admin address (any well-formed address gets the same answer)',
      requestBody: body(SendOtpRequestSchema),
      responses: {
        200: json(SendOtpResponseSchema, 'The sign-in attempt to verify the code against'),
        ...errors(400, 413, [429, 'Too many code requests for this address or from this network: try again later']),
      },
    },
  },
  '/api/admin/auth/verify-otp': {
    post: {
      tags: signIn,
      operationId: 'verifySignInCode',
      security: open,
      summary: 'Trade the mailed code for a session: its token (for Authorization: Bearer) and the session cookie',
      requestBody: body(VerifyOtpRequestSchema),
      responses: {
        200: json(VerifyOtpResponseSchema, 'Signed in (Set-Cookie: the session cookie)'),
        ...errors(
          400,
          [401, 'Wrong, expired or used code'],
          413,
          [429, 'Too many attempts from this network, or the address is locked after too many wrong codes (Retry-After)'],
        ),
      },
    },
  },
  '/api/admin/auth/session': {
    get: {
      tags: signIn,
      operationId: 'getSession',
      summary: 'Who the bearer token or session cookie signs in, and until when',
      security: staff,
      responses: { 200: json(CurrentSessionResponseSchema, 'The session'), ...errors([401, 'No token or cookie, or the session has ended']) },
    },
  },
  '/api/admin/auth/logout': {
    post: {
      tags: signIn,
      operationId: 'signOut',
      summary: 'End the session of the bearer token or cookie (and clear the cookie)',
      security: staff,
      responses: {
        200: json(LogoutResponseSchema, 'Signed out'),
        ...errors([401, 'No token or cookie'], [403, 'Cross-site request refused: a sign-out by cookie must come from the site']),
      },
    },
  },
  '/api/admin/sign-in-locks': {
    get: {
      tags: signIn,
      operationId: 'listSignInLocks',
      summary: 'Admin addresses with failed sign-in codes counted, locked ones first',
      security: staff,
      responses: { 200: json(SignInLockListResponseSchema, 'The counts and locks'), ...errors(...ADMIN_ERRORS) },
    },
  },
  '/api/admin/sign-in-locks/{email}': {
    delete: {
      tags: signIn,
      operationId: 'liftSignInLock',
      summary: "End an address's sign-in lock and forget its count (another admin's: never one's own)",
      security: staff,
      parameters: parameters(SignInLockParamsSchema, 'path'),
      responses: {
        200: json(LiftSignInLockResponseSchema, 'Lifted: the count and lock as they were'),
        ...errors(400, 401, [403, "An API key, or one's own address"], 503, [404, 'No count or lock for that admin address']),
      },
    },
  },
  '/api/admin/api-keys': {
    get: {
      tags: keysAndAudit,
      operationId: 'listApiKeys',
      summary: 'The API keys, revoked ones included (never the keys themselves)',
      security: staff,
      responses: { 200: json(ApiKeyListResponseSchema, 'The keys'), ...errors(...ADMIN_ERRORS) },
    },
    post: {
      tags: keysAndAudit,
      operationId: 'createApiKey',
      summary: 'Make an API key with scopes; the answer is the only time the key is shown',
      security: staff,
      requestBody: body(CreateApiKeyRequestSchema),
      responses: { 201: json(CreateApiKeyResponseSchema, 'The key (keep it: it is stored hashed)'), ...errors(400, ...ADMIN_ERRORS, 413) },
    },
  },
  '/api/admin/api-keys/{id}': {
    delete: {
      tags: keysAndAudit,
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key (again: no change)',
      security: staff,
      parameters: parameters(textId("The key's id"), 'path'),
      responses: { 200: json(RevokedSchema, 'Revoked'), ...errors(...ADMIN_ERRORS, [404, 'No such key']) },
    },
  },
  '/api/admin/audit': {
    get: {
      tags: keysAndAudit,
      operationId: 'listAuditEntries',
      summary: 'Staff actions and every call made with a key, newest first: who, what, from where, the answer',
      security: staff,
      parameters: parameters(AuditQuerySchema, 'query'),
      responses: { 200: json(AuditListResponseSchema, 'A page of entries (nextCursor: the next page)'), ...errors([400, 'Invalid query or cursor'], ...ADMIN_ERRORS) },
    },
  },
};
