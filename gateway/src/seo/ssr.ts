/**
 * The web app's server-rendering bundle (web/src/entry-server.tsx, built to web/dist/.ssr/entry-server.js):
 * the main content of category and product pages as React renders it, so their largest paint (a product
 * photo) comes with the HTML instead of after the JavaScript. Optional: without the bundle, or when it
 * fails, pages are served as before (head tags only) and the app renders them in the browser.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EntryServer, PageData, RenderedMain } from '@forgeline/contracts/ssr';
import type { Logger } from '@forgeline/service-kit/logger';

export type { PageData, RenderedMain };

export interface SsrRenderer {
  /** The page's main content, or null (no bundle, or it threw: logged, and the page goes out without it). */
  render(url: string, data: PageData, requestId?: string): Promise<RenderedMain | null>;
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
      if (typeof mod.renderMain !== 'function') throw new Error(`${entryFile} exports no renderMain`);
      loaded = { mtimeMs, entry: mod as EntryServer };
    }
    return loaded.entry;
  }

  // Load the bundle now (about half a second for 1.2 MB), not on the first visitor's page.
  void entry().catch((err: unknown) => logger.error({ entryFile, err }, 'ssr: server bundle failed to load'));

  return {
    async render(url, data, requestId) {
      try {
        const e = await entry();
        return e ? e.renderMain(url, data) : null;
      } catch (err) {
        logger.error({ url, requestId, err }, 'ssr: render failed; page served without server HTML');
        return null;
      }
    },
  };
}

/**
 * Puts the rendered main content into index.html's shell slot. The server HTML uses more rules than the
 * inlined critical CSS holds and must not paint unstyled, so the whole stylesheet (`css`, about 9 kB
 * gzipped: cheaper than the round trip a render-blocking <link> costs on a phone) goes inline in <head> and
 * its <link> and preload are dropped; without `css` the <link> moves into <head> instead. `data-ssr` on
 * <html> tells the head scripts and main.tsx that the page came server-rendered with its data.
 */
export function injectMain(indexHtml: string, mainHtml: string, css: { href: string; text: string } | null): string {
  if (!indexHtml.includes(MAIN_SLOT)) return indexHtml;
  let html = indexHtml.replace(MAIN_SLOT, () => mainHtml);
  const sheet = /\s*(<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>)\s*(?=<\/body>)/i.exec(html);
  if (sheet) {
    html = html.replace(sheet[0], '');
    if (css && css.href === sheet[2]) {
      const preload = new RegExp(`\\s*<link rel="preload"[^>]*href="${sheet[2]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`, 'i');
      // The build's critical CSS (a plain <style> in <head>) is a subset of the whole sheet: parsing it twice is waste.
      const headEnd = html.search(/<\/head>/i);
      const head = html.slice(0, headEnd).replace(/<style>[\s\S]*?<\/style>\s*/i, '').replace(preload, '');
      html = `${head}  <style data-ssr-css>${css.text.replace(/<\/style/gi, '<\\/style')}</style>\n  ${html.slice(headEnd)}`;
    } else {
      html = html.replace(/<\/head>/i, () => `  ${sheet[1]}\n  </head>`);
    }
  }
  return deferAppStart(html).replace(/<html\b([^>]*)>/i, (_m, attrs: string) => `<html${attrs} data-ssr>`);
}

/**
 * A server-rendered page (and the home page's static hero) is readable before the app runs, so the app's JavaScript
 * (about 140 kB) is fetched only once the page's photo has painted, or the frame after the load event, or after 3 s:
 * on a slow phone connection it no longer shares the bandwidth with the photo. The entry script and its
 * modulepreloads leave <head>; a loader at the end of <body> adds them back, with the route chunks the
 * head script held back (window.__lateModules, web/vite.config.ts).
 */
export function deferAppStart(html: string): string {
  const entry = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/i.exec(html);
  if (!entry) return html;
  const preloads: string[] = [];
  let out = html.replace(entry[0], '').replace(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/gi, (_m, href: string) => {
    preloads.push(href);
    return '';
  });
  const loader =
    `<script>(function(){var d=document,w=window,done=0;function go(){if(done)return;done=1;` +
    `${JSON.stringify(preloads)}.concat(w.__lateModules||[]).forEach(function(u){var l=d.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=u;d.head.appendChild(l)});` +
    `var s=d.createElement('script');s.type='module';s.crossOrigin='';s.src=${JSON.stringify(entry[1])};d.head.appendChild(s)}` +
    `try{new PerformanceObserver(function(l){if(l.getEntries().some(function(e){return e.element&&e.element.tagName==='IMG'}))go()}).observe({type:'largest-contentful-paint',buffered:true})}catch(e){}` +
    // After load, one frame more: the photo loaded with the page paints before the JavaScript is asked for.
    `w.addEventListener('load',function(){requestAnimationFrame(function(){setTimeout(go,0)})});setTimeout(go,3000)})()</script>`;
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

/** Where web/vite.config.ts's header shell leaves room for the page's main content. */
export const MAIN_SLOT = '<!--ssr-main-->';
