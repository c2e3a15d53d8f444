import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { z } from 'zod';
import { route } from '@forgeline/service-kit/http';
import { HttpError, parseInput } from '@forgeline/service-kit/errors';
import { buyerOf, requireBuyerAssertion } from '@forgeline/service-kit/buyer-assertion';
import type { BuyerActor } from '@forgeline/contracts/account';
import {
  AnonymiseBuyersRequestSchema,
  BuyerHistoryQuerySchema,
  ExportBuyerRequestSchema,
  type AnonymiseBuyersResponseSchema,
  type BuyerExport,
  type BuyerOrderList,
  type BuyerQuoteList,
} from '@forgeline/contracts/buyer-history';
import type { QuoteStore } from '../ports.ts';
import { anonymousBuyer, buyerOrder, buyerQuote, buyerQuoteDetail } from '../domain/company-history.ts';
import { hashQuoteToken, newQuoteToken, quoteVersions, quoteViewUrl, type QuoteViewSettings } from '../domain/quote-view.ts';

/** The most requests (and orders) one export holds: years of a busy buyer's. */
const EXPORT_MAX = 10_000;
const IdParams = z.object({ id: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters') });
const pages = (total: number, page: number, limit: number) => ({ page, limit, total, totalPages: Math.max(1, Math.ceil(total / limit)) });
/** The company's addresses as stored keys are compared: lower-case (the assertion's are taken as they come). */
const members = (buyer: BuyerActor) => [...new Set(buyer.memberEmails.map((e) => e.trim().toLowerCase()))];
const belongs = (buyer: BuyerActor, email: string) => members(buyer).includes(email.toLowerCase());

/**
 * A signed-in buyer's own quote requests and orders (issue 35), behind the gateway's buyer assertion: those of the
 * company's members' addresses only. Anything else, another company's included, is "not found": never data, and never
 * a 403 that says it exists.
 */
export function addBuyerHistoryRoutes(app: Express, deps: { store: QuoteStore; serviceToken: string; quoteView: QuoteViewSettings }) {
  const { store } = deps;
  app.use('/api/account', requireBuyerAssertion(deps.serviceToken));

  async function ownRequest(buyer: BuyerActor, id: string) {
    const r = await store.getInbox(id);
    if (!r || r.kind !== 'quote' || r.status === 'spam' || !belongs(buyer, r.customerEmail)) throw new HttpError(404, 'Quote request not found');
    return r;
  }

  app.get(
    '/api/account/quotes',
    route(async (req, res) => {
      const buyer = buyerOf(res);
      const q = parseInput(BuyerHistoryQuerySchema, req.query, 'query');
      const page = await store.listBuyerQuotes(members(buyer), q.status, (q.page - 1) * q.limit, q.limit);
      const items = page.items.map((q) => buyerQuote(q.record, q.history, q.order, deps.quoteView));
      res.setHeader('cache-control', 'no-store');
      res.json({ items, pagination: pages(page.total, q.page, q.limit) } satisfies BuyerQuoteList);
    }),
  );

  app.get(
    '/api/account/quotes/:id',
    route(async (req, res) => {
      const r = await ownRequest(buyerOf(res), parseInput(IdParams, req.params, 'params').id);
      const [history, order] = await Promise.all([store.inboxHistory(r.id), store.getOrderByQuote(r.id)]);
      res.setHeader('cache-control', 'no-store');
      res.json(buyerQuoteDetail(r, history, order, deps.quoteView));
    }),
  );

  // A fresh link to the request's quote page, as a reply mails one (only its hash is kept).
  app.post(
    '/api/account/quotes/:id/view-link',
    route(async (req, res) => {
      const r = await ownRequest(buyerOf(res), parseInput(IdParams, req.params, 'params').id);
      if (!quoteVersions(await store.inboxHistory(r.id), deps.quoteView).length) throw new HttpError(409, 'This request has no quote yet: its page opens once the seller has replied with prices');
      const token = newQuoteToken();
      await store.saveQuoteLink({ tokenHash: hashQuoteToken(token), quoteId: r.id, createdAt: new Date().toISOString(), revokedAt: null });
      res.setHeader('cache-control', 'no-store');
      res.json({ url: quoteViewUrl(deps.quoteView, token) });
    }),
  );

  app.get(
    '/api/account/orders',
    route(async (req, res) => {
      const buyer = buyerOf(res);
      const q = parseInput(BuyerHistoryQuerySchema.omit({ status: true }), req.query, 'query');
      const page = await store.listBuyerOrders(members(buyer), (q.page - 1) * q.limit, q.limit);
      res.setHeader('cache-control', 'no-store');
      res.json({ items: page.items.map((o) => buyerOrder(o, false)), pagination: pages(page.total, q.page, q.limit) } satisfies BuyerOrderList);
    }),
  );

  app.get(
    '/api/account/orders/:id',
    route(async (req, res) => {
      const buyer = buyerOf(res);
      const o = await store.getOrder(parseInput(IdParams, req.params, 'params').id);
      if (!o || !belongs(buyer, o.customerEmail)) throw new HttpError(404, 'Order not found');
      res.setHeader('cache-control', 'no-store');
      res.json(buyerOrder(o, true));
    }),
  );

  // A buyer's own requests and orders (their address only), for the data download the gateway puts together.
  app.post(
    '/internal/buyers/export',
    route(async (req, res) => {
      const email = parseInput(ExportBuyerRequestSchema, req.body, 'body').email.toLowerCase();
      const [quotes, orders] = await Promise.all([store.listBuyerQuotes([email], undefined, 0, EXPORT_MAX), store.listBuyerOrders([email], 0, EXPORT_MAX)]);
      const out: BuyerExport = {
        quoteRequests: quotes.items.map((q) => ({
          ...buyerQuoteDetail(q.record, q.history, q.order, deps.quoteView),
          customerName: q.record.customerName,
          customerPhone: q.record.customerPhone,
          country: q.record.country,
          message: q.record.message,
        })),
        orders: orders.items.map((o) => buyerOrder(o, true)),
      };
      res.json(out);
    }),
  );

  // The gateway's step before a buyer's account or company is deleted: the people out of the records, which stay.
  app.post(
    '/internal/buyers/anonymise',
    route(async (req, res) => {
      const { emails } = parseInput(AnonymiseBuyersRequestSchema, req.body, 'body');
      const done = { requests: 0, orders: 0 };
      const at = new Date().toISOString();
      for (const email of new Set(emails.map((e) => e.trim().toLowerCase()))) {
        const n = await store.anonymiseBuyer(email, anonymousBuyer(randomUUID().slice(0, 12)), at);
        done.requests += n.requests;
        done.orders += n.orders;
      }
      req.log.info({ addresses: emails.length, ...done }, 'buyer records anonymised');
      res.json(done satisfies z.infer<typeof AnonymiseBuyersResponseSchema>);
    }),
  );
}
