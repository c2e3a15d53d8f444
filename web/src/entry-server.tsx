/**
 * Server rendering of a page's main content, for the gateway's page handler (gateway/src/seo/ssr.ts).
 *
 * A listing's or a product's largest paint is a product photo (on the content pages, their title band) that React
 * would otherwise draw only after
 * the JavaScript has downloaded and run. The gateway renders the same components here with the data it
 * has already read, and puts the HTML in the page: the photo paints with the HTML and the stylesheet.
 * The browser then mounts the app as usual (createRoot replaces the server HTML, with the same data
 * preloaded into the query cache, so the same cards come back instead of a spinner).
 *
 * Built by `vite build --ssr` into web/dist/.ssr/entry-server.js (a dot folder the static server never serves).
 */
import type { PageData, RenderedMain } from '@forgeline/contracts/ssr';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router-dom';
import { brandProductsQuery } from './features/brands/api/get-brand-products.ts';
import BrandPage from './features/brands/components/brand-page.tsx';
import { categoryProductsQuery } from './features/categories/api/get-category-products.ts';
import CategoryPage from './features/categories/components/category-page.tsx';
import { productQuery } from './features/products/api/get-product.ts';
import ProductPage from './features/products/components/product-page.tsx';
import { createQueryClient } from './lib/query-client.ts';
import { DisclaimerRoute, PrivacyRoute, RefundPolicyRoute, ShippingPolicyRoute } from './app/routes/policy-routes.tsx';
// (Imported directly, not through app/router.tsx: renderToString cannot wait for the router's lazy chunks.)
import ContactPage from './features/contact/components/contact-page.tsx';
import AboutPage from './features/static-pages/components/about-page.tsx';
import FaqPage from './features/static-pages/components/faq-page.tsx';
import type { PreloadedQuery } from './lib/preloaded-queries.ts';

export type { PageData, RenderedMain };

function queriesFor(data: PageData): PreloadedQuery[] {
  switch (data.kind) {
    case 'category':
      return [{ queryKey: categoryProductsQuery({ category: data.category, brand: data.brand, page: data.page }).queryKey, data: data.list }];
    case 'brand':
      return [{ queryKey: brandProductsQuery({ brand: data.brand, page: data.page }).queryKey, data: data.list }];
    case 'product':
      return [{ queryKey: productQuery(data.id).queryKey, data: data.product }];
    case 'static':
      return [];
  }
}

export function renderMain(url: string, data: PageData): RenderedMain {
  const client = createQueryClient();
  const queries = queriesFor(data);
  for (const q of queries) client.setQueryData(q.queryKey, q.data);
  const html = renderToString(
    <QueryClientProvider client={client}>
      <StaticRouter location={url}>
        <Routes>
          <Route path="/category/:name" element={<CategoryPage />} />
          <Route path="/category/:name/:brand" element={<CategoryPage />} />
          <Route path="/brands-available/:brand" element={<BrandPage />} />
          <Route path="/products/:id/*" element={<ProductPage />} />
          <Route path="/about" element={<AboutPage />} />
          <Route path="/faq" element={<FaqPage />} />
          <Route path="/contact" element={<ContactPage />} />
          <Route path="/privacy" element={<PrivacyRoute />} />
          <Route path="/refund-policy" element={<RefundPolicyRoute />} />
          <Route path="/shipping-policy" element={<ShippingPolicyRoute />} />
          <Route path="/disclaimer" element={<DisclaimerRoute />} />
        </Routes>
      </StaticRouter>
    </QueryClientProvider>,
  );
  client.clear();
  // The product itself travels as window.__PRELOADED_PRODUCT__ (spec section 2); lists go in the query cache.
  return { html, queries: data.kind === 'product' ? [] : queries };
}
