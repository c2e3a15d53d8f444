import { describe, expect, it } from 'vitest';
import type { ContactMessage, QuoteRequest } from '@forgeline/contracts/quotes';
import type { OutboxMail, QuoteStore } from '../src/ports.ts';

let seq = 0;
const quote = (over: Partial<QuoteRequest> = {}): QuoteRequest => ({
  id: `q-${Date.now()}-${++seq}`,
  productId: 'p-1',
  productName: 'Filter',
  productSku: 'SKU-1',
  customerName: 'Ada',
  customerEmail: 'ada@example.com',
  customerPhone: '',
  customerCountry: 'India',
  quantity: 2,
  message: 'hello',
  status: 'pending',
  createdAt: new Date().toISOString(),
  ...over,
});
const contact = (): ContactMessage => ({
  id: `c-${Date.now()}-${++seq}`,
  name: 'Grace',
  email: 'grace@example.com',
  countryCode: '+91',
  phone: '123',
  subject: 'Hi',
  message: 'Question',
  createdAt: new Date().toISOString(),
});
const mailsFor = (refId: string, n = 2): OutboxMail[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `mail-${refId}-${i}`,
    refId,
    message: { to: `to${i}@example.com`, subject: `s${i}`, text: 't', html: '<p>h</p>', messageId: `<mail-${refId}-${i}@x>` },
  }));

