import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxDetail, InboxStats } from '@forgeline/contracts/quote-inbox';
import type { QuoteView } from '@forgeline/contracts/quote-view';
import { gatewayAssertionHeaders } from '@forgeline/service-kit/gateway-assertion';
import { createLogger } from '@forgeline/service-kit/logger';
import { MongoQuoteStore } from '../src/adapters/mongo/mongo-quote-store.ts';
import { createExpiryReminders } from '../src/domain/expiry-reminders.ts';
import { verifyWebhookSignature } from '../src/domain/webhook-delivery.ts';
import type { QuoteStore } from '../src/ports.ts';
import { ADMINS, PRODUCT, SELLER, SERVICE_TOKEN, eventually, post, send, startCatalogStub, startService, validQuote, type TestService } from './harness.ts';

/**
 * The buyer's quote page (issue 34) over HTTP, on both storage adapters: the link in the reply mail, the page's data,
 * accept (an order, once), ask for changes (a revised version), decline (lost, with its reason), expiry and revocation.
 */
const SEAL = { id: 'p-2', name: 'Boom Seal Kit', sku: 'SK-77', partNumber: '7X-2020' };
const admin = () => gatewayAssertionHeaders(SERVICE_TOKEN, ADMINS[0]!);
const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const ferret = await import('@forgeline/test-support/ferretdb')
  .then((m) => m.startFerretDb())
  .catch((err: Error) => ({ skip: `FerretDB helper unavailable: ${err.message}` }));
const mongoSkip = 'skip' in ferret ? ferret.skip : undefined;
if (mongoSkip) console.warn(`[quotes] quote page on MongoDB skipped: ${mongoSkip}`);
afterAll(async () => {
  if (!('skip' in ferret)) await ferret.stop();
});

describeQuoteView('SQLite', undefined);
describeQuoteView('MongoDB (FerretDB)', async () => {
  if ('skip' in ferret) throw new Error(ferret.skip);
  return MongoQuoteStore.connect(`${ferret.url}/quotes_${randomUUID().replace(/-/g, '')}`);
}, mongoSkip);

