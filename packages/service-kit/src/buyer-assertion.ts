import type { RequestHandler } from 'express';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { BUYER_ASSERTION_HEADER, BuyerActorSchema, type BuyerActor } from '@forgeline/contracts/account';
import { HttpError } from './errors.ts';
import { assertionKey } from './gateway-assertion.ts';

/**
 * The gateway's word to a service that a buyer call carries a live buyer session (issue 35): a JWT (HS256, a minute)
 * naming the buyer, their company and its members' addresses, signed with a key of its own derived from SERVICE_TOKEN
 * (an admin assertion never passes for a buyer's, nor the reverse). Services believe nothing else about a buyer.
 */

const ISSUER = 'forgeline-gateway';
const AUDIENCE = 'forgeline-buyer-routes';
const LABEL = 'forgeline-buyer-assertion-v1';
const LIFETIME_S = 60;

export async function signBuyerAssertion(serviceToken: string, buyer: BuyerActor): Promise<string> {
  return new SignJWT({ companyId: buyer.companyId, role: buyer.role, members: buyer.memberEmails })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(buyer.email)
    .setIssuedAt()
    .setExpirationTime(`${LIFETIME_S}s`)
    .sign(assertionKey(serviceToken, LABEL));
}

export async function verifyBuyerAssertion(serviceToken: string, jwt: string): Promise<BuyerActor> {
  try {
    const { payload } = await jwtVerify(jwt, assertionKey(serviceToken, LABEL), { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'], clockTolerance: 5 });
    const buyer = BuyerActorSchema.safeParse({ email: payload.sub, companyId: payload.companyId, role: payload.role, memberEmails: payload.members });
    if (!buyer.success) throw new HttpError(401, 'The buyer assertion names no valid buyer');
    return buyer.data;
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const reason = err instanceof joseErrors.JWTExpired ? 'has expired' : 'is not valid';
    throw new HttpError(401, `The buyer assertion ${reason}: account calls must come through the gateway`);
  }
}

/** Headers that make a direct call to a buyer route look like the gateway's (tests). */
export async function buyerAssertionHeaders(serviceToken: string, buyer: BuyerActor): Promise<Record<string, string>> {
  return { [BUYER_ASSERTION_HEADER]: await signBuyerAssertion(serviceToken, buyer) };
}

/** Refuses a call without a valid buyer assertion (401, before the body is read); the buyer is then `buyerOf(res)`. */
export function requireBuyerAssertion(serviceToken: string): RequestHandler {
  return (req, res, next) => {
    const jwt = req.header(BUYER_ASSERTION_HEADER);
    if (!jwt) return next(new HttpError(401, 'Sign in to your account first (no buyer session)'));
    verifyBuyerAssertion(serviceToken, jwt).then((buyer) => {
      res.locals.buyer = buyer;
      next();
    }, next);
  };
}

export function buyerOf(res: { locals: Record<string, unknown> }): BuyerActor {
  const buyer = res.locals.buyer as BuyerActor | undefined;
  if (!buyer) throw new HttpError(401, 'Sign in to your account first (no buyer session)');
  return buyer;
}
