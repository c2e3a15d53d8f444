/**
 * The quote request without JavaScript (quote-form.ts) over real HTTP: the real catalog and quotes services behind
 * the gateway. The page bundle is a stand-in that prints the form state it is given; the real form is exercised in
 * Chromium with JavaScript off (e2e/no-javascript.spec.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@forgeline/service-kit/logger';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { tempDir } from '@forgeline/test-support/net';
import { createApp as createCatalogApp } from '../../../services/catalog/src/app.ts';
import { openStores, type Stores } from '../../../services/catalog/src/stores.ts';
import type { QuoteListFormData } from '@forgeline/contracts/ssr';
import { quoteListAddPath } from '@forgeline/contracts/quote-list-link';
import { PRODUCTS } from '../../../services/catalog/test/fixtures.ts';
import { startService, type TestService } from '../../../services/quotes/test/harness.ts';
import { ROOT_END, ROOT_START } from '../../src/seo/ssr.ts';
import { startSeoGateway } from './harness.ts';

const logger = createLogger('quote-form-test', 'silent');
const TOKEN = 'quote-form-test-service-token-0123';
const INDEX_HTML = `<!doctype html><html lang="en"><head><title>x</title></head><body><div id="root">${ROOT_START}shell${ROOT_END}</div></body></html>`;
/** Prints the product page's quote form state (or the quote list's whole data) as JSON, so the test reads what the page would show. */
const FAKE_ENTRY = `export async function renderPage(url, data) {
  const shown = data.kind === 'product' ? data.quote ?? null : data.kind === 'quote-list' ? data : null;
  return { html: '<pre data-url="' + url + '">' + JSON.stringify(shown).replace(/</g, '\\\\u003c') + '</pre>', queries: [] };
}`;

