import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { beasties } from 'vite-plugin-beasties';
import { HERO_BADGE, heroSlides } from '../packages/site-config/src/hero-slides.ts';
import { siteConfig } from '../packages/site-config/src/site.ts';
// The inline scripts' code is fixed text there: the Content-Security-Policy allows them by hash (security-headers.ts).
import {
  FONT_LOADER_SCRIPT,
  HERO_PRELOAD_SCRIPT,
  HERO_SHELL_SCRIPT,
  ROUTE_PRELOAD_SCRIPT,
  type RoutePreloadApi,
  type RoutePreloadEntry,
} from '../packages/service-kit/src/page-scripts.ts';

const backend = process.env.VITE_BACKEND_URL ?? 'http://127.0.0.1:8080';

/**
 * The home page's largest paint is the first hero slide. A tiny inline script preloads it (right size for the
 * screen) only when the home page is opened, so it downloads alongside the JavaScript instead of after it.
 */
function heroPreload(): Plugin {
  const first = heroSlides[0];
  return {
    name: 'forgeline-hero-preload',
    transformIndexHtml() {
      if (!first) return [];
      const srcset = `${first.image.replace(/\.webp$/, '-800.webp')} 800w, ${first.image} 1600w`;
      return [{ tag: 'script', attrs: { 'data-href': first.image, 'data-srcset': srcset }, children: HERO_PRELOAD_SCRIPT, injectTo: 'head' }];
    },
  };
}

/**
 * Every screen but home is a lazy chunk that only starts downloading once the entry script has
 * run, and a listing's data only after that. A tiny head script looks at the address and modulepreloads the route's
 * chunks, and for category and brand listings preloads the first API response (same URL and credentials mode as
 * api-client.ts's fetch, so the app's request is answered from the preload), all in parallel with the entry script.
 * The script (ROUTE_PRELOAD_SCRIPT) is fixed; this build's routes and chunks are its data-routes attribute.
 */
function routePreload(): Plugin {
  const routes: { re: string; entry: string; api?: RoutePreloadApi }[] = [
    // Home (with or without ?search=): the head script's regex is tested against the path only.
    { re: '^/$', entry: 'src/app/routes/home-route.tsx' },
    // The listing's first page of data too: the URLs are built in page-scripts.ts as the app's fetchers build them.
    { re: '^/category/([^/]+)(?:/([^/]+))?/?$', entry: 'src/features/categories/components/category-page.tsx', api: 'category' },
    { re: '^/brands-available/([^/]+)/?$', entry: 'src/features/brands/components/brand-page.tsx', api: 'brand' },
    { re: '^/products(?:/|$)', entry: 'src/app/routes/product-route.tsx' },
    { re: '^/categories/?$', entry: 'src/features/categories/components/browse-by-brand-page.tsx' },
    { re: '^/catalog/?$', entry: 'src/features/catalog/components/gallery-page.tsx' },
    { re: '^/about/?$', entry: 'src/features/static-pages/components/about-page.tsx' },
    { re: '^/faq/?$', entry: 'src/features/static-pages/components/faq-page.tsx' },
    { re: '^/contact/?$', entry: 'src/features/contact/components/contact-page.tsx' },
    // Parts diagrams (#38): a machine's assemblies, and one assembly (its drawing's zoom library comes with it).
    { re: '^/machines/[^/]+/[^/]+/?$', entry: 'src/features/diagrams/components/machine-page.tsx' },
    { re: '^/machines/[^/]+/[^/]+/[^/]+/?$', entry: 'src/features/diagrams/components/assembly-page.tsx' },
    { re: '^/(?:privacy|refund-policy|shipping-policy|disclaimer)/?$', entry: 'src/app/routes/policy-routes.tsx' },
  ];
  return {
    name: 'forgeline-route-preload',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const entry = chunks.find((c) => c.isEntry);
        const inEntry = new Set<string>();
        const walk = (file: string, into: Set<string>) => {
          if (into.has(file)) return;
          into.add(file);
          const c = chunks.find((x) => x.fileName === file);
          for (const i of c?.imports ?? []) walk(i, into);
        };
        if (entry) walk(entry.fileName, inEntry);
        const table = routes.map((r): RoutePreloadEntry => {
          const chunk = chunks.find((c) => c.facadeModuleId?.replace(/\\/g, '/').endsWith(r.entry));
          if (!chunk) throw new Error(`route-preload: no chunk for ${r.entry}`);
          const files = new Set<string>();
          walk(chunk.fileName, files);
          return [r.re, [...files].filter((f) => !inEntry.has(f)).map((f) => `/${f}`), r.api ?? ''];
        });
        return [{ tag: 'script', attrs: { 'data-routes': JSON.stringify(table) }, children: ROUTE_PRELOAD_SCRIPT, injectTo: 'head' }];
      },
    },
  };
}

