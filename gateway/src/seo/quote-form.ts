/**
 * The quote request without JavaScript. A product page's "Get Instant Quote" is a link to `?quote=1`: the app opens
 * its dialog there, and a browser without JavaScript shows the page's <noscript> form
 * (web/src/features/quotes/components/quote-request-form.tsx), which posts here. The quote list opened by a link that
 * adds parts (`/quote?add=<id>~<qty>`, an assembly page's form) does the same for several lines: the app puts them on
 * the buyer's list, a browser without JavaScript shows a form with the lines (`listPage` reads them;
 * web/src/features/quote-list/components/quote-list-request-form.tsx) posting here too. This sends the same request
 * the dialog or the list sends (POST /api/quote-requests on the quotes service, with the visitor's address for its
 * rate limits), plus the quotes service's own security check, since nothing in the browser checks the sum. Then:
 *  - accepted: 303 to the page's confirmation (`?quote=sent#quote` on the product page, `/quote?sent=<lines>`);
 *  - refused (a field, the security check) or failed (quotes down): the page again, with what the visitor typed, what
 *    was wrong and a new security check, so nothing is lost.
 */
import express, { type Express, type Request, type Response } from 'express';
import { REQUEST_ID_HEADER } from '@forgeline/contracts/common';
import { CaptchaSchema, QUOTE_LIMITS, QUOTE_MAX_LINES, type Captcha } from '@forgeline/contracts/quotes';
import { MAX_LOOKUP_ITEMS } from '@forgeline/contracts/products';
import {
  parseQuoteListAdds,
  quoteListAddPath,
  quoteListLineErrorField,
  QUOTE_LIST_ADD_PARAM,
  QUOTE_LIST_FORM_FIELDS,
  QUOTE_LIST_PATH,
  type QuoteListAdd,
} from '@forgeline/contracts/quote-list-link';
import { productPath } from '@forgeline/contracts/slug';
import type { QuoteFormState, QuoteListFormData, QuoteListFormPart } from '@forgeline/contracts/ssr';
import { clientAddress } from '@forgeline/service-kit/client-address';
import type { Logger } from '@forgeline/service-kit/logger';
import type { CatalogReader } from './catalog-reader.ts';
import type { Response as UpstreamResponse } from 'undici';
import type { ReplicaPool } from '../replica-pool.ts';

export const QUOTE_FORM_PATH = '/quote-request';

/** The form's fields (QuoteRequestInputSchema's, with the captcha): anything else posted is ignored. */
const FIELDS = ['productId', 'customerName', 'customerEmail', 'customerPhone', 'customerCountry', 'quantity', 'message', 'website', 'captchaAnswer', 'captchaToken'] as const;
/** What goes back into the form after a refusal (not the used security check; the list's quantities go in its address). */
const KEPT = ['customerName', 'customerEmail', 'customerPhone', 'customerCountry', 'quantity', 'message'] as const;
/** A list's lines: as many as a quote request takes and one catalogue lookup reads. */
const LIST_LIMITS = { maxLines: Math.min(QUOTE_MAX_LINES, MAX_LOOKUP_ITEMS), maxQuantity: QUOTE_LIMITS.maxQuantity };
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

/** A list line's issue (`lines.2.productId`), said of the line: the part is gone, or its quantity is wrong. */
function lineMessage(path: string, message: string): string | null {
  const field = /^lines\.\d+\.(\w+)$/.exec(path)?.[1];
  if (!field) return null;
  return field === 'productId' ? 'This part is not in the catalogue any more: it is left out of the list.' : sentence(field, message);
}

/** A repeated form field (urlencoded gives one value as a string, several as an array). */
const all = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

const partOf = (p: QuoteListFormPart): QuoteListFormPart => ({ id: p.id, name: p.name, sku: p.sku, partNumber: p.partNumber, brandName: p.brandName, slug: p.slug });

/** What a submission asks for, and the pages its answers lead to: a product page's form, or the quote list's. */
interface Target {
  /** The form's page, rendered again with the form's state after a refusal. */
  formPage: string;
  /** The confirmation an accepted request goes to (303). */
  sentPage: string;
  request: { productId: string; quantity: number } | { lines: QuoteListAdd[] };
  /** The request's error field for a service issue's path (`lines.2.quantity` is the third line's). */
  fieldOf: (path: string) => string;
  log: Record<string, unknown>;
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

  /**
   * The quote list page's data for a link that adds parts (`/quote?add=…`): the parts the catalogue sells with the
   * quantities asked, the ones it does not, and the form's state (`state` after a refusal; else a new security check,
   * when there is anything to ask for). Null when the address asks for no part it can read (the plain list page).
   * A catalog failure throws (CatalogReadError), as the other pages' reads do.
   */
  async function listPage(req: Request, search: URLSearchParams, state?: QuoteFormState): Promise<QuoteListFormData | null> {
    const adds = parseQuoteListAdds(search.getAll(QUOTE_LIST_ADD_PARAM), LIST_LIMITS);
    if (!adds.length) return null;
    const items = await o.catalog.lookup(
      adds.map((a) => a.productId),
      (req as { id?: string }).id,
    );
    const lines: QuoteListFormData['lines'] = [];
    const notSold: QuoteListFormData['notSold'] = [];
    items.forEach((item, i) => {
      if (item.product) lines.push({ product: partOf(item.product), quantity: adds[i]!.quantity });
      else notSold.push({ id: item.requested, replacedBy: item.replacedBy && partOf(item.replacedBy) });
    });
    return { lines, notSold, form: state ?? { captcha: lines.length ? await captcha(req) : null } };
  }