function describeQuoteView(name: string, makeStore: (() => Promise<QuoteStore>) | undefined, skip?: string) {
  describe.skipIf(Boolean(skip))(`the buyer's quote page over HTTP (${name})`, () => {
    let catalog: Awaited<ReturnType<typeof startCatalogStub>>;
    let svc: TestService;

    beforeAll(async () => {
      catalog = await startCatalogStub([PRODUCT, SEAL]);
      svc = await startService({ catalogUrl: catalog.url, store: makeStore ? await makeStore() : undefined, quoteView: { graceDays: 5 } });
    });
    afterAll(async () => {
      await svc?.close();
      await catalog?.close();
    });

    /** A two-part request (and a free-text line), as a buyer sends it. */
    async function request(email = `buyer-${randomUUID().slice(0, 8)}@quarry.example`) {
      const { productId: _p, quantity: _q, ...rest } = validQuote({ customerEmail: email });
      const res = await post(`${svc.url}/api/quote-requests`, {
        ...rest,
        lines: [{ productId: PRODUCT.id, quantity: 4 }, { productId: SEAL.id, quantity: 10 }, { text: 'CAT 9X-1234 gasket', quantity: 2 }],
      });
      expect(res.status).toBe(201);
      return res.body.id as string;
    }

    /** Staff's priced reply; answers the link its mail carries. */
    async function reply(id: string, body: Record<string, unknown>) {
      const detail = await send('GET', `${svc.url}/api/admin/quotes/${id}`, undefined, await admin());
      const res = await send('POST', `${svc.url}/api/admin/quotes/${id}/reply`, { message: 'Our prices, as asked.', ...body }, { ...(await admin()), 'if-match': detail.headers.get('etag')! });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const version = (res.body as InboxDetail).version;
      const mail = (await svc.store.listMails(id)).find((m) => m.id === `quote-${id}-reply-${version}`)!;
      const token = /\/quote\/view\/([A-Za-z0-9_-]{43})\b/.exec(mail.message.text)?.[1];
      expect(token, 'the reply mail links to the quote page').toBeDefined();
      expect(mail.message.text).toContain(`https://shop.example/quote/view/${token}`);
      expect(mail.message.html).toContain(`href="https://shop.example/quote/view/${token}"`);
      return token!;
    }

    const priced = (validUntil = isoDay(Date.now() + 20 * DAY)) => ({
      lines: [
        { unitPrice: 12.5, currency: 'USD', leadTime: '3 days' },
        { unitPrice: 4, currency: 'EUR', leadTime: 'in stock' },
      ],
      validUntil,
    });
    const view = (token: string) => send('GET', `${svc.url}/api/quote-view/${token}`);
    const act = (token: string, what: 'accept' | 'changes' | 'decline', body: unknown) => post(`${svc.url}/api/quote-view/${token}/${what}`, body);
    const accept = (over: Record<string, unknown> = {}) => ({
      version: 1,
      poNumber: 'PO-7781',
      delivery: { company: 'Quarry Co', address: '1 Pit Road\nLeeds LS1', contactName: 'Ada Buyer', contactPhone: '+44 113 000' },
      quantities: [4, 10, 0],
      ...over,
    });

    it('links every quote reply to a private page showing the lines, totals per currency, validity and what happened', async () => {
      const id = await request();
      const token = await reply(id, priced());
      const res = await view(token);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-robots-tag')).toMatch(/noindex/);
      const v = res.body as QuoteView;
      expect(v).toMatchObject({ status: 'open', latestVersion: 1, canAccept: true, canAskChanges: true, canDecline: true, order: null, declined: null });
      expect(v.versions[0]!.lines).toEqual([
        { productId: PRODUCT.id, productSku: PRODUCT.sku, productName: PRODUCT.name, quantity: 4, unitPrice: 12.5, currency: 'USD', lineTotal: 50, leadTime: '3 days' },
        { productId: SEAL.id, productSku: SEAL.sku, productName: SEAL.name, quantity: 10, unitPrice: 4, currency: 'EUR', lineTotal: 40, leadTime: 'in stock' },
        { productId: '', productSku: '', productName: 'CAT 9X-1234 gasket', quantity: 2, unitPrice: null, currency: null, lineTotal: null, leadTime: null },
      ]);
      expect(v.versions[0]!.totals).toEqual([{ currency: 'USD', total: 50 }, { currency: 'EUR', total: 40 }]);
      expect(v.versions[0]!.message).toBe('Our prices, as asked.');
      expect(v.history.map((h) => h.what)).toEqual(['You asked for a quote', 'Quoted (version 1)']);
      // The same quote as a PDF, from the page and attached to the reply mail.
      const pdf = await fetch(`${svc.url}/api/quote-view/${token}/pdf`);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toBe(`inline; filename="quote-${v.reference}-v1.pdf"`);
      expect(pdf.headers.get('referrer-policy')).toBe('no-referrer');
      const bytes = Buffer.from(await pdf.arrayBuffer());
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      expect((await fetch(`${svc.url}/api/quote-view/${token}/pdf?version=2`)).status).toBe(404);
      expect((await send('GET', `${svc.url}/api/quote-view/${token}/pdf?version=x`)).body.issues[0].path).toBe('version');
      const mail = (await svc.store.listMails(id)).find((m) => m.id === `quote-${id}-reply-1`)!;
      expect(mail.message.attachments).toHaveLength(1);
      expect(mail.message.attachments![0]).toMatchObject({ filename: `quote-${v.reference}-v1.pdf`, contentType: 'application/pdf', encoding: 'base64' });
      expect(Buffer.from(mail.message.attachments![0]!.content, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
      // Staff notes never reach the buyer.
      const detail = await send('GET', `${svc.url}/api/admin/quotes/${id}`, undefined, await admin());
      await send('PATCH', `${svc.url}/api/admin/quotes/${id}`, { note: 'SECRET margin 40%' }, { ...(await admin()), 'if-match': detail.headers.get('etag')! });
      expect((await view(token)).text).not.toContain('SECRET');
    });

    it('answers a guessed, malformed, revoked or long-expired link with the same 404', async () => {
      const id = await request();
      const token = await reply(id, priced());
      const guessed = 'A'.repeat(43);
      const answers = await Promise.all([view(guessed), view('short'), view(`${token}x`), act(guessed, 'accept', accept())]);
      for (const a of answers) {
        expect(a.status).toBe(404);
        expect(a.body.message).toMatch(/not valid/);
      }
      const revoked = await send('POST', `${svc.url}/api/admin/quotes/${id}/revoke-links`, undefined, await admin());
      expect(revoked.body).toEqual({ revoked: 1 });
      expect((await view(token)).status).toBe(404);
      expect((await view(token)).body.message).toBe(answers[0]!.body.message);
      // A new reply sends a new link that opens.
      const fresh = await reply(id, priced());
      expect((await view(fresh)).status).toBe(200);

      // Past its validity the page says so (no accept); past the 5-day grace period too, the link is gone.
      const old = await request();
      const expired = await reply(old, priced(isoDay(Date.now() - 2 * DAY)));
      const page = (await view(expired)).body as QuoteView;
      expect(page).toMatchObject({ status: 'expired', canAccept: false, canAskChanges: false, canDecline: false });
      const refused = await act(expired, 'accept', accept());
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/expired on \d{4}-\d{2}-\d{2}/);
      expect(page.canReopen).toBe(true);
      // The buyer asks for a new quote: the request goes back to staff, once.
      const reopened = await post(`${svc.url}/api/quote-view/${expired}/reopen`, {});
      expect(reopened.status).toBe(200);
      expect(reopened.body).toMatchObject({ status: 'requoting', canReopen: false, canAccept: false });
      expect((await svc.store.getInbox(old))!.status).toBe('in_progress');
      expect((await svc.store.listMails(old)).some((m) => m.message.to === SELLER && /New quote asked/.test(m.message.subject))).toBe(true);
      const twice = await post(`${svc.url}/api/quote-view/${expired}/reopen`, {});
      expect(twice.status).toBe(409);
      expect(twice.body.message).toMatch(/asked for a new quote already/);
      expect((await post(`${svc.url}/api/quote-view/${fresh}/reopen`, {})).status).toBe(409);
      const gone = await reply(await request(), priced(isoDay(Date.now() - 7 * DAY)));
      expect((await view(gone)).status).toBe(404);
    });

    it('asks for changes, gets a revised version, refuses the superseded one, and accepts the latest once', async () => {
      const id = await request('ada@quarry.example');
      const token = await reply(id, priced());
      const changes = await act(token, 'changes', { version: 1, message: 'Can you do 6 filters at 11 USD?', lines: [{ quantity: 6, targetPrice: 11 }] });
      expect(changes.status, JSON.stringify(changes.body)).toBe(200);
      expect(changes.body).toMatchObject({ status: 'changes_requested', canAccept: false, canDecline: true });
      expect((await svc.store.getInbox(id))!.status).toBe('changes_requested');
      const seller = (await svc.store.listMails(id)).find((m) => m.message.to === SELLER && /Changes asked/.test(m.message.subject))!;
      expect(seller.message.text).toContain('Can you do 6 filters at 11 USD?');
      expect(seller.message.text).toContain(`${PRODUCT.sku}: quantity 6, target price 11 USD`);
      expect((await act(token, 'accept', accept())).status).toBe(409);

      // Staff revise: version 2, six filters at 11.
      const v2 = await reply(id, { lines: [{ quantity: 6, unitPrice: 11, currency: 'USD', leadTime: '3 days' }, { unitPrice: 4, currency: 'EUR' }], validUntil: isoDay(Date.now() + 10 * DAY) });
      const page = (await view(token)).body as QuoteView;
      expect(page).toMatchObject({ status: 'open', latestVersion: 2 });
      expect(page.versions.map((v) => v.version)).toEqual([1, 2]);
      expect(page.versions[1]!.lines[0]).toMatchObject({ quantity: 6, unitPrice: 11, lineTotal: 66 });
      expect((await view(v2)).body.latestVersion).toBe(2);

      const stale = await act(token, 'accept', accept({ version: 1 }));
      expect(stale.status).toBe(409);
      expect(stale.body.message).toMatch(/replaced by version 2/);
      const tooMany = await act(token, 'accept', accept({ version: 2, quantities: [7, 10, 0] }));
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.issues[0].path).toBe('quantities.0');
      const unpriced = await act(token, 'accept', accept({ version: 2, quantities: [6, 10, 1] }));
      expect(unpriced.status).toBe(400);
      expect(unpriced.body.issues[0]).toMatchObject({ path: 'quantities.2', message: 'not priced' });
      const noPo = await act(token, 'accept', accept({ version: 2, poNumber: ' ' }));
      expect(noPo.status).toBe(400);
      expect(noPo.body.issues[0].path).toBe('poNumber');

      const ok = await act(token, 'accept', accept({ version: 2, quantities: [6, 0, 0] }));
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      expect(ok.body.order).toMatchObject({ quoteVersion: 2, poNumber: 'PO-7781', status: 'confirmed' });
      expect(ok.body.order.number).toMatch(/^\d{4}-\d{5}$/);
      const order = (await svc.store.getOrderByQuote(id))!;
      expect(order).toMatchObject({ number: ok.body.order.number, quoteVersion: 2, delivery: { company: 'Quarry Co', contactName: 'Ada Buyer' } });
      expect(order.lines).toEqual([{ productId: PRODUCT.id, productSku: PRODUCT.sku, productName: PRODUCT.name, quantity: 6, unitPrice: 11, currency: 'USD', leadTime: '3 days' }]);
      expect((await svc.store.getInbox(id))!.status).toBe('won');
      const again = await act(token, 'accept', accept({ version: 2 }));
      expect(again.status).toBe(409);
      expect(again.body.message).toContain(`already accepted: order ${order.number}`);
      const after = (await view(token)).body as QuoteView;
      expect(after).toMatchObject({ status: 'accepted', canAccept: false, order: { number: order.number } });
      expect(after.history.map((h) => h.what)).toContain(`You accepted version 2: order ${order.number}`);
      // The buyer gets the order's confirmation, the seller the order.
      await eventually(async () => (await svc.store.listMails(id)).filter((m) => m.status === 'sent').length >= 6);
      const mails = await svc.store.listMails(id);
      expect(mails.find((m) => m.message.to === 'ada@quarry.example' && m.message.subject.includes(`Order ${order.number} confirmed`))).toBeDefined();
      expect(mails.find((m) => m.message.to === SELLER && m.message.subject.includes(`Quote accepted: order ${order.number}`))!.message.text).toContain('PO-7781');
    });

    it('makes one order when twenty tabs accept at once', async () => {
      const id = await request();
      const token = await reply(id, priced());
      const answers = await Promise.all(Array.from({ length: 20 }, () => act(token, 'accept', accept())));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((st) => st === 201)).toHaveLength(1);
      expect(statuses.filter((st) => st === 409)).toHaveLength(19);
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body.message).toMatch(/already accepted|changed while you were answering/);
      const order = await svc.store.getOrderByQuote(id);
      expect(order?.number).toBe(answers.find((a) => a.status === 201)!.body.order.number);
    });

    it('keeps a PO document attached to an accept (a PDF by its bytes, at most the limit) for staff to download', async () => {
      const id = await request();
      const token = await reply(id, priced());
      const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n% purchase order 4471\n'), Buffer.alloc(40_000, 0x41), Buffer.from('\n%%EOF\n')]);
      const withFile = (body: unknown, file?: { bytes: Buffer; name: string; type?: string }, extra?: (f: FormData) => void) => {
        const form = new FormData();
        form.set('body', typeof body === 'string' ? body : JSON.stringify(body));
        if (file) form.set('poDocument', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/pdf' }), file.name);
        extra?.(form);
        return fetch(`${svc.url}/api/quote-view/${token}/accept`, { method: 'POST', body: form }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
      };

      // Refused, each naming what: a PNG called .pdf (the type is read from the bytes), no JSON part, bad JSON, a
      // second file field, and a bad field of the accept itself; none of them leaves a document or an order behind.
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
      const notPdf = await withFile(accept(), { bytes: png, name: 'po.pdf' });
      expect(notPdf.status).toBe(400);
      expect(notPdf.body.issues[0]).toEqual({ path: 'poDocument', message: 'must be a PDF document ("po.pdf" is not one)' });
      expect(notPdf.body.message).toContain('"po.pdf" is not a PDF document');
      expect((await withFile(undefined as never, { bytes: pdf, name: 'po.pdf' }, (f) => f.delete('body'))).body.issues[0].path).toBe('body');
      expect((await withFile('{"version":', { bytes: pdf, name: 'po.pdf' })).body.issues[0]).toEqual({ path: 'body', message: 'not valid JSON' });
      const twoFiles = await withFile(accept(), { bytes: pdf, name: 'po.pdf' }, (f) => f.set('other', new Blob([new Uint8Array(pdf)]), 'x.pdf'));
      expect(twoFiles.status).toBe(413);
      expect(twoFiles.body.message).toMatch(/At most 1 file/);
      const badField = await withFile(accept({ poNumber: '' }), { bytes: pdf, name: 'po.pdf' });
      expect(badField.status).toBe(400);
      expect(badField.body.issues[0].path).toBe('poNumber');
      expect(await svc.store.getOrderByQuote(id)).toBeNull();
      expect(await svc.documents.list('po/')).toEqual([]);

      // Over the limit (the service's default, 10 MB): 413 naming it, read to the end (no reset).
      const big = await withFile(accept(), { bytes: Buffer.concat([pdf, Buffer.alloc(10 * 1024 * 1024)]), name: 'huge.pdf' });
      expect(big.status).toBe(413);
      expect(big.body.message).toBe(`File "huge.pdf" is larger than 10 MB`);

      const ok = await withFile(accept({ poNumber: 'PO-DOC-1' }), { bytes: pdf, name: 'C:\\Users\\ada\\PO 4471 (signed).pdf' });
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      expect(ok.body.order.poDocument).toEqual({ name: 'PO 4471 (signed).pdf', size: pdf.length });
      expect(((await view(token)).body as QuoteView).order?.poDocument).toEqual({ name: 'PO 4471 (signed).pdf', size: pdf.length });
      const order = await svc.store.getOrderByQuote(id);
      expect(order?.poDocument).toMatchObject({ name: 'PO 4471 (signed).pdf', size: pdf.length });
      expect(await svc.documents.list('po/')).toEqual([order!.poDocument!.key]);

      // Staff: the order shows it, and its download is the buyer's bytes as sent.
      const listed = await send('GET', `${svc.url}/api/admin/orders?q=PO-DOC-1`, undefined, await admin());
      expect(listed.body.items[0].poDocument).toEqual({ name: 'PO 4471 (signed).pdf', size: pdf.length });
      const file = await fetch(`${svc.url}/api/admin/orders/${order!.id}/po-document`, { headers: await admin() });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(`PO-${order!.number}-PO 4471 (signed).pdf`)}`);
      expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);
      expect((await fetch(`${svc.url}/api/admin/orders/${order!.id}/po-document`)).status).toBe(401);
      // The buyer's confirmation names it; an order without one says so on download.
      const mail = (await svc.store.listMails(id)).find((m) => m.message.subject.includes(order!.number));
      expect(mail?.message.text).toContain('PO 4471 (signed).pdf');
      const other = await request();
      const plain = await act(await reply(other, priced()), 'accept', accept());
      expect(plain.status).toBe(201);
      const none = await send('GET', `${svc.url}/api/admin/orders/${(await svc.store.getOrderByQuote(other))!.id}/po-document`, undefined, await admin());
      expect(none.status).toBe(404);
      expect(none.body.message).toMatch(/has no PO document/);
    });

    it('declines with a reason: lost in the inbox, counted by reason, and nothing more can be answered', async () => {
      const id = await request();
      const token = await reply(id, priced());
      const bad = await act(token, 'decline', { reason: 'too-dear' });
      expect(bad.status).toBe(400);
      expect(bad.body.issues[0].path).toBe('reason');
      const res = await act(token, 'decline', { reason: 'lead_time', text: 'Need it this week' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'declined', declined: { reason: 'lead_time', text: 'Need it this week' }, canDecline: false });
      expect((await svc.store.getInbox(id))!.status).toBe('lost');
      const changes = await act(token, 'changes', { version: 1, message: 'after all?' });
      expect(changes.status).toBe(409);
      const stats = (await send('GET', `${svc.url}/api/admin/quotes/stats`, undefined, await admin())).body as InboxStats;
      expect(stats.lostReasons).toContainEqual({ reason: 'lead_time', requests: 1 });
      // The free-text line of every request here is not a "part" of the top parts.
      expect(stats.topParts.every((p) => p.productId !== '' && p.productName !== '')).toBe(true);
      expect(stats.topParts.length).toBeGreaterThan(0);
    });

    it('lets staff list, find, ship, deliver and export orders; each change mails the buyer and joins the history', async () => {
      const email = `orders-${randomUUID().slice(0, 8)}@quarry.example`;
      const id = await request(email);
      const token = await reply(id, priced());
      const ok = await act(token, 'accept', accept({ poNumber: 'PO-SHIP-1' }));
      expect(ok.status).toBe(201);
      const number = ok.body.order.number as string;
      const call = async (method: string, p: string, body?: unknown, extra: Record<string, string> = {}) => send(method, `${svc.url}${p}`, body, { ...(await admin()), ...extra });

      const list = await call('GET', `/api/admin/orders?q=${encodeURIComponent('PO-SHIP-1')}`);
      expect(list.status).toBe(200);
      expect(list.body.items).toHaveLength(1);
      const order = list.body.items[0];
      expect(order).toMatchObject({ number, status: 'confirmed', poNumber: 'PO-SHIP-1', customerEmail: email, shipment: null, cancelReason: null });
      expect(order.totals).toEqual([{ currency: 'USD', total: 50 }, { currency: 'EUR', total: 40 }]);
      expect(list.body.counts.confirmed).toBeGreaterThanOrEqual(1);
      expect((await call('GET', `/api/admin/orders?q=${number}&status=shipped`)).body.items).toHaveLength(0);
      expect((await call('GET', '/api/admin/orders?status=lost')).body.issues[0].path).toBe('status');

      const read = await call('GET', `/api/admin/orders/${order.id}`);
      expect(read.headers.get('etag')).toBe('"v0"');
      expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'shipped', carrier: 'DHL', trackingNumber: 'JD0001' })).status).toBe(428);
      const noTracking = await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'shipped', carrier: 'DHL' }, { 'if-match': '"v0"' });
      expect(noTracking.status).toBe(400);
      expect(noTracking.body.issues[0].path).toBe('trackingNumber');
      const delivered = await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'delivered' }, { 'if-match': '"v0"' });
      expect(delivered.status).toBe(409);
      expect(delivered.body.message).toMatch(/Confirmed cannot move to Delivered/);
      const shipped = await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'shipped', carrier: 'DHL', trackingNumber: 'JD0001' }, { 'if-match': '"v0"' });
      expect(shipped.status).toBe(200);
      expect(shipped.body).toMatchObject({ status: 'shipped', shipment: { carrier: 'DHL', trackingNumber: 'JD0001' }, version: 1 });
      const stale = await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'delivered' }, { 'if-match': '"v0"' });
      expect(stale.status).toBe(409);
      expect((await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'delivered', version: 1 })).body.status).toBe('delivered');
      const cancel = await call('PATCH', `/api/admin/orders/${order.id}`, { status: 'cancelled', reason: 'late' }, { 'if-match': '"v2"' });
      expect(cancel.status).toBe(409);

      // The buyer sees it and is mailed each step; the request's history has it for staff too.
      const page = (await view(token)).body as QuoteView;
      expect(page.order).toMatchObject({ number, status: 'delivered' });
      expect(page.history.map((h) => h.what)).toEqual(expect.arrayContaining(['Shipped: DHL JD0001', 'Delivered']));
      const subjects = (await svc.store.listMails(id)).filter((m) => m.message.to === email).map((m) => m.message.subject);
      expect(subjects).toEqual(expect.arrayContaining([`Order ${number} shipped`, `Order ${number} delivered`]));
      const history = (await call('GET', `/api/admin/quotes/${id}`)).body as InboxDetail;
      expect(history.history.filter((h) => h.type === 'order').map((h) => [h.from, h.to, h.text])).toEqual([
        ['confirmed', 'shipped', 'DHL JD0001'],
        ['shipped', 'delivered', null],
      ]);

      const csv = await call('GET', `/api/admin/orders/export.csv?q=${number}`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
      const rows = parse(csv.text, { bom: true, columns: true }) as Record<string, string>[];
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ number, status: 'delivered', po_number: 'PO-SHIP-1', carrier: 'DHL', tracking_number: 'JD0001', address: '1 Pit Road\nLeeds LS1' });
      expect((await call('GET', `/api/admin/orders/nope`)).status).toBe(404);
      expect((await send('GET', `${svc.url}/api/admin/orders`)).status).toBe(401);
    });

    it('reminds the buyer once, a few days before a quote expires, however many replicas look', async () => {
      const email = `remind-${randomUUID().slice(0, 8)}@quarry.example`;
      const soon = await request(email);
      await reply(soon, priced(isoDay(Date.now() + 2 * DAY)));
      const later = await request(email);
      await reply(later, priced(isoDay(Date.now() + 20 * DAY)));
      const accepted = await request(email);
      const acceptedToken = await reply(accepted, priced(isoDay(Date.now() + 1 * DAY)));
      expect((await act(acceptedToken, 'accept', accept())).status).toBe(201);

      // Three passes at once (three replicas' timers), then one more later: one reminder.
      const replica = () =>
        createExpiryReminders({
          store: svc.store,
          mail: { siteName: 'Forgeline Parts', sellerEmail: SELLER, messageDomain: 'forgeline.parts' },
          quoteView: { publicUrl: 'https://shop.example', graceDays: 5, defaultValidityDays: 30 },
          daysBefore: 3,
          pollMs: 60_000,
          logger: createLogger('reminders-test', 'silent'),
          outbox: { kick: () => undefined },
        });
      await Promise.all([svc.reminders.runOnce(), replica().runOnce(), replica().runOnce()]);
      await replica().runOnce();
      const reminders = (await svc.store.listMails()).filter((m) => m.message.to === email && /expires on/.test(m.message.subject));
      expect(reminders.map((m) => m.refId)).toEqual([soon]);
      expect(reminders[0]!.message.subject).toContain(`expires on ${isoDay(Date.now() + 2 * DAY)}`);
      // Its link opens the quote page.
      const token = /\/quote\/view\/([A-Za-z0-9_-]{43})\b/.exec(reminders[0]!.message.text)![1]!;
      expect(((await view(token)).body as QuoteView).status).toBe('open');
      // A revised quote with a new validity gets its own reminder when that one comes near.
      expect(await svc.reminders.runOnce()).toBe(0);
    });

    it("tells the seller's ERP by signed webhooks, retried after a failure, each delivery's last answer shown", async () => {
      // The ERP: answers 500 to its first call, then 200; every call recorded.
      const calls: { headers: http.IncomingHttpHeaders; body: string }[] = [];
      const erp = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          calls.push({ headers: req.headers, body });
          res.writeHead(calls.length === 1 ? 500 : 200, { 'content-type': 'text/plain' }).end(calls.length === 1 ? 'ERP down for a moment' : 'ok');
        });
      });
      await new Promise<void>((r) => erp.listen(0, '127.0.0.1', r));
      const hook = `http://127.0.0.1:${(erp.address() as AddressInfo).port}/hooks/forgeline`;
      const call = async (method: string, p: string, body?: unknown) => send(method, `${svc.url}${p}`, body, await admin());
      try {
        const bad = await call('POST', '/api/admin/webhooks', { url: 'ftp://erp.example/hook', events: ['quote.replied'] });
        expect(bad.status).toBe(400);
        expect(bad.body.issues[0].path).toBe('url');
        expect((await call('POST', '/api/admin/webhooks', { url: hook, events: [] })).body.issues[0].path).toBe('events');
        const created = await call('POST', '/api/admin/webhooks', { url: hook, events: ['quote.replied', 'quote.accepted', 'order.status_changed'], description: 'ERP' });
        expect(created.status).toBe(201);
        const secret = created.body.secret as string;
        expect(secret).toMatch(/^whsec_/);
        expect((await call('GET', '/api/admin/webhooks')).text).not.toContain(secret);

        const id = await request();
        const token = await reply(id, priced());
        await eventually(() => calls.length >= 2);
        const replied = calls[1]!;
        expect(replied.headers['forgeline-event']).toBe('quote.replied');
        expect(verifyWebhookSignature(secret, String(replied.headers['forgeline-signature']), replied.body, 300)).toBe(true);
        expect(verifyWebhookSignature('whsec_wrong', String(replied.headers['forgeline-signature']), replied.body, 300)).toBe(false);
        const event = JSON.parse(replied.body);
        expect(event).toMatchObject({ event: 'quote.replied', data: { quoteId: id, version: 1, totals: [{ currency: 'USD', total: 50 }, { currency: 'EUR', total: 40 }] } });
        // The same delivery, tried again after the 500: one id, two attempts.
        expect(calls[0]!.headers['forgeline-delivery']).toBe(replied.headers['forgeline-delivery']);
        await eventually(async () => (await call('GET', '/api/admin/webhooks')).body.endpoints[0]?.lastDelivery?.status === 'delivered');
        const listed = (await call('GET', '/api/admin/webhooks')).body;
        expect(listed.endpoints[0].lastDelivery).toMatchObject({ event: 'quote.replied', status: 'delivered', attempts: 2, responseStatus: 200, response: 'ok' });

        const ok = await act(token, 'accept', accept());
        expect(ok.status).toBe(201);
        await eventually(() => calls.some((c) => c.headers['forgeline-event'] === 'quote.accepted'));
        const accepted = JSON.parse(calls.find((c) => c.headers['forgeline-event'] === 'quote.accepted')!.body);
        expect(accepted.data.order).toMatchObject({ number: ok.body.order.number, poNumber: 'PO-7781', status: 'confirmed' });

        // Removed: nothing more is sent to it.
        expect((await call('DELETE', `/api/admin/webhooks/${created.body.id}`)).status).toBe(204);
        expect((await call('DELETE', `/api/admin/webhooks/${created.body.id}`)).status).toBe(404);
        const before = calls.length;
        await reply(await request(), priced());
        await svc.store.claimDueDeliveries(new Date(), 10, 1_000).then((c) => expect(c).toEqual([]));
        expect(calls.length).toBe(before);
      } finally {
        await new Promise((r) => erp.close(r));
      }
    });

    it('names the field of a bad answer, and a token in a path never reaches another request', async () => {
      const a = await request();
      const b = await request();
      const ta = await reply(a, priced());
      await reply(b, priced());
      for (const body of [{}, { version: 'x' }, { version: 1, poNumber: 'P', delivery: { address: '' , contactName: 'A' } }, { version: 1, poNumber: 'P'.repeat(101), delivery: { address: 'x', contactName: 'A' } }]) {
        const res = await act(ta, 'accept', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.issues[0].path).toMatch(/^(version|poNumber|delivery)/);
      }
      const missing = await act(ta, 'changes', { version: 1 });
      expect(missing.status).toBe(400);
      expect(missing.body.issues[0].path).toBe('message');
      await act(ta, 'decline', { reason: 'price' });
      expect((await svc.store.getInbox(b))!.status).toBe('quoted');
    });
  });
}
