/**
 * The buyer's quote page, `/quote/view/<token>` (issue 34): read from the quotes service for the server's render, and
 * its three answers (accept, ask for changes, decline) as plain HTML forms posted here, so they work the same with and
 * without JavaScript. A form is turned into the quotes service's JSON call (with the visitor's address, for its rate
 * limit); then:
 *  - taken: 303 to the page again (`?done=<action>#answer`), which shows the answer's outcome;
 *  - refused (a field, a replaced version, an expired quote) or failed: the page again, with what was typed and why,
 *    so nothing is lost.
 * Every answer here is private: no-store, no referrer (the token is in the address), noindex.
 */
import { openAsBlob } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express, { type Express, type Request, type Response } from 'express';
import { FormData } from 'undici';
import { QuoteViewSchema, QUOTE_PO_DOCUMENT, QUOTE_TOKEN_PATTERN, type QuoteView } from '@forgeline/contracts/quote-view';
import { HttpError } from '@forgeline/service-kit/errors';
import { MultipartRefused, receiveMultipart, type ReceivedFile } from '@forgeline/service-kit/multipart';
import type { QuoteViewFormState } from '@forgeline/contracts/ssr';
import type { Logger } from '@forgeline/service-kit/logger';
import type { ReplicaPool } from '../replica-pool.ts';
import { onBehalfOf } from './quote-form.ts';

export const QUOTE_VIEW_PAGE = /^\/quote\/view\/([^/]+)\/?$/;
const ACTIONS = ['accept', 'changes', 'decline', 'reopen'] as const;
type Action = (typeof ACTIONS)[number];
/** Lines a form may carry (the contracts' limit). */
const MAX_LINES = 200;
const UNAVAILABLE = 'We could not take your answer just now. Nothing was lost: please try again in a minute.';

export type QuoteViewRead = { status: 200; view: QuoteView } | { status: 404 } | { status: 503 };

export interface QuoteViewPageOptions {
  quotes?: ReplicaPool;
  logger: Logger;
  renderDocument: (req: Request, url: URL, state: { quoteView: QuoteViewFormState }) => Promise<{ status: number; html: string } | null>;
  timeoutMs?: number;
  /** Where an accept's PO document waits while it is passed on (removed after each answer); the system's temp folder by default. */
  uploadDir?: string;
}

const MB = 1024 * 1024;

/** The headers of every quote page answer: the address holds the key. */
export function privatePage(res: Response) {
  res.setHeader('cache-control', 'no-store');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('x-robots-tag', 'noindex, nofollow');
}

/** The form's fields as the quotes service's JSON body (blank numbers stay text, so its 400 names them). */
function bodyOf(action: Action, f: Record<string, string>): unknown {
  const lines = (prefix: string) => {
    const out: string[] = [];
    for (let i = 0; i < MAX_LINES && f[`${prefix}-${i}`] !== undefined; i++) out.push(f[`${prefix}-${i}`]!.trim());
    return out;
  };
  const number = (v: string) => (v !== '' && Number.isFinite(Number(v)) ? Number(v) : v);
  if (action === 'accept') {
    return {
      version: number(f.version ?? ''),
      poNumber: f.poNumber ?? '',
      delivery: { company: f.company ?? '', address: f.address ?? '', contactName: f.contactName ?? '', contactPhone: f.contactPhone ?? '' },
      quantities: lines('qty').map((q) => number(q === '' ? '0' : q)),
      note: f.note ?? '',
    };
  }
  if (action === 'changes') {
    const qty = lines('qty');
    const target = lines('target');
    return {
      version: number(f.version ?? ''),
      message: f.message ?? '',
      lines: qty.map((q, i) => ({ quantity: q === '' ? null : number(q), targetPrice: (target[i] ?? '') === '' ? null : number(target[i]!) })),
    };
  }
  if (action === 'reopen') return {};
  return { reason: f.reason ?? '', text: f.text ?? '' };
}

