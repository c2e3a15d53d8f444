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
        expect(await store.countQuoteRequests()).toBe(1);
        const mails = await store.listMails(q.id);
        expect(mails.map((m) => m.id)).toEqual([`mail-${q.id}-0`, `mail-${q.id}-1`]);
        expect(mails[0]).toMatchObject({ status: 'pending', attempts: 0, lastError: null, sentAt: null });
        expect(mails[0]!.message).toEqual(mailsFor(q.id)[0]!.message);
        expect(await store.outboxCounts()).toEqual({ pending: 2, sent: 0 });
        expect(await store.getQuoteRequest('nope')).toBeNull();
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

    it('accepts a captcha token once: a replay, even a simultaneous one, is refused', async () => {
      const store = await make();
      try {
        const exp = new Date(Date.now() + 60_000);
        expect(await store.useCaptchaToken('t1', exp)).toBe(true);
        expect(await store.useCaptchaToken('t1', exp)).toBe(false);
        const results = await Promise.all(Array.from({ length: 5 }, () => store.useCaptchaToken('t2', exp)));
        expect(results.filter(Boolean)).toHaveLength(1);
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
  });
}
