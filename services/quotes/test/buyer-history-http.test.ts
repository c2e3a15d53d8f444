import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuyerActor } from '@forgeline/contracts/account';
import type { BuyerOrderList, BuyerQuoteDetail, BuyerQuoteList } from '@forgeline/contracts/buyer-history';
import type { InboxDetail } from '@forgeline/contracts/quote-inbox';
import { buyerAssertionHeaders } from '@forgeline/service-kit/buyer-assertion';
import { gatewayAssertionHeaders } from '@forgeline/service-kit/gateway-assertion';
import { MongoQuoteStore } from '../src/adapters/mongo/mongo-quote-store.ts';
import type { OrderRecord, QuoteStore } from '../src/ports.ts';
import { ADMINS, PRODUCT, SERVICE_TOKEN, eventually, post, send, startCatalogStub, startService, validQuote, type TestService } from './harness.ts';

/**
 * A signed-in buyer's own quote requests and orders (issue 35) over HTTP, on both storage adapters, as the gateway
 * vouches for them (a buyer assertion naming the company's members): a colleague's requests are the company's, another
 * company's ids are 404, an assertion that is missing or forged is 401, and anonymising keeps the records without the person.
 */
const SEAL = { id: 'p-2', name: 'Boom Seal Kit', sku: 'SK-77', partNumber: '7X-2020' };
const admin = () => gatewayAssertionHeaders(SERVICE_TOKEN, ADMINS[0]!);

const ferret = await import('@forgeline/test-support/ferretdb')
  .then((m) => m.startFerretDb())
  .catch((err: Error) => ({ skip: `FerretDB helper unavailable: ${err.message}` }));
const mongoSkip = 'skip' in ferret ? ferret.skip : undefined;
if (mongoSkip) console.warn(`[quotes] buyer history on MongoDB skipped: ${mongoSkip}`);
afterAll(async () => {
  if (!('skip' in ferret)) await ferret.stop();
});

describeHistory('SQLite', undefined);
describeHistory('MongoDB (FerretDB)', async () => {
  if ('skip' in ferret) throw new Error(ferret.skip);
  return MongoQuoteStore.connect(`${ferret.url}/quotes_${randomUUID().replace(/-/g, '')}`);
}, mongoSkip);

