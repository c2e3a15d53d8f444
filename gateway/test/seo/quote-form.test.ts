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
import { PRODUCTS } from '../../../services/catalog/test/fixtures.ts';
import { startService, type TestService } from '../../../services/quotes/test/harness.ts';
import { ROOT_END, ROOT_START } from '../../src/seo/ssr.ts';
import { startSeoGateway } from './harness.ts';

const logger = createLogger('quote-form-test', 'silent');
const TOKEN = 'quote-form-test-service-token-0123';
const INDEX_HTML = `<!doctype html><html lang="en"><head><title>x</title></head><body><div id="root">${ROOT_START}shell${ROOT_END}</div></body></html>`;
/** Prints the product page's quote form state as JSON, so the test reads what the page would show. */
const FAKE_ENTRY = `export async function renderPage(url, data) {
  return { html: '<pre data-url="' + url + '">' + JSON.stringify(data.kind === 'product' ? data.quote ?? null : null).replace(/</g, '\\\\u003c') + '</pre>', queries: [] };
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
});
