/**
 * Server-rendered main content: the gateway's wiring (what data it reads, where the HTML and the stylesheet
 * go, what happens without or with a broken bundle) over real HTTP with the real catalog. The bundle here
 * is a stand-in module with the same export; the real one (web/src/entry-server.tsx) is exercised by the
 * browser tests (e2e/storefront.spec.ts, "without JavaScript").
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
import { startSeoGateway } from './test-gateway.ts';
import { injectMain, MAIN_SLOT } from './ssr.ts';

const logger = createLogger('ssr-test', 'silent');
const TOKEN = 'ssr-test-service-token-0123456789';
const CSS = '.card{color:red}';

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <title>Forgeline Parts</title>
    <style>.shell{color:blue}</style>
    <link rel="preload" crossorigin href="/assets/index-abc.css" as="style">
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"><div class="shell">header</div><div class="min-h-screen flex-1">${MAIN_SLOT}</div></div>
  <link rel="stylesheet" crossorigin href="/assets/index-abc.css"></body>
</html>`;

/** Stand-in for web/dist/.ssr/entry-server.js: echoes what it was given, so the test sees the data. */
const FAKE_ENTRY = `export function renderMain(url, data) {
  if (data.kind === 'product' && data.product.name === 'Explode') throw new Error('render bug');
  const names = data.kind === 'static' ? [] : data.kind === 'product' ? [data.product.name] : data.list.products.map((p) => p.name);
  return {
    html: '<h1 data-kind="' + data.kind + '" data-page="' + (data.page ?? '') + '" data-url="' + url + '">' + names.join('|') + '</h1>',
    queries: data.kind === 'product' || data.kind === 'static' ? [] : [{ queryKey: ['products', data.kind, { category: data.category, brand: data.brand, page: data.page }], data: data.list }],
  };
}`;

