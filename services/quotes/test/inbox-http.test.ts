import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxDetail, InboxListResponse, InboxStats } from '@forgeline/contracts/quote-inbox';
import { gatewayAssertionHeaders } from '@forgeline/service-kit/gateway-assertion';
import { ADMINS, eventually, post, PRODUCT, send, SERVICE_TOKEN, startCatalogStub, startService, validQuote, type TestService } from './harness.ts';

const [OPS, SAM] = ADMINS as [string, string];
/** What the gateway adds once the admin's session checks out: its signed assertion naming the admin. */
const as = async (admin: string, extra: Record<string, string> = {}) => ({ ...(await gatewayAssertionHeaders(SERVICE_TOKEN, admin)), ...extra });

describe('the staff inbox over HTTP (SQLite, dev mailbox)', () => {
  let catalog: Awaited<ReturnType<typeof startCatalogStub>>;
  let svc: TestService;
  const ids: string[] = [];

  async function call(method: string, p: string, body?: unknown, headers: Record<string, string> | Promise<Record<string, string>> = as(OPS)) {
    const res = await send(method, `${svc.url}${p}`, body, await headers);
    return { ...res, etag: res.headers.get('etag'), type: res.headers.get('content-type') };
  }

  beforeAll(async () => {
    catalog = await startCatalogStub([PRODUCT, { id: 'p-2', name: 'Bucket Tooth', sku: '=HYPERLINK("x")', partNumber: 'AT-33' }]);
    svc = await startService({ catalogUrl: catalog.url });
    for (const [i, over] of [
      { customerName: 'Ada Lovelace', customerEmail: 'ada@mine-co.example', message: 'Two filters for a D9' },
      { customerName: 'Bob Digger', customerEmail: 'bob@quarry.example', productId: 'p-2', quantity: 12, message: 'urgent, machine down' },
      { customerName: 'Cy Farmer', customerEmail: 'cy@farm.example', message: '-1 if none' },
    ].entries()) {
      const res = await post(`${svc.url}/api/quote-requests`, validQuote(over));
      expect(res.status, `quote ${i}`).toBe(201);
      ids.push(res.body.id);
    }
  });
  afterAll(async () => {
    await svc?.close();
    await catalog?.close();
  });

  it('is only for signed-in staff: without the gateway\'s assertion, 401, whatever headers come instead', async () => {
    for (const [method, p] of [['GET', '/api/admin/quotes'], ['GET', `/api/admin/quotes/${ids[0]}`], ['PATCH', `/api/admin/quotes/${ids[0]}`], ['GET', '/api/admin/quotes/export.csv']]) {
      for (const headers of [{}, { 'x-admin-email': OPS }, { 'x-gateway-assertion': 'not.a.jwt' }] as Record<string, string>[]) {
        const res = await call(method!, p!, method === 'PATCH' ? { status: 'spam', version: 0 } : undefined, headers);
        expect(res.status, `${method} ${p} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.body.message).toMatch(/through the gateway/i);
      }
    }
    // An assertion signed with another key is refused too.
    const forged = await call('GET', '/api/admin/quotes', undefined, gatewayAssertionHeaders('another-service-token-0123', OPS));
    expect(forged.status).toBe(401);
  });

  it('lists newest first with counts per status, filters and searches, and names a bad parameter', async () => {
    const all = await call('GET', '/api/admin/quotes?limit=2');
    expect(all.status).toBe(200);
    const list = all.body as InboxListResponse;
    expect(list.items.map((i) => i.id)).toEqual([ids[2], ids[1]]);
    expect(list.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(list.counts.pending).toBe(3);
    expect(list.items[1]).toMatchObject({ customerName: 'Bob Digger', emailDomain: 'quarry.example', country: 'United Kingdom', lineCount: 1, firstLine: { productName: 'Bucket Tooth', quantity: 12 } });
    expect((await call('GET', '/api/admin/quotes?q=machine%20down')).body.items.map((i: { id: string }) => i.id)).toEqual([ids[1]]);
    expect((await call('GET', `/api/admin/quotes?q=${encodeURIComponent(PRODUCT.sku.slice(0, 6))}`)).body.pagination.total).toBe(2);
    expect((await call('GET', '/api/admin/quotes?kind=contact')).body.pagination.total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await call('GET', `/api/admin/quotes?from=${today}&to=${today}`)).body.pagination.total).toBe(3);
    expect((await call('GET', '/api/admin/quotes?to=2001-01-01')).body.pagination.total).toBe(0);
    for (const [q, field] of [['status=maybe', 'status'], ['limit=1000', 'limit'], ['from=yesterday', 'from'], ['assignee=stranger@example.com', 'assignee'], [`q=${'x'.repeat(201)}`, 'q']]) {
      const res = await call('GET', `/api/admin/quotes?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.issues.map((i: { path: string }) => i.path), q).toContain(field);
    }
  });

  it('moves a request along the workflow with who and when; a forbidden move is a 409, a stale version a 409, no version a 428', async () => {
    const id = ids[0]!;
    const read = await call('GET', `/api/admin/quotes/${id}`);
    expect(read.status).toBe(200);
    expect(read.etag).toBe('"v0"');
    expect(read.body).toMatchObject({ status: 'pending', lines: [{ productId: PRODUCT.id, productSku: PRODUCT.sku, quantity: 3 }], history: [] });

    expect((await call('PATCH', `/api/admin/quotes/${id}`, { status: 'in_progress' })).status).toBe(428);
    const taken = await call('PATCH', `/api/admin/quotes/${id}`, { status: 'in_progress', assignee: SAM, note: 'Calling the buyer' }, as(OPS, { 'if-match': '"v0"' }));
    expect(taken.status).toBe(200);
    expect(taken.etag).toBe('"v1"');
    const d = taken.body as InboxDetail;
    expect(d).toMatchObject({ status: 'in_progress', assignee: SAM, version: 1 });
    expect(d.history.map((h) => [h.type, h.actor, h.from, h.to, h.text])).toEqual([
      ['status', OPS, 'pending', 'in_progress', null],
      ['assignee', OPS, null, SAM, null],
      ['note', OPS, null, null, 'Calling the buyer'],
    ]);

    // Sam read version 1; Ops changes it first; Sam's write is refused, not silently applied.
    const ops = await call('PATCH', `/api/admin/quotes/${id}`, { note: 'Price list checked' }, as(OPS, { 'if-match': '"v1"' }));
    expect(ops.status).toBe(200);
    const sam = await call('PATCH', `/api/admin/quotes/${id}`, { status: 'spam' }, as(SAM, { 'if-match': '"v1"' }));
    expect(sam.status).toBe(409);
    expect(sam.body.message).toMatch(/changed this request meanwhile.*version 2/);
    expect((await call('GET', `/api/admin/quotes/${id}`)).body.status).toBe('in_progress');

    const won = await call('PATCH', `/api/admin/quotes/${id}`, { status: 'won', version: 2 });
    expect(won.status).toBe(409);
    expect(won.body.message).toBe('A request that is In progress cannot move to Won; it can move to: New, Quoted, Spam, Closed.');

    for (const [body, field] of [
      [{ status: 'archived', version: 2 }, 'status'],
      [{ assignee: 'stranger@example.com', version: 2 }, 'assignee'],
      [{ note: 'n'.repeat(20_000), version: 2 }, 'note'],
      [{ version: 2 }, 'status'],
    ] as const) {
      const res = await call('PATCH', `/api/admin/quotes/${id}`, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
    const missing = await call('PATCH', '/api/admin/quotes/no-such-id', { status: 'spam', version: 0 });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('No quote request or message has the id "no-such-id".');
    expect((await call('GET', '/api/admin/quotes/no-such-id')).status).toBe(404);
    const list = (await call('GET', `/api/admin/quotes?assignee=${SAM}`)).body as InboxListResponse;
    expect(list.items.map((i) => i.id)).toEqual([id]);
    expect(list.counts).toMatchObject({ in_progress: 1, pending: 0 });
    expect((await call('GET', '/api/admin/quotes?assignee=none')).body.pagination.total).toBe(2);
  });

  it('replies to the buyer by e-mail with the prices as a table, moves the request to quoted and records it', async () => {
    const id = ids[1]!;
    const res = await call('POST', `/api/admin/quotes/${id}/reply`, {
      message: 'Thank you. Here is our offer.',
      lines: [{ unitPrice: 41.5, currency: 'usd', leadTime: '3-5 days' }],
      validUntil: '2026-12-31',
      version: 0,
    });
    expect(res.status).toBe(200);
    const d = res.body as InboxDetail;
    expect(d).toMatchObject({ status: 'quoted', version: 1 });
    expect(d.firstReplyAt).toBeTruthy();
    expect(d.history[0]).toMatchObject({
      type: 'reply',
      actor: OPS,
      to: 'bob@quarry.example',
      text: 'Thank you. Here is our offer.',
      reply: { validUntil: '2026-12-31', lines: [{ productName: 'Bucket Tooth', quantity: 12, unitPrice: 41.5, currency: 'USD', leadTime: '3-5 days' }] },
    });
    expect(d.history[1]).toMatchObject({ type: 'status', from: 'pending', to: 'quoted' });

    let mail = '';
    await eventually(async () => {
      const files = (await readdir(svc.mailDir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
      for (const f of files) {
        const text = await readFile(path.join(svc.mailDir, f), 'utf8');
        if (text.includes(`quote-${id}-reply-1`)) mail = text;
      }
      return mail !== '';
    });
    const plain = mail.replace(/=\r?\n/g, '');
    expect(plain).toMatch(/^To: bob@quarry\.example/m);
    expect(plain).toContain('Thank you. Here is our offer.');
    expect(plain).toContain('Unit price: 41.50 USD | Line total: 498.00 USD | Lead time: 3-5 days');
    expect(plain).toContain('Prices valid until 2026-12-31.');
    expect(plain).toMatch(/<th[^>]*>Unit price<\/th>/);

    // a reply on a stale version, or with more lines than the request has, is refused and sends nothing
    expect((await call('POST', `/api/admin/quotes/${id}/reply`, { message: 'again', version: 0 })).status).toBe(409);
    const tooMany = await call('POST', `/api/admin/quotes/${id}/reply`, { message: 'x', lines: [{}, {}], version: 1 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.issues[0].path).toBe('lines');
    const badCurrency = await call('POST', `/api/admin/quotes/${id}/reply`, { message: 'x', lines: [{ currency: 'dollars' }], version: 1 });
    expect(badCurrency.status).toBe(400);
    expect(badCurrency.body.issues[0].path).toBe('lines.0.currency');
    expect((await svc.store.listMails(id)).filter((m) => m.id.includes('-reply-'))).toHaveLength(1);
  });

  it('exports the filtered list as CSV with formula-like cells defused', async () => {
    const res = await call('GET', '/api/admin/quotes/export.csv');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/csv/);
    const rows = parse(res.text.replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rows[1]).toMatchObject({ kind: 'quote', status: 'quoted', customer_email: 'bob@quarry.example', parts: `'=HYPERLINK("x")`, quantities: '12' });
    expect(rows[0]!.message).toBe("'-1 if none");
    const quoted = parse((await call('GET', '/api/admin/quotes/export.csv?status=quoted')).text.replace(/^\uFEFF/, ''), { columns: true }) as unknown[];
    expect(quoted).toHaveLength(1);
  });

  it('answers a contact message too: the reply is mailed and the message closed', async () => {
    const at = new Date().toISOString();
    await svc.store.saveContactMessage({ id: 'contact-1', name: 'Grace', email: 'grace@port.example', countryCode: '+27', phone: '', subject: 'Opening hours', message: 'Are you open on Saturday?', createdAt: at }, []);
    const listed = (await call('GET', '/api/admin/quotes?kind=contact')).body as InboxListResponse;
    expect(listed.items.map((i) => [i.id, i.subject, i.lineCount])).toEqual([['contact-1', 'Opening hours', 0]]);
    const res = await call('POST', '/api/admin/quotes/contact-1/reply', { message: 'Yes, 8 to 12.', version: 0 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'closed', kind: 'contact' });
    const mails = await svc.store.listMails('contact-1');
    expect(mails.map((m) => [m.id, m.message.to, m.message.subject])).toEqual([['contact-contact-1-reply-1', 'grace@port.example', 'Re: Opening hours']]);
  });

  it('names the staff a request can be given to', async () => {
    expect((await call('GET', '/api/admin/quotes/staff')).body).toEqual({ staff: ADMINS });
  });

  it('computes the numbers staff watch', async () => {
    const res = await call('GET', '/api/admin/quotes/stats');
    expect(res.status).toBe(200);
    const s = res.body as InboxStats;
    expect(s.requestsThisWeek).toBe(3); // quote requests only: the contact message is not one
    expect(s.medianHoursToFirstReply).not.toBeNull();
    expect(s.medianHoursToFirstReply!).toBeGreaterThanOrEqual(0);
    expect(s.shareWon).toBeNull();
    expect(s.topParts[0]).toMatchObject({ productId: PRODUCT.id, requests: 2 });
  });
});
