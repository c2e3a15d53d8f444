import type { Request, RequestHandler } from 'express';
import { REQUEST_ID_HEADER, SERVICE_TOKEN_HEADER } from '@forgeline/contracts/common';
import { readCookie } from '@forgeline/contracts/admin-access';
import { BUYER_ASSERTION_HEADER, BuyerActorSchema, buyerCookieName, type BuyerActor } from '@forgeline/contracts/account';
import { AnonymiseBuyersResponseSchema, BuyerExportSchema } from '@forgeline/contracts/buyer-history';
import { signBuyerAssertion } from '@forgeline/service-kit/buyer-assertion';
import type { Logger } from '@forgeline/service-kit/logger';
import { matchRoute } from './routes.ts';
import { isSameSite } from './same-site.ts';
import { toReplicaPool, type ReplicaPool } from './replica-pool.ts';

function routerPath(path: string): string {
  try {
    return decodeURIComponent(path).toLowerCase().replace(/\/+$/, '');
  } catch {
    return path.toLowerCase();
  }
}

export interface BuyerAuthOptions {
  authUrl: string | ReplicaPool;
  quotesUrl: string | ReplicaPool;
  serviceToken: string;
  publicUrl?: string;
  logger: Logger;
  timeoutMs?: number;
}

type Refusal = { status: number; message: string };
const idOf = (req: Request) => (req.id === undefined ? undefined : String(req.id));
const isSafeMethod = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
/** The deletions that take the person out of the seller's records too (their requests and orders are kept, anonymised). */
const ERASING = new Set(['/api/account', '/api/account/company']);

/**
 * The gateway's check on a buyer's account calls (issue 35), run before any /api/account/* route is proxied:
 *  - a change made by the buyer cookie must come from the site's own pages (403 otherwise; SameSite=Lax is the first lock);
 *  - a route of another service than auth (the buyer's quotes and orders) gets the buyer's assertion: the gateway asks
 *    auth who the cookie's session is (no cache: a sign-out counts at once) and signs who, which company and its
 *    members' addresses; a client's own assertion is always dropped;
 *  - "download my data" joins the account's data (auth) and the buyer's own requests and orders (quotes) in one file;
 *  - deleting an account or a company first has auth check it would go through, then has the quotes service anonymise
 *    the person's (or every member's) requests and orders, and only then lets auth delete: nothing is deleted when the
 *    quotes service cannot do its part (503), and the check spares a buyer an anonymised history when auth would refuse.
 */
