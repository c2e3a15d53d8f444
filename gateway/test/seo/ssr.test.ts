/**
 * Server-rendered pages: the gateway's wiring (what data it reads, where the HTML and the stylesheet
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
import { startSeoGateway } from './harness.ts';
import { APP_START_SCRIPT } from '@forgeline/service-kit/page-scripts';
import { cspDirectives, scriptHash } from '@forgeline/service-kit/security-headers';
import { injectApp, ROOT_END, ROOT_START } from '../../src/seo/ssr.ts';

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
  <body><div id="root">${ROOT_START}<div class="shell">header</div><main>hero</main><script>hero()</script>${ROOT_END}</div>
  <link rel="stylesheet" crossorigin href="/assets/index-abc.css"></body>
</html>`;

/** Stand-in for web/dist/.ssr/entry-server.js: echoes what it was given, so the test sees the data. */
const FAKE_ENTRY = `export async function renderPage(url, data) {
  if (data.kind === 'product' && data.product.name === 'Explode') throw new Error('render bug');
  const list = data.kind === 'categories' ? { products: data.subcategories } : data.list;
  const names = data.kind === 'product' ? [data.product.name] : list ? list.products.map((p) => p.name) : [];
  const extra = data.kind === 'search' ? ' data-search="' + data.search + '"' : data.kind === 'catalog' ? ' data-search="' + data.search + '"' : '';
  return {
    html: '<h1 data-kind="' + data.kind + '" data-page="' + (data.page ?? '') + '" data-url="' + url + '"' + extra + '>' + names.join('|') + '</h1>',
    queries: list && data.kind !== 'product' ? [{ queryKey: ['products', data.kind, { category: data.category, brand: data.brand, page: data.page }], data: list }] : [],
  };
}`;

const app = (html: string, queries: { queryKey: unknown[]; data: unknown }[] = []) => ({ html, queries });