/**
 * The brand's fonts (web/src/app/fonts.css), switched on where it costs the reader nothing. A page paints with the
 * metric-adjusted fallbacks (same widths and line heights). Once the app has taken over (or 5 s in) this fetches the
 * fonts, Inter first: on a phone their 90 kB no longer share the bandwidth with the photo (Lighthouse's LCP went from
 * 1.8-3 s back to 1.0-1.2 s) nor with the app's JavaScript (they took connections from it), and marks them ready
 * (<html data-fonts-ready>). They are switched on (<html data-fonts>) when the page changes anyway: at the app's
 * next navigation (app/root-layout.tsx), and from the first paint of every later page of the visit (sessionStorage;
 * the files come from the browser's cache). Never under a reader's eyes: swapping them on a page being read cost a
 * 150-250 ms relayout on a slow phone (Lighthouse's performance score fell from 95-99 to 85-92). Without
 * JavaScript a <noscript> style switches them on at once (font-display: swap).
 */
function fontLoader(): Plugin {
  return {
    name: 'forgeline-font-loader',
    transformIndexHtml() {
      return [
        { tag: 'script', children: FONT_LOADER_SCRIPT, injectTo: 'head-prepend' },
        { tag: 'noscript', children: '<style>:root{--font-sans:var(--font-sans-brand);--font-display:var(--font-display-brand)}</style>', injectTo: 'head' },
      ];
    },
  };
}

const esc = (t: string) => t.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The home page's first hero slide as static HTML (same classes and sizes as features/home/components/hero-slide.tsx),
 * so the home page's largest paint (the hero photo) happens as soon as the HTML, critical CSS and image arrive, not
 * after the JavaScript has run. It sits in a <template> (inert: no image request on other pages) that an inline
 * script puts in place only on the home page without ?search=. React replaces it with the real slide, same image
 * and box, so neither a layout shift nor a second LCP candidate follows.
 */
function heroShell(): string {
  const first = heroSlides[0];
  if (!first) return '';
  const btn = 'inline-flex items-center justify-center gap-2 rounded-md font-semibold h-12 px-6 text-base';
  const hero =
    `<div aria-hidden="true" class="relative isolate flex min-h-[520px] items-center overflow-hidden bg-ink sm:min-h-[560px] lg:min-h-[620px]">` +
    `<img src="${esc(first.image)}" srcset="${esc(first.image.replace(/\.webp$/, '-800.webp'))} 800w, ${esc(first.image)} 1600w" sizes="100vw" alt="" width="1600" height="900" fetchpriority="high" decoding="sync" data-shell-hero class="absolute inset-0 -z-10 size-full object-cover">` +
    `<div class="absolute inset-0 -z-10 bg-gradient-to-t from-ink/90 via-ink/60 to-ink/30 sm:bg-gradient-to-r sm:from-ink sm:via-ink/75 sm:to-ink/10"></div>` +
    `<div class="container-page py-14"><div class="max-w-2xl">` +
    `<p class="inline-flex items-center gap-2 rounded-sm bg-safety px-3 py-1 text-xs font-extrabold uppercase tracking-[0.18em] text-ink">${esc(first.tagline)}</p>` +
    `<p class="mt-5 font-display text-4xl font-extrabold uppercase leading-[0.95] text-white sm:text-6xl lg:text-7xl">${esc(first.title)}</p>` +
    `<p class="mt-5 max-w-xl text-base leading-relaxed text-zinc-200 sm:text-lg">${esc(first.description)}</p>` +
    `<div class="mt-8 flex flex-wrap gap-3"><span class="${btn} bg-safety text-ink">Contact Us</span><span class="${btn} border-2 border-white/80 text-white">Browse Parts</span></div>` +
    `<p class="mt-8 inline-flex items-center gap-2 rounded-full border border-white/25 bg-white/10 px-4 py-2 text-sm font-semibold text-white backdrop-blur">` +
    `<span class="size-4"></span>${esc(HERO_BADGE)}</p>` +
    `</div></div></div>`;
  return `<template id="hero-shell">${hero}</template><script>${HERO_SHELL_SCRIPT}</script>`;
}

