import express, { type Express, type Request, type Response } from 'express';
import { z } from 'zod';
import { route } from '@forgeline/service-kit/http';
import { HttpError, parseInput } from '@forgeline/service-kit/errors';
import { readCookie } from '@forgeline/contracts/admin-access';
import {
  ACCOUNT_LIMITS,
  BuyerAccountLookupQuerySchema,
  type BuyerAccountLookup,
  CompanyPatchSchema,
  FleetUnitInputSchema,
  InviteRequestSchema,
  MemberPatchSchema,
  SavedListInputSchema,
  VerifyBuyerSessionRequestSchema,
  buyerCookieName,
  type BuyerAccountSession,
  type CompanyResponse,
  type FleetResponse,
} from '@forgeline/contracts/account';
import { AdminEmailSchema } from '@forgeline/contracts/auth';
import type { SignIn } from '../sign-in.ts';
import type { Accounts, Membership } from '../accounts.ts';
import { fleetCsv } from '../domain/fleet.ts';

/** `?check=true` on a deletion: would it go through? (Nothing is deleted.) */
const CheckQuery = z.object({ check: z.enum(['true', 'false'], 'must be true or false').optional() });
const checkOnly = (req: Request) => parseInput(CheckQuery, req.query, 'query').check === 'true';
const IdParams = z.object({ id: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters') });
const EmailParams = z.object({ email: AdminEmailSchema });

/**
 * A signed-in buyer's account (issue 35): company, members and invitations, fleet, saved parts lists, their data. The
 * buyer session's cookie is checked on every call (a sign-out or expiry takes effect at once); the company comes from
 * the membership, never from the request, so another company's ids find nothing (404).
 */
export function addBuyerAccountRoutes(app: Express, o: { signIn: SignIn; accounts: Accounts; secureCookies: boolean }) {
  const { signIn, accounts } = o;
  const cookieName = buyerCookieName(o.secureCookies);

  async function signedIn(req: Request, res: Response): Promise<Membership> {
    res.setHeader('cache-control', 'no-store');
    const token = readCookie(req.header('cookie'), cookieName);
    if (!token) throw new HttpError(401, 'Sign in to your account first');
    const { email } = await signIn.verifySession(token, 'buyer');
    return accounts.membership(email);
  }

  app.get(
    '/api/account/session',
    route(async (req, res) => {
      res.setHeader('cache-control', 'no-store');
      const token = readCookie(req.header('cookie'), cookieName);
      if (!token) throw new HttpError(401, 'Not signed in');
      const session = await signIn.verifySession(token, 'buyer');
      const m = await accounts.membership(session.email);
      res.json({ ...session, company: { id: m.company.id, name: m.company.name, role: m.role } } satisfies BuyerAccountSession);
    }),
  );

  app.get('/api/account/company', route(async (req, res) => void res.json((await accounts.company(await signedIn(req, res))) satisfies CompanyResponse)));
  app.patch(
    '/api/account/company',
    route(async (req, res) => {
      const m = await signedIn(req, res);
      const { name } = parseInput(CompanyPatchSchema, req.body, 'body');
      await accounts.rename(m, name);
      res.json(await accounts.company({ ...m, company: { ...m.company, name } }));
    }),
  );
  app.delete(
    '/api/account/company',
    route(async (req, res) => {
      const check = checkOnly(req);
      await accounts.deleteCompany(await signedIn(req, res), check);
      res.json({ success: true, ...(check ? { checked: true } : {}) });
    }),
  );
  app.post(
    '/api/account/company/invites',
    route(async (req, res) => {
      const m = await signedIn(req, res);
      res.status(201).json(await accounts.invite(m, parseInput(InviteRequestSchema, req.body, 'body')));
    }),
  );
  app.delete(
    '/api/account/company/invites/:id',
    route(async (req, res) => {
      const m = await signedIn(req, res);
      await accounts.withdrawInvite(m, parseInput(IdParams, req.params, 'params').id);
      res.json({ success: true });
    }),
  );
  app.patch(
    '/api/account/company/members/:email',
    route(async (req, res) => {
      const m = await signedIn(req, res);
      await accounts.setRole(m, parseInput(EmailParams, req.params, 'params').email, parseInput(MemberPatchSchema, req.body, 'body').role);
      res.json(await accounts.company(m));
    }),
  );
  app.delete(
    '/api/account/company/members/:email',
    route(async (req, res) => {
      const m = await signedIn(req, res);
      await accounts.removeMember(m, parseInput(EmailParams, req.params, 'params').email);
      res.json({ success: true });
    }),
  );

  app.get('/api/account/fleet', route(async (req, res) => void res.json({ units: await accounts.fleet(await signedIn(req, res)) } satisfies FleetResponse)));
  app.get(
    '/api/account/fleet.csv',
    route(async (req, res) => {
      const units = await accounts.fleet(await signedIn(req, res));
      res.setHeader('content-type', 'text/csv; charset=utf-8');
      res.setHeader('content-disposition', 'attachment; filename="fleet.csv"');
      res.send(fleetCsv(units));
    }),
  );
  app.post(
    '/api/account/fleet/import',
    express.text({ type: ['text/csv', 'text/plain', 'application/csv'], limit: ACCOUNT_LIMITS.fleetCsvBytes }),
    route(async (req, res) => {
      const m = await signedIn(req, res);
      if (typeof req.body !== 'string') throw new HttpError(415, 'file: send the CSV as the body, with Content-Type text/csv');
      res.json(await accounts.importFleet(m, req.body));
    }),
  );
  app.post(
    '/api/account/fleet',
    route(async (req, res) => {
      const m = await signedIn(req, res);
      res.status(201).json(await accounts.addUnit(m, parseInput(FleetUnitInputSchema, req.body, 'body')));
    }),
  );
  app.put(
    '/api/account/fleet/:id',
    route(async (req, res) => {
      const m = await signedIn(req, res);
      res.json(await accounts.updateUnit(m, parseInput(IdParams, req.params, 'params').id, parseInput(FleetUnitInputSchema, req.body, 'body')));
    }),
  );
  app.delete(
    '/api/account/fleet/:id',
    route(async (req, res) => {
      const m = await signedIn(req, res);
      await accounts.deleteUnit(m, parseInput(IdParams, req.params, 'params').id);
      res.json({ success: true });
    }),
  );

  app.get('/api/account/lists', route(async (req, res) => void res.json({ lists: await accounts.lists(await signedIn(req, res)) })));
  app.post(
    '/api/account/lists',
    route(async (req, res) => {
      const m = await signedIn(req, res);
      res.status(201).json(await accounts.createList(m, parseInput(SavedListInputSchema, req.body, 'body')));
    }),
  );
  app.get(
    '/api/account/lists/:id',
    route(async (req, res) => {
      const m = await signedIn(req, res);
      res.json(await accounts.list(m, parseInput(IdParams, req.params, 'params').id));
    }),
  );
  app.put(
    '/api/account/lists/:id',
    route(async (req, res) => {
      const m = await signedIn(req, res);
      res.json(await accounts.updateList(m, parseInput(IdParams, req.params, 'params').id, parseInput(SavedListInputSchema, req.body, 'body')));
    }),
  );
  app.delete(
    '/api/account/lists/:id',
    route(async (req, res) => {
      const m = await signedIn(req, res);
      await accounts.deleteList(m, parseInput(IdParams, req.params, 'params').id);
      res.json({ success: true });
    }),
  );

  app.get(
    '/api/account/export',
    route(async (req, res) => {
      const data = await accounts.exportData(await signedIn(req, res));
      res.setHeader('content-disposition', 'attachment; filename="forgeline-account.json"');
      res.json(data);
    }),
  );
  /** The gateway has had the buyer's quote requests and orders anonymised before it passes this on. */
  app.delete(
    '/api/account',
    route(async (req, res) => {
      const m = await signedIn(req, res);
      const check = checkOnly(req);
      await accounts.deleteAccount(m, check);
      if (check) return void res.json({ success: true, checked: true });
      const token = readCookie(req.header('cookie'), cookieName);
      if (token) await signIn.logout(token, 'buyer');
      res.clearCookie(cookieName, { httpOnly: true, secure: o.secureCookies, sameSite: 'lax', path: '/' });
      res.json({ success: true });
    }),
  );

  // Staff (behind the gateway's admin check, mounted on /api/admin): the account beside a request or an order.
  app.get(
    '/api/admin/buyer-accounts/lookup',
    route(async (req, res) => {
      res.setHeader('cache-control', 'no-store');
      res.json((await accounts.lookup(parseInput(BuyerAccountLookupQuerySchema, req.query, 'query').email)) satisfies BuyerAccountLookup);
    }),
  );

  // The gateway's question before a buyer's quotes or orders: who, which company, whose requests it sees.
  app.post(
    '/internal/buyer-sessions/verify',
    route(async (req, res) => {
      const { token } = parseInput(VerifyBuyerSessionRequestSchema, req.body, 'body');
      const { email } = await signIn.verifySession(token, 'buyer');
      res.json(await accounts.actor(await accounts.membership(email)));
    }),
  );
}
