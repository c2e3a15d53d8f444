import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { heroSlides } from '../packages/site-config/src/hero-slides.ts';
import { siteConfig } from '../packages/site-config/src/site.ts';

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
      const code =
        `if(location.pathname==='/'&&!/[?&]search=/.test(location.search)){var l=document.createElement('link');` +
        `l.rel='preload';l.as='image';l.href=${JSON.stringify(first.image)};` +
        `l.setAttribute('imagesrcset',${JSON.stringify(srcset)});l.setAttribute('imagesizes','100vw');` +
        `l.setAttribute('fetchpriority','high');document.head.appendChild(l)}`;
      return [{ tag: 'script', children: code, injectTo: 'head' }];
    },
  };
}

const esc = (t: string) => t.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A static picture of the header inside #root, painted as soon as the CSS arrives: the first paint no longer waits
 * for the JavaScript. React's createRoot replaces it on mount. Same classes and heights as the real header
 * (features/layout/components/header.tsx), no links or inputs, hidden from assistive technology.
 */
function headerShell(): Plugin {
  const [first, ...rest] = siteConfig.name.split(' ');
  const nav = ['HOME', 'PARTS', 'CATALOG', 'ABOUT', 'CONTACT']
    .map((l) => `<span class="inline-flex h-12 items-center px-4 text-sm font-bold tracking-wider text-zinc-200">${l}</span>`)
    .join('');
  const shell =
    `<div aria-hidden="true" class="flex min-h-screen flex-col">` +
    `<div class="sticky top-0 z-40 bg-ink text-white shadow-lg">` +
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
    `</div><div class="min-h-screen flex-1"></div></div>`;
  return {
    name: 'forgeline-header-shell',
    transformIndexHtml(html) {
      return html.replace('<div id="root"></div>', () => `<div id="root">${shell}</div>`);
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), heroPreload(), headerShell()],
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/media': { target: backend, changeOrigin: true },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // Route pages are lazy chunks; the entry holds the shell (router, query client, header, footer) and home.
    chunkSizeWarningLimit: 400,
  },
});
