import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuyerActor } from '@forgeline/contracts/account';
import type { BuyerOrderList, BuyerQuoteDetail, BuyerQuoteList } from '@forgeline/contracts/buyer-history';
import type { InboxDetail } from '@forgeline/contracts/quote-inbox';
import { buyerAssertionHeaders } from '@forgeline/service-kit/buyer-assertion';
import { gatewayAssertionHeaders } from '@forgeline/service-kit/gateway-assertion';
import { MongoQuoteStore } from '../src/adapters/mongo/mongo-quote-store.ts';
import type { QuoteStore } from '../src/ports.ts';
import { ADMINS, PRODUCT, SERVICE_TOKEN, post, send, startCatalogStub, startService, validQuote, type TestService } from './harness.ts';

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
    async function reply(id: string) {
      const detail = await send('GET', `${svc.url}/api/admin/quotes/${id}`, undefined, await admin());
      const body = { message: 'Our prices.', lines: [{ unitPrice: 12.5, currency: 'USD', leadTime: '3 days' }, { unitPrice: 4, currency: 'USD', leadTime: null }, { unitPrice: null, currency: null, leadTime: null }] };
      const res = await send('POST', `${svc.url}/api/admin/quotes/${id}/reply`, body, { ...(await admin()), 'if-match': detail.headers.get('etag')! });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const version = (res.body as InboxDetail).version;
      const mail = (await svc.store.listMails(id)).find((m) => m.id === `quote-${id}-reply-${version}`)!;
      return /\/quote\/view\/([A-Za-z0-9_-]{43})\b/.exec(mail.message.text)![1]!;
    }
    async function order(id: string) {
      const token = await reply(id);
      const accepted = await post(`${svc.url}/api/quote-view/${token}/accept`, {
        version: 1,
        poNumber: 'PO-7781',
        delivery: { company: 'Quarry Co', address: '1 Pit Road', contactName: 'Ada Buyer', contactPhone: '+44 113 000' },
        quantities: [4, 10, 0],
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
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
      for (const q of ['limit=0', 'limit=101', 'page=x', 'status=nope']) {
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

    it('anonymises a deleted buyer: the requests and the order stay, without the person, and leave their list', async () => {
      const email = `leaver-${randomUUID().slice(0, 6)}@quarry.example`;
      const id = await request(email);
      await order(id);
      const me = company([email]);
      const orderId = ((await as(me, 'GET', '/api/account/orders')).body as BuyerOrderList).items[0]!.id;
      expect((await post(`${svc.url}/internal/buyers/anonymise`, { emails: [email] })).status).toBe(401); // no service token
      const done = await send('POST', `${svc.url}/internal/buyers/anonymise`, { emails: [email.toUpperCase()] }, { 'x-service-token': SERVICE_TOKEN });
      expect(done.body).toEqual({ requests: 1, orders: 1 });

      expect(((await as(me, 'GET', '/api/account/quotes')).body as BuyerQuoteList).items).toEqual([]);
      const kept = (await send('GET', `${svc.url}/api/admin/quotes/${id}`, undefined, await admin())).body as InboxDetail;
      expect(kept).toMatchObject({ customerName: 'Deleted buyer', customerPhone: '' });
      expect(kept.customerEmail).toMatch(/^deleted-[0-9a-f-]+@deleted\.invalid$/);
      expect(kept.lines).toHaveLength(3);
      const keptOrder = (await send('GET', `${svc.url}/api/admin/orders/${orderId}`, undefined, await admin())).body as { customerName: string; poNumber: string; delivery: { contactName: string; company: string } };
      expect(keptOrder).toMatchObject({ customerName: 'Deleted buyer', poNumber: 'PO-7781', delivery: { contactName: '', company: 'Quarry Co' } });
      // The staff search no longer finds the person by their address.
      const search = (await send('GET', `${svc.url}/api/admin/quotes?q=${encodeURIComponent(email.split('@')[0]!)}`, undefined, await admin())).body as { items: unknown[] };
      expect(search.items).toEqual([]);
    });
  });
}