export function createBuyerAuth(opts: BuyerAuthOptions): RequestHandler {
  const { logger } = opts;
  const auth = toReplicaPool(opts.authUrl, 'auth', logger);
  const quotes = toReplicaPool(opts.quotesUrl, 'quotes', logger);
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const publicOrigin = opts.publicUrl ? new URL(opts.publicUrl).origin : null;
  const cookieName = buyerCookieName(publicOrigin?.startsWith('https:') ?? false);
  const unavailable: Refusal = { status: 503, message: 'Your account is unavailable right now. Please try again shortly.' };

  const internalHeaders = (req: Request) => ({
    'content-type': 'application/json',
    [SERVICE_TOKEN_HEADER]: opts.serviceToken,
    ...(idOf(req) ? { [REQUEST_ID_HEADER]: idOf(req)! } : {}),
  });

  async function identify(req: Request, token: string): Promise<BuyerActor | Refusal> {
    try {
      const answer = await auth.fetch('/internal/buyer-sessions/verify', {
        method: 'POST',
        idempotent: true,
        headers: internalHeaders(req),
        body: JSON.stringify({ token }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = (await answer.json().catch(() => ({}))) as Record<string, unknown>;
      if (answer.status === 401 || answer.status === 400) return { status: 401, message: 'Sign in to your account first' };
      const actor = BuyerActorSchema.safeParse(body);
      if (answer.ok && actor.success) return actor.data;
      logger.error({ requestId: idOf(req), status: answer.status, reason: body.message }, 'buyer check: auth failed');
      return unavailable;
    } catch (err) {
      logger.error({ requestId: idOf(req), err: (err as Error).message }, 'buyer check: auth service unreachable');
      return unavailable;
    }
  }

  /** auth's own answer to the deletion, asked with `?check=true` (nothing deleted), or null when it would go through. */
  async function deletionRefused(req: Request, path: string): Promise<{ status: number; body: unknown } | null> {
    const answer = await auth.fetch(`${path}?check=true`, {
      method: 'DELETE',
      headers: { ...internalHeaders(req), cookie: req.header('cookie') ?? '' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (answer.ok) return null;
    return { status: answer.status, body: await answer.json().catch(() => ({ message: 'Your account could not be deleted' })) };
  }

  async function anonymise(req: Request, emails: string[]): Promise<boolean> {
    try {
      const answer = await quotes.fetch('/internal/buyers/anonymise', {
        method: 'POST',
        idempotent: true, // anonymising twice changes nothing more
        headers: internalHeaders(req),
        body: JSON.stringify({ emails }),
        signal: AbortSignal.timeout(timeoutMs * 4),
      });
      const done = AnonymiseBuyersResponseSchema.safeParse(await answer.json().catch(() => ({})));
      if (answer.ok && done.success) {
        logger.info({ requestId: idOf(req), addresses: emails.length, ...done.data }, 'buyer records anonymised before deletion');
        return true;
      }
      logger.error({ requestId: idOf(req), status: answer.status }, 'buyer deletion: the quotes service did not anonymise');
    } catch (err) {
      logger.error({ requestId: idOf(req), err: (err as Error).message }, 'buyer deletion: quotes service unreachable');
    }
    return false;
  }

  /**
   * "Download my data": the account's part (auth, with the buyer's cookie) and the buyer's own requests and orders
   * (quotes), as one JSON file. Either failing is a 503: never half of someone's data presented as all of it.
   */
  async function exportData(req: Request, buyer: BuyerActor): Promise<{ status: number; body: unknown }> {
    const [account, records] = await Promise.all([
      auth.fetch('/api/account/export', { headers: { cookie: req.header('cookie') ?? '', ...internalHeaders(req) }, signal: AbortSignal.timeout(timeoutMs) }),
      quotes.fetch('/internal/buyers/export', { method: 'POST', idempotent: true, headers: internalHeaders(req), body: JSON.stringify({ email: buyer.email }), signal: AbortSignal.timeout(timeoutMs * 4) }),
    ]);
    const accountBody = (await account.json().catch(() => null)) as Record<string, unknown> | null;
    if (!account.ok || !accountBody) return { status: account.status >= 500 || !accountBody ? 503 : account.status, body: accountBody ?? unavailable };
    const parsed = BuyerExportSchema.safeParse(await records.json().catch(() => null));
    if (!records.ok || !parsed.success) {
      logger.error({ requestId: idOf(req), status: records.status }, 'buyer export: the quotes service did not answer');
      return { status: 503, body: { message: 'Your data could not be put together right now. Please try again shortly.' } };
    }
    return { status: 200, body: { ...accountBody, ...parsed.data } };
  }

  return async (req, res, next) => {
    delete req.headers[BUYER_ASSERTION_HEADER];
    const path = (req.originalUrl.split('?')[0] ?? '').replace(/\/+$/, '') || '/';
    const refuse = (r: Refusal): void => void res.status(r.status).json({ message: r.message, requestId: idOf(req) });
    const token = readCookie(req.header('cookie'), cookieName);
    if (token && !isSafeMethod(req.method) && !isSameSite(req, publicOrigin)) {
      logger.warn({ requestId: idOf(req), path, origin: req.header('origin') }, 'cross-site buyer request refused');
      return refuse({ status: 403, message: 'Cross-site request refused: account changes must come from the site' });
    }
    const rule = matchRoute(path);
    // As the services' router reads it (case-insensitive, %-decoded), so no spelling of a deletion skips the anonymising.
    const erasing = req.method === 'DELETE' && ERASING.has(routerPath(path));
    const exporting = (req.method === 'GET' || req.method === 'HEAD') && routerPath(path) === '/api/account/export';
    if (!rule?.buyer && !erasing && !exporting) return next();
    if (!token) return refuse({ status: 401, message: 'Sign in to your account first' });

    const buyer = await identify(req, token);
    if ('message' in buyer) return refuse(buyer);
    if (exporting) {
      try {
        const out = await exportData(req, buyer);
        res.setHeader('cache-control', 'no-store');
        if (out.status === 200) res.setHeader('content-disposition', 'attachment; filename="forgeline-account.json"');
        return void res.status(out.status).json({ ...(out.body as object), ...(out.status === 200 ? {} : { requestId: idOf(req) }) });
      } catch (err) {
        logger.error({ requestId: idOf(req), err: (err as Error).message }, 'buyer export failed');
        return refuse({ status: 503, message: 'Your data could not be put together right now. Please try again shortly.' });
      }
    }
    if (erasing) {
      try {
        const refused = await deletionRefused(req, path);
        if (refused) return void res.status(refused.status).json(refused.body);
      } catch (err) {
        logger.error({ requestId: idOf(req), err: (err as Error).message }, 'buyer deletion: auth check failed');
        return refuse(unavailable);
      }
      const emails = routerPath(path) === '/api/account/company' ? buyer.memberEmails : [buyer.email];
      if (!(await anonymise(req, emails))) return refuse({ status: 503, message: 'Your account could not be deleted right now (nothing was deleted). Please try again shortly.' });
      return next();
    }
    req.headers[BUYER_ASSERTION_HEADER] = await signBuyerAssertion(opts.serviceToken, buyer);
    next();
  };
}
