/**
 * robots.txt and the sitemaps: an index at /sitemap.xml pointing at /sitemap-pages.xml (static, category and
 * brand pages) and /sitemap-products-<n>.xml (one file per `chunkSize` products, 50,000 by default).
 * Built from the catalog on demand and cached briefly, gzipped in memory.
 */
import { promisify } from 'node:util';
import { gzip as gzipCb } from 'node:zlib';
import { productPath } from '@forgeline/contracts/slug';
import { policyKinds } from '@forgeline/site-config/policies';
import type { CatalogReader } from './catalog-reader.ts';
import { escapeHtml } from './html.ts';

const gzip = promisify(gzipCb);

/** Products asked of the catalog per call while a sitemap file is built. */
const SITEMAP_READ_SLICE = 5_000;

const STATIC_PATHS = ['/', '/categories', '/catalog', '/about', '/contact', '/faq', ...policyKinds.map((k) => `/${k}`)];

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const xmlEscape = escapeHtml; // &, <, >, ", ' as numeric entities: valid in XML text

export function urlsetXml(urls: string[]): string {
  const body = urls.map((u) => `<url><loc>${xmlEscape(u)}</loc></url>`).join('\n');
  return `${XML_HEAD}<urlset xmlns="${NS}">\n${body}\n</urlset>\n`;
}

export function sitemapIndexXml(urls: string[]): string {
  const body = urls.map((u) => `<sitemap><loc>${xmlEscape(u)}</loc></sitemap>`).join('\n');
  return `${XML_HEAD}<sitemapindex xmlns="${NS}">\n${body}\n</sitemapindex>\n`;
}

export function robotsTxt(publicUrl: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /admin', 'Disallow: /api/', '', `Sitemap: ${publicUrl}/sitemap.xml`, ''].join('\n');
}

interface CacheEntry {
  at: number;
  value: Promise<Buffer | null>;
}

export interface SitemapOptions {
  catalog: CatalogReader;
  publicUrl: string;
  chunkSize: number;
  /** Products per call to the catalog (default 5,000; tests use small numbers). */
  readSlice?: number;
  cacheMs: number;
  now?: () => number;
}

/** Returns gzipped XML, or null when the file does not exist (a chunk number past the end). */
export function createSitemaps(o: SitemapOptions) {
  const cache = new Map<string, CacheEntry>();
  const now = o.now ?? Date.now;
  const abs = (path: string) => `${o.publicUrl}${path}`;

  /** One build per key at a time; failures are not cached. */
  function cached(key: string, build: () => Promise<string | null>): Promise<Buffer | null> {
    const hit = cache.get(key);
    if (hit && now() - hit.at < o.cacheMs) return hit.value;
    const value = build().then((xml) => (xml === null ? null : gzip(xml)));
    cache.set(key, { at: now(), value });
    value.catch(() => cache.delete(key));
    return value;
  }

  const chunkCount = async () => Math.ceil((await o.catalog.productCount()) / o.chunkSize);

  return {
    index: () =>
      cached('index', async () => {
        const chunks = await chunkCount();
        const files = ['/sitemap-pages.xml', '/sitemap-diagrams.xml'];
        for (let n = 1; n <= chunks; n++) files.push(`/sitemap-products-${n}.xml`);
        return sitemapIndexXml(files.map(abs));
      }),
    pages: () =>
      cached('pages', async () => {
        const subs = await o.catalog.subcategories();
        const paths = new Set(STATIC_PATHS);
        const sorted = [...subs].sort((a, b) => a.categorySlug.localeCompare(b.categorySlug) || a.brandSlug.localeCompare(b.brandSlug));
        for (const s of sorted) if (s.productCount > 0 && s.categorySlug) paths.add(`/category/${s.categorySlug}`);
        for (const s of sorted) if (s.productCount > 0 && s.categorySlug && s.brandSlug) paths.add(`/category/${s.categorySlug}/${s.brandSlug}`);
        const brands = [...new Set(sorted.filter((s) => s.productCount > 0 && s.brandSlug).map((s) => s.brandSlug))].sort();
        for (const b of brands) paths.add(`/brands-available/${b}`);
        return urlsetXml([...paths].map(abs));
      }),
    /** The machines' parts books (#38): each machine with assemblies and each assembly. */
    diagrams: () => cached('diagrams', async () => urlsetXml((await o.catalog.sitemapAssemblies()).map(abs))),
    /** n counts from 1. */
    products: (n: number) =>
      cached(`products-${n}`, async () => {
        if (!Number.isInteger(n) || n < 1) return null;
        const urls: string[] = [];
        const first = (n - 1) * o.chunkSize;
        // Read in slices: a 50,000-part answer made the catalog parse and hold ~100 MB per file (2.3 GB after one
        // crawl of 2,000,000 parts); 5,000 at a time it stays as small as a page. The file itself is 50,000 URLs.
        for (let offset = first; offset < first + o.chunkSize; ) {
          const limit = Math.min(o.readSlice ?? SITEMAP_READ_SLICE, first + o.chunkSize - offset);
          const page = await o.catalog.sitemapProducts(offset, limit);
          for (const p of page.items) urls.push(abs(productPath(p)));
          if (page.items.length < limit) break;
          offset += limit;
        }
        if (urls.length === 0 && n > 1) return null;
        return urlsetXml(urls);
      }),
    clear: () => cache.clear(),
  };
}
export type Sitemaps = ReturnType<typeof createSitemaps>;