function describeHistory(name: string, makeStore: (() => Promise<QuoteStore>) | undefined, skip?: string) {
  describe.skipIf(Boolean(skip))(`a buyer's quotes and orders over HTTP (${name})`, () => {
    let catalog: Awaited<ReturnType<typeof startCatalogStub>>;
    let svc: TestService;
    beforeAll(async () => {
      catalog = await startCatalogStub([PRODUCT, SEAL]);
      svc = await startService({ catalogUrl: catalog.url, store: makeStore ? await makeStore() : undefined });
    });
    afterAll(async () => {
      await svc?.close();
      await catalog?.close();
    });

    const company = (emails: string[], over: Partial<BuyerActor> = {}): BuyerActor => ({ email: emails[0]!, companyId: randomUUID(), role: 'admin', memberEmails: emails, ...over });
    const as = async (buyer: BuyerActor, method: string, path: string, body?: unknown) => send(method, `${svc.url}${path}`, body, await buyerAssertionHeaders(SERVICE_TOKEN, buyer));

    async function request(email: string) {
      const { productId: _p, quantity: _q, ...rest } = validQuote({ customerEmail: email });
      const res = await post(`${svc.url}/api/quote-requests`, { ...rest, lines: [{ productId: PRODUCT.id, quantity: 4 }, { productId: SEAL.id, quantity: 10 }, { text: 'CAT 9X-1234 gasket', quantity: 2 }] });
      expect(res.status).toBe(201);
      return res.body.id as string;
    }
    /** Staff's priced reply; answers the quote-page token its mail carries. */
    async function reply(id: string, validUntil: string | null = null) {
      const detail = await send('GET', `${svc.url}/api/admin/quotes/${id}`, undefined, await admin());
      const body = { message: 'Our prices.', validUntil, lines: [{ unitPrice: 12.5, currency: 'USD', leadTime: '3 days' }, { unitPrice: 4, currency: 'USD', leadTime: null }, { unitPrice: null, currency: null, leadTime: null }] };
      const res = await send('POST', `${svc.url}/api/admin/quotes/${id}/reply`, body, { ...(await admin()), 'if-match': detail.headers.get('etag')! });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const version = (res.body as InboxDetail).version;
      const mail = (await svc.store.listMails(id)).find((m) => m.id === `quote-${id}-reply-${version}`)!;
      return /\/quote\/view\/([A-Za-z0-9_-]{43})\b/.exec(mail.message.text)![1]!;
    }
    async function order(id: string, validUntil: string | null = null) {
      const token = await reply(id, validUntil);
      const accepted = await post(`${svc.url}/api/quote-view/${token}/accept`, {
        version: 1,
        poNumber: 'PO-7781',
        delivery: { company: 'Quarry Co', address: '1 Pit Road', contactName: 'Ada Buyer', contactPhone: '+44 113 000' },
        quantities: [4, 10, 0],
        note: 'Ring Ada on +44 113 000 at the gate.',
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
      return token;
    }
    /** Staff move a request (If-Match as the inbox does). */
    async function move(id: string, status: string) {
      const detail = await send('GET', `${svc.url}/api/admin/quotes/${id}`, undefined, await admin());
      const res = await send('PATCH', `${svc.url}/api/admin/quotes/${id}`, { status }, { ...(await admin()), 'if-match': detail.headers.get('etag')! });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }

    it("shows a company its members' requests (an address in any case), with the latest version and the order; never another's", async () => {
      const d = `quarry-${randomUUID().slice(0, 6)}.example`;
      const [planner, tech, stranger] = [`planner@${d}`, `tech@${d}`, `buyer@other-${randomUUID().slice(0, 6)}.example`];
      const first = await request(planner);
      const second = await request(`Tech@${d.toUpperCase()}`);
      const theirs = await request(stranger);
      await order(first);
      const mine = company([planner, tech]);

      const list = await as(mine, 'GET', '/api/account/quotes');
      expect(list.status).toBe(200);
      const body = list.body as BuyerQuoteList;
      expect(body.items.map((q) => q.id)).toEqual([second, first]);
      expect(body.pagination).toEqual({ page: 1, limit: 25, total: 2, totalPages: 1 });
      // The assertion's addresses are compared as stored ones are: whatever their case.
      const shouted = ((await as(company([planner.toUpperCase(), ` Tech@${d}`]), 'GET', '/api/account/quotes')).body as BuyerQuoteList).items;
      expect(shouted.map((q) => q.id)).toEqual([second, first]);
      const ordered = body.items.find((q) => q.id === first)!;
      expect(ordered).toMatchObject({ email: planner, lineCount: 3, firstLine: PRODUCT.name, latestVersion: { version: 1, totals: [{ currency: 'USD', total: 90 }] } });
      expect(ordered.orderNumber).toMatch(/^\d{4}-\d{5}$/);
      expect(body.items.find((q) => q.id === second)).toMatchObject({ latestVersion: null, orderNumber: null, status: 'pending' });

      const detail = (await as(mine, 'GET', `/api/account/quotes/${first}`)).body as BuyerQuoteDetail;
      expect(detail.lines.map((l) => [l.productId, l.sku, l.quantity])).toEqual([[PRODUCT.id, PRODUCT.sku, 4], [SEAL.id, SEAL.sku, 10], [null, '', 2]]);
      const link = await as(mine, 'POST', `/api/account/quotes/${first}/view-link`);
      expect(link.status).toBe(200);
      const token = /\/quote\/view\/([A-Za-z0-9_-]{43})$/.exec((link.body as { url: string }).url)![1]!;
      expect((await send('GET', `${svc.url}/api/quote-view/${token}`)).status).toBe(200);
      expect((await as(mine, 'POST', `/api/account/quotes/${second}/view-link`)).status).toBe(409); // no quote yet

      const orders = (await as(mine, 'GET', '/api/account/orders')).body as BuyerOrderList;
      expect(orders.items).toHaveLength(1);
      expect(orders.items[0]).toMatchObject({ quoteId: first, poNumber: 'PO-7781', status: 'confirmed', lineCount: 2, totals: [{ currency: 'USD', total: 90 }] });
      expect(orders.items[0]!.lines).toBeUndefined();
      const one = await as(mine, 'GET', `/api/account/orders/${orders.items[0]!.id}`);
      expect((one.body as { lines: unknown[] }).lines).toHaveLength(2);

      // Another company: nothing of the first, and its ids are not found.
      const other = company([stranger]);
      expect(((await as(other, 'GET', '/api/account/quotes')).body as BuyerQuoteList).items.map((q) => q.id)).toEqual([theirs]);
      expect(((await as(other, 'GET', '/api/account/orders')).body as BuyerOrderList).items).toEqual([]);
      for (const [method, path] of [['GET', `/api/account/quotes/${first}`], ['POST', `/api/account/quotes/${first}/view-link`], ['GET', `/api/account/orders/${orders.items[0]!.id}`], ['GET', '/api/account/quotes/nope']] as const) {
        const r = await as(other, method, path);
        expect(r.status, `${method} ${path}`).toBe(404);
        expect(JSON.stringify(r.body)).not.toContain(d);
      }
    });

    it('pages and filters, names a bad parameter, and refuses a call without a valid buyer assertion', async () => {
      const email = `pager-${randomUUID().slice(0, 6)}@pages.example`;
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push(await request(email));
      const me = company([email]);
      const page2 = (await as(me, 'GET', '/api/account/quotes?page=2&limit=2')).body as BuyerQuoteList;
      expect(page2.items.map((q) => q.id)).toEqual([ids[0]]);
      expect(page2.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
      expect(((await as(me, 'GET', '/api/account/quotes?status=quoted')).body as BuyerQuoteList).items).toEqual([]);
      await reply(ids[1]!);
      const quoted = (await as(me, 'GET', '/api/account/quotes?status=quoted')).body as BuyerQuoteList;
      expect(quoted.items.map((q) => [q.id, q.status, q.latestVersion?.version])).toEqual([[ids[1], 'quoted', 1]]);
      expect(quoted.pagination.total).toBe(1);
      expect(((await as(me, 'GET', '/api/account/quotes?status=pending')).body as BuyerQuoteList).items.map((q) => q.id)).toEqual([ids[2], ids[0]]);
      // Spam is the seller's to see: not in the list, not counted, not found.
      await move(ids[2]!, 'spam');
      const left = (await as(me, 'GET', '/api/account/quotes')).body as BuyerQuoteList;
      expect([left.items.map((q) => q.id), left.pagination.total]).toEqual([[ids[1], ids[0]], 2]);
      expect((await as(me, 'GET', `/api/account/quotes/${ids[2]}`)).status).toBe(404);
      for (const q of ['limit=0', 'limit=101', 'page=x', 'status=nope', 'status=spam']) {
        const r = await as(me, 'GET', `/api/account/quotes?${q}`);
        expect(r.status, q).toBe(400);
        expect((r.body as { message: string }).message).toContain(q.split('=')[0]);
      }
      expect((await send('GET', `${svc.url}/api/account/quotes`)).status).toBe(401);
      expect((await send('GET', `${svc.url}/api/account/quotes`, undefined, { 'x-buyer-assertion': 'forged.jwt.here' })).status).toBe(401);
      // An admin's assertion is no buyer's.
      const staff = (await admin())['x-gateway-assertion']!;
      expect((await send('GET', `${svc.url}/api/account/quotes`, undefined, { 'x-buyer-assertion': staff })).status).toBe(401);
    });

    it('anonymises a deleted buyer: the records stay without the person, out of their list, mailed nothing more', async () => {
      const email = `leaver-${randomUUID().slice(0, 6)}@quarry.example`;
      const id = await request(email);
      await order(id); // with a note
      // Another, priced to expire in two days: its reminder is due.
      const open = await request(email);
      const token = await reply(open, new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10));
      const me = company([email]);
      const orderId = ((await as(me, 'GET', '/api/account/orders')).body as BuyerOrderList).items[0]!.id;
      const mails = async () => [...(await svc.store.listMails(id)), ...(await svc.store.listMails(open))];
      await eventually(async () => (await mails()).every((m) => m.status === 'sent'));
      const mailsBefore = (await mails()).length;
      expect((await post(`${svc.url}/internal/buyers/anonymise`, { emails: [email] })).status).toBe(401); // no service token
      const done = await send('POST', `${svc.url}/internal/buyers/anonymise`, { emails: [email.toUpperCase()] }, { 'x-service-token': SERVICE_TOKEN });
      expect(done.body).toEqual({ requests: 2, orders: 1 });

      expect(((await as(me, 'GET', '/api/account/quotes')).body as BuyerQuoteList).items).toEqual([]);
      expect(((await as(me, 'GET', '/api/account/orders')).body as BuyerOrderList).items).toEqual([]);
      expect((await as(me, 'GET', `/api/account/quotes/${id}`)).status).toBe(404);
      const kept = (await send('GET', `${svc.url}/api/admin/quotes/${id}`, undefined, await admin())).body as InboxDetail;
      expect(kept).toMatchObject({ customerName: 'Deleted buyer', customerPhone: '', message: '', country: 'United Kingdom', status: 'won' });
      const placeholder = kept.customerEmail;
      expect(placeholder).toMatch(/^deleted-[0-9a-f-]+@deleted\.invalid$/);
      expect(kept.lines).toHaveLength(3);
      // The history keeps the reply's prices and the accept, without the address or the buyer's words, and says what happened.
      const replied = kept.history.find((h) => h.type === 'reply')!;
      expect([replied.to, replied.reply?.lines[0]?.unitPrice]).toEqual([placeholder, 12.5]);
      expect(kept.history.find((h) => h.type === 'buyer')).toMatchObject({ text: '', buyer: { action: 'accept', poNumber: 'PO-7781' } });
      expect(kept.history.at(-1)).toMatchObject({ actor: 'system', type: 'note', text: expect.stringContaining('deleted their account') });
      const keptOrder = (await send('GET', `${svc.url}/api/admin/orders/${orderId}`, undefined, await admin())).body as OrderRecord & { etag?: string };
      expect(keptOrder).toMatchObject({ customerName: 'Deleted buyer', customerEmail: placeholder, poNumber: 'PO-7781', note: '', delivery: { company: 'Quarry Co', address: '1 Pit Road', contactName: '', contactPhone: '' } });
      expect(keptOrder.lines.map((l) => [l.productSku, l.quantity, l.unitPrice])).toEqual([[PRODUCT.sku, 4, 12.5], [SEAL.sku, 10, 4]]);
      // Nothing stored says who they were: not the entry, its history, its order, nor the copies of the mails sent.
      const everything = JSON.stringify([kept, keptOrder, await mails(), await svc.store.getQuoteRequest(id), await svc.store.inboxHistory(open)]);
      for (const trace of [email.split('@')[0]!, 'Ada Buyer', '7946', 'Leeds', 'Ring Ada']) expect(everything, trace).not.toContain(trace);
      // The staff search no longer finds the person by their address.
      const search = (await send('GET', `${svc.url}/api/admin/quotes?q=${encodeURIComponent(email.split('@')[0]!)}`, undefined, await admin())).body as { items: unknown[] };
      expect(search.items).toEqual([]);

      // Their links no longer open, and nothing more is mailed: no reminder, no reply (refused), no order news.
      expect((await send('GET', `${svc.url}/api/quote-view/${token}`)).status).toBe(404);
      expect(await svc.reminders.runOnce()).toBe(0);
      const again = await send('GET', `${svc.url}/api/admin/quotes/${id}`, undefined, await admin());
      const refused = await send('POST', `${svc.url}/api/admin/quotes/${id}/reply`, { message: 'Hello?', lines: [] }, { ...(await admin()), 'if-match': again.headers.get('etag')! });
      expect([refused.status, refused.body.message]).toEqual([409, expect.stringContaining('deleted their account')]);
      const o = await send('GET', `${svc.url}/api/admin/orders/${orderId}`, undefined, await admin());
      const shipped = await send('PATCH', `${svc.url}/api/admin/orders/${orderId}`, { status: 'shipped', carrier: 'DHL', trackingNumber: 'T-1' }, { ...(await admin()), 'if-match': o.headers.get('etag')! });
      expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);
      expect((await mails()).length).toBe(mailsBefore);
      // A second run finds nobody.
      expect((await send('POST', `${svc.url}/internal/buyers/anonymise`, { emails: [email] }, { 'x-service-token': SERVICE_TOKEN })).body).toEqual({ requests: 0, orders: 0 });
    });
  });
}
