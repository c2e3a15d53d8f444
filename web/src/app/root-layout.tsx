import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation, type Location } from 'react-router-dom';
import { HydrateLater } from '../components/ui/hydrate-later.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { FloatingActions } from '../features/layout/components/floating-actions.tsx';
import { Footer } from '../features/layout/components/footer.tsx';
import { Header } from '../features/layout/components/header.tsx';
import { HeaderSearch } from '../features/search/components/header-search.tsx';
import { useScrollRestoration } from '../lib/use-scroll-restoration.ts';

/** Spec section 2: a live chat widget exists but stays inactive without credentials; it only warns. */
function useInactiveLiveChat() {
  useEffect(() => {
    if (!import.meta.env.VITE_LIVE_CHAT_ID) console.warn('Live chat widget inactive: no credentials configured (VITE_LIVE_CHAT_ID).');
  }, []);
}

/**
 * The brand's fonts, once loaded (web/vite.config.ts fontLoader: <html data-fonts-ready>), are switched on at the
 * next navigation, when the page changes anyway, never under a reader's eyes.
 */
function useFontsOnNavigation() {
  const { pathname, search } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const root = document.documentElement;
    if (root.hasAttribute('data-fonts-ready')) root.setAttribute('data-fonts', '');
  }, [pathname, search]);
}

/**
 * Scroll positions are kept per history entry (lib/use-scroll-restoration.ts). A page loaded as a new document has React Router's key "default",
 * the same as the previous document's first page had: keyed on it, /categories opened from a scrolled-down /catalog
 * opened scrolled down too. Such a page is keyed by its address instead (a reload still comes back to where it was).
 */
const scrollKey = (location: Location) =>
  location.key === 'default' ? `${location.pathname}${location.search}` : location.key;

/** Header, the routed screen, footer and the floating buttons. */
export function RootLayout() {
  useInactiveLiveChat();
  useFontsOnNavigation();
  useScrollRestoration(scrollKey);
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-safety px-4 py-2 font-semibold text-ink focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        Skip to content
      </a>
      <Header renderSearch={(variant) => <HeaderSearch variant={variant} />} />
      <main id="main" className="min-h-screen flex-1">
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
      <HydrateLater>
        <Footer />
      </HydrateLater>
      <HydrateLater>
        <FloatingActions />
      </HydrateLater>
    </div>
  );
}