  /** A product page's form: its product, or null when there is no such product. */
  async function productTarget(form: Record<(typeof FIELDS)[number], string>, rid: string | undefined): Promise<Target | null> {
    let product;
    try {
      product = form.productId ? await o.catalog.product(form.productId, rid) : undefined;
    } catch {
      product = undefined;
    }
    if (!product) return null;
    const pagePath = productPath(product);
    return {
      formPage: `${pagePath}?quote=1`,
      sentPage: `${pagePath}?quote=sent#quote`,
      request: { productId: product.id, quantity: quantityOf(form.quantity) },
      fieldOf: (path) => path,
      log: { productId: product.id },
    };
  }

  /**
   * The quote list's form: its lines (a blank or invalid quantity is 1, as on the product form). The quotes service
   * checks the parts; a refused form's page reads them again from its address, which carries the lines as sent.
   */
  function listTarget(body: Record<string, unknown>): Target | null {
    const ids = all(body[QUOTE_LIST_FORM_FIELDS.productId]);
    const quantities = all(body[QUOTE_LIST_FORM_FIELDS.quantity]);
    const lines = parseQuoteListAdds(
      ids.map((id, i) => `${id}~${quantityOf(quantities[i] ?? '')}`),
      LIST_LIMITS,
    );
    if (!lines.length) return null;
    return {
      formPage: quoteListAddPath(lines),
      sentPage: `${QUOTE_LIST_PATH}?sent=${lines.length}#quote-list-request`,
      request: { lines },
      fieldOf: (path) => {
        const line = /^lines\.(\d+)\b/.exec(path);
        const productId = line ? lines[Number(line[1])]?.productId : undefined;
        return productId ? quoteListLineErrorField(productId) : path;
      },
      log: { lines: lines.length },
    };
  }

  async function submit(req: Request, res: Response) {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const form = Object.fromEntries(FIELDS.map((f) => [f, typeof body[f] === 'string' ? (body[f] as string) : ''])) as Record<(typeof FIELDS)[number], string>;
    const rid = (req as { id?: string }).id;
    const isList = body[QUOTE_LIST_FORM_FIELDS.productId] !== undefined;
    const target = isList ? listTarget(body) : await productTarget(form, rid);
    if (!target) {
      res
        .status(isList ? 400 : 404)
        .type('text/plain')
        .send(isList ? 'No parts: the quote list form names no part.' : 'No such product: the quote form names a product that does not exist.');
      return;
    }

    /** The form's page again, the form filled with what was sent and the reasons it was refused. */
    const again = async (status: number, errors: QuoteFormState['errors']) => {
      const values = Object.fromEntries(KEPT.map((k) => [k, form[k]]));
      const doc = await o.renderDocument(req, new URL(target.formPage, 'http://page.local'), { captcha: await captcha(req), values, errors });
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
          ...target.request,
          customerName: form.customerName,
          customerEmail: form.customerEmail,
          customerPhone: form.customerPhone,
          customerCountry: form.customerCountry,
          message: form.message,
          website: form.website,
          captchaAnswer: form.captchaAnswer.trim() || '-1',
          captchaToken: form.captchaToken,
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      o.logger.error({ err: (err as Error).message, ...target.log, requestId: rid }, 'quote form: quotes service unreachable; the form is shown again, filled in');
      return again(503, [{ field: '', message: UNAVAILABLE }]);
    }
    if (upstream.status === 201) {
      await upstream.body?.cancel();
      o.logger.info({ ...target.log, requestId: rid }, 'quote form: quote request sent without JavaScript');
      res.redirect(303, target.sentPage);
      return;
    }
    const answer = (await upstream.json().catch(() => ({}))) as { message?: string; issues?: { path: string; message: string }[] };
    if (upstream.status === 400) {
      const errors = (answer.issues ?? []).map((i) => ({
        field: target.fieldOf(i.path),
        // The security check's reason ('wrong', 'expired') reads better as the service's sentence.
        message: i.path === 'captchaAnswer' && answer.message ? answer.message : lineMessage(i.path, i.message) ?? sentence(i.path, i.message),
      }));
      return again(400, errors.length ? errors : [{ field: '', message: answer.message ?? 'Please check the form.' }]);
    }
    o.logger.warn({ status: upstream.status, ...target.log, requestId: rid }, 'quote form: quotes service refused; the form is shown again, filled in');
    return again(upstream.status === 429 ? 429 : 503, [{ field: '', message: upstream.status === 429 ? (answer.message ?? UNAVAILABLE) : UNAVAILABLE }]);
  }

  return {
    captcha,
    listPage,
    mount(app: Express) {
      // Room for a full quote list: two fields a line (64 kB: 200 lines and the longest message, percent-encoded).
      app.post(QUOTE_FORM_PATH, express.urlencoded({ extended: false, limit: '64kb', parameterLimit: QUOTE_MAX_LINES * 2 + 50 }), (req, res, next) => {
        submit(req, res).catch(next);
      });
    },
  };
}
