/**
 * The only executable inline scripts the site's pages carry, as fixed text. The Content-Security-Policy
 * (security-headers.ts) allows scripts from the site's own files and these by their sha256 hash, nothing else: a
 * script an attacker slips into a page runs nowhere. What changes from build to build or page to page (file names,
 * image addresses) is never part of the code: a script reads it from its own `data-*` attributes
 * (`document.currentScript`), so the hashes stay the same and nginx's copy of the headers can be generated once.
 * Page data travels as `<script type="application/json">` blocks, which are never executed.
 *
 * Used by web/vite.config.ts (the four head/shell scripts of index.html, where each one's purpose is explained) and
 * gateway/src/seo/ssr.ts (the app's late start on server-rendered pages). Change a script here and its hash follows;
 * `npm run nginx-headers` then rewrites infra/nginx/security-headers*.conf (a test fails until it has).
 */

/** web/vite.config.ts, fontLoader: the brand's fonts, fetched once the app has taken over (or 5 s in). */
export const FONT_LOADER_SCRIPT =
  `(function(){var d=document.documentElement,k='forgeline-fonts',done=0;` +
  `try{if(sessionStorage.getItem(k)){d.setAttribute('data-fonts','');d.setAttribute('data-fonts-ready','');return}}catch(e){}` +
  `function go(){if(done)return;done=1;var f=document.fonts;if(!f||!f.load)return;` +
  `f.load('1em Inter').then(function(){return Promise.all([f.load('700 1em "Barlow Condensed"'),f.load('800 1em "Barlow Condensed"')])})` +
  `.then(function(){d.setAttribute('data-fonts-ready','');try{sessionStorage.setItem(k,'1')}catch(e){}},function(){})}` +
  `function app(){if(d.getAttribute('data-app')==='ready')setTimeout(go,0)}` +
  `try{new MutationObserver(app).observe(d,{attributes:true,attributeFilter:['data-app']})}catch(e){}` +
  `setTimeout(go,5000)})()`;

/**
 * web/vite.config.ts, heroPreload: on the home page, preloads the first hero slide at the screen's size.
 * Attributes: `data-href` (the image), `data-srcset`.
 */
export const HERO_PRELOAD_SCRIPT =
  `(function(){var s=document.currentScript;if(location.pathname==='/'&&!/[?&]search=/.test(location.search)){` +
  `var l=document.createElement('link');l.rel='preload';l.as='image';l.href=s.getAttribute('data-href');` +
  `l.setAttribute('imagesrcset',s.getAttribute('data-srcset'));l.setAttribute('imagesizes','100vw');` +
  `l.setAttribute('fetchpriority','high');document.head.appendChild(l)}})()`;

/** How ROUTE_PRELOAD_SCRIPT preloads a listing's first API answer (the same URL the app's fetcher asks for). */
export type RoutePreloadApi = '' | 'category' | 'brand';
/** One route for ROUTE_PRELOAD_SCRIPT: [path pattern (RegExp source), chunk URLs, listing data to preload]. */
export type RoutePreloadEntry = [pattern: string, chunks: string[], api: RoutePreloadApi];

/**
 * web/vite.config.ts, routePreload: modulepreloads the route's chunks and preloads a listing's first API answer. On a
 * page the gateway server-rendered (<html data-ssr>) the app starts late (gateway/src/seo/ssr.ts): the chunks are
 * held for it in `window.__lateModules`, and the listing's data is already in the page. Attribute: `data-routes`,
 * JSON of RoutePreloadEntry[]. The URLs built here are the app's own requests (same URL and credentials mode as
 * web/src/lib/api-client.ts), so the app's fetch is answered from the preload:
 * - 'category': web/src/features/categories/api/get-category-products.ts,
 *   withQuery('/api/products', { category, brand, limit: 75, offset });
 * - 'brand': web/src/features/brands/api/get-brand-products.ts,
 *   withQuery(`/api/brands/${encodeURIComponent(brand)}/products`, { page, limit: 75 }).
 */
