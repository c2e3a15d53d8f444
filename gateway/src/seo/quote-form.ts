/**
 * The quote request without JavaScript. A product page's "Get Instant Quote" is a link to `?quote=1`: the app opens
 * its dialog there, and a browser without JavaScript shows the page's <noscript> form
 * (web/src/features/quotes/components/quote-request-form.tsx), which posts here. This sends the same request the
 * dialog sends (POST /api/quote-requests on the quotes service, with the visitor's address for its rate limits),
 * plus the quotes service's own security check, since nothing in the browser checks the sum. Then:
 *  - accepted: 303 to the product page's confirmation (`?quote=sent#quote`);
 *  - refused (a field, the security check) or failed (quotes down): the product page again, with what the visitor
 *    typed, what was wrong and a new security check, so nothing is lost.
 */
import express, { type Express, type Request, type Response } from 'express';
import { REQUEST_ID_HEADER } from '@forgeline/contracts/common';
import { CaptchaSchema, type Captcha } from '@forgeline/contracts/quotes';
import { productPath } from '@forgeline/contracts/slug';
import type { QuoteFormState } from '@forgeline/contracts/ssr';
import { clientAddress } from '@forgeline/service-kit/client-address';
import type { Logger } from '@forgeline/service-kit/logger';
import type { CatalogReader } from './catalog-reader.ts';
import type { Response as UpstreamResponse } from 'undici';
import type { ReplicaPool } from '../replica-pool.ts';

export const QUOTE_FORM_PATH = '/quote-request';

/** The form's fields (QuoteRequestInputSchema's, with the captcha): anything else posted is ignored. */
const FIELDS = ['productId', 'customerName', 'customerEmail', 'customerPhone', 'customerCountry', 'quantity', 'message', 'website', 'captchaAnswer', 'captchaToken'] as const;
/** What goes back into the form after a refusal (not the used security check). */
const KEPT = ['customerName', 'customerEmail', 'customerPhone', 'customerCountry', 'quantity', 'message'] as const;
const UNAVAILABLE = 'We could not send your request just now. Nothing was lost: please try again in a minute, or ask on WhatsApp.';

export interface QuoteFormOptions {
  /** The quotes service's replicas; absent: the form says it cannot send. */
  quotes?: ReplicaPool;
  catalog: CatalogReader;
  logger: Logger;
  renderDocument: (req: Request, url: URL, quote?: QuoteFormState) => Promise<{ status: number; html: string } | null>;
  timeoutMs?: number;
}

/** Headers for a call made on the visitor's behalf: their address (the quotes service trusts this proxy) and request id. */
export function onBehalfOf(req: Request): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const ip = clientAddress(req);
  if (ip) headers['x-forwarded-for'] = ip;
  const rid = (req as { id?: string }).id;
  if (rid) headers[REQUEST_ID_HEADER] = rid;
  return headers;
}

/** Spec section 5: a blank or invalid quantity is 1, as in the quote dialog. */
function quantityOf(text: string): number {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) && n >= 1 ? n : 1;
}

const LABELS: Record<string, string> = {
  customerName: 'Full name',
  customerEmail: 'Business e-mail',
  customerPhone: 'Phone number',
  customerCountry: 'Country',
  quantity: 'Quantity',
  message: 'Message',
};

/** "Full name is required." from the contract's "is required"; messages that are sentences already stay as they are. */
function sentence(field: string, message: string): string {
  if (/^[A-Z]/.test(message)) return message.endsWith('.') ? message : `${message}.`;
  return `${LABELS[field] ?? 'This field'} ${message}.`;
}

