import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { preloadRoute } from './app/router.tsx';
import './app/styles.css';

const container = document.getElementById('root');

/** A failure before React can show its own error screen still leaves the visitor a message. */
function showMountFailure(error: unknown) {
  console.error('The storefront failed to start', error);
  if (!container) return;
  container.innerHTML = '';
  const box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.style.cssText = 'font-family:system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1rem;text-align:center;color:#17191c';
  const h = document.createElement('h1');
  h.textContent = 'Something went wrong. Please refresh the page.';
  const b = document.createElement('button');
  b.textContent = 'Refresh Page';
  b.style.cssText = 'margin-top:1.5rem;padding:.75rem 1.5rem;border:0;border-radius:.375rem;background:#f5b301;color:#17191c;font-weight:600;cursor:pointer';
  b.onclick = () => window.location.reload();
  box.append(h, b);
  container.append(box);
}

/** Resolves once `img` has painted: seen as a largest-contentful-paint entry where supported, else decoded plus a frame. */
function painted(img: HTMLImageElement): Promise<unknown> {
  if (PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) {
    return new Promise((resolve) => {
      img.addEventListener('error', resolve, { once: true });
      const observer = new PerformanceObserver((list) => {
        if (list.getEntries().some((e) => (e as PerformanceEntry & { element?: Element | null }).element === img)) {
          observer.disconnect();
          resolve(undefined);
        }
      });
      observer.observe({ type: 'largest-contentful-paint', buffered: true });
    });
  }
  return img
    .decode()
    .catch(() => undefined)
    .then(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/**
 * Pages the gateway did not server-render (the admin panel; any page when the SSR bundle is missing): index.html
 * paints a static shell (header; the hero on the home page) with inlined critical CSS before this script runs.
 * React replaces it only once (a) the full stylesheet, loaded without blocking paint, has arrived, so the app
 * never shows unstyled, and (b) the shell's hero photo has painted, so the page's largest paint is not thrown away
 * unseen and redone after the JavaScript, and (c) the first screen's code has loaded, so it renders at once instead of
 * flashing its loading spinner over the shell. Capped, so a slow file never holds the app back.
 */
function shellSettled(): Promise<unknown> {
  const waits: Promise<unknown>[] = [preloadRoute(window.location.pathname).catch(() => undefined)];
  const css = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"][href^="/assets/"]');
  if (css && !css.sheet) {
    waits.push(
      new Promise((resolve) => {
        css.addEventListener('load', resolve, { once: true });
        css.addEventListener('error', resolve, { once: true });
      }),
    );
  }
  // The home hero of the static shell.
  const hero = document.querySelector<HTMLImageElement>('#root img[data-shell-hero]');
  if (hero) waits.push(painted(hero));
  return Promise.race([Promise.all(waits), new Promise((resolve) => setTimeout(resolve, 1500))]);
}

/**
 * A page the gateway server-rendered (<html data-ssr>) is the app's own HTML for this address: React hydrates it,
 * attaching to what is on screen instead of drawing it again, so nothing moves or reloads, and the photo's paint
 * stays the page's largest.
 */
function hydrate(root: HTMLElement) {
  const element = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  const start = () => {
    try {
      // As a transition, hydration is time-sliced (it yields to the browser every few ms, so a tap or a scroll is
      // never held by one long task); the server's HTML stays live meanwhile, its links and forms working.
      startTransition(() => {
        hydrateRoot(root, element, {
          // A mismatch makes React draw that part again in the browser: visible only as a console line, which the
          // browser tests fail on.
          onRecoverableError: (error, info) => console.error('Hydration error:', error, info.componentStack ?? ''),
        });
      });
    } catch (error) {
      showMountFailure(error);
    }
  };
  // The screen sits in a Suspense boundary, hydrated after the header: its code loads meanwhile (until it has, React
  // keeps the server's HTML there and goes on when it arrives), so the header search need not wait for it.
  void preloadRoute(window.location.pathname).catch(() => undefined);
  start();
}

function mount() {
  try {
    if (!container) throw new Error('#root is missing from index.html');
    const root = createRoot(container);
    // As a transition the first render is time-sliced (it yields to the browser every few ms) instead of one long
    // main-thread task; the static shell stays on screen until it commits.
    startTransition(() => {
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
  } catch (error) {
    showMountFailure(error);
  }
}

/**
 * Every screen is a lazy chunk, home too. A screen's code is fetched as soon as the visitor points at, touches or
 * focuses a link or a form leading to it, so the tap or the Enter that follows finds it loaded instead of showing the
 * loading spinner: the navigation's links, the cards, and the header search's form (its results are home's screen).
 */
function preloadOnIntent() {
  const seen = new Set<string>();
  const intent = (event: Event) => {
    const el = event.target instanceof Element ? event.target.closest('a[href], form') : null;
    if (!el) return;
    const url = new URL(el.getAttribute(el.tagName === 'FORM' ? 'action' : 'href') ?? '', window.location.href);
    if (url.origin !== window.location.origin || seen.has(url.pathname)) return;
    seen.add(url.pathname);
    preloadRoute(url.pathname).catch(() => seen.delete(url.pathname));
  };
  for (const type of ['pointerover', 'focusin']) document.addEventListener(type, intent, { capture: true, passive: true });
}

preloadOnIntent();
if (container && document.documentElement.hasAttribute('data-ssr')) hydrate(container);
else void shellSettled().then(mount);