describe('quote request without JavaScript (real catalog, real quotes service)', () => {
  const data = tempDir('forgeline-quote-form-');
  const dist = path.join(data.dir, 'dist');
  const served: Served[] = [];
  let stores: Stores;
  let quotes: TestService;
  let gw = '';
  const product = PRODUCTS[0]!;
  const page = `/products/${product.id}/${product.slug}`;

  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, '.ssr'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
    fs.writeFileSync(path.join(dist, '.ssr', 'entry-server.js'), FAKE_ENTRY);
    stores = await openStores({ DATA_DIR: data.dir, MONGO_URL: undefined, MEILI_URL: undefined, MEILI_MASTER_KEY: undefined, MEILI_INDEX: 'products' });
    await stores.repo.upsertMany(PRODUCTS);
    const catalog = await serve(createCatalogApp({ repo: stores.repo, search: stores.search, serviceToken: TOKEN, logger }), { port: 0, logger, handleSignals: false });
    served.push(catalog);
    const catalogUrl = `http://127.0.0.1:${catalog.port}`;
    quotes = await startService({ catalogUrl });
    const gateway = await startSeoGateway({ catalogUrl, quotesUrl: quotes.url, webDistDir: dist, serviceToken: TOKEN, publicUrl: 'https://parts.example.com' });
    served.push(gateway);
    gw = `http://127.0.0.1:${gateway.port}`;
  });

  afterAll(async () => {
    await Promise.all(served.map((s) => s.close()));
    await quotes?.close();
    await stores?.close();
    data.remove();
  });

  /** The quote form state the page was rendered with. */
  const formState = (html: string) => {
    const m = /<pre data-url="([^"]*)">([\s\S]*?)<\/pre>/.exec(html);
    return { url: m?.[1], state: JSON.parse(m?.[2] ?? 'null') as { captcha: { num1: number; num2: number; token: string } | null; values?: Record<string, string>; errors?: { field: string; message: string }[] } | null };
  };
  const open = async () => formState(await (await fetch(`${gw}${page}?quote=1`, { headers: { accept: 'text/html' } })).text());
  const send = (fields: Record<string, string>) =>
    fetch(`${gw}/quote-request`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual', headers: { accept: 'text/html' } });
  const filled = (captcha: { num1: number; num2: number; token: string }, over: Record<string, string> = {}) => ({
    productId: product.id,
    customerName: 'Ada Buyer',
    customerEmail: 'ada@example.com',
    customerCountry: 'United Kingdom',
    customerPhone: '+44 20 7946 0000',
    quantity: '4',
    message: 'Two for the D6, two spares',
    website: '',
    captchaToken: captcha.token,
    captchaAnswer: String(captcha.num1 + captcha.num2),
    ...over,
  });

  it('gives ?quote=1 a security check from the quotes service, and a plain product page none', async () => {
    const { state } = await open();
    expect(state?.captcha?.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(state!.captcha!.num1 + state!.captcha!.num2).toBeGreaterThan(1);
    expect(formState(await (await fetch(`${gw}${page}`, { headers: { accept: 'text/html' } })).text()).state).toBeNull();
  });

  it('sends the same quote request the dialog sends, then shows the confirmation', async () => {
    const before = await quotes.store.countQuoteRequests();
    const { state } = await open();
    const res = await send(filled(state!.captcha!));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${page}?quote=sent#quote`);
    expect(await quotes.store.countQuoteRequests()).toBe(before + 1);
  });

  it('keeps what was typed and says what was wrong, with a new security check, when the request is refused', async () => {
    const before = await quotes.store.countQuoteRequests();
    const first = (await open()).state!.captcha!;
    const res = await send(filled(first, { customerEmail: 'not-an-email', captchaAnswer: String(first.num1 + first.num2 + 1) }));
    expect(res.status).toBe(400);
    const { url, state } = formState(await res.text());
    expect(url).toBe(`${page}?quote=1`);
    expect(state?.values).toMatchObject({ customerName: 'Ada Buyer', customerEmail: 'not-an-email', quantity: '4', message: 'Two for the D6, two spares' });
    expect(state?.errors?.map((e) => e.field)).toContain('customerEmail');
    expect(state?.errors?.find((e) => e.field === 'customerEmail')?.message).toMatch(/^Business e-mail must be a valid e-mail address\.$/);
    expect(state?.captcha?.token).not.toBe(first.token);

    const wrongSum = await send(filled(state!.captcha!, { captchaAnswer: String(state!.captcha!.num1 + state!.captcha!.num2 + 1) }));
    expect(wrongSum.status).toBe(400);
    expect(formState(await wrongSum.text()).state?.errors).toEqual([{ field: 'captchaAnswer', message: expect.stringMatching(/math|security/i) }]);
    expect(await quotes.store.countQuoteRequests()).toBe(before);
  });

  it('when the quotes service is down: the page says the form is unavailable, and a sent form comes back filled in (503)', async () => {
    const down = await startSeoGateway({ catalogUrl: `http://127.0.0.1:${served[0]!.port}`, webDistDir: dist, serviceToken: TOKEN, publicUrl: 'https://parts.example.com' });
    try {
      const url = `http://127.0.0.1:${down.port}`;
      const page1 = formState(await (await fetch(`${url}${page}?quote=1`, { headers: { accept: 'text/html' } })).text());
      expect(page1.state).toEqual({ captcha: null });
      const res = await fetch(`${url}/quote-request`, { method: 'POST', body: new URLSearchParams({ ...filled({ num1: 1, num2: 2, token: 'x.y' }) }), redirect: 'manual' });
      expect(res.status).toBe(503);
      const { state } = formState(await res.text());
      expect(state?.values?.customerName).toBe('Ada Buyer');
      expect(state?.errors?.[0]?.message).toMatch(/Nothing was lost/);
    } finally {
      await down.close();
    }
  });

  it('refuses a form without a security check or for an unknown product, storing nothing', async () => {
    const before = await quotes.store.countQuoteRequests();
    const { state } = await open();
    const noCheck = await send({ ...filled(state!.captcha!), captchaToken: '' });
    expect(noCheck.status).toBe(400);
    expect(formState(await noCheck.text()).state?.errors).toEqual([{ field: 'captchaAnswer', message: 'Please solve the security check.' }]);
    const unknown = await send({ ...filled(state!.captcha!), productId: '00000000-0000-4000-8000-00000000ffff' });
    expect(unknown.status).toBe(404);
    expect(await quotes.store.countQuoteRequests()).toBe(before);
  });
  describe('the quote list opened by a link that adds parts (/quote?add=<id>~<quantity>)', () => {
    const [a, b] = [PRODUCTS[1]!, PRODUCTS[2]!];
    const nowhere = '00000000-0000-4000-8000-00000000ffff';
    const listData = (html: string) => JSON.parse(/<pre data-url="[^"]*">([\s\S]*?)<\/pre>/.exec(html)?.[1] ?? 'null') as QuoteListFormData | null;
    const openList = async (path: string) => listData(await (await fetch(`${gw}${path}`, { headers: { accept: 'text/html' } })).text());
    const sendList = (captcha: { num1: number; num2: number; token: string }, lines: [string, string][], over: Record<string, string> = {}) => {
      const body = new URLSearchParams();
      for (const [productId, quantity] of lines) {
        body.append('lineProductId', productId);
        body.append('lineQuantity', quantity);
      }
      const { productId: _none, quantity: _one, ...fields } = filled(captcha, over);
      for (const [k, v] of Object.entries(fields)) body.append(k, v);
      return fetch(`${gw}/quote-request`, { method: 'POST', body, redirect: 'manual', headers: { accept: 'text/html' } });
    };
    /** The stored request of a buyer, with its lines. */
    const storedFor = async (email: string) => {
      const page = await quotes.store.listInbox({ q: email }, 0, 10);
      return page.items.length === 1 ? quotes.store.getInbox(page.items[0]!.id) : null;
    };

    it('reads the parts from the catalogue with the quantities asked, reports the unknown ones, and gives a security check', async () => {
      const data = await openList(`/quote?add=${a.id}~2&add=${b.id}~1&add=${nowhere}~3&add=junk~9`);
      expect(data?.lines.map((l) => [l.product.id, l.product.partNumber, l.quantity])).toEqual([
        [a.id, a.partNumber, 2],
        [b.id, b.partNumber, 1],
      ]);
      expect(data?.notSold).toEqual([{ id: nowhere, replacedBy: null }]);
      expect(data?.form.captcha?.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      // The plain list page, and a link naming nothing readable, are the content page as before.
      expect(await openList('/quote')).toBeNull();
      expect(await openList('/quote?add=junk')).toBeNull();
    });

    it('sends one request with every line as typed, then leads to the confirmation', async () => {
      const email = `list-${Date.now()}@example.com`;
      const { form } = (await openList(quoteListAddPath([{ productId: a.id, quantity: 2 }, { productId: b.id, quantity: 1 }])))!;
      const res = await sendList(form.captcha!, [[a.id, '5'], [b.id, '']], { customerEmail: email });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/quote?sent=2#quote-list-request');
      const stored = await storedFor(email);
      expect(stored?.lines.map((l) => [l.productId, l.quantity])).toEqual([
        [a.id, 5],
        [b.id, 1],
      ]);
    });

    it('refused, shows the list again with the quantities and details as sent, what was wrong and a new security check', async () => {
      const email = `list-refused-${Date.now()}@example.com`;
      const first = (await openList(quoteListAddPath([{ productId: a.id, quantity: 2 }])))!.form.captcha!;
      const res = await sendList(first, [[a.id, '7'], [b.id, '3']], { customerEmail: email, customerName: '', captchaAnswer: String(first.num1 + first.num2 + 1) });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(/data-url="([^"]*)"/.exec(html)?.[1]).toBe(quoteListAddPath([{ productId: a.id, quantity: 7 }, { productId: b.id, quantity: 3 }]));
      const data = listData(html)!;
      expect(data.lines.map((l) => [l.product.id, l.quantity])).toEqual([
        [a.id, 7],
        [b.id, 3],
      ]);
      expect(data.form.values).toMatchObject({ customerEmail: email, customerName: '', message: 'Two for the D6, two spares' });
      expect(data.form.errors?.length).toBeGreaterThan(0);
      expect(data.form.captcha?.token).not.toBe(first.token);
      expect(await storedFor(email)).toBeNull();
    });

    it('names a line whose part the catalogue does not have by its product id, and the page leaves it out', async () => {
      const { form } = (await openList(quoteListAddPath([{ productId: a.id, quantity: 1 }])))!;
      const res = await sendList(form.captcha!, [[a.id, '1'], [nowhere, '2']]);
      expect(res.status).toBe(400);
      const data = listData(await res.text())!;
      expect(data.form.errors).toContainEqual({ field: `line:${nowhere}`, message: expect.stringMatching(/not in the catalogue/) });
      expect(data.lines.map((l) => l.product.id)).toEqual([a.id]);
      expect(data.notSold).toEqual([{ id: nowhere, replacedBy: null }]);
    });

    it('refuses a list form naming no part, storing nothing', async () => {
      const before = await quotes.store.countQuoteRequests();
      const { form } = (await openList(quoteListAddPath([{ productId: a.id, quantity: 1 }])))!;
      const res = await sendList(form.captcha!, [['not-an-id', '1']]);
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/names no part/);
      expect(await quotes.store.countQuoteRequests()).toBe(before);
    });
  });
});
