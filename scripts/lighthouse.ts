/**
 * npm run lighthouse: Lighthouse (mobile profile, simulated throttling) with Debian's Chromium on the home page,
 * a category page, a product page, the brand index, the gallery and a brand page of a running stack. Prints the four category scores, LCP and the JavaScript
 * each page needs, gzipped:
 *  - "entry JS": the index.html entry script plus its modulepreloads (what every first visit downloads);
 *  - "page JS": every script the page loaded from the site (entry + the route's lazy chunks).
 *
 * Starts its own stack on data/lighthouse (seeded once with 5,000 products) unless LIGHTHOUSE_URL points at one.
 * LIGHTHOUSE_PATHS=/about,/faq measures other pages instead.
 * Goals (issues 4 and 13): every score >= 95, LCP < 2 s, initial JS < 150 kB gzipped. `npm run tti` measures
 * how soon the app takes over the same pages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { keyPages } from './lib/pages.ts';
import { ensureWebBuilt, repoRoot, startStack, type Stack } from './lib/stack.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const distDir = path.join(repoRoot, 'web/dist');
const gz = (file: string) => gzipSync(fs.readFileSync(file), { level: 9 }).length;
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** The entry script of index.html and the chunks it modulepreloads. */
function entryJsGzip(): number {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const srcs = new Set<string>();
  for (const m of html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)) srcs.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) srcs.add(m[1]!);
  let total = 0;
  for (const src of srcs) {
    const file = path.join(distDir, new URL(src, 'http://x').pathname);
    if (fs.existsSync(file)) total += gz(file);
  }
  return total;
}

async function main() {
  let stack: Stack | undefined;
  let base = process.env.LIGHTHOUSE_URL;
  if (!base) {
    ensureWebBuilt();
    stack = await startStack({ dataDir: path.join(repoRoot, 'data/lighthouse'), port: 0, seedProducts: 5_000, quiet: true });
    base = stack.url;
  }
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
  const rows: string[][] = [];
  try {
    const pages = process.env.LIGHTHOUSE_PATHS
      ? process.env.LIGHTHOUSE_PATHS.split(',').map((p) => ({ name: p.trim(), path: p.trim() }))
      : await keyPages(base, ['home', 'category', 'product', 'categories', 'gallery', 'brand']);
    const entry = fs.existsSync(path.join(distDir, 'index.html')) ? entryJsGzip() : NaN;
    for (const page of pages) {
      const url = new URL(page.path, base).href;
      process.stdout.write(`Lighthouse: ${page.name} ${url} ...\n`);
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
      const lhr = result?.lhr;
      if (!lhr || lhr.runtimeError) {
        // One page failing (e.g. web/dist being rebuilt meanwhile) should not hide the other pages' figures.
        process.stdout.write(`  failed: ${lhr?.runtimeError?.message ?? 'Lighthouse returned nothing'}\n`);
        rows.push([page.name, 'failed', '', '', '', '', '', '']);
        continue;
      }
      const score = (id: string) => {
        const s = lhr.categories[id]?.score;
        return s == null ? '-' : String(Math.round(s * 100));
      };
      const lcp = lhr.audits['largest-contentful-paint']?.numericValue;
      const requests = (lhr.audits['network-requests']?.details as { items?: { url: string; resourceType?: string }[] } | undefined)?.items ?? [];
      let pageJs = 0;
      for (const r of requests) {
        if (r.resourceType !== 'Script' || !r.url.startsWith(base)) continue;
        const file = path.join(distDir, new URL(r.url).pathname);
        if (file.startsWith(distDir) && fs.existsSync(file)) pageJs += gz(file);
      }
      rows.push([
        page.name,
        score('performance'),
        score('accessibility'),
        score('best-practices'),
        score('seo'),
        lcp === undefined ? '-' : `${(lcp / 1000).toFixed(2)} s`,
        kB(entry),
        kB(pageJs),
      ]);
      const failing = Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
        .map((a) => a.id);
      if (failing.length) process.stdout.write(`  audits below 0.9: ${failing.join(', ')}\n`);
      // What the largest paint was, and when the first one came: where to look when LCP is slow.
      const lcpItems = (lhr.audits['lcp-breakdown-insight']?.details as { items?: { type?: string; snippet?: string }[] } | undefined)?.items;
      const fcp = lhr.audits['first-contentful-paint']?.numericValue;
      const tbt = lhr.audits['total-blocking-time']?.numericValue;
      const snippet = lcpItems?.find((i) => i.type === 'node')?.snippet?.slice(0, 120) ?? '-';
      process.stdout.write(`  FCP ${fcp === undefined ? '-' : `${(fcp / 1000).toFixed(2)} s`}, TBT ${tbt === undefined ? '-' : `${Math.round(tbt)} ms`}; LCP element: ${snippet}\n`);
    }
  } finally {
    chrome.kill();
    await stack?.stop();
  }
  const head = ['page', 'perf', 'a11y', 'best practices', 'SEO', 'LCP', 'entry JS (gzip)', 'page JS (gzip)'];
  const table = [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
  process.stdout.write(`\nLighthouse, mobile profile (simulated throttling), ${new Date().toISOString()}\n\n${table}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`lighthouse: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
