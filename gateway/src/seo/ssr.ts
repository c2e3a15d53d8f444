/**
 * The web app's server-rendering bundle (web/src/entry-server.tsx, built to web/dist/.ssr/entry-server.js): every
 * storefront page as the app renders it (header, page, footer), so the page works from its first byte (links,
 * forms) and its largest paint (a photo) comes with the HTML; the browser hydrates it. Optional: without the bundle,
 * or when it fails, pages are served as before (head tags and the static shell) and the app renders in the browser.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PRELOADED_QUERIES_ID, type EntryServer, type PageData, type RenderedPage } from '@forgeline/contracts/ssr';
import type { Logger } from '@forgeline/service-kit/logger';
import { APP_START_SCRIPT } from '@forgeline/service-kit/page-scripts';
import { escapeHtml, scriptSafeJson } from './html.ts';

export type { PageData, RenderedPage };

export interface SsrRenderer {
  /** The page's HTML, or null (no bundle, or it threw: logged, and the page goes out without it). */
  render(url: string, data: PageData, requestId?: string): Promise<RenderedPage | null>;
}

export function createSsrRenderer(entryFile: string, logger: Logger): SsrRenderer {
  let loaded: { mtimeMs: number; entry: EntryServer } | undefined;
  let missingLogged = false;

  /** The bundle, imported again when a new build replaced it (the query string makes it a new module). */
  async function entry(): Promise<EntryServer | null> {
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(entryFile)).mtimeMs;
    } catch {
      if (!missingLogged) logger.warn({ entryFile }, 'ssr: no server bundle; pages are rendered in the browser only (npm run build:web makes it)');
      missingLogged = true;
      return null;
    }
    if (loaded?.mtimeMs !== mtimeMs) {
      const mod = (await import(`${pathToFileURL(entryFile).href}?v=${mtimeMs}`)) as Partial<EntryServer>;
      if (typeof mod.renderPage !== 'function') throw new Error(`${entryFile} exports no renderPage`);
      loaded = { mtimeMs, entry: mod as EntryServer };
    }
    return loaded.entry;
  }

  // Load the bundle now (about half a second for 1.3 MB), not on the first visitor's page.
  void entry().catch((err: unknown) => logger.error({ entryFile, err }, 'ssr: server bundle failed to load'));

  return {
    async render(url, data, requestId) {
      try {
        const e = await entry();
        return e ? await e.renderPage(url, data) : null;
      } catch (err) {
        logger.error({ url, requestId, err }, 'ssr: render failed; page served without server HTML');
        return null;
      }
    },
  };
}

/** Where web/vite.config.ts's static shell sits inside <div id="root">: the gateway swaps it for the app's HTML. */
export const ROOT_START = '<!--ssr-root-->';
export const ROOT_END = '<!--/ssr-root-->';

/**
 * Puts the server-rendered app into index.html in place of the static shell. The page uses more rules than the
 * inlined critical CSS holds and must not paint unstyled, so the whole stylesheet (`css`, about 10 kB gzipped:
 * cheaper than the round trip a render-blocking <link> costs on a phone) goes inline in <head> and its <link> and
 * preload are dropped; without `css` the <link> moves into <head> instead. `data-ssr` on <html> tells main.tsx to
 * hydrate. The shell's own scripts (the home hero's) go with it; the app's start is deferred (deferAppStart). The
 * listings' data for the browser's query cache follows the page as a JSON data block (`#__PRELOADED_QUERIES__`).
 */
export function injectApp(indexHtml: string, page: RenderedPage, css: { href: string; text: string } | null): string {
  const start = indexHtml.indexOf(ROOT_START);
  const end = indexHtml.indexOf(ROOT_END);
  if (start < 0 || end < start) return indexHtml;
  let html = indexHtml.slice(0, start) + page.html + indexHtml.slice(end + ROOT_END.length);
  const sheet = /\s*(<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>)\s*(?=<\/body>)/i.exec(html);
  if (sheet) {
    html = html.replace(sheet[0], '');
    if (css && css.href === sheet[2]) {
      const preload = new RegExp(`\\s*<link rel="preload"[^>]*href="${sheet[2]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`, 'i');
      // The build's critical CSS (a plain <style> in <head>) is a subset of the whole sheet: parsing it twice is waste.
      const headEnd = html.search(/<\/head>/i);
      // (A <style> inside a <noscript>, the fonts' switch without JavaScript, is not that and stays.)
      const head = html.slice(0, headEnd).replace(/(^|[^>])<style>[\s\S]*?<\/style>\s*/i, '$1').replace(preload, '');
      html = `${head}  <style data-ssr-css>${css.text.replace(/<\/style/gi, '<\\/style')}</style>\n  ${html.slice(headEnd)}`;
    } else {
      html = html.replace(/<\/head>/i, () => `  ${sheet[1]}\n  </head>`);
    }
  }
  // The page's data for hydration goes after the page, not in <head>: a listing's 60-300 kB of JSON there would hold
  // the first paint until it is parsed; the app starts later anyway (deferAppStart). A data block, never executed.
  if (page.queries.length) {
    const block = `<script type="application/json" id="${PRELOADED_QUERIES_ID}">${scriptSafeJson(page.queries)}</script>`;
    html = html.replace(/<\/body>/i, () => `${block}</body>`);
  }
  return deferAppStart(html).replace(/<html\b([^>]*)>/i, (_m, attrs: string) => `<html${attrs} data-ssr>`);
}

/**
 * A server-rendered page works before the app runs (links and forms), so the app's JavaScript (about 130 kB) waits
 * for the first screen's photos. On a phone it is fetched only once the photo has painted, or the frame after the
 * load event, or after 3 s: on a slow connection it does not share the bandwidth with the photo (Lighthouse's LCP
 * went from ~1.2 s to ~3 s when it did). On a wide screen it is fetched as soon as the images in view have arrived,
 * before the load event: waiting for the paint and the load event had the app take over 450-1000 ms after `load`
 * (npm run tti), now it is about 100-150 ms. Hydration is quick: it attaches to the HTML rather than drawing it. The entry script and its modulepreloads leave <head>; a loader at the
 * end of <body> adds them back, with the route chunks the head script held back (window.__lateModules,
 * web/vite.config.ts). The loader is fixed text (APP_START_SCRIPT, allowed by its hash in the Content-Security-Policy);
 * the entry and the chunks are its data-entry and data-preloads attributes.
 */
export function deferAppStart(html: string): string {
  const entry = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/i.exec(html);
  if (!entry) return html;
  const preloads: string[] = [];
  let out = html.replace(entry[0], '').replace(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/gi, (_m, href: string) => {
    preloads.push(href);
    return '';
  });
  // A fixed script (its hash is in the Content-Security-Policy); what this build and page need rides in attributes.
  const loader = `<script data-entry="${escapeHtml(entry[1]!)}" data-preloads="${escapeHtml(JSON.stringify(preloads))}">${APP_START_SCRIPT}</script>`;
  out = out.replace(/<\/body>/i, () => `${loader}</body>`);
  return out;
}

/** The stylesheet index.html links (`/assets/index-<hash>.css`), read from the build once per build. */
export function createStylesheetReader(webDistDir: string) {
  let cached: { href: string; text: string } | undefined;
  return async (indexHtml: string): Promise<{ href: string; text: string } | null> => {
    const href = /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"/i.exec(indexHtml)?.[1];
    if (!href) return null;
    if (cached?.href === href) return cached;
    try {
      cached = { href, text: await readFile(path.join(webDistDir, href), 'utf8') };
      return cached;
    } catch {
      return null;
    }
  };
}

