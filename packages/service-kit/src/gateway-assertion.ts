import { createHmac } from 'node:crypto';
import type { RequestHandler } from 'express';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { ADMIN_EMAIL_HEADER } from '@forgeline/contracts/auth';
import { AdminActorSchema, GATEWAY_ASSERTION_HEADER, type AdminActor } from '@forgeline/contracts/admin-access';
import { HttpError } from './errors.ts';

/**
 * The gateway's word to a service that an admin call passed its checks: a JWT (HS256) naming the actor, valid for a
 * minute, signed with a key derived from SERVICE_TOKEN (one secret to configure; a leaked assertion is not the token).
 * A service refuses every admin route without one, whatever headers the caller sends, so reaching a service's port
 * is not enough to act as an admin.
 */

const ISSUER = 'forgeline-gateway';
const AUDIENCE = 'forgeline-services';
const LIFETIME_S = 60;

const keys = new Map<string, Uint8Array>();
/** The signing key for one kind of assertion (`label`), derived from SERVICE_TOKEN: an admin's and a buyer's never verify as each other. */
export function assertionKey(serviceToken: string, label = 'forgeline-gateway-assertion-v1'): Uint8Array {
  const id = `${label}\0${serviceToken}`;
  let key = keys.get(id);
  if (!key) {
    key = new Uint8Array(createHmac('sha256', serviceToken).update(label).digest());
    keys.set(id, key);
  }
  return key;
}
const keyFor = (serviceToken: string) => assertionKey(serviceToken);

/** Signs an assertion for one call (the gateway, per admin request). */
export async function signGatewayAssertion(serviceToken: string, actor: AdminActor, requestId?: string): Promise<string> {
  return new SignJWT({ kind: actor.kind, ...(actor.keyId ? { keyId: actor.keyId } : {}), ...(actor.scopes ? { scopes: actor.scopes } : {}), ...(requestId ? { rid: requestId } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(actor.name)
    .setIssuedAt()
    .setExpirationTime(`${LIFETIME_S}s`)
    .sign(keyFor(serviceToken));
}

/** The actor an assertion names, or an HttpError 401 saying why not. */
export async function verifyGatewayAssertion(serviceToken: string, jwt: string): Promise<AdminActor> {
  try {
    const { payload } = await jwtVerify(jwt, keyFor(serviceToken), { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'], clockTolerance: 5 });
    const actor = AdminActorSchema.safeParse({ kind: payload.kind, name: payload.sub, keyId: payload.keyId, scopes: payload.scopes });
    if (!actor.success) throw new HttpError(401, 'The gateway assertion names no valid actor');
    return actor.data;
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const reason = err instanceof joseErrors.JWTExpired ? 'has expired' : 'is not valid';
    throw new HttpError(401, `The gateway assertion ${reason}: admin calls must come through the gateway`);
  }
}

/** Headers that make a direct call to a service's admin route look like the gateway's (tests, internal tools). */
export async function gatewayAssertionHeaders(serviceToken: string, actor: AdminActor | string): Promise<Record<string, string>> {
  const a: AdminActor = typeof actor === 'string' ? { kind: 'admin', name: actor } : actor;
  return { [GATEWAY_ASSERTION_HEADER]: await signGatewayAssertion(serviceToken, a) };
}

export interface AdminGuardOptions {
  serviceToken: string;
  /** Paths under /api/admin (given whole) that are open by design: the sign-in routes. */
  open?: (path: string) => boolean;
}

export const GATEWAY_ASSERTION_GUARD = 'gatewayAssertionGuard';

/**
 * Refuses every call that carries no valid gateway assertion (401 before the body is read): mount it on /api/admin
 * (createServiceApp does), so what it guards is what the router routes there. On success the actor is on
 * `res.locals.actor`, and `x-admin-email` is set from it (a caller's own value is always dropped), so the routes keep
 * reading the admin's name where they did.
 */
export function requireGatewayAssertion(opts: AdminGuardOptions): RequestHandler {
  const guard: RequestHandler = (req, res, next) => {
    delete req.headers[ADMIN_EMAIL_HEADER]; // createServiceApp drops it on every path too; this guard may stand alone
    if (opts.open?.(req.baseUrl + req.path)) return next();
    const jwt = req.header(GATEWAY_ASSERTION_HEADER);
    if (!jwt) return next(new HttpError(401, 'Admin calls must come through the gateway (no gateway assertion)'));
    verifyGatewayAssertion(opts.serviceToken, jwt).then(
      (actor) => {
        res.locals.actor = actor;
        req.headers[ADMIN_EMAIL_HEADER] = actor.name;
        next();
      },
      next,
    );
  };
  Object.defineProperty(guard, 'name', { value: GATEWAY_ASSERTION_GUARD });
  return guard;
}

/** The actor `requireGatewayAssertion` found. */
export function actorOf(res: { locals: Record<string, unknown> }): AdminActor | undefined {
  return res.locals.actor as AdminActor | undefined;
}