describe('injectApp', () => {
  it('swaps the static shell for the app, puts the whole stylesheet inline in <head>, and drops its link and preload', () => {
    const out = injectApp(INDEX_HTML, app('<header>real</header><main><h1>Air Filters</h1></main>'), { href: '/assets/index-abc.css', text: CSS });
    expect(out).toContain('<div id="root"><header>real</header><main><h1>Air Filters</h1></main></div>');
    expect(out).not.toContain('hero()'); // the shell's own script leaves with it
    const head = out.slice(0, out.indexOf('</head>'));
    expect(head).toContain(`<style data-ssr-css>${CSS}</style>`);
    expect(head).not.toContain('.shell{color:blue}'); // the critical subset is not parsed twice
    expect(out).not.toContain('rel="stylesheet"');
    expect(out).not.toContain('as="style"');
    expect(out).toContain('<html lang="en" data-ssr>');
  });

  it("starts the app's JavaScript only after the page's photo painted (or load, or 3 s), not from <head>", () => {
    const withPreload = INDEX_HTML.replace('</head>', '<link rel="modulepreload" crossorigin href="/assets/react-1.js">\n</head>');
    const out = injectApp(withPreload, app('<h1>x</h1>'), null);
    expect(out).not.toContain('<script type="module"');
    expect(out).not.toContain('rel="modulepreload"');
    // The loader is the fixed script the Content-Security-Policy allows by hash; the build's files are its attributes.
    const loader = /<script data-entry="([^"]*)" data-preloads="([^"]*)">([\s\S]*?)<\/script><\/body>/.exec(out);
    expect(loader?.[1]).toBe('/assets/index-abc.js');
    expect(loader?.[2]).toBe('[&#34;/assets/react-1.js&#34;]');
    expect(loader?.[3]).toBe(APP_START_SCRIPT);
    expect(APP_START_SCRIPT).toContain("JSON.parse(s.getAttribute('data-preloads')||'[]').concat(w.__lateModules||[])");
    expect(APP_START_SCRIPT).toContain("'largest-contentful-paint'");
    expect(APP_START_SCRIPT).toContain("addEventListener('load',");
  });

  it('keeps a <noscript> style of <head> (the fonts without JavaScript) when it drops the critical CSS', () => {
    const page = INDEX_HTML.replace('</head>', '<noscript><style>:root{--a:b}</style></noscript>\n</head>');
    const out = injectApp(page, app('<h1>x</h1>'), { href: '/assets/index-abc.css', text: CSS });
    expect(out).toContain('<noscript><style>:root{--a:b}</style></noscript>');
    expect(out).not.toContain('.shell{color:blue}');
  });

  it('without the stylesheet text, moves the <link> into <head>, so the page never paints unstyled', () => {
    const out = injectApp(INDEX_HTML, app('<h1>x</h1>'), null);
    const head = out.slice(0, out.indexOf('</head>'));
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/index-abc.css">');
    expect(out.slice(out.indexOf('</head>'))).not.toContain('rel="stylesheet"');
  });

  it('leaves a page without the markers as it was, and cannot be closed early by the CSS text', () => {
    expect(injectApp('<html><head></head><body></body></html>', app('<h1>x</h1>'), null)).toBe('<html><head></head><body></body></html>');
    const out = injectApp(INDEX_HTML, app('<h1>x</h1>'), { href: '/assets/index-abc.css', text: 'a{b:c}</style><script>alert(1)</script>' });
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
    const all = [...PRODUCTS, { ...PRODUCTS[1]!, id: '00000000-0000-4000-8000-0000000000ee', sku: 'BOOM-1', name: 'Explode', category: 'Engine Parts' }];
    await stores.repo.upsertMany(all);
    await stores.search.upsert(all);
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
    const preloaded = /<script type="application\/json" id="__PRELOADED_QUERIES__">([\s\S]*?)<\/script>/.exec(body);
    const queries = JSON.parse(preloaded![1]!) as { queryKey: unknown[]; data: { products: unknown[]; pagination: { limit: number } } }[];
    expect(queries[0]!.queryKey).toEqual(['products', 'category', { category: 'hydraulic-filters', page: 1 }]);
    expect(queries[0]!.data.products).toHaveLength(names.length);
    expect(queries[0]!.data.pagination.limit).toBe(75);
    // After the page, not in <head>, where it would hold the first paint.
    expect(body.indexOf('__PRELOADED_QUERIES__')).toBeGreaterThan(body.indexOf('</h1>'));
  });

  it('renders a product page; the product itself travels in the __PRELOADED_PRODUCT__ data block', async () => {
    const p = PRODUCTS[0]!;
    const { body } = await html(`/products/${p.id}/${p.slug}`);
    expect(body).toContain(`<h1 data-kind="product" data-page="" data-url="/products/${p.id}/${p.slug}">${p.name}</h1>`);
    expect(body).toContain('<script type="application/json" id="__PRELOADED_PRODUCT__">');
    expect(body).not.toContain('__PRELOADED_QUERIES__');
  });

  it('carries no inline script the Content-Security-Policy would block: data blocks, and the loader allowed by its hash', async () => {
    const allowed = new Set(cspDirectives('site').find(([name]) => name === 'script-src')![1]);
    const p = PRODUCTS[0]!;
    for (const path of ['/category/hydraulic-filters', `/products/${p.id}/${p.slug}`, '/']) {
      const { body } = await html(path);
      const inline = [...body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
        ([, attrs]) => !/\bsrc=/.test(attrs!) && !/type="application\/(?:ld\+)?json"/.test(attrs!),
      );
      expect(inline.length, path).toBeGreaterThan(0);
      for (const [, , code] of inline) expect(allowed.has(scriptHash(code!)), `${path}: ${code!.slice(0, 60)}`).toBe(true);
    }
  });

  it('renders the content pages (no catalogue data) and the home page', async () => {
    for (const p of ['/faq', '/contact', '/about', '/privacy']) {
      const { body } = await html(p);
      expect(body, p).toContain(`<h1 data-kind="static" data-page="" data-url="${p}"></h1>`);
    }
    expect((await html('/')).body).toContain('<h1 data-kind="home" data-page="" data-url="/"></h1>');
  });

  it('renders search results, the gallery, the brand index and brand pages with the data the app would ask for', async () => {
    const filters = PRODUCTS.filter((p) => /filter/i.test(p.name)).map((p) => p.name);
    const search = await html('/?search=filter&page=1');
    expect(search.body).toContain('data-kind="search" data-page="1" data-url="/?search=filter&page=1" data-search="filter"');
    for (const name of filters) expect(search.body).toContain(name);
    expect(search.body).toContain('<meta name="robots" content="noindex, follow">');
    // A query the catalog refuses is still the results page (200, the app says why), not a 404.
    const long = await html(`/?search=${'x'.repeat(130)}`);
    expect(long.status).toBe(200);
    expect(long.body).toContain('<meta name="robots" content="noindex, follow">');
    // One character is not searched (the app says "Search needs 2 characters"), but the page still renders.
    expect((await html('/?search=f')).body).toContain('data-kind="search" data-page="1" data-url="/?search=f" data-search="f"></h1>');

    const gallery = await html('/catalog?page=1&search=%20filter%20');
    expect(gallery.body).toContain('data-kind="catalog" data-page="1" data-url="/catalog?page=1&search=%20filter%20" data-search="filter"');
    expect(gallery.body).toContain('"@type":"CollectionPage"');

    const brands = await html('/categories');
    expect(brands.body).toMatch(/data-kind="categories"[^>]*>[^<]+\|/);
    expect(brands.body).toContain('<link rel="canonical" href="https://parts.example.com/categories">');

    const brand = 'caterpillar';
    const brandPage = await html(`/brands-available/${brand}?page=1`);
    expect(brandPage.status).toBe(200);
    expect(brandPage.body).toContain(`data-kind="brand" data-page="1" data-url="/brands-available/${brand}?page=1"`);
    expect((await html('/brands-available/no-such-brand')).status).toBe(404);
  });

  it('serves the page without server HTML when rendering throws, when there is no data, or with no bundle', async () => {
    const broken = await html('/products/00000000-0000-4000-8000-0000000000ee/explode');
    expect(broken.status).toBe(200);
    expect(broken.body).toContain(ROOT_START);
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