/**
 * A static picture of the header inside #root, for pages the gateway does not server-render (the admin panel, or
 * every page when the server bundle is missing): painted as soon as the CSS arrives, replaced by React's createRoot
 * on mount. Same classes and heights as the real header (features/layout/components/header.tsx), no links or inputs,
 * hidden from assistive technology. On the home page its <main> holds the hero picture. On a server-rendered page
 * the gateway replaces all of it, between the markers, with the app's own HTML.
 */
const ROOT_START = '<!--ssr-root-->';
const ROOT_END = '<!--/ssr-root-->';

function headerShell(): Plugin {
  const [first, ...rest] = siteConfig.name.split(' ');
  const nav = ['HOME', 'PARTS', 'CATALOG', 'ABOUT', 'CONTACT']
    .map((l) => `<span class="inline-flex h-12 items-center px-4 text-sm font-bold tracking-wider text-zinc-200">${l}</span>`)
    .join('');
  const shell =
    `<div class="flex min-h-screen flex-col">` +
    `<div aria-hidden="true" class="sticky top-0 z-40 bg-ink text-white shadow-lg">` +
    `<div class="hidden border-b border-ink-line text-xs text-zinc-300 md:block"><div class="container-page flex h-9 items-center justify-between gap-6">` +
    `<span>${esc(siteConfig.phone)} &nbsp; ${esc(siteConfig.email)}</span><span>${esc(siteConfig.businessHours)}</span></div></div>` +
    `<div class="container-page flex h-16 items-center gap-4 lg:h-20 lg:gap-8">` +
    `<span class="flex shrink-0 items-center gap-2.5"><svg viewBox="0 0 40 40" class="size-9"><path d="M20 2 36 11v18L20 38 4 29V11z" fill="#f5b301"/><path d="M20 9 30 14.5v11L20 31 10 25.5v-11z" fill="#17191c"/><circle cx="20" cy="20" r="4.5" fill="#f5b301"/></svg>` +
    `<span class="font-display text-xl font-extrabold uppercase leading-none tracking-tight text-white">${esc(first ?? '')}<span class="text-safety"> ${esc(rest.join(' '))}</span></span></span>` +
    `<span class="hidden h-11 flex-1 rounded-md bg-white md:block"></span>` +
    `<span class="ml-auto flex items-center gap-2 md:ml-0"><span class="inline-flex h-10 w-10 rounded-md bg-safety sm:w-[118px]"></span><span class="size-10 rounded-md border border-ink-line md:hidden"></span></span>` +
    `</div>` +
    `<div class="container-page pb-3 md:hidden"><span class="block h-11 rounded-md bg-white"></span></div>` +
    `<div class="hidden border-t border-ink-line bg-ink-soft md:block"><div class="container-page flex h-12 items-center gap-1">${nav}</div></div>` +
    `</div><main id="main" class="min-h-screen flex-1">${heroShell()}</main></div>`;
  return {
    name: 'forgeline-header-shell',
    transformIndexHtml(html) {
      // The gateway swaps everything between the two markers for the server-rendered app (gateway/src/seo/ssr.ts).
      return html.replace('<div id="root"></div>', () => `<div id="root">${ROOT_START}${shell}${ROOT_END}</div>`);
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    tailwindcss(),
    heroPreload(),
    routePreload(),
    fontLoader(),
    headerShell(),
    // Critical CSS: the rules the static shell (header, home hero) uses are inlined in index.html, so the first paint
    // needs no stylesheet request. The full sheet is preloaded in <head> and linked at the end of <body>: the shell
    // above it paints without it, and the module script (and main.tsx) wait for it, so React never shows unstyled.
    beasties({ options: { pruneSource: false, reduceInlineStyles: false, logLevel: 'warn' } }),
  ],
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/media': { target: backend, changeOrigin: true },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // Route pages, home too, are lazy chunks; the entry holds the shell (router, query client, header, footer).
    chunkSizeWarningLimit: 400,
    // dist/.vite/manifest.json: which chunks each entry and lazy route loads, read by the size budget
    // (scripts/bundle-budget.ts). Not for browsers: the gateway serves no dot folder, nginx refuses /.vite/.
    manifest: !isSsrBuild,
    // The server-rendering bundle (src/entry-server.tsx, for the gateway) needs no public files beside it.
    copyPublicDir: !isSsrBuild,
    // The server bundle is one file: the gateway imports it with a version query (to pick up a rebuild), and a chunk
    // importing '../entry-server.js' back would get a second copy of every module (React, the contexts).
    rolldownOptions: isSsrBuild ? { output: { codeSplitting: false } } : undefined,
  },
  // One self-contained file for the gateway: it runs without the web app's node_modules (a slim container),
  // with React's production build whatever NODE_ENV the gateway runs under.
  ssr: { noExternal: true },
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
}));