/** One contract for every QuoteStore adapter. `make` gives a fresh, empty store. */
export function describeQuoteStore(name: string, make: () => Promise<QuoteStore>, skip?: string) {
  describe.skipIf(Boolean(skip))(`QuoteStore contract: ${name}`, () => {
    it('stores a quote request with its mails and reads it back', async () => {
      const store = await make();
      try {
        const q = quote();
        await store.saveQuoteRequest(q, mailsFor(q.id));
        expect(await store.getQuoteRequest(q.id)).toEqual(q);
        const mails = await store.listMails(q.id);
        expect(mails.map((m) => m.id)).toEqual([`mail-${q.id}-0`, `mail-${q.id}-1`]);
        expect(mails[0]).toMatchObject({ status: 'pending', attempts: 0, lastError: null, sentAt: null });
        expect(mails[0]!.message).toEqual(mailsFor(q.id)[0]!.message);
        expect(await store.outboxCounts()).toEqual({ pending: 2, sent: 0 });
        // The metrics' backlog (#37): both wait, neither tried yet.
        const backlog = await store.backlog();
        expect(backlog).toMatchObject({ pending: 2, failing: 0 });
        expect(backlog.oldestAt).toBeInstanceOf(Date);
        expect(await store.getQuoteRequest('nope')).toBeNull();
        expect(await store.countQuoteRequests()).toBe(1);
        // a request for a list of parts keeps its lines, and its inbox entry shows them
        const lines = [
          { productId: 'p-1', productName: 'Filter', productSku: 'SKU-1', partNumber: '1R-0750', text: null, quantity: 2, note: 'urgent' },
          { productId: null, productName: '', productSku: '', partNumber: '', text: 'seal kit for a D9', quantity: 1, note: '' },
        ];
        const multi = quote({ lines });
        await store.saveQuoteRequest(multi, []);
        expect(await store.getQuoteRequest(multi.id)).toEqual(multi);
        expect(await store.getInbox(multi.id)).toMatchObject({ lineCount: 2, lines: [{ productSku: 'SKU-1', quantity: 2 }, { productName: 'seal kit for a D9', quantity: 1 }] });
      } finally {
        await store.close();
      }
    });

    it('stores many simultaneous saves, and a save that fails (a duplicate id) fails alone', async () => {
      const store = await make();
      try {
        const quotes = Array.from({ length: 30 }, () => quote());
        const dup = { ...quotes[0]!, customerName: 'Duplicate' };
        // The original is stored first: simultaneous requests may reach the server in any order (a pool of
        // connections), so which of two same-id saves wins is only fixed when one has finished.
        await store.saveQuoteRequest(quotes[0]!, mailsFor(quotes[0]!.id, 1));
        const results = await Promise.allSettled([
          ...quotes.slice(1).map((q) => store.saveQuoteRequest(q, mailsFor(q.id, 1))),
          store.saveQuoteRequest(dup, [{ ...mailsFor(dup.id, 1)[0]!, id: `dup-${dup.id}` }]),
        ]);
        expect(results.slice(0, 29).filter((r) => r.status === 'rejected')).toEqual([]);
        expect(results[29]!.status).toBe('rejected');
        expect(await store.countQuoteRequests()).toBe(30);
        expect((await store.getQuoteRequest(dup.id))?.customerName).toBe('Ada');
        expect(await store.listMails(dup.id)).toHaveLength(1);
      } finally {
        await store.close();
      }
    });

    it('saves while claim passes run (as the outbox does in the background): every save succeeds, each mail once', async () => {
      const store = await make();
      try {
        // A claim pass also moves the mails of records caught between their two writes (the Mongo adapter's
        // recovery), so it races the save's own copy of the same mails; neither side may fail for that.
        let saving = true;
        const passes = (async () => {
          let n = 0;
          while (saving || n < 1) {
            await store.claimDueMails(new Date(0), 1, 60_000);
            n++;
            await new Promise((r) => setImmediate(r)); // let the saves run between passes

          }
          return n;
        })();
        const quotes = Array.from({ length: 20 }, () => quote());
        const results = await Promise.allSettled(quotes.map((q) => store.saveQuoteRequest(q, mailsFor(q.id))));
        saving = false;
        expect(await passes).toBeGreaterThan(0);
        expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
        const mails = await store.listMails();
        expect(mails).toHaveLength(40);
        expect(new Set(mails.map((m) => m.id)).size).toBe(40);
      } finally {
        await store.close();
      }
    });

    it('stores a contact message with its mail', async () => {
      const store = await make();
      try {
        const c = contact();
        await store.saveContactMessage(c, mailsFor(c.id, 1));
        expect(await store.getContactMessage(c.id)).toEqual(c);
        expect(await store.countContactMessages()).toBe(1);
        expect(await store.listMails(c.id)).toHaveLength(1);
        expect(await store.getContactMessage('nope')).toBeNull();
      } finally {
        await store.close();
      }
    });

    it('keeps a captcha challenge until its first take: simultaneous takes get it once, later ones "used", an unknown key null', async () => {
      const store = await make();
      try {
        const exp = new Date(Date.now() + 60_000);
        await store.saveCaptcha('k1', 17, exp);
        expect(await store.takeCaptcha('k1')).toEqual({ answer: 17, expiresAt: exp });
        expect(await store.takeCaptcha('k1')).toBe('used');
        expect(await store.takeCaptcha('nope')).toBeNull();
        await store.saveCaptcha('k2', 5, exp);
        const results = await Promise.all(Array.from({ length: 5 }, () => store.takeCaptcha('k2')));
        expect(results.filter((r) => r !== 'used')).toEqual([{ answer: 5, expiresAt: exp }]);
        // an expired challenge is still handed out once (the caller says "expired"), until purged
        const past = new Date(Date.now() - 60_000);
        await store.saveCaptcha('k3', 9, past);
        expect(await store.takeCaptcha('k3')).toEqual({ answer: 9, expiresAt: past });
      } finally {
        await store.close();
      }
    });

    it('purges the captcha challenges that expired before a time, used or not', async () => {
      const store = await make();
      try {
        const now = Date.now();
        await store.saveCaptcha('old-unused', 3, new Date(now - 2 * 3_600_000));
        await store.saveCaptcha('old-used', 4, new Date(now - 2 * 3_600_000));
        expect(await store.takeCaptcha('old-used')).toMatchObject({ answer: 4 });
        await store.saveCaptcha('fresh', 5, new Date(now + 600_000));
        expect(await store.purgeCaptchas(new Date(now - 3_600_000))).toBe(2);
        expect(await store.takeCaptcha('old-unused')).toBeNull();
        expect(await store.takeCaptcha('old-used')).toBeNull();
        expect(await store.takeCaptcha('fresh')).toMatchObject({ answer: 5 });
      } finally {
        await store.close();
      }
    });

    it('counts confirmations per recipient and day up to the limit, simultaneous takers included, and forgets old days', async () => {
      const store = await make();
      try {
        const day = '2026-03-02';
        expect(await store.takeMailQuota('r1', day, 2)).toBe(true);
        expect(await store.takeMailQuota('r1', day, 2)).toBe(true);
        expect(await store.takeMailQuota('r1', day, 2)).toBe(false);
        // another recipient, another day: counted apart
        expect(await store.takeMailQuota('r2', day, 2)).toBe(true);
        expect(await store.takeMailQuota('r1', '2026-03-03', 2)).toBe(true);
        // ten at once for a limit of three: three are given
        const results = await Promise.all(Array.from({ length: 10 }, () => store.takeMailQuota('r3', day, 3)));
        expect(results.filter(Boolean)).toHaveLength(3);
        expect(await store.takeMailQuota('r3', day, 3)).toBe(false);
        await store.purgeMailQuotas('2026-03-03');
        expect(await store.takeMailQuota('r1', day, 2)).toBe(true);
        expect(await store.takeMailQuota('r1', '2026-03-03', 2)).toBe(true);
        expect(await store.takeMailQuota('r1', '2026-03-03', 2)).toBe(false);
      } finally {
        await store.close();
      }
    });

    it('queues a confirmation with its request only while the recipient has some left, simultaneous saves included', async () => {
      const store = await make();
      try {
        const day = '2026-03-02';
        const saves = Array.from({ length: 6 }, () => quote());
        const results = await Promise.all(
          saves.map((q) => store.saveQuoteRequest(q, mailsFor(q.id, 2), { mailId: mailsFor(q.id, 2)[0]!.id, recipient: 'rc', day, limit: 2 })),
        );
        expect(results.filter((r) => r.confirmed)).toHaveLength(2);
        for (const [i, q] of saves.entries()) {
          expect(await store.getQuoteRequest(q.id), 'every request is stored').not.toBeNull();
          const ids = (await store.listMails(q.id)).map((m) => m.id);
          expect(ids).toEqual(results[i]!.confirmed ? mailsFor(q.id, 2).map((m) => m.id) : [mailsFor(q.id, 2)[1]!.id]);
        }
        // Another recipient is counted apart; without a quota every mail goes.
        const x = quote();
        expect((await store.saveQuoteRequest(x, mailsFor(x.id), { mailId: mailsFor(x.id)[0]!.id, recipient: 'other', day, limit: 2 })).confirmed).toBe(true);
        const y = quote();
        expect((await store.saveQuoteRequest(y, mailsFor(y.id))).confirmed).toBe(true);
        expect(await store.listMails(y.id)).toHaveLength(2);
      } finally {
        await store.close();
      }
    });

    it('claims due mails once, counting attempts, and not again while leased', async () => {
      const store = await make();
      try {
        const q = quote();
        await store.saveQuoteRequest(q, mailsFor(q.id, 3));
        const now = new Date(Date.now() + 1_000);
        const first = await store.claimDueMails(now, 2, 60_000);
        expect(first).toHaveLength(2);
        expect(first.every((m) => m.attempts === 1)).toBe(true);
        const second = await store.claimDueMails(now, 10, 60_000);
        expect(second.map((m) => m.id)).toEqual([`mail-${q.id}-2`].filter((id) => !first.some((f) => f.id === id)));
        expect(await store.claimDueMails(now, 10, 60_000)).toEqual([]);
        // after the lease ends, an unmarked mail is claimed again (its claimer died)
        const later = await store.claimDueMails(new Date(now.getTime() + 60_001), 10, 60_000);
        expect(later).toHaveLength(3);
        expect(later.every((m) => m.attempts === 2)).toBe(true);
      } finally {
        await store.close();
      }
    });

    it('gives simultaneous claimers disjoint mails', async () => {
      const store = await make();
      try {
        const q = quote();
        await store.saveQuoteRequest(q, mailsFor(q.id, 6));
        const now = new Date(Date.now() + 1_000);
        const claims = await Promise.all(Array.from({ length: 4 }, () => store.claimDueMails(now, 3, 60_000)));
        const ids = claims.flat().map((m) => m.id);
        expect(ids).toHaveLength(6);
        expect(new Set(ids).size).toBe(6);
      } finally {
        await store.close();
      }
    });

    it('marks a mail sent (never claimed again) or failed (claimed again when due)', async () => {
      const store = await make();
      try {
        const q = quote();
        await store.saveQuoteRequest(q, mailsFor(q.id, 2));
        const now = new Date(Date.now() + 1_000);
        const [a, b] = await store.claimDueMails(now, 2, 60_000);
        await store.markSent(a!.id, now);
        await store.markFailed(b!.id, new Date(now.getTime() + 5_000), 'mailbox busy');
        expect(await store.claimDueMails(new Date(now.getTime() + 4_999), 10, 60_000)).toEqual([]);
        const again = await store.claimDueMails(new Date(now.getTime() + 5_000), 10, 60_000);
        expect(again.map((m) => m.id)).toEqual([b!.id]);
        expect(again[0]).toMatchObject({ attempts: 2, lastError: 'mailbox busy' });
        const sent = (await store.listMails(q.id)).find((m) => m.id === a!.id)!;
        expect(sent.status).toBe('sent');
        expect(sent.sentAt?.getTime()).toBe(now.getTime());
        expect(await store.outboxCounts()).toEqual({ pending: 1, sent: 1 });
      } finally {
        await store.close();
      }
    });

    it('keeps an inbox of quotes and messages: newest first, filtered, searched, counted per status', async () => {
      const store = await make();
      try {
        const base = Date.parse('2026-03-01T10:00:00.000Z');
        const at = (h: number) => new Date(base + h * 3_600_000).toISOString();
        const q1 = quote({ createdAt: at(0), customerName: 'Ada Lovelace', customerEmail: 'ada@mine-co.example', productSku: '1R-0750', productName: 'Fuel Filter' });
        const q2 = quote({ createdAt: at(1), customerName: 'Bob Digger', customerEmail: 'bob@quarry.example', productSku: 'AT-33', productName: 'Bucket Tooth', message: 'urgent, machine down' });
        const c1 = { ...contact(), createdAt: at(2), subject: 'Opening hours' };
        await store.saveQuoteRequest(q1, []);
        await store.saveQuoteRequest(q2, []);
        await store.saveContactMessage(c1, []);

        const all = await store.listInbox({}, 0, 10);
        expect(all.items.map((i) => i.id)).toEqual([c1.id, q2.id, q1.id]);
        expect(all.total).toBe(3);
        expect(all.counts).toMatchObject({ pending: 3, in_progress: 0, quoted: 0 });
        expect(all.items[2]).toMatchObject({
          kind: 'quote', status: 'pending', emailDomain: 'mine-co.example', country: 'India', lineCount: 1, assignee: null, version: 0,
          firstLine: { productSku: '1R-0750', productName: 'Fuel Filter', quantity: 2 },
        });
        expect(all.items[0]).toMatchObject({ kind: 'contact', subject: 'Opening hours', firstLine: null, lineCount: 0 });
        expect((await store.listInbox({}, 1, 1)).items.map((i) => i.id)).toEqual([q2.id]);
        expect((await store.listInbox({ kind: 'contact' }, 0, 10)).items.map((i) => i.id)).toEqual([c1.id]);
        // search: part number (part of it), name, e-mail domain, message words; short and long terms together
        for (const [q, ids] of [
          ['1r-07', [q1.id]],
          ['LOVELACE', [q1.id]],
          ['lovel', [q1.id]],
          ['quarry', [q2.id]],
          ['machine down', [q2.id]],
          ['at bucket', [q2.id]],
          ['nothing-like-this', []],
        ] as const) {
          expect((await store.listInbox({ q }, 0, 10)).items.map((i) => i.id), q).toEqual(ids);
        }
        expect((await store.listInbox({ from: at(0.5), toExclusive: at(1.5) }, 0, 10)).items.map((i) => i.id)).toEqual([q2.id]);
        const full = await store.getInbox(q2.id);
        expect(full).toMatchObject({ message: 'urgent, machine down', lines: [{ productSku: 'AT-33', quantity: 2 }] });
        expect(await store.getInbox('nope')).toBeNull();
      } finally {
        await store.close();
      }
    });

    it('applies an inbox change only on the version it was read at, with its history and mails', async () => {
      const store = await make();
      try {
        const q = quote();
        await store.saveQuoteRequest(q, []);
        const at = new Date().toISOString();
        const ev = (type: 'status' | 'note', from: string | null, to: string | null, text: string | null) => ({ at, actor: 'ops@x.test', type, from, to, text, reply: null });
        const moved = await store.updateInbox(q.id, 0, {
          status: 'in_progress', assignee: 'ops@x.test', updatedAt: at,
          events: [ev('status', 'pending', 'in_progress', null), ev('note', null, null, 'called the buyer')],
          mails: mailsFor(q.id, 1),
        });
        expect(moved).toMatchObject({ status: 'in_progress', assignee: 'ops@x.test', version: 1 });
        expect(await store.getQuoteRequest(q.id)).toMatchObject({ status: 'in_progress' });
        // a second writer who read version 0 is refused, and changes nothing
        expect(await store.updateInbox(q.id, 0, { status: 'spam', updatedAt: at, events: [ev('status', 'pending', 'spam', null)], mails: [] })).toBe('conflict');
        expect(await store.updateInbox('nope', 0, { updatedAt: at, events: [], mails: [] })).toBeNull();
        expect(await store.getInbox(q.id)).toMatchObject({ status: 'in_progress', version: 1 });
        const history = await store.inboxHistory(q.id);
        expect(history.map((h) => [h.type, h.to, h.text])).toEqual([['status', 'in_progress', null], ['note', null, 'called the buyer']]);
        expect((await store.listMails(q.id)).map((m) => m.id)).toEqual([`mail-${q.id}-0`]);
        const counts = (await store.listInbox({}, 0, 5)).counts;
        expect(counts).toMatchObject({ pending: 0, in_progress: 1 });
        expect((await store.listInbox({ assignee: 'ops@x.test' }, 0, 5)).total).toBe(1);
        expect((await store.listInbox({ assignee: null }, 0, 5)).total).toBe(0);
        expect((await store.listInbox({ kind: 'contact', assignee: 'ops@x.test' }, 0, 5)).total).toBe(0);
        // first reply time is kept from the first reply on
        const replied = await store.updateInbox(q.id, 1, { status: 'quoted', firstReplyAt: at, updatedAt: at, events: [], mails: [] });
        expect(replied).toMatchObject({ status: 'quoted', firstReplyAt: at, version: 2 });
        expect((await store.listInbox({ kind: 'quote', assignee: 'ops@x.test' }, 0, 5)).counts).toMatchObject({ in_progress: 0, quoted: 1 });
        expect((await store.listInbox({}, 0, 5)).counts).toMatchObject({ pending: 0, in_progress: 0, quoted: 1 });
        const later = new Date(Date.now() + 60_000).toISOString();
        expect(await store.updateInbox(q.id, 2, { firstReplyAt: later, updatedAt: later, events: [], mails: [] })).toMatchObject({ firstReplyAt: at });
      } finally {
        await store.close();
      }
    });

    it("keeps buyers' quote links by hash, revokes them, numbers orders per year and stores one order per request", async () => {
      const store = await make();
      try {
        const q = quote();
        await store.saveQuoteRequest(q, []);
        const at = new Date().toISOString();
        await store.saveQuoteLink({ tokenHash: `h-${q.id}-1`, quoteId: q.id, createdAt: at, revokedAt: null });
        await store.saveQuoteLink({ tokenHash: `h-${q.id}-2`, quoteId: q.id, createdAt: at, revokedAt: null });
        expect(await store.findQuoteLink(`h-${q.id}-1`)).toEqual({ tokenHash: `h-${q.id}-1`, quoteId: q.id, createdAt: at, revokedAt: null });
        expect(await store.findQuoteLink('no-such-hash')).toBeNull();
        expect(await store.revokeQuoteLinks(q.id, at)).toBe(2);
        expect(await store.revokeQuoteLinks(q.id, at)).toBe(0);
        expect((await store.findQuoteLink(`h-${q.id}-2`))?.revokedAt).toBe(at);

        const year = `${2100 + (seq % 800)}`;
        const numbers = await Promise.all([1, 2, 3].map(() => store.nextOrderNumber(year)));
        expect(numbers.sort()).toEqual([`${year}-00001`, `${year}-00002`, `${year}-00003`]);
        // The first order carries the buyer's PO document (its key in the documents store), the refused second none.
        const order = (n: string, id: string) => ({
          id, number: n, quoteId: q.id, quoteVersion: 1, status: 'confirmed' as const, poNumber: 'PO-1',
          poDocument: id.endsWith('-1') ? { key: `po/${q.id}/${id}.pdf`, name: 'PO 1 (signed).pdf', size: 48_213 } : null,
          delivery: { company: 'Co', address: '1 Road', contactName: 'Ada', contactPhone: '' }, note: '',
          lines: [{ productId: 'p-1', productSku: 'SKU-1', productName: 'Filter', quantity: 2, unitPrice: 3.5, currency: 'USD', leadTime: null }],
          customerName: 'Ada', customerEmail: 'ada@example.com', shipment: null, cancelReason: null, createdAt: at, updatedAt: at, version: 0,
        });
        expect(await store.getOrderByQuote(q.id)).toBeNull();
        const won = await store.updateInbox(q.id, 0, { status: 'won', updatedAt: at, events: [], mails: [], order: order(numbers[0]!, `o-${q.id}-1`) });
        expect(won).toMatchObject({ status: 'won', version: 1 });
        expect(await store.getOrderByQuote(q.id)).toEqual(order(numbers[0]!, `o-${q.id}-1`));
        // A second order for the request, even at its current version, is refused and changes nothing.
        expect(await store.updateInbox(q.id, 1, { status: 'closed', updatedAt: at, events: [], mails: [], order: order(numbers[1]!, `o-${q.id}-2`) })).toBe('conflict');
        expect(await store.getInbox(q.id)).toMatchObject({ status: 'won', version: 1 });
        expect((await store.getOrderByQuote(q.id))?.number).toBe(numbers[0]);

        // Staff's list, search and changes, with the request's history and the buyer's mail.
        const page = await store.listOrders({ q: 'po-1 sku-1' }, 0, 10);
        expect(page.items.map((o) => o.id)).toEqual([`o-${q.id}-1`]);
        expect(page.counts).toMatchObject({ confirmed: 1, shipped: 0 });
        expect((await store.listOrders({ status: 'shipped' }, 0, 10)).total).toBe(0);
        expect((await store.listOrders({ from: new Date(Date.now() + 60_000).toISOString() }, 0, 10)).total).toBe(0);
        const shipped = await store.updateOrder(`o-${q.id}-1`, 0, {
          status: 'shipped', shipment: { carrier: 'DHL', trackingNumber: 'T1' }, updatedAt: at,
          events: [{ at, actor: 'ops@x.test', type: 'order', from: 'confirmed', to: 'shipped', text: 'DHL T1', reply: null }],
          mails: mailsFor(q.id, 1),
        });
        expect(shipped).toMatchObject({ status: 'shipped', shipment: { carrier: 'DHL', trackingNumber: 'T1' }, version: 1 });
        expect(await store.updateOrder(`o-${q.id}-1`, 0, { status: 'cancelled', cancelReason: 'x', updatedAt: at, events: [], mails: [] })).toBe('conflict');
        expect(await store.updateOrder('no-such-order', 0, { status: 'cancelled', updatedAt: at, events: [], mails: [] })).toBeNull();
        expect(await store.getOrder(`o-${q.id}-1`)).toMatchObject({ status: 'shipped', version: 1 });
        expect((await store.inboxHistory(q.id)).map((h) => [h.type, h.to, h.text])).toEqual([['order', 'shipped', 'DHL T1']]);
        expect((await store.listMails(q.id)).map((m) => m.id)).toEqual([`mail-${q.id}-0`]);
      } finally {
        await store.close();
      }
    });

    it("lists a buyer company's requests and orders by address in any case, newest first, and takes a person out of them", async () => {
      const store = await make();
      try {
        const t0 = Date.now();
        const at = (min: number) => new Date(t0 + min * 60_000).toISOString();
        const emails = ['ada@quarry.example', 'bo@quarry.example'];
        const [a1, b1, a2] = [quote({ customerEmail: 'Ada@Quarry.example', createdAt: at(1) }), quote({ customerEmail: 'bo@quarry.example', createdAt: at(2) }), quote({ customerEmail: 'ada@quarry.example', createdAt: at(3) })];
        const [theirs, spam] = [quote({ customerEmail: 'eve@else.example', createdAt: at(4) }), quote({ customerEmail: 'bo@quarry.example', createdAt: at(5) })];
        const buyerMail = (q: QuoteRequest, n: string, to: string): OutboxMail => ({ id: `m-${q.id}-${n}`, refId: q.id, message: { to, subject: `Your quote, Ada (${n})`, text: 'Hello Ada, +44 20 7946', messageId: `<m-${q.id}-${n}@x>` } });
        await store.saveQuoteRequest(a1, [buyerMail(a1, 'buyer', a1.customerEmail), buyerMail(a1, 'seller', 'sales@seller.example')]);
        for (const q of [b1, a2, theirs, spam]) await store.saveQuoteRequest(q, []);
        await store.updateInbox(spam.id, 0, { status: 'spam', updatedAt: at(6), events: [], mails: [] });
        // a1 priced (the reply to its address as typed) and ordered; its mails sent, but one queued since.
        const line = { productSku: 'SKU-1', productName: 'Filter', quantity: 2, unitPrice: 3.5, currency: 'USD', leadTime: null };
        await store.updateInbox(a1.id, 0, { status: 'quoted', updatedAt: at(7), events: [{ at: at(7), actor: 'ops@x.test', type: 'reply', from: null, to: a1.customerEmail, text: 'Our prices', reply: { lines: [line], validUntil: null } }], mails: [] });
        const order = {
          id: `o-${a1.id}`, number: await store.nextOrderNumber('2099'), quoteId: a1.id, quoteVersion: 1, status: 'confirmed' as const, poNumber: 'PO-9', poDocument: null,
          delivery: { company: 'Quarry Co', address: '1 Pit Road', contactName: 'Ada', contactPhone: '+44 1' }, note: 'Ring Ada', lines: [{ ...line, productId: 'p-1' }],
          customerName: 'Ada', customerEmail: 'ADA@quarry.example', shipment: null, cancelReason: null, createdAt: at(8), updatedAt: at(8), version: 0,
        };
        const buyerEvent = { at: at(8), actor: 'buyer', type: 'buyer' as const, from: null, to: null, text: 'Ring Ada at the gate', reply: null, buyer: { action: 'accept' as const, version: 1, orderNumber: order.number, poNumber: 'PO-9' } };
        await store.updateInbox(a1.id, 1, { status: 'won', updatedAt: at(8), events: [buyerEvent], mails: [], order });
        await store.saveQuoteLink({ tokenHash: `h-${a1.id}`, quoteId: a1.id, createdAt: at(7), revokedAt: null });
        for (const m of await store.claimDueMails(new Date(t0 + 3_600_000), 10, 60_000)) await store.markSent(m.id, new Date());
        await store.enqueueMails([buyerMail(a1, 'later', a1.customerEmail)]);

        const page = await store.listBuyerQuotes(emails, undefined, 0, 2);
        expect([page.items.map((i) => i.record.id), page.total]).toEqual([[a2.id, b1.id], 3]);
        const last = await store.listBuyerQuotes(emails, undefined, 2, 2);
        expect(last.items.map((i) => [i.record.id, i.history.map((h) => h.type), i.order?.number ?? null])).toEqual([[a1.id, ['reply', 'buyer'], order.number]]);
        expect((await store.listBuyerQuotes(emails, 'won', 0, 10)).items.map((i) => i.record.id)).toEqual([a1.id]);
        expect((await store.listBuyerQuotes(emails, 'spam', 0, 10)).items.map((i) => i.record.id)).toEqual([spam.id]); // the route never asks
        expect(await store.listBuyerQuotes([], undefined, 0, 10)).toEqual({ items: [], total: 0 });
        expect((await store.listBuyerOrders(emails, 0, 10)).items.map((o) => o.id)).toEqual([order.id]);
        expect((await store.listBuyerOrders(['eve@else.example'], 0, 10)).total).toBe(0);

        const who = { name: 'Deleted buyer', email: 'deleted-1@deleted.invalid' };
        expect(await store.anonymiseBuyer('ada@quarry.example', who, at(9))).toEqual({ requests: 2, orders: 1 });
        expect((await store.listBuyerQuotes(emails, undefined, 0, 10)).items.map((i) => i.record.id)).toEqual([b1.id]);
        expect((await store.listBuyerOrders(emails, 0, 10)).total).toBe(0);
        expect(await store.getInbox(a1.id)).toMatchObject({ customerName: who.name, customerEmail: who.email, emailDomain: 'deleted.invalid', customerPhone: '', message: '', country: 'India', status: 'won', version: 3, updatedAt: at(9), lineCount: 1 });
        expect(await store.getQuoteRequest(a1.id)).toMatchObject({ customerName: who.name, customerEmail: who.email, customerPhone: '', message: '' });
        const history = await store.inboxHistory(a1.id);
        expect(history.map((h) => [h.type, h.actor, h.to, h.text])).toEqual([
          ['reply', 'ops@x.test', who.email, 'Our prices'],
          ['buyer', 'buyer', null, ''],
          ['note', 'system', null, expect.stringContaining('deleted their account')],
        ]);
        expect(history[1]!.buyer).toMatchObject({ poNumber: 'PO-9' });
        expect(await store.getOrder(order.id)).toMatchObject({
          customerName: who.name, customerEmail: who.email, note: '', poNumber: 'PO-9', number: order.number, version: 1,
          delivery: { company: 'Quarry Co', address: '1 Pit Road', contactName: '', contactPhone: '' }, lines: order.lines,
        });
        expect((await store.listOrders({ q: 'ada' }, 0, 10)).total).toBe(0);
        expect((await store.findQuoteLink(`h-${a1.id}`))?.revokedAt).toBe(at(9));
        // The sent mails' copies keep their ids and say nothing of the person; the one still queued goes as it is.
        const mails = Object.fromEntries((await store.listMails(a1.id)).map((m) => [m.id.split('-').at(-1), m]));
        expect(mails.buyer!.message).toEqual({ to: who.email, subject: '(removed: the buyer deleted their account)', text: '', messageId: `<m-${a1.id}-buyer@x>` });
        expect(mails.seller!.message).toMatchObject({ to: 'sales@seller.example', text: '' });
        expect(mails.later!.message.to).toBe(a1.customerEmail);
        expect(await store.anonymiseBuyer('ada@quarry.example', who, at(10))).toEqual({ requests: 0, orders: 0 });
      } finally {
        await store.close();
      }
    });

    it('queues webhook deliveries with a change, one per endpoint that wants the event, and claims each attempt once', async () => {
      const store = await make();
      try {
        const q = quote();
        await store.saveQuoteRequest(q, []);
        const at = new Date().toISOString();
        const endpoint = (id: string, events: ('quote.replied' | 'quote.accepted')[]) => ({ id, url: `https://erp.example/${id}`, events, description: '', secret: `whsec_${id}`, createdAt: at });
        await store.saveWebhookEndpoint(endpoint(`a-${q.id}`, ['quote.replied']));
        await store.saveWebhookEndpoint(endpoint(`b-${q.id}`, ['quote.accepted']));
        expect((await store.listWebhookEndpoints()).map((e) => e.id)).toEqual(expect.arrayContaining([`a-${q.id}`, `b-${q.id}`]));
        const emit = { id: `ev-${q.id}`, event: 'quote.replied' as const, body: '{"x":1}' };
        await store.updateInbox(q.id, 0, { status: 'quoted', updatedAt: at, events: [], mails: [], webhooks: [emit] });
        const deliveries = await store.listWebhookDeliveries(10, `a-${q.id}`);
        expect(deliveries.map((d) => [d.id, d.event, d.status, d.attempts])).toEqual([[`ev-${q.id}:a-${q.id}`, 'quote.replied', 'pending', 0]]);
        expect(await store.listWebhookDeliveries(10, `b-${q.id}`)).toEqual([]);

        const now = new Date(Date.now() + 1_000);
        const claims = await Promise.all([store.claimDueDeliveries(now, 10, 60_000), store.claimDueDeliveries(now, 10, 60_000)]);
        const mine = claims.flat().filter((c) => c.id === `ev-${q.id}:a-${q.id}`);
        expect(mine).toHaveLength(1);
        expect(mine[0]).toMatchObject({ attempts: 1, url: `https://erp.example/a-${q.id}`, secret: `whsec_a-${q.id}`, body: '{"x":1}' });
        await store.markDelivery(mine[0]!.id, { status: 'pending', at: now, nextAttemptAt: new Date(now.getTime() + 5_000), responseStatus: 500, response: 'down', error: 'answered 500' });
        expect((await store.claimDueDeliveries(now, 10, 60_000)).filter((c) => c.id === mine[0]!.id)).toEqual([]);
        const later = new Date(now.getTime() + 6_000);
        const retry = (await store.claimDueDeliveries(later, 10, 60_000)).filter((c) => c.id === mine[0]!.id);
        expect(retry.map((c) => c.attempts)).toEqual([2]);
        await store.markDelivery(mine[0]!.id, { status: 'delivered', at: later, nextAttemptAt: null, responseStatus: 200, response: 'ok', error: null });
        expect((await store.listWebhookDeliveries(10, `a-${q.id}`))[0]).toMatchObject({ status: 'delivered', attempts: 2, responseStatus: 200, response: 'ok', nextAttemptAt: null });

        // A removed endpoint's waiting deliveries are given up.
        await store.updateInbox(q.id, 1, { updatedAt: at, events: [], mails: [], webhooks: [{ ...emit, id: `ev2-${q.id}` }] });
        expect(await store.deleteWebhookEndpoint(`a-${q.id}`, new Date())).toBe(true);
        expect(await store.deleteWebhookEndpoint(`a-${q.id}`, new Date())).toBe(false);
        expect((await store.listWebhookDeliveries(10, `a-${q.id}`))[0]).toMatchObject({ id: `ev2-${q.id}:a-${q.id}`, status: 'failed' });
        expect((await store.listWebhookEndpoints()).map((e) => e.id)).not.toContain(`a-${q.id}`);
      } finally {
        await store.close();
      }
    });

    it('exports every entry under a filter, newest first, and counts the numbers staff watch', async () => {
      const store = await make();
      try {
        const now = Date.now();
        const ids: string[] = [];
        for (let i = 0; i < 23; i++) {
          const q = quote({ createdAt: new Date(now - i * 60_000).toISOString(), productId: i % 3 ? 'p-a' : 'p-b', productSku: i % 3 ? 'A-1' : 'B-2' });
          ids.push(q.id);
          await store.saveQuoteRequest(q, []);
        }
        const seen: string[] = [];
        for await (const r of store.exportInbox({ kind: 'quote' }, 5)) seen.push(r.id); // five batches, the last short
        expect(seen).toEqual(ids);
        const at = new Date(now).toISOString();
        await store.updateInbox(ids[0]!, 0, { status: 'quoted', firstReplyAt: new Date(now + 2 * 3_600_000).toISOString(), updatedAt: at, events: [], mails: [] });
        await store.updateInbox(ids[0]!, 1, { status: 'won', updatedAt: at, events: [], mails: [] });
        await store.updateInbox(ids[1]!, 0, { status: 'quoted', updatedAt: at, events: [], mails: [] });
        await store.updateInbox(ids[1]!, 1, { status: 'lost', updatedAt: at, events: [], mails: [] });
        await store.updateInbox(ids[2]!, 0, { status: 'quoted', updatedAt: at, events: [], mails: [] });
        await store.updateInbox(ids[2]!, 1, { status: 'lost', updatedAt: at, events: [], mails: [] });
        const stats = await store.inboxStats(new Date(now + 1_000));
        expect(stats.requestsThisWeek).toBe(23);
        expect(stats.medianHoursToFirstReply).toBe(2);
        expect(stats.shareWon).toBeCloseTo(1 / 3, 3);
        expect(stats.topParts.map((p) => [p.productId, p.productSku, p.requests])).toEqual([['p-a', 'A-1', 15], ['p-b', 'B-2', 8]]);
      } finally {
        await store.close();
      }
    });
  });
}
