import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFerretDb, type RunningFerretDb } from '@forgeline/test-support/ferretdb';
import { createMongoAuthStore } from '../src/adapters/mongo/mongo-auth-store.ts';
import { createMongoAccountStore } from '../src/adapters/mongo/mongo-account-store.ts';
import { SERVICE_TOKEN, startAuth, type AuthHarness } from './harness.ts';

/**
 * Buyers' accounts over HTTP (issue 35) on both storage adapters: a company per domain (one person's at a public mail
 * domain), invitations and roles, the fleet with its CSV, saved parts lists shared in the company, the data export and
 * deletion, and isolation: another company's ids find nothing (404), never data.
 */
const ferret = await startFerretDb();
const mongoSkip = 'skip' in ferret ? ferret.skip : null;
if (mongoSkip) console.warn(`[auth] buyer accounts on MongoDB skipped: ${mongoSkip}`);
afterAll(async () => {
  if (!('skip' in ferret)) await ferret.stop();
});

describeAccounts('SQLite', null);
describeAccounts('MongoDB (FerretDB)', mongoSkip ?? (ferret as RunningFerretDb).url, mongoSkip);

function describeAccounts(name: string, mongoUrl: string | null, skip?: string | null) {
  describe.skipIf(Boolean(skip))(`buyer accounts over HTTP (${name})`, () => {
    let auth: AuthHarness;
    beforeEach(async () => {
      const db = `${mongoUrl}/auth-acct-${randomUUID().slice(0, 8)}`;
      auth = await startAuth({
        publicUrl: 'https://shop.example',
        ...(mongoUrl && !skip ? { store: await createMongoAuthStore(db), accounts: await createMongoAccountStore(db) } : {}),
      });
    });
    afterEach(async () => {
      await auth.stop();
    });

    /** A signed-in buyer's calls, with the cookie the verify set. */
    async function buyer(email: string) {
      const sent = await auth.post('/api/account/sign-in/code', { email });
      const sessionId = sent.body.sessionId as string;
      const verified = await auth.post('/api/account/sign-in/verify', { sessionId, otp: await auth.codeFor(sessionId) });
      expect(verified.status).toBe(200);
      const cookie = /fl_buyer=([^;]+)/.exec(verified.headers.get('set-cookie') ?? '')![1]!;
      async function call(method: string, p: string, body?: unknown, type = 'application/json') {
        const res = await fetch(auth.url + p, {
          method,
          headers: { cookie: `fl_buyer=${cookie}`, ...(body === undefined ? {} : { 'content-type': type }) },
          body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        });
        const text = await res.text();
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          /* CSV */
        }
        return { status: res.status, body: json, text, headers: res.headers };
      }
      return { email, token: cookie, call, get: (p: string) => call('GET', p) };
    }
    const domain = () => `quarry-${randomUUID().slice(0, 6)}.example`;

    it('makes a company for the first buyer of a domain, and one of one at a public mail domain or a claimed domain', async () => {
      const d = domain();
      const first = await buyer(`planner@${d}`);
      const session = await first.get('/api/account/session');
      expect(session.status).toBe(200);
      expect(session.body).toMatchObject({ email: `planner@${d}`, company: { role: 'admin' } });
      const company = await first.get('/api/account/company');
      expect(company.body.company).toMatchObject({ domain: d });
      expect(company.body.members).toEqual([expect.objectContaining({ email: `planner@${d}`, role: 'admin' })]);

      // Same domain, no invitation: not let into the company on the domain alone.
      const stranger = await buyer(`someone@${d}`);
      const theirs = await stranger.get('/api/account/company');
      expect((theirs.body.company as { id: string }).id).not.toBe((company.body.company as { id: string }).id);
      expect(theirs.body.company).toMatchObject({ domain: null });

      const personal = await buyer(`jane.${randomUUID().slice(0, 4)}@gmail.com`);
      expect((await personal.get('/api/account/company')).body.company).toMatchObject({ domain: null });
    });

    it('invites a colleague by mail, who joins on sign-in; only admins manage, and the last admin stays', async () => {
      const d = domain();
      const admin = await buyer(`planner@${d}`);
      const invited = await admin.call('POST', '/api/account/company/invites', { email: `Tech@${d}`, role: 'buyer' });
      expect(invited.status).toBe(201);
      expect(invited.body).toMatchObject({ email: `tech@${d}`, role: 'buyer', invitedBy: `planner@${d}` });
      const mail = (await auth.mails()).find((m) => m.includes(`invite-${invited.body.id as string}@`));
      expect(mail).toContain('https://shop.example/account/sign-in');
      expect(mail).toContain(`planner@${d} invited you`);

      const tech = await buyer(`tech@${d}`);
      const seen = await tech.get('/api/account/company');
      expect(seen.body.members).toEqual([expect.objectContaining({ email: `planner@${d}`, role: 'admin' }), expect.objectContaining({ email: `tech@${d}`, role: 'buyer' })]);
      expect(seen.body.invites).toEqual([]); // taken, and a buyer sees none anyway

      expect((await tech.call('POST', '/api/account/company/invites', { email: `x@${d}` })).status).toBe(403);
      expect((await tech.call('DELETE', `/api/account/company/members/planner@${d}`)).status).toBe(403);
      expect((await admin.call('PATCH', `/api/account/company/members/planner@${d}`, { role: 'buyer' })).status).toBe(409);
      expect((await admin.call('DELETE', `/api/account/company/members/planner@${d}`)).status).toBe(409);
      expect((await admin.call('POST', '/api/account/company/invites', { email: 'not-an-address' })).body.message).toMatch(/email/);

      // The admin removes the colleague: their next call finds a company of their own, without the first one's things.
      await admin.call('POST', '/api/account/fleet', { unitName: 'Haul truck 07', make: 'Caterpillar', model: '777G' });
      expect((await admin.call('DELETE', `/api/account/company/members/tech@${d}`)).status).toBe(200);
      expect((await tech.get('/api/account/fleet')).body.units).toEqual([]);
    });

    it('keeps the fleet: add, rename clash, CSV in with its errors named by line, CSV out', async () => {
      const a = await buyer(`planner@${domain()}`);
      const added = await a.call('POST', '/api/account/fleet', { unitName: 'Haul truck 07', make: 'Caterpillar', model: '777G', serial: 'LAJ00123', hours: 12500 });
      expect(added.status).toBe(201);
      expect((await a.call('POST', '/api/account/fleet', { unitName: 'haul  TRUCK 07', make: 'Komatsu', model: 'HD785' })).status).toBe(409);
      const bad = await a.call('POST', '/api/account/fleet', { unitName: '', make: 'x'.repeat(121), model: 'M' });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/unitName|make/);

      const csv = 'Unit Name;Make;Model;Serial Number;Hours\nLoader 2;Volvo;L120H;;3 400\nHaul truck 07;Caterpillar;777G;LAJ00999;13000\n;Volvo;L90;;\nDozer 1;Komatsu;D65;;-5\n';
      const imported = await a.call('POST', '/api/account/fleet/import', csv, 'text/csv');
      expect(imported.status).toBe(200);
      expect(imported.body).toEqual({ added: 1, updated: 1, errors: [{ line: 4, message: expect.stringMatching(/unitName/) }, { line: 5, message: expect.stringMatching(/hours/) }] });
      const fleet = (await a.get('/api/account/fleet')).body.units as { unitName: string; serial: string | null; hours: number | null }[];
      expect(fleet.map((u) => [u.unitName, u.serial, u.hours])).toEqual([['Haul truck 07', 'LAJ00999', 13000], ['Loader 2', null, 3400]]);
      const out = await a.get('/api/account/fleet.csv');
      expect(out.headers.get('content-type')).toMatch(/text\/csv/);
      expect(out.text.trim().split('\n')).toEqual(['unit_name,make,model,serial,hours', 'Haul truck 07,Caterpillar,777G,LAJ00999,13000', 'Loader 2,Volvo,L120H,,3400']);
      expect((await a.call('POST', '/api/account/fleet/import', 'make,model\nx,y\n', 'text/csv')).body.message).toMatch(/unit_name/);
    });

    it("shares saved lists in the company, and another company's ids find nothing", async () => {
      const d = domain();
      const admin = await buyer(`planner@${d}`);
      await admin.call('POST', '/api/account/company/invites', { email: `tech@${d}` });
      const tech = await buyer(`tech@${d}`);
      const unit = (await admin.call('POST', '/api/account/fleet', { unitName: 'Haul truck 07', make: 'Caterpillar', model: '777G' })).body as { id: string };
      const lines = [{ productId: 'p-1', name: 'Fuel filter', sku: 'FF-1', quantity: 4, note: '' }, { text: 'Seal kit for boom cylinder', quantity: 1 }];
      const created = await admin.call('POST', '/api/account/lists', { name: '07 — 500 h service', unitId: unit.id, lines });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect((await admin.call('POST', '/api/account/lists', { name: 'x', unitId: 'nope', lines: [] })).body.message).toMatch(/unitId/);
      expect((await admin.call('POST', '/api/account/lists', { name: 'x', lines: [{ quantity: 1 }] })).status).toBe(400);

      const shared = await tech.get(`/api/account/lists/${id}`);
      expect(shared.body).toMatchObject({ name: '07 — 500 h service', unitId: unit.id, createdBy: `planner@${d}`, lines: [expect.objectContaining({ productId: 'p-1', quantity: 4 }), expect.objectContaining({ text: 'Seal kit for boom cylinder' })] });
      const renamed = await tech.call('PUT', `/api/account/lists/${id}`, { name: '07 — 1000 h service', unitId: unit.id, lines: lines.slice(0, 1) });
      expect(renamed.body).toMatchObject({ updatedBy: `tech@${d}`, createdBy: `planner@${d}` });
      expect((await admin.get('/api/account/lists')).body.lists).toEqual([expect.objectContaining({ id, lineCount: 1, name: '07 — 1000 h service' })]);

      const other = await buyer(`buyer@${domain()}`);
      for (const [method, p, body] of [
        ['GET', `/api/account/lists/${id}`],
        ['PUT', `/api/account/lists/${id}`, { name: 'mine now', lines: [] }],
        ['DELETE', `/api/account/lists/${id}`],
        ['PUT', `/api/account/fleet/${unit.id}`, { unitName: 'mine', make: 'A', model: 'B' }],
        ['DELETE', `/api/account/fleet/${unit.id}`],
      ] as const) {
        const r = await other.call(method, p, body);
        expect(r.status, `${method} ${p}`).toBe(404);
        expect(JSON.stringify(r.body)).not.toContain('service');
      }
      expect((await other.get('/api/account/lists')).body.lists).toEqual([]);
      expect((await admin.get(`/api/account/lists/${id}`)).body.name).toBe('07 — 1000 h service');

      // Deleting the unit keeps the list, untied.
      await admin.call('DELETE', `/api/account/fleet/${unit.id}`);
      expect((await admin.get(`/api/account/lists/${id}`)).body.unitId).toBeNull();
    });

    it("tells the gateway who a buyer session is, whose requests their company sees, and refuses a staff session", async () => {
      const d = domain();
      const admin = await buyer(`planner@${d}`);
      await admin.call('POST', '/api/account/company/invites', { email: `tech@${d}` });
      await buyer(`tech@${d}`);
      const verified = await auth.post('/internal/buyer-sessions/verify', { token: admin.token }, { 'x-service-token': SERVICE_TOKEN });
      expect(verified.status).toBe(200);
      expect(verified.body).toMatchObject({ email: `planner@${d}`, role: 'admin', memberEmails: [`planner@${d}`, `tech@${d}`] });
      const staff = await auth.signIn();
      expect((await auth.post('/internal/buyer-sessions/verify', { token: staff.token }, { 'x-service-token': SERVICE_TOKEN })).status).toBe(401);
      expect((await auth.post('/internal/buyer-sessions/verify', { token: admin.token })).status).toBe(401); // no service token
      const res = await fetch(`${auth.url}/api/account/company`, { headers: { cookie: `fl_buyer=${staff.token}` } });
      expect(res.status).toBe(401);

      // Staff see the company beside a request; an address without an account has none (and none is made).
      await admin.call('POST', '/api/account/fleet', { unitName: 'Loader 2', make: 'Volvo', model: 'L120H' });
      const lookup = async (email: string) => (await fetch(`${auth.url}/api/admin/buyer-accounts/lookup?email=${encodeURIComponent(email)}`, { headers: await auth.asAdmin() })).json();
      expect(await lookup(`TECH@${d}`)).toMatchObject({ account: { company: { domain: d }, role: 'buyer', members: [{ email: `planner@${d}` }, { email: `tech@${d}` }], units: [{ unitName: 'Loader 2' }] } });
      expect(await lookup(`nobody@${d}`)).toEqual({ account: null });
      expect((await fetch(`${auth.url}/api/admin/buyer-accounts/lookup?email=tech@${d}`, { headers: { cookie: `fl_buyer=${admin.token}` } })).status).toBe(401);
    });

    it('hands a buyer their data, deletes their account, and a company admin deletes the company', async () => {
      const d = domain();
      const admin = await buyer(`planner@${d}`);
      await admin.call('POST', '/api/account/company/invites', { email: `tech@${d}` });
      const tech = await buyer(`tech@${d}`);
      await admin.call('POST', '/api/account/fleet', { unitName: 'Loader 2', make: 'Volvo', model: 'L120H' });
      await admin.call('POST', '/api/account/lists', { name: 'Spring service', lines: [{ text: 'Bucket teeth', quantity: 9 }] });

      const exported = await tech.get('/api/account/export');
      expect(exported.headers.get('content-disposition')).toMatch(/attachment/);
      expect(exported.body).toMatchObject({ you: { email: `tech@${d}`, role: 'buyer' }, fleet: [expect.objectContaining({ unitName: 'Loader 2' })], lists: [expect.objectContaining({ name: 'Spring service' })] });

      expect((await admin.call('DELETE', '/api/account')).status).toBe(409); // the only admin, with a colleague left
      expect((await admin.call('DELETE', '/api/account?check=true')).status).toBe(409);
      expect((await tech.call('DELETE', '/api/account/company?check=true')).status).toBe(403);
      expect((await tech.call('DELETE', '/api/account?check=true')).body).toEqual({ success: true, checked: true });
      expect((await tech.get('/api/account/session')).status).toBe(200); // a check deletes nothing
      const gone = await tech.call('DELETE', '/api/account');
      expect(gone.status).toBe(200);
      expect((await tech.get('/api/account/session')).status).toBe(401); // signed out too
      expect(((await admin.get('/api/account/company')).body.members as unknown[]).length).toBe(1);

      expect((await admin.call('DELETE', '/api/account/company')).status).toBe(200);
      // The admin's next call starts afresh: an empty company.
      expect((await admin.get('/api/account/fleet')).body.units).toEqual([]);
      expect((await admin.get('/api/account/lists')).body.lists).toEqual([]);
    });
  });
}
