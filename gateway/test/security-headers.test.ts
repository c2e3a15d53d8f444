/**
 * The security headers on every kind of gateway response (pages, the admin panel, the API, media, built files,
 * sitemaps, errors, answers of the edge cache), through a real gateway in front of a real catalog.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@forgeline/service-kit/logger';
import { PAGE_SCRIPTS } from '@forgeline/service-kit/page-scripts';
import { scriptHash } from '@forgeline/service-kit/security-headers';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { siteConfig } from '@forgeline/site-config/site';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { createApp as createCatalogApp } from '../../services/catalog/src/app.ts';
import { openStores, type Stores } from '../../services/catalog/src/stores.ts';
import { PRODUCTS } from '../../services/catalog/test/fixtures.ts';
import { createGatewayApp, withEdgeCache } from '../src/app.ts';
import { createEdgeCache } from '../src/edge-cache.ts';
import { createSeoHandler } from '../src/seo/seo-handler.ts';

const logger = createLogger('security-headers-test', 'silent');
const TOKEN = 'security-headers-test-service-token-0123';

/** The policy, spelled out: a change to it should be a change to this test too. */
const csp = (frameAncestors: string) =>
  `default-src 'self';script-src 'self' ${PAGE_SCRIPTS.map(scriptHash).join(' ')};style-src 'self' 'unsafe-inline';` +
  `img-src 'self' data: blob:;font-src 'self';connect-src 'self';object-src 'none';base-uri 'self';form-action 'self';` +
  `frame-ancestors ${frameAncestors}`;
const PERMISSIONS =
  'accelerometer=(), browsing-topics=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), hid=(), ' +
  'idle-detection=(), magnetometer=(), microphone=(), midi=(), payment=(), publickey-credentials-get=(), ' +
  'screen-wake-lock=(), serial=(), usb=(), xr-spatial-tracking=()';