describe('injectMain', () => {
  it('puts the HTML in the slot, the whole stylesheet inline in <head>, and drops its link and preload', () => {
    const out = injectMain(INDEX_HTML, '<h1>Air Filters</h1>', { href: '/assets/index-abc.css', text: CSS });
    expect(out).toContain('<div class="min-h-screen flex-1"><h1>Air Filters</h1></div>');
    const head = out.slice(0, out.indexOf('</head>'));
    expect(head).toContain(`<style data-ssr-css>${CSS}</style>`);
    expect(head).not.toContain('.shell{color:blue}'); // the critical subset is not parsed twice
    expect(out).not.toContain('rel="stylesheet"');
    expect(out).not.toContain('as="style"');
    expect(out).toContain('<html lang="en" data-ssr>');
  });

  it("starts the app's JavaScript only after the page's photo painted (or load, or 3 s), not from <head>", () => {
    const withPreload = INDEX_HTML.replace('</head>', '<link rel="modulepreload" crossorigin href="/assets/react-1.js">\n</head>');
    const out = injectMain(withPreload, '<h1>x</h1>', null);
    expect(out).not.toContain('<script type="module"');
    expect(out).not.toContain('rel="modulepreload"');
    const loader = /<script>(\(function\(\)\{[\s\S]*?)<\/script><\/body>/.exec(out);
    expect(loader?.[1]).toContain('"/assets/index-abc.js"');
    expect(loader?.[1]).toContain('["/assets/react-1.js"].concat(w.__lateModules||[])');
    expect(loader?.[1]).toContain("'largest-contentful-paint'");
    expect(loader?.[1]).toContain("addEventListener('load',");
  });

  it('without the stylesheet text, moves the <link> into <head>, so the page never paints unstyled', () => {
    const out = injectMain(INDEX_HTML, '<h1>x</h1>', null);
    const head = out.slice(0, out.indexOf('</head>'));
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/index-abc.css">');
    expect(out.slice(out.indexOf('</head>'))).not.toContain('rel="stylesheet"');
  });

  it('leaves a page without the slot as it was, and cannot be closed early by the CSS text', () => {
    expect(injectMain('<html><head></head><body></body></html>', '<h1>x</h1>', null)).toBe('<html><head></head><body></body></html>');
    const out = injectMain(INDEX_HTML, '<h1>x</h1>', { href: '/assets/index-abc.css', text: 'a{b:c}</style><script>alert(1)</script>' });
    expect(out).not.toContain('</style><script>alert(1)');
  });
});

describe('server-rendered pages through the gateway (real catalog)', () => {
  const data = tempDir('forgeline-ssr-');
  const dist = path.join(data.dir, 'dist');
  const entry = path.join(dist, '.ssr', 'entry-server.js');
  const served: Served[] = [];
  let stores: Stores;
  let gw = '';

  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
    fs.mkdirSync(path.dirname(entry));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc.css'), CSS);
    fs.writeFileSync(entry, FAKE_ENTRY);
    stores = await openStores({ DATA_DIR: data.dir, MONGO_URL: undefined, MEILI_URL: undefined, MEILI_MASTER_KEY: undefined, MEILI_INDEX: 'products' });
    await stores.repo.upsertMany([...PRODUCTS, { ...PRODUCTS[1]!, id: '00000000-0000-4000-8000-0000000000ee', sku: 'BOOM-1', name: 'Explode', category: 'Engine Parts' }]);
    const catalog = await serve(createCatalogApp({ repo: stores.repo, search: stores.search, serviceToken: TOKEN, logger }), { port: 0, logger, handleSignals: false });
    served.push(catalog);
    const catalogUrl = `http://127.0.0.1:${catalog.port}`;
    const gateway = await startSeoGateway({ catalogUrl, webDistDir: dist, serviceToken: TOKEN, publicUrl: 'https://parts.example.com' });
    served.push(gateway);
    gw = `http://127.0.0.1:${gateway.port}`;
  });

  afterAll(async () => {
    await Promise.all(served.map((s) => s.close()));
    await stores?.close();
    data.remove();
  });

  const html = async (p: string) => {
    const res = await fetch(`${gw}${p}`, { headers: { accept: 'text/html' } });
    return { status: res.status, body: await res.text() };
  };

  it('renders a category page with the page of products the app would ask for, and hands the app that data', async () => {
    const { status, body } = await html('/category/hydraulic-filters');
    expect(status).toBe(200);
    const names = PRODUCTS.filter((p) => p.category === 'Hydraulic Filters').map((p) => p.name);
    expect(body).toContain(`<h1 data-kind="category" data-page="1" data-url="/category/hydraulic-filters">${[...names].sort().join('|')}</h1>`);
    expect(body).toContain('<html lang="en" data-ssr>');
    expect(body).toContain(`<style data-ssr-css>${CSS}</style>`);
    const preloaded = /<script>window\.__PRELOADED_QUERIES__=([\s\S]*?)<\/script>/.exec(body);
    const queries = JSON.parse(preloaded![1]!) as { queryKey: unknown[]; data: { products: unknown[]; pagination: { limit: number } } }[];
    expect(queries[0]!.queryKey).toEqual(['products', 'category', { category: 'hydraulic-filters', page: 1 }]);
    expect(queries[0]!.data.products).toHaveLength(names.length);
    expect(queries[0]!.data.pagination.limit).toBe(75);
  });

  it('renders a product page; the product itself travels as __PRELOADED_PRODUCT__', async () => {
    const p = PRODUCTS[0]!;
    const { body } = await html(`/products/${p.id}/${p.slug}`);
    expect(body).toContain(`<h1 data-kind="product" data-page="" data-url="/products/${p.id}/${p.slug}">${p.name}</h1>`);
    expect(body).toContain('window.__PRELOADED_PRODUCT__=');
    expect(body).not.toContain('__PRELOADED_QUERIES__');
  });

  it('renders the content pages (no catalogue data), not the home page, gallery or brand index', async () => {
    for (const p of ['/faq', '/contact', '/about', '/privacy']) {
      const { body } = await html(p);
      expect(body, p).toContain(`<h1 data-kind="static" data-page="" data-url="${p}"></h1>`);
    }
    for (const p of ['/', '/catalog', '/categories']) expect((await html(p)).body, p).not.toContain('data-kind');
  });

  it("defers the app's start on the home page (its static hero paints first), not on home search results", async () => {
    const home = (await html('/')).body;
    expect(home).not.toContain('<script type="module"');
    expect(home).toMatch(/s\.src="\/assets\/index-abc\.js"/);
    expect(home).not.toContain('data-kind');
    const results = (await html('/?search=filter')).body;
    expect(results).toContain('<script type="module" crossorigin src="/assets/index-abc.js"></script>');
  });

  it('serves the page without server HTML when rendering throws, when there is no data, or with no bundle', async () => {
    const broken = await html('/products/00000000-0000-4000-8000-0000000000ee/explode');
    expect(broken.status).toBe(200);
    expect(broken.body).toContain(MAIN_SLOT);
    expect(broken.body).not.toContain('data-ssr');
    expect(broken.body).toContain('<title>Explode');

    const missing = await html('/category/no-such-category');
    expect(missing.status).toBe(404);
    expect(missing.body).not.toContain('data-kind');

    fs.renameSync(entry, `${entry}.off`);
    try {
      const plain = await html('/category/hydraulic-filters');
      expect(plain.status).toBe(200);
      expect(plain.body).not.toContain('data-kind');
      expect(plain.body).toContain('rel="stylesheet"');
    } finally {
      fs.renameSync(`${entry}.off`, entry);
    }
  });

  it('picks up a rebuilt bundle without a restart', async () => {
    fs.writeFileSync(entry, FAKE_ENTRY.replace("names.join('|')", "'v2:' + names.join('|')"));
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(entry, later, later);
    const { body } = await html('/category/engine-parts');
    expect(body).toMatch(/data-url="\/category\/engine-parts">v2:/);
  });
});