/** The service's field paths as the form names its fields (`quantities.2` → `qty-2`, `delivery.address` → `address`). */
function formField(action: Action, path: string): string {
  const m = /^(?:quantities|lines)\.(\d+)(?:\.(quantity|targetPrice))?$/.exec(path);
  if (m) return m[2] === 'targetPrice' ? `target-${m[1]}` : `qty-${m[1]}`;
  if (path.startsWith('delivery.')) return path.slice('delivery.'.length);
  if (path === 'quantities' || path === 'lines' || path === '(body)' || (path === 'version' && action !== 'decline')) return '';
  return path;
}

const LABELS: Record<string, string> = {
  poNumber: 'The purchase order number',
  company: 'The company',
  address: 'The delivery address',
  contactName: 'The contact',
  contactPhone: 'The phone number',
  note: 'The note',
  poDocument: 'The PO document',
  message: 'The message',
  reason: 'The reason',
  text: 'The text',
};

/** "The delivery address is required." from the contract's "is required", for the field the form shows it beside. */
function sentence(field: string, message: string): string {
  if (/^[A-Z]/.test(message)) return message.endsWith('.') ? message : `${message}.`;
  const label = LABELS[field] ?? (field.startsWith('qty-') ? 'The quantity' : field.startsWith('target-') ? 'The target price' : 'This field');
  return `${label} ${message}.`;
}

