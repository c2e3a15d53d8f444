/**
 * The SEO handler over real HTTP: the real catalog app (SQLite + embedded search on a temp DATA_DIR) behind
 * the real gateway app, with the handler plugged in as main.ts plugs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '@forgeline/contracts/products';
import { createLogger } from '@forgeline/service-kit/logger';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { siteConfig } from '@forgeline/site-config/site';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { createApp as createCatalogApp } from '../../../services/catalog/src/app.ts';
import { openStores, type Stores } from '../../../services/catalog/src/stores.ts';
import { id, makeProduct, PRODUCTS } from '../../../services/catalog/test/fixtures.ts';
import { cardImagePreload, productImagePreload } from '../../src/seo/pages.ts';
import { startSeoGateway } from './harness.ts';

const logger = createLogger('seo-test', 'silent');
const TOKEN = 'seo-test-service-token-0123456789';
const PUBLIC_URL = 'https://parts.example.com';
const EVIL_NAME = 'Valve </script><script>alert("x")</script> & <!-- "Co" \u2028';

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Forgeline Parts</title>
    <meta name="description" content="build default" />
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

const evil: Product = makeProduct({ id: id(99), name: EVIL_NAME, sku: 'EVIL-1', category: 'Hydraulic Filters', brandName: 'Caterpillar' });
const ALL = [...PRODUCTS, evil];

const page = async (base: string, p: string, accept = 'text/html,application/xhtml+xml') => {
  const res = await fetch(`${base}${p}`, { headers: { accept } });
  return { status: res.status, html: await res.text(), type: res.headers.get('content-type') ?? '' };
};
const headOf = (html: string) => html.slice(0, html.indexOf('</head>'));
const jsonLd = (html: string) =>
  [...headOf(html).matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
const preloaded = (html: string) => {
  const m = /<script type="application\/json" id="__PRELOADED_PRODUCT__">([\s\S]*?)<\/script>/.exec(html);
  return m ? (JSON.parse(m[1]!) as Product) : null;
};
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);

describe('SEO handler (real catalog, real gateway)', () => {
  const data = tempDir('forgeline-seo-');
  const served: Served[] = [];
  let stores: Stores;
  let gw = '';
  let catalogUrl = '';

  beforeAll(async () => {
    const dist = path.join(data.dir, 'dist');
    fs.mkdirSync(dist);
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
    stores = await openStores({ DATA_DIR: data.dir, MONGO_URL: undefined, MEILI_URL: undefined, MEILI_MASTER_KEY: undefined, MEILI_INDEX: 'products' });
    await stores.repo.upsertMany(ALL);
    await stores.search.upsert(ALL);
    // No answer cache in the catalog: tests here change the store directly (a part taken off the storefront).
    // A machine's parts book (#38), for the diagrams sitemap.
    const at = new Date().toISOString();
    const frame = { id: 'asm-1', make: 'Caterpillar', model: '320D Excavator', makeSlug: 'caterpillar', modelSlug: '320d-excavator', slug: 'track-roller-frame', name: 'Track roller frame', diagram: null, callouts: [{ number: '1', positions: [{ x: 10, y: 20 }], partId: PRODUCTS[0]!.id, quantity: 2 }], version: 1, updatedAt: at, updatedBy: 'test' };
    await stores.diagrams.save([{ assembly: frame, expected: null, entry: { version: 1, at, actor: 'test', action: 'create', summary: 'created' } }]);
    const catalogApp = createCatalogApp({ repo: stores.repo, search: stores.search, diagrams: stores.diagrams, serviceToken: TOKEN, logger, responseCache: { maxBytes: 0, ttlMs: 1 } });
    const catalog = await serve(catalogApp, {
      port: 0,
      logger,
      handleSignals: false,
    });
    served.push(catalog);
    catalogUrl = `http://127.0.0.1:${catalog.port}`;
    const gateway = await startSeoGateway({ catalogUrl, webDistDir: dist, chunkSize: 4, readSlice: 3, serviceToken: TOKEN, publicUrl: `${PUBLIC_URL}/` });
    served.push(gateway);
    gw = `http://127.0.0.1:${gateway.port}`;
  });

  afterAll(async () => {
    await Promise.all(served.map((s) => s.close()));
    await stores?.close();
    data.remove();
  });

  it('gives a product page its title, description, canonical URL, Open Graph tags, JSON-LD and preloaded data', async () => {
    const p = PRODUCTS[0]!;
    const { status, html } = await page(gw, `/products/${p.id}/any-old-slug`);
    expect(status).toBe(200);
    const head = headOf(html);
    expect(head).toContain(`<title>${p.name} (${p.partNumber}) | Caterpillar | Forgeline Parts</title>`);
    expect(head.match(/<title>/g)).toHaveLength(1);
    expect(head).not.toContain('build default');
    expect(head).toContain(`<meta name="description" content="${p.description}">`);
    expect(head).toContain(`<link rel="canonical" href="${PUBLIC_URL}/products/${p.id}/${p.slug}">`);
    expect(head).toContain('<meta property="og:type" content="product">');
    expect(head).toContain(`<meta property="og:url" content="${PUBLIC_URL}/products/${p.id}/${p.slug}">`);
    expect(head).toContain(`<meta property="og:image" content="${PUBLIC_URL}${p.images[0]}">`);
    const [product, crumbs] = jsonLd(html);
    expect(product).toMatchObject({ '@type': 'Product', name: p.name, sku: p.sku, mpn: p.partNumber, brand: { name: 'Caterpillar' } });
    expect(product.image).toEqual(p.images.map((i) => `${PUBLIC_URL}${i}`));
    expect(crumbs['@type']).toBe('BreadcrumbList');
    expect(crumbs.itemListElement.map((i: { name: string }) => i.name)).toEqual(['Home', 'Products', p.category, p.name]);
    expect(preloaded(html)).toMatchObject({ id: p.id, sku: p.sku, name: p.name });
    expect(head).toContain(`<link rel="preload" as="image" href="${p.images[0]}" fetchpriority="high">`);
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-abc.js"></script>');
  });

  it('preloads a processed product image with the srcset the gallery asks for', () => {
    expect(productImagePreload('/media/products/ab/cdef-480.webp')).toEqual({
      href: '/media/products/ab/cdef-1200.webp',
      srcset: '/media/products/ab/cdef-160.webp 160w, /media/products/ab/cdef-480.webp 480w, /media/products/ab/cdef-1200.webp 1200w',
      sizes: '(min-width: 1024px) 600px, 100vw',
    });
    expect(productImagePreload('/media/generated/a/b/c.svg')).toEqual({ href: '/media/generated/a/b/c.svg' });
  });

  it("preloads a listing's first card image as the card asks for it: srcset and sizes for processed photos", () => {
    expect(cardImagePreload({ images: ['/media/products/ab/cdef-1200.webp'], imageUrl: '/x.svg' })).toEqual([
      {
        href: '/media/products/ab/cdef-480.webp',
        srcset: '/media/products/ab/cdef-160.webp 160w, /media/products/ab/cdef-480.webp 480w, /media/products/ab/cdef-1200.webp 1200w',
        sizes: '(min-width: 1280px) 300px, (min-width: 640px) 33vw, 50vw',
      },
    ]);
    expect(cardImagePreload({ images: [], imageUrl: '/media/generated/a/b/c.svg' })).toEqual([{ href: '/media/generated/a/b/c.svg' }]);
    expect(cardImagePreload({ images: [], imageUrl: null })).toEqual([]);
  });

  it('preloads the first card image on the first page of category and brand listings only', async () => {
    const preloads = (html: string) => html.match(/<link rel="preload" as="image"[^>]*>/g) ?? [];
    expect(preloads((await page(gw, '/category/hydraulic-filters')).html)).toHaveLength(1);
    expect(preloads((await page(gw, '/brands-available/caterpillar')).html)).toHaveLength(1);
    expect(preloads((await page(gw, '/category/hydraulic-filters?page=2')).html)).toHaveLength(0);
    expect(preloads((await page(gw, '/category/no-such-thing')).html)).toHaveLength(0);
  });

  it('shows the Generic brand as OEM/Genuine', async () => {
    const generic = PRODUCTS.find((p) => p.brandName === 'Generic')!;
    const { html } = await page(gw, `/products/${generic.id}/${generic.slug}`);
    expect(jsonLd(html)[0].brand.name).toBe('OEM/Genuine');
  });

  it('keeps a product name with </script>, quotes and & from breaking out of the page', async () => {
    const { status, html } = await page(gw, `/products/${evil.id}/x`);
    expect(status).toBe(200);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('</script><script>alert');
    expect(html).not.toContain('<!-- "Co"');
    // Exactly our scripts: two JSON-LD blocks, the product's data block and the app's module script.
    expect(headOf(html).match(/<script\b/g)).toHaveLength(4);
    expect(headOf(html).match(/<\/script>/g)).toHaveLength(4);
    expect(headOf(html)).toContain('<title>Valve &#60;/script&#62;&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#60;!-- &#34;Co&#34;');
    expect(jsonLd(html)[0].name).toBe(EVIL_NAME);
    expect(preloaded(html)?.name).toBe(EVIL_NAME);
  });

  it('serves a product taken off the storefront with status 410 and noindex, naming its category', async () => {
    const gone = ALL.at(-1)!;
    await stores.repo.deactivate([gone.id], []);
    const res = await page(gw, `/products/${gone.id}/${gone.slug}`);
    expect(res.status).toBe(410);
    expect(res.html).toContain('<title>Part No Longer Available | Forgeline Parts</title>');
    expect(res.html).toContain('<meta name="robots" content="noindex">');
    expect(res.html).toContain(`See the other ${gone.category} parts.`);
    await stores.repo.applyChanges([gone], []);
    expect((await page(gw, `/products/${gone.id}/${gone.slug}`)).status).toBe(200);
  });

  it('serves an unknown product with status 404 and noindex, still as the app', async () => {
    for (const p of [`/products/${id(12345)}/gone`, '/products/not-a-uuid', '/products']) {
      const { status, html } = await page(gw, p);
      expect(status, p).toBe(404);
      expect(html).toContain('<meta name="robots" content="noindex">');
      expect(html).not.toContain('rel="canonical"');
      expect(html).not.toContain('__PRELOADED_PRODUCT__');
      expect(html).toContain('<div id="root"></div>');
    }
  });

  it('titles category, category-and-brand and brand pages from the catalogue, with breadcrumbs', async () => {
    const cat = await page(gw, '/category/hydraulic-filters?page=1');
    expect(cat.status).toBe(200);
    expect(cat.html).toContain('<title>Hydraulic Filters Parts | Forgeline Parts</title>');
    expect(cat.html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/category/hydraulic-filters">`);
    expect(cat.html).toMatch(/<meta name="description" content="5 Hydraulic Filters spare parts/);
    expect(jsonLd(cat.html)[0].itemListElement.map((i: { item: string }) => i.item)).toEqual([
      `${PUBLIC_URL}/`,
      `${PUBLIC_URL}/categories`,
      `${PUBLIC_URL}/category/hydraulic-filters`,
    ]);

    const both = await page(gw, '/category/rodillos-de-oruga/kassbohrer');
    expect(both.status).toBe(200);
    expect(both.html).toContain('<title>Kässbohrer Rodillos de Oruga Parts | Forgeline Parts</title>');

    const brand = await page(gw, '/brands-available/caterpillar');
    expect(brand.status).toBe(200);
    expect(brand.html).toContain('<title>Caterpillar Parts | Forgeline Parts</title>');
    expect(brand.html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/brands-available/caterpillar">`);

    for (const p of ['/category/no-such-thing', '/category/hydraulic-filters/no-such-brand', '/brands-available/no-such-brand']) {
      const r = await page(gw, p);
      expect(r.status, p).toBe(404);
      expect(r.html).toContain('noindex');
    }
  });

  it('gives static routes their own head, unknown routes a 404 and the admin noindex', async () => {
    const about = await page(gw, '/about');
    expect(about.html).toContain('<title>About Us | Forgeline Parts</title>');
    expect(about.html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/about">`);
    const policy = await page(gw, '/shipping-policy');
    expect(policy.html).toContain('<title>Shipping Policy | Forgeline Parts</title>');
    const home = await page(gw, '/');
    expect(home.html).toContain(`<title>${siteConfig.name} | ${siteConfig.tagline}</title>`);
    expect(jsonLd(home.html).map((d) => d['@type'])).toEqual(['Organization', 'WebSite']);
    expect(home.html).toContain(
      '<link rel="preload" as="image" href="/images/hero/mining.webp" imagesrcset="/images/hero/mining-800.webp 800w, /images/hero/mining.webp 1600w" imagesizes="100vw" fetchpriority="high">',
    );
    const search = await page(gw, '/?search=filter');
    expect(search.html).toContain('noindex');
    const admin = await page(gw, '/admin');
    expect(admin.html).toContain('<meta name="robots" content="noindex, nofollow">');
    // The buyer's quote list lives in their browser: a page, but nothing to index.
    const quote = await page(gw, '/quote');
    expect(quote.status).toBe(200);
    expect(quote.html).toContain('<title>Quote List | Forgeline Parts</title>');
    expect(quote.html).toContain('<meta name="robots" content="noindex, follow">');
    const missing = await page(gw, '/no/such/page');
    expect(missing.status).toBe(404);
    expect(missing.html).toContain('<title>Page Not Found | Forgeline Parts</title>');
  });

  it('answers a non-HTML request for a page path with the plain app, and a missing asset with 404', async () => {
    const json = await page(gw, `/products/${PRODUCTS[0]!.id}/x`, 'application/json');
    expect(json.status).toBe(200);
    expect(json.html).toBe(INDEX_HTML);
    const asset = await fetch(`${gw}/missing-file.png`);
    expect(asset.status).toBe(404);
    await asset.body?.cancel();
  });

  it('serves robots.txt pointing at the sitemap index', async () => {
    const res = await fetch(`${gw}/robots.txt`);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
    expect(text).toContain('Disallow: /admin');
  });

  it('splits products over sitemap files of the chunk size, each read from the catalog in slices, covering every product once', async () => {
    const index = await fetch(`${gw}/sitemap.xml`);
    expect(index.headers.get('content-type')).toContain('application/xml');
    const indexXml = await index.text();
    expect(indexXml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(indexXml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    // 11 products in chunks of 4: three product files.
    expect(locs(indexXml)).toEqual([
      `${PUBLIC_URL}/sitemap-pages.xml`,
      `${PUBLIC_URL}/sitemap-diagrams.xml`,
      `${PUBLIC_URL}/sitemap-products-1.xml`,
      `${PUBLIC_URL}/sitemap-products-2.xml`,
      `${PUBLIC_URL}/sitemap-products-3.xml`,
    ]);
    const chunks: string[][] = [];
    for (const n of [1, 2, 3]) {
      const xml = await (await fetch(`${gw}/sitemap-products-${n}.xml`)).text();
      expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      expect(xml.match(/<url>/g)?.length).toBe(xml.match(/<\/url>/g)?.length);
      chunks.push(locs(xml));
    }
    expect(chunks.map((c) => c.length)).toEqual([4, 4, 3]);
    const all = chunks.flat();
    expect(new Set(all).size).toBe(ALL.length);
    for (const p of ALL) expect(all).toContain(`${PUBLIC_URL}/products/${p.id}/${p.slug}`);
    const past = await fetch(`${gw}/sitemap-products-4.xml`);
    expect(past.status).toBe(404);
    await past.body?.cancel();
  });

  it('lists static, category, category-and-brand and brand pages in the pages sitemap', async () => {
    const xml = await (await fetch(`${gw}/sitemap-pages.xml`)).text();
    const urls = locs(xml);
    for (const p of ['/', '/about', '/contact', '/faq', '/privacy', '/refund-policy', '/shipping-policy', '/disclaimer', '/categories', '/catalog']) {
      expect(urls).toContain(`${PUBLIC_URL}${p}`);
    }
    expect(urls).toContain(`${PUBLIC_URL}/category/hydraulic-filters`);
    expect(urls).toContain(`${PUBLIC_URL}/category/hydraulic-filters/komatsu`);
    expect(urls).toContain(`${PUBLIC_URL}/category/rodillos-de-oruga/kassbohrer`);
    expect(urls).toContain(`${PUBLIC_URL}/brands-available/john-deere`);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it("lists the machines' parts books in the diagrams sitemap: each machine with assemblies, and each assembly", async () => {
    const xml = await (await fetch(`${gw}/sitemap-diagrams.xml`)).text();
    expect(locs(xml)).toEqual([`${PUBLIC_URL}/machines/caterpillar/320d-excavator`, `${PUBLIC_URL}/machines/caterpillar/320d-excavator/track-roller-frame`]);
  });

  it('sends gzipped sitemaps to clients that accept gzip', async () => {
    const res = await fetch(`${gw}/sitemap-pages.xml`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toContain('<urlset'); // fetch decodes it
  });

  it('still serves pages when the catalog is down: generic head, status 200; sitemaps answer 503', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const gateway = await startSeoGateway({ catalogUrl: down, webDistDir: path.join(data.dir, 'dist'), serviceToken: TOKEN, publicUrl: `${PUBLIC_URL}/` });
    served.push(gateway);
    const base = `http://127.0.0.1:${gateway.port}`;
    const product = await page(base, `/products/${PRODUCTS[0]!.id}/x`);
    expect(product.status).toBe(200);
    expect(product.html).toContain(`<title>${siteConfig.name} | ${siteConfig.tagline}</title>`);
    expect(product.html).not.toContain('rel="canonical"');
    const sitemap = await fetch(`${base}/sitemap.xml`);
    expect(sitemap.status).toBe(503);
    await sitemap.body?.cancel();
  });
});
