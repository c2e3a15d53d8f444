import { isValidElement, lazy, Suspense, type ComponentType } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { Spinner } from '../components/ui/spinner.tsx';
import * as quoteListStore from '../features/quote-list/quote-list-store.ts';
import { ErrorScreen } from './error-screen.tsx';
import { RootLayout } from './root-layout.tsx';

type PreloadableRoute = ComponentType & { preload: () => Promise<void> };

/**
 * React.lazy plus preload(): once preloaded, the screen renders at once instead of through its Suspense
 * fallback. main.tsx preloads the first screen before mounting, so a server-rendered page (or the static
 * shell) goes straight to the screen, with no spinner flashed in between.
 */
function lazyRoute(load: () => Promise<{ default: ComponentType }>): PreloadableRoute {
  let Loaded: ComponentType | undefined;
  const Lazy = lazy(load);
  const Screen = () => (Loaded ? <Loaded /> : <Lazy />);
  return Object.assign(Screen, {
    preload: () =>
      load().then((m) => {
        Loaded = m.default;
      }),
  });
}

// Every screen is its own chunk, home too: its sections, the machine selector and the search results' grid are not
// needed by the other pages' first screen. Home's HTML (hero included) is server-rendered, and index.html's head
// script modulepreloads its chunk alongside the entry (vite.config.ts, routePreload), so nothing waits on it.
const HomeRoute = lazyRoute(() => import('./routes/home-route.tsx'));
const ProductRoute = lazyRoute(() => import('./routes/product-route.tsx'));
const BrowseByBrandPage = lazyRoute(() => import('../features/categories/components/browse-by-brand-page.tsx'));
const CategoryPage = lazyRoute(() => import('../features/categories/components/category-page.tsx'));
const GalleryPage = lazyRoute(() => import('../features/catalog/components/gallery-page.tsx'));
const BrandPage = lazyRoute(() => import('../features/brands/components/brand-page.tsx'));
const NotFoundPage = lazyRoute(() => import('./not-found-page.tsx'));
const AboutPage = lazyRoute(() => import('../features/static-pages/components/about-page.tsx'));
const FaqPage = lazyRoute(() => import('../features/static-pages/components/faq-page.tsx'));
const ContactPage = lazyRoute(() => import('../features/contact/components/contact-page.tsx'));
const QuoteListPage = lazyRoute(() => import('../features/quote-list/components/quote-list-page.tsx'));
const QuoteViewPage = lazyRoute(() => import('../features/quote-view/components/quote-view-page.tsx'));
// The account page fills the quote list (a saved parts list, a reorder) with the quote list's own store, handed over
// here since a feature does not reach into another's store. The store is in the entry already (the header's count).
const AccountPage = lazyRoute(() =>
  import('../features/account/components/account-page.tsx').then(({ default: Page }) => ({ default: () => <Page quoteList={quoteListStore} /> })),
);
// Parts diagrams (#38): the assembly page puts lines on the quote list with the quote list's store, handed over as above.
const MachinePage = lazyRoute(() => import('../features/diagrams/components/machine-page.tsx'));
const AssemblyPage = lazyRoute(() =>
  import('../features/diagrams/components/assembly-page.tsx').then(({ default: Page }) => ({ default: () => <Page quoteList={quoteListStore} /> })),
);
const policyRoute = (name: 'PrivacyRoute' | 'RefundPolicyRoute' | 'ShippingPolicyRoute' | 'DisclaimerRoute') =>
  lazyRoute(() => import('./routes/policy-routes.tsx').then((m) => ({ default: m[name] })));
const PrivacyRoute = policyRoute('PrivacyRoute');
const RefundPolicyRoute = policyRoute('RefundPolicyRoute');
const ShippingPolicyRoute = policyRoute('ShippingPolicyRoute');
const DisclaimerRoute = policyRoute('DisclaimerRoute');
// The admin panel is the app's only screen that builds zod schemas (the contracts): zod is told first not to compile
// them with `new Function`, which the Content-Security-Policy refuses (lib/zod-jitless.ts). Kept out of the entry.
const AdminPage = lazy(() => import('../lib/zod-jitless.ts').then(() => import('../features/admin/components/admin-page.tsx')));

/** Spec section 2, route table (also rendered on the server: web/src/entry-server.tsx). */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    children: [
      { index: true, element: <HomeRoute /> },
      { path: 'categories', element: <BrowseByBrandPage /> },
      { path: 'catalog', element: <GalleryPage /> },
      { path: 'category/:name', element: <CategoryPage /> },
      { path: 'category/:name/:brand', element: <CategoryPage /> },
      { path: 'brands-available/:brand', element: <BrandPage /> },
      { path: 'products', element: <ProductRoute /> },
      { path: 'products/:id/*', element: <ProductRoute /> },
      { path: 'about', element: <AboutPage /> },
      { path: 'faq', element: <FaqPage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'quote', element: <QuoteListPage /> },
      { path: 'quote/view/:token', element: <QuoteViewPage /> },
      // A refused answer is the page again at its form's address (the POST's): the same page, the form filled in.
      { path: 'quote/view/:token/:action', element: <QuoteViewPage /> },
      // A buyer's account (issue 35): sign-in by a mailed code; /account/sign-in is where the mail's link lands.
      { path: 'account', element: <AccountPage /> },
      { path: 'account/sign-in', element: <AccountPage /> },
      { path: 'machines/:make/:model', element: <MachinePage /> },
      { path: 'machines/:make/:model/:assembly', element: <AssemblyPage /> },
      { path: 'privacy', element: <PrivacyRoute /> },
      { path: 'refund-policy', element: <RefundPolicyRoute /> },
      { path: 'shipping-policy', element: <ShippingPolicyRoute /> },
      { path: 'disclaimer', element: <DisclaimerRoute /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    path: '/admin/*',
    element: (
      <Suspense fallback={<Spinner />}>
        <AdminPage />
      </Suspense>
    ),
  },
];

/**
 * The route table rendered for the current address, in the browser (main.tsx: BrowserRouter) and on the server
 * (entry-server.tsx: StaticRouter). The declarative router, not the data router: the app loads its data with React
 * Query, so the data router's loaders, actions and fetchers would be ~16 kB of the entry script doing nothing.
 * A screen that throws while rendering shows the error screen (spec section 2), until the next navigation.
 */
export function AppRoutes() {
  const element = useRoutes(routes);
  const { key } = useLocation();
  return (
    <ErrorBoundary fallbackRender={({ error }) => <ErrorScreen error={error} />} resetKeys={[key]}>
      {element}
    </ErrorBoundary>
  );
}

/** Loads the code of the screen `pathname` shows (nothing for screens in the entry chunk). */
export function preloadRoute(pathname: string): Promise<unknown> {
  const loads = (matchRoutes(routes, pathname) ?? []).flatMap((m) => {
    const type: unknown = isValidElement(m.route.element) ? m.route.element.type : undefined;
    return typeof type === 'function' && 'preload' in type ? [(type as PreloadableRoute).preload()] : [];
  });
  return Promise.all(loads);
}