export function createQuoteViewPage(o: QuoteViewPageOptions) {
  const timeoutMs = o.timeoutMs ?? 3000;

  /** The quote for the server's render: 404 for any link that opens nothing, 503 when the service cannot say. */
  async function read(req: Request, token: string): Promise<QuoteViewRead> {
    if (!QUOTE_TOKEN_PATTERN.test(token)) return { status: 404 };
    if (!o.quotes) return { status: 503 };
    try {
      const res = await o.quotes.fetch(`/api/quote-view/${token}`, { headers: onBehalfOf(req), signal: AbortSignal.timeout(timeoutMs) });
      if (res.status === 404) {
        await res.body?.cancel();
        return { status: 404 };
      }
      if (!res.ok) {
        await res.body?.cancel();
        o.logger.warn({ status: res.status }, 'quote page: the quotes service did not answer it');
        return { status: 503 };
      }
      return { status: 200, view: QuoteViewSchema.parse(await res.json()) };
    } catch (err) {
      o.logger.warn({ err: (err as Error).message }, 'quote page: quotes service unreachable');
      return { status: 503 };
    }
  }

  /**
   * An accept with its PO document comes as multipart/form-data: the fields, and the file streamed to a temp folder
   * (never whole in memory) within the quotes service's limit. Refused (too large, malformed): the fields read so far
   * and why, so the page comes back filled in.
   */
  async function readForm(req: Request, action: Action): Promise<{ fields: Record<string, unknown>; file?: ReceivedFile; cleanup?: () => Promise<void>; refused?: HttpError }> {
    if (!req.is('multipart/form-data')) return { fields: (req.body ?? {}) as Record<string, unknown> };
    const maxFileBytes = QUOTE_PO_DOCUMENT.maxMb * MB;
    try {
      const received = await receiveMultipart(req, {
        tmpRoot: o.uploadDir ?? path.join(os.tmpdir(), 'forgeline-quote-answers'),
        fileFields: action === 'accept' ? [QUOTE_PO_DOCUMENT.field] : [],
        limits: { maxFileBytes, maxRequestBytes: maxFileBytes + 64 * 1024, maxFiles: 1 },
      });
      // A form's empty file input is a part with no name and no bytes: no document.
      const file = received.files.find((f) => f.size > 0 || f.filename !== 'unnamed');
      return { fields: received.fields, file, cleanup: received.cleanup };
    } catch (err) {
      if (err instanceof MultipartRefused) return { fields: err.fields, refused: err };
      if (err instanceof HttpError) return { fields: {}, refused: err };
      throw err;
    }
  }

  async function submit(req: Request, res: Response) {
    privatePage(res);
    const token = String(req.params.token);
    const action = String(req.params.action) as Action;
    if (!ACTIONS.includes(action)) {
      res.status(404).type('text/plain').send('No such answer: a quote can be accepted, changed or declined, or asked again once expired.');
      return;
    }
    const received = await readForm(req, action);
    try {
      await answer(req, res, token, action, received);
    } finally {
      await received.cleanup?.();
    }
  }

  async function answer(req: Request, res: Response, token: string, action: Action, received: Awaited<ReturnType<typeof readForm>>) {
    const raw = received.fields;
    const form = Object.fromEntries(Object.entries(raw).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    const page = `/quote/view/${encodeURIComponent(token)}`;
    const again = async (status: number, errors: QuoteViewFormState['errors']) => {
      const doc = await o.renderDocument(req, new URL(page, 'http://page.local'), { quoteView: { action, values: form, errors } });
      res.status(status).type('html');
      res.send(doc?.html ?? `<!doctype html><title>Your quote</title><p>${errors[0]?.message ?? UNAVAILABLE}</p>`);
    };
    if (!QUOTE_TOKEN_PATTERN.test(token)) return again(404, []);
    if (received.refused) {
      const field = received.refused.status === 413 ? QUOTE_PO_DOCUMENT.field : '';
      return again(received.refused.status, [{ field, message: sentence(field, received.refused.message) }]);
    }
    if (!o.quotes) return again(503, [{ field: '', message: UNAVAILABLE }]);
    let upstream;
    try {
      const json = JSON.stringify(bodyOf(action, form));
      let body: string | FormData = json;
      const headers: Record<string, string> = { ...onBehalfOf(req), 'content-type': 'application/json' };
      if (received.file) {
        // The quotes service's multipart accept: the JSON in `body`, the document beside it, streamed from the file.
        body = new FormData();
        body.set(QUOTE_PO_DOCUMENT.bodyField, json);
        body.set(QUOTE_PO_DOCUMENT.field, await openAsBlob(received.file.path, { type: QUOTE_PO_DOCUMENT.type }), received.file.filename);
        delete headers['content-type'];
      }
      // Not retried on another replica once sent: an accept is not idempotent (the service refuses a second one anyway).
      upstream = await o.quotes.fetch(`/api/quote-view/${token}/${action}`, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(received.file ? Math.max(timeoutMs, 30_000) : timeoutMs),
      });
    } catch (err) {
      o.logger.error({ err: (err as Error).message, action }, 'quote page: quotes service unreachable; the page is shown again, filled in');
      return again(503, [{ field: '', message: UNAVAILABLE }]);
    }
    if (upstream.ok) {
      await upstream.body?.cancel();
      o.logger.info({ action }, 'quote page: answer taken from a form');
      res.redirect(303, `${page}?done=${action}#answer`);
      return;
    }
    const answer = (await upstream.json().catch(() => ({}))) as { message?: string; issues?: { path: string; message: string }[] };
    if (upstream.status === 404) return again(404, []);
    if (upstream.status === 413) return again(413, [{ field: QUOTE_PO_DOCUMENT.field, message: sentence(QUOTE_PO_DOCUMENT.field, answer.message ?? 'is too large') }]);
    if (upstream.status === 400 || upstream.status === 409) {
      const errors = (answer.issues ?? []).map((i) => {
        const field = formField(action, i.path);
        return { field, message: sentence(field, i.message) };
      });
      // The service's sentence says it best for the form as a whole (a replaced version, an expired quote).
      const general = { field: '', message: answer.message ?? 'Please check the form.' };
      return again(upstream.status, upstream.status === 409 || errors.every((e) => e.field === '') ? [general] : errors);
    }
    o.logger.warn({ status: upstream.status, action }, 'quote page: quotes service refused; the page is shown again, filled in');
    return again(upstream.status === 429 ? 429 : 503, [{ field: '', message: upstream.status === 429 ? (answer.message ?? UNAVAILABLE) : UNAVAILABLE }]);
  }

  return {
    read,
    mount(app: Express) {
      app.post('/quote/view/:token/:action', express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 1000 }), (req, res, next) => {
        submit(req, res).catch(next);
      });
    },
  };
}