export function createQuoteForm(o: QuoteFormOptions) {
  const timeoutMs = o.timeoutMs ?? 3000;

  /** A new security check for the form; null when the quotes service cannot give one (the form says so). */
  async function captcha(req: Request): Promise<Captcha | null> {
    if (!o.quotes) return null;
    try {
      const res = await o.quotes.fetch('/api/captcha', { headers: onBehalfOf(req), signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) {
        await res.body?.cancel();
        o.logger.warn({ status: res.status }, 'quote form: no security check from the quotes service');
        return null;
      }
      return CaptchaSchema.parse(await res.json());
    } catch (err) {
      o.logger.warn({ err: (err as Error).message }, 'quote form: quotes service unreachable for the security check');
      return null;
    }
  }

  async function submit(req: Request, res: Response) {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const form = Object.fromEntries(FIELDS.map((f) => [f, typeof body[f] === 'string' ? (body[f] as string) : ''])) as Record<(typeof FIELDS)[number], string>;
    const rid = (req as { id?: string }).id;
    let product;
    try {
      product = form.productId ? await o.catalog.product(form.productId, rid) : undefined;
    } catch {
      product = undefined;
    }
    if (!product) {
      res.status(404).type('text/plain').send('No such product: the quote form names a product that does not exist.');
      return;
    }
    const pagePath = productPath(product);

    /** The product page again, the form filled with what was sent and the reasons it was refused. */
    const again = async (status: number, errors: QuoteFormState['errors']) => {
      const values = Object.fromEntries(KEPT.map((k) => [k, form[k]]));
      const doc = await o.renderDocument(req, new URL(`${pagePath}?quote=1`, 'http://page.local'), { captcha: await captcha(req), values, errors });
      res.status(status).type('html').setHeader('cache-control', 'no-store');
      res.send(doc?.html ?? `<!doctype html><title>Quote request</title><p>${errors?.[0]?.message ?? UNAVAILABLE}</p>`);
    };

    if (!o.quotes) return again(503, [{ field: '', message: UNAVAILABLE }]);
    if (!form.captchaToken) return again(400, [{ field: 'captchaAnswer', message: 'Please solve the security check.' }]);
    let upstream: UpstreamResponse;
    try {
      // Not idempotent: sent again only when it never reached a replica (a second quote request would be a duplicate).
      upstream = await o.quotes.fetch('/api/quote-requests', {
        method: 'POST',
        headers: { ...onBehalfOf(req), 'content-type': 'application/json' },
        body: JSON.stringify({
          productId: product.id,
          customerName: form.customerName,
          customerEmail: form.customerEmail,
          customerPhone: form.customerPhone,
          customerCountry: form.customerCountry,
          quantity: quantityOf(form.quantity),
          message: form.message,
          website: form.website,
          captchaAnswer: form.captchaAnswer.trim() || '-1',
          captchaToken: form.captchaToken,
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      o.logger.error({ err: (err as Error).message, productId: product.id, requestId: rid }, 'quote form: quotes service unreachable; the form is shown again, filled in');
      return again(503, [{ field: '', message: UNAVAILABLE }]);
    }
    if (upstream.status === 201) {
      await upstream.body?.cancel();
      o.logger.info({ productId: product.id, requestId: rid }, 'quote form: quote request sent without JavaScript');
      res.redirect(303, `${pagePath}?quote=sent#quote`);
      return;
    }
    const answer = (await upstream.json().catch(() => ({}))) as { message?: string; issues?: { path: string; message: string }[] };
    if (upstream.status === 400) {
      const errors = (answer.issues ?? []).map((i) => ({
        field: i.path,
        // The security check's reason ('wrong', 'expired') reads better as the service's sentence.
        message: i.path === 'captchaAnswer' && answer.message ? answer.message : sentence(i.path, i.message),
      }));
      return again(400, errors.length ? errors : [{ field: '', message: answer.message ?? 'Please check the form.' }]);
    }
    o.logger.warn({ status: upstream.status, productId: product.id, requestId: rid }, 'quote form: quotes service refused; the form is shown again, filled in');
    return again(upstream.status === 429 ? 429 : 503, [{ field: '', message: upstream.status === 429 ? (answer.message ?? UNAVAILABLE) : UNAVAILABLE }]);
  }

  return {
    captcha,
    mount(app: Express) {
      app.post(QUOTE_FORM_PATH, express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 50 }), (req, res, next) => {
        submit(req, res).catch(next);
      });
    },
  };
}