const SITE = {
  'content-security-policy': csp("'self'"),
  'x-frame-options': 'SAMEORIGIN',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': PERMISSIONS,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
const ADMIN = { ...SITE, 'content-security-policy': csp("'none'"), 'x-frame-options': 'DENY' };
/** The quote page and its API: the address holds the key. */
const PRIVATE = { ...SITE, 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow' };
const EXPECTED = { site: SITE, admin: ADMIN, private: PRIVATE };
/** A made-up link's token: 43 base64url characters, as a real one's. */
const QUOTE_TOKEN = 'Qx7_k2-PZ3wYb9LmN4cD8fGh1JsT6vUaRe0iOlKjHn5';
const HSTS = 'max-age=31536000; includeSubDomains';
/** helmet's other headers: not in the definition (nginx would not send them), so not sent here either. */
const NOT_SENT = ['origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection', 'x-powered-by'];

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <title>Forgeline Parts</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

function expectHeaders(res: Response, expected: Record<string, string>, hsts: boolean, what: string) {
  for (const [name, value] of Object.entries(expected)) expect(res.headers.get(name), `${what}: ${name}`).toBe(value);
  expect(res.headers.get('strict-transport-security'), `${what}: strict-transport-security`).toBe(hsts ? HSTS : null);
  for (const name of NOT_SENT) expect(res.headers.get(name), `${what}: ${name}`).toBeNull();
}

describe('security headers through the gateway (real catalog)', () => {
  const data = tempDir('forgeline-headers-');
  const dist = path.join(data.dir, 'dist');
  const served: Served[] = [];
  let stores: Stores;
  /** Served over http (PUBLIC_URL http://…) and over https. */
  let plain = '';
  let secure = '';

  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
    stores = await openStores({ DATA_DIR: data.dir, MONGO_URL: undefined, MEILI_URL: undefined, MEILI_MASTER_KEY: undefined, MEILI_INDEX: 'products' });
    await stores.repo.upsertMany(PRODUCTS);
    await stores.search.upsert(PRODUCTS);
    const catalog = await serve(createCatalogApp({ repo: stores.repo, search: stores.search, serviceToken: TOKEN, logger }), { port: 0, logger, handleSignals: false });
    served.push(catalog);
    const catalogUrl = `http://127.0.0.1:${catalog.port}`;
    const down = `http://127.0.0.1:${await freePort()}`; // quotes, auth and media: down (502)
    // As main.ts wires it: the SEO handler, the edge cache in front, Strict-Transport-Security from PUBLIC_URL.
    for (const publicUrl of ['http://parts.example.com', 'https://parts.example.com']) {
      const seo = createSeoHandler({ webDistDir: dist, catalogUrl, quotesUrl: down, publicUrl, logger, serviceToken: TOKEN, site: siteConfig });
      const edgeCache = createEdgeCache({ maxBytes: 4 * 1024 * 1024, logger });
      const app = createGatewayApp({
        logger,
        edgeCache,
        hsts: publicUrl.startsWith('https://'),
        services: { catalog: catalogUrl, quotes: down, auth: down, media: down },
        upstreamTimeoutMs: 2_000,
        uploadTimeoutMs: 2_000,
        webDistDir: dist,
        pageHandler: seo.pageHandler,
        extraRoutes: seo.mountRoutes,
      });
      const gw = await serve(withEdgeCache(app, edgeCache), { port: 0, logger, handleSignals: false });
      served.push(gw);
      if (publicUrl.startsWith('https://')) secure = `http://127.0.0.1:${gw.port}`;
      else plain = `http://127.0.0.1:${gw.port}`;
    }
  });

  afterAll(async () => {
    await Promise.all(served.map((s) => s.close()));
    await stores?.close();
    data.remove();
  });

  const product = PRODUCTS[0]!;
  const cases: { what: string; path: string; status: number; kind: 'site' | 'admin' | 'private'; type?: RegExp; post?: boolean }[] = [
    { what: 'the home page', path: '/', status: 200, kind: 'site', type: /text\/html/ },
    { what: 'a product page', path: `/products/${product.id}/${product.slug}`, status: 200, kind: 'site', type: /text\/html/ },
    { what: 'a category page', path: '/category/hydraulic-filters', status: 200, kind: 'site', type: /text\/html/ },
    { what: 'the admin panel', path: '/admin', status: 200, kind: 'admin', type: /text\/html/ },
    // Paths under /admin the page handler does not know are 404s, still the app: still the admin set.
    { what: 'a path under /admin', path: '/admin/inbox?tab=quotes', status: 404, kind: 'admin', type: /text\/html/ },
    { what: 'the admin panel, spelled otherwise', path: '/Admin/', status: 404, kind: 'admin', type: /text\/html/ },
    { what: 'an API call', path: '/api/products?category=hydraulic-filters&limit=2', status: 200, kind: 'site', type: /application\/json/ },
    { what: 'a media file', path: product.imageUrl, status: 200, kind: 'site', type: /image\/svg\+xml/ },
    { what: 'a built file', path: '/assets/index-abc.js', status: 200, kind: 'site', type: /javascript/ },
    { what: 'a sitemap', path: '/sitemap.xml', status: 200, kind: 'site', type: /xml/ },
    { what: 'the API docs', path: '/api/docs', status: 200, kind: 'site', type: /text\/html/ },
    { what: 'an unknown API route (404)', path: '/api/no-such-thing', status: 404, kind: 'site', type: /application\/json/ },
    { what: 'an unknown product (404 page)', path: '/products/not-a-uuid', status: 404, kind: 'site', type: /text\/html/ },
    { what: 'a service that is down (502)', path: '/api/captcha', status: 502, kind: 'site', type: /application\/json/ },
    { what: 'an internal route (404)', path: '/internal/sitemap/products', status: 404, kind: 'site', type: /application\/json/ },
    // The quote page and its API (the quotes service is down here): the private set, whoever answers.
    { what: 'a quote page (its service down)', path: `/quote/view/${QUOTE_TOKEN}`, status: 503, kind: 'private', type: /text\/html/ },
    { what: 'a quote page whose link is no token (404 page)', path: '/quote/view/not-a-token', status: 404, kind: 'private', type: /text\/html/ },
    { what: 'a quote page, spelled otherwise', path: `//Quote/VIEW/${QUOTE_TOKEN}?done=accept`, status: 404, kind: 'private', type: /text\/html/ },
    { what: "a quote page's answer, posted", path: `/quote/view/${QUOTE_TOKEN}/accept`, status: 503, kind: 'private', type: /text\/html/, post: true },
    { what: 'the quote API (its service down)', path: `/api/quote-view/${QUOTE_TOKEN}`, status: 502, kind: 'private', type: /application\/json/ },
    { what: 'the quote API, spelled otherwise (404)', path: `/api/quote%2Dview/${QUOTE_TOKEN}`, status: 404, kind: 'private', type: /application\/json/ },
    { what: "the quote API's answer, posted", path: `/api/quote-view/${QUOTE_TOKEN}/decline`, status: 502, kind: 'private', type: /application\/json/, post: true },
    { what: 'not a quote page', path: '/quote/viewer', status: 404, kind: 'site', type: /text\/html/ },
  ];

  for (const c of cases) {
    it(`${c.what}: the ${c.kind} set, Strict-Transport-Security only over https`, async () => {
      for (const [base, hsts] of [[plain, false], [secure, true]] as const) {
        const res = await fetch(
          `${base}${c.path}`,
          c.post
            ? { method: 'POST', headers: { accept: 'text/html,*/*', 'content-type': c.path.startsWith('/api/') ? 'application/json' : 'application/x-www-form-urlencoded' }, body: c.path.startsWith('/api/') ? '{"reason":"price","text":""}' : 'version=1' }
            : { headers: { accept: 'text/html,*/*' } },
        );
        await res.arrayBuffer();
        expect(res.status, c.path).toBe(c.status);
        if (c.type) expect(res.headers.get('content-type'), c.path).toMatch(c.type);
        expectHeaders(res, EXPECTED[c.kind], hsts, `${c.path} (${hsts ? 'https' : 'http'})`);
      }
    });
  }

  it('an answer of the edge cache, given before Express runs, carries them too', async () => {
    for (const [base, hsts] of [[plain, false], [secure, true]] as const) {
      const url = `${base}/api/products?limit=3&search=filter`;
      await (await fetch(url)).arrayBuffer();
      const hit = await fetch(url);
      await hit.arrayBuffer();
      expect(hit.headers.get('x-edge-cache')).toBe('HIT');
      expectHeaders(hit, SITE, hsts, 'edge cache HIT');
      // Its 304 too.
      const etag = hit.headers.get('etag');
      if (etag) {
        const notModified = await fetch(url, { headers: { 'if-none-match': etag } });
        expect(notModified.status).toBe(304);
        expectHeaders(notModified, SITE, hsts, 'edge cache 304');
      }
    }
  });
});
