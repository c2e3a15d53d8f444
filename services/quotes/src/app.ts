import { randomUUID } from 'node:crypto';
import type { Express, Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import {
  ContactInputSchema,
  QUOTE_STATUS_PENDING,
  QuoteRequestInputSchema,
  type ContactMessage,
  type ContactResponse,
  type QuoteRequest,
  type QuoteRequestResponse,
} from '@forgeline/contracts/quotes';
import { HttpError, parseInput } from '@forgeline/service-kit/errors';
import { createServiceApp, finishApp, route } from '@forgeline/service-kit/http';
import type { Logger } from '@forgeline/service-kit/logger';
import type { CaptchaSigner } from './domain/captcha.ts';
import { contactMails, quoteMails, type MailSettings } from './domain/mails.ts';
import { CatalogUnavailableError, type ProductCatalog, type QuoteStore } from './ports.ts';

export interface RateLimits {
  windowMs: number;
  quote: number;
  contact: number;
  captcha: number;
}

export interface QuotesDeps {
  logger: Logger;
  store: QuoteStore;
  catalog: ProductCatalog;
  captcha: CaptchaSigner;
  mail: MailSettings;
  /** Told when new mail is in the outbox (the Outbox's kick). */
  outbox: { kick(): void };
  rateLimits: RateLimits;
  /** JSON body limit; bigger bodies get 413. */
  bodyLimit?: string;
}

export const QUOTE_RECEIVED = 'Quote request received. We will reply within 24 hours.';
export const CONTACT_RECEIVED = "Thank you for contacting us. We'll get back to you soon!";
const CATALOG_DOWN = 'We cannot check the product right now. Please try again in a minute, or contact us via WhatsApp.';

const requestId = (req: Request) => (req as { id?: string }).id;

/** Per client address (the gateway passes it in X-Forwarded-For; the service trusts loopback and private proxies). */
function limiter(limit: number, windowMs: number, what: string): RequestHandler {
  const minutes = Math.max(1, Math.round(windowMs / 60_000));
  return rateLimit({
    windowMs,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (req, res) => {
      req.log?.warn({ ip: req.ip, what }, 'rate limit reached');
      res.status(429).json({
        message: `Too many ${what} from your address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or contact us via WhatsApp.`,
        requestId: requestId(req),
      });
    },
  });
}

export function createApp(deps: QuotesDeps): Express {
  const { store, logger } = deps;
  const app = createServiceApp({
    name: 'quotes',
    logger,
    jsonLimit: deps.bodyLimit ?? '16kb',
    ready: () => store.ping(),
  });
  const rl = deps.rateLimits;

  app.post(
    '/api/quote-requests',
    limiter(rl.quote, rl.windowMs, 'quote requests'),
    route(async (req, res) => {
      const input = parseInput(QuoteRequestInputSchema, req.body, 'body');
      if (input.website) {
        // The honeypot is filled: a bot. It sees what a person sees; nothing is stored or sent.
        req.log.warn({ ip: req.ip }, 'honeypot filled: quote request dropped');
        res.status(201).json({ success: true, id: randomUUID(), status: QUOTE_STATUS_PENDING, message: QUOTE_RECEIVED } satisfies QuoteRequestResponse);
        return;
      }
      if (input.captchaToken) {
        const check = await deps.captcha.check(input.captchaToken, input.captchaAnswer ?? Number.NaN, (id, exp) => store.useCaptchaToken(id, exp));
        if (!check.ok) {
          req.log.warn({ reason: check.reason }, 'quote request captcha refused');
          throw new HttpError(400, check.message, [{ path: 'captchaAnswer', message: check.reason }]);
        }
      }
      let product;
      try {
        product = await deps.catalog.find(input.productId, requestId(req));
      } catch (err) {
        if (err instanceof CatalogUnavailableError) {
          req.log.error({ err: err.message, productId: input.productId }, 'catalog unavailable: quote request refused, nothing stored');
          throw new HttpError(503, CATALOG_DOWN);
        }
        throw err;
      }
      if (!product) {
        throw new HttpError(400, `Unknown product: no product has the id "${input.productId}".`, [
          { path: 'productId', message: 'no such product' },
        ]);
      }
      const quote: QuoteRequest = {
        id: randomUUID(),
        productId: product.id,
        productName: product.name,
        productSku: product.sku,
        customerName: input.customerName,
        customerEmail: input.customerEmail,
        customerPhone: input.customerPhone,
        customerCountry: input.customerCountry,
        quantity: input.quantity,
        message: input.message,
        status: QUOTE_STATUS_PENDING,
        createdAt: new Date().toISOString(),
      };
      await store.saveQuoteRequest(quote, quoteMails(quote, deps.mail));
      deps.outbox.kick();
      req.log.info({ quoteId: quote.id, productId: quote.productId, quantity: quote.quantity }, 'quote request stored');
      res.status(201).json({ success: true, id: quote.id, status: quote.status, message: QUOTE_RECEIVED } satisfies QuoteRequestResponse);
    }),
  );

  app.get('/api/captcha', limiter(rl.captcha, rl.windowMs, 'security checks'), (_req, res) => {
    res.setHeader('cache-control', 'no-store');
    res.json(deps.captcha.issue());
  });

  app.post(
    '/api/contact',
    limiter(rl.contact, rl.windowMs, 'messages'),
    route(async (req, res) => {
      const input = parseInput(ContactInputSchema, req.body, 'body');
      if (input.website) {
        req.log.warn({ ip: req.ip }, 'honeypot filled: contact message dropped');
        res.json({ success: true, message: CONTACT_RECEIVED } satisfies ContactResponse);
        return;
      }
      const check = await deps.captcha.check(input.captchaToken, input.captchaAnswer, (id, exp) => store.useCaptchaToken(id, exp));
      if (!check.ok) {
        req.log.warn({ reason: check.reason }, 'contact captcha refused');
        throw new HttpError(400, check.message, [{ path: 'captchaAnswer', message: check.reason }]);
      }
      const contact: ContactMessage = {
        id: randomUUID(),
        name: input.name,
        email: input.email,
        countryCode: input.countryCode,
        phone: input.phone,
        subject: input.subject,
        message: input.message,
        createdAt: new Date().toISOString(),
      };
      await store.saveContactMessage(contact, contactMails(contact, deps.mail));
      deps.outbox.kick();
      req.log.info({ contactId: contact.id }, 'contact message stored');
      res.json({ success: true, message: CONTACT_RECEIVED } satisfies ContactResponse);
    }),
  );

  return finishApp(app, logger);
}
