import { lazy, Suspense } from 'react';
import { createBrowserRouter } from 'react-router-dom';
import { Spinner } from '../components/ui/spinner.tsx';
import { ErrorScreen } from './error-screen.tsx';
// Home is the usual landing page: kept in the entry so its hero paints without waiting for another chunk.
import HomeRoute from './routes/home-route.tsx';
import { RootLayout } from './root-layout.tsx';
import { DisclaimerRoute, PrivacyRoute, RefundPolicyRoute, ShippingPolicyRoute } from './routes/policy-routes.tsx';

// Every other screen is its own chunk.
const ProductRoute = lazy(() => import('./routes/product-route.tsx'));
const BrowseByBrandPage = lazy(() => import('../features/categories/components/browse-by-brand-page.tsx'));
const CategoryPage = lazy(() => import('../features/categories/components/category-page.tsx'));
const GalleryPage = lazy(() => import('../features/catalog/components/gallery-page.tsx'));
const BrandPage = lazy(() => import('../features/brands/components/brand-page.tsx'));
const NotFoundPage = lazy(() => import('./not-found-page.tsx'));
const AboutPage = lazy(() => import('../features/static-pages/components/about-page.tsx'));
const FaqPage = lazy(() => import('../features/static-pages/components/faq-page.tsx'));
const ContactPage = lazy(() => import('../features/contact/components/contact-page.tsx'));
const AdminPage = lazy(() => import('../features/admin/components/admin-page.tsx'));

/** Spec section 2, route table. */
export function createRouter() {
  return createBrowserRouter([
    {
      path: '/',
      element: <RootLayout />,
      errorElement: <ErrorScreen />,
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
        { path: 'privacy', element: <PrivacyRoute /> },
        { path: 'refund-policy', element: <RefundPolicyRoute /> },
        { path: 'shipping-policy', element: <ShippingPolicyRoute /> },
        { path: 'disclaimer', element: <DisclaimerRoute /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
    {
      path: '/admin/*',
      errorElement: <ErrorScreen />,
      element: (
        <Suspense fallback={<Spinner />}>
          <AdminPage />
        </Suspense>
      ),
    },
  ]);
}