export const ROUTE_PRELOAD_SCRIPT =
  `(function(){var s=document.currentScript,p=location.pathname,m,h=document.head,d=decodeURIComponent,` +
  `n=Number(new URLSearchParams(location.search).get('page')),pg=Number.isInteger(n)&&n>=1?n:1;` +
  `function ssr(){return document.documentElement.hasAttribute('data-ssr')}` +
  `function j(u){if(ssr()){(window.__lateModules=window.__lateModules||[]).push(u);return}` +
  `var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=u;h.appendChild(l)}` +
  `function a(u){if(ssr())return;var l=document.createElement('link');l.rel='preload';l.as='fetch';l.crossOrigin='use-credentials';l.href=u;h.appendChild(l)}` +
  `try{var r=JSON.parse(s.getAttribute('data-routes')),i,q;for(i=0;i<r.length;i++){if(m=new RegExp(r[i][0]).exec(p)){r[i][1].forEach(j);` +
  `if(r[i][2]==='category'){q=new URLSearchParams();q.set('category',d(m[1]));if(m[2])q.set('brand',d(m[2]));` +
  `q.set('limit','75');q.set('offset',String((pg-1)*75));a('/api/products?'+q)}` +
  `else if(r[i][2]==='brand')a('/api/brands/'+encodeURIComponent(d(m[1]))+'/products?page='+pg+'&limit=75');break}}}catch(e){}})()`;

/** web/vite.config.ts, heroShell: puts the static hero picture in place, on the home page only. */
export const HERO_SHELL_SCRIPT =
  `if(location.pathname==='/'&&!/[?&]search=/.test(location.search)){var t=document.getElementById('hero-shell');t.replaceWith(t.content)}`;

/**
 * gateway/src/seo/ssr.ts, deferAppStart: starts the app on a server-rendered page once the first screen's photo has
 * painted (phones), the images in view have arrived (wide screens), the frame after `load`, or 3 s in.
 * Attributes: `data-entry` (the entry module), `data-preloads` (JSON: the chunks to modulepreload with it).
 */
export const APP_START_SCRIPT =
  `(function(){var d=document,w=window,s=d.currentScript,done=0;function go(){if(done)return;done=1;` +
  `JSON.parse(s.getAttribute('data-preloads')||'[]').concat(w.__lateModules||[]).forEach(function(u){var l=d.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=u;d.head.appendChild(l)});` +
  `var e=d.createElement('script');e.type='module';e.crossOrigin='';e.src=s.getAttribute('data-entry');d.head.appendChild(e)}` +
  // A wide screen (a desktop, on a fixed line): as soon as the first screen's images (eager, in view) have arrived.
  `function settle(){var im=d.images,h=innerHeight;for(var i=0;i<im.length;i++){var m=im[i];` +
  `if(!m.complete&&m.loading!=='lazy'&&m.getBoundingClientRect().top<h){m.addEventListener('load',settle,{once:true});m.addEventListener('error',settle,{once:true});return}}go()}` +
  `if(innerWidth>=1024){if(d.readyState==='loading')d.addEventListener('DOMContentLoaded',settle);else settle()}` +
  // Elsewhere (a phone's bandwidth is scarce): once the photo has painted.
  `try{new PerformanceObserver(function(l){if(l.getEntries().some(function(e){return e.element&&e.element.tagName==='IMG'}))go()}).observe({type:'largest-contentful-paint',buffered:true})}catch(e){}` +
  // After load, one frame more: the photo loaded with the page paints before the JavaScript is asked for.
  `w.addEventListener('load',function(){requestAnimationFrame(function(){setTimeout(go,0)})});setTimeout(go,3000)})()`;

/** Every inline script a page may carry; the CSP lists their hashes. */
export const PAGE_SCRIPTS: readonly string[] = [FONT_LOADER_SCRIPT, HERO_PRELOAD_SCRIPT, ROUTE_PRELOAD_SCRIPT, HERO_SHELL_SCRIPT, APP_START_SCRIPT];
