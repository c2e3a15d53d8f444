/**
 * Server rendering of the storefront's pages, for the gateway's page handler (gateway/src/seo/ssr.ts).
 *
 * The gateway reads a page's data and this renders the whole app for that address (header, page, footer) with the
 * app's own route table, providers and components, so the HTML is a working page from its first byte: links, the
 * header search form, pagination links, the quote link and the no-JavaScript quote form. The browser then hydrates
 * it (main.tsx: hydrateRoot) with the same data (the page's #__PRELOADED_QUERIES__ data block), so React attaches to this HTML
 * instead of drawing the page again: nothing moves, and what the visitor typed or scrolled stays.
 *
 * Built by `vite build --ssr` into web/dist/.ssr/entry-server.js (a dot folder the static server never serves).
 */
import type { PageData, RenderedPage } from '@forgeline/contracts/ssr';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { AppProviders } from './app/providers.tsx';
import { AppRoutes, preloadRoute } from './app/router.tsx';
import { SEARCH_RESULTS_PAGE_SIZE } from './config/constants.ts';
import { brandProductsQuery } from './features/brands/api/get-brand-products.ts';
import { catalogProductsQuery } from './features/catalog/api/get-catalog-products.ts';
import { categoryProductsQuery } from './features/categories/api/get-category-products.ts';
import { subcategoriesQuery } from './features/categories/api/get-subcategories.ts';
import { productQuery } from './features/products/api/get-product.ts';
import { searchProductsQuery } from './features/search/api/search-products.ts';
import { quoteViewQuery } from './features/quote-view/api/get-quote-view.ts';
import { assemblyQuery } from './features/diagrams/api/get-assembly.ts';
import { machineQuery } from './features/diagrams/api/get-machine.ts';
import { quoteViewFormKey } from '@forgeline/contracts/ssr';
import type { PreloadedQuery } from './lib/preloaded-queries.ts';
import { createQueryClient } from './lib/query-client.ts';
import { ServerQuoteFormContext, ServerQuoteListContext } from './lib/server-quote-form.ts';

export type { PageData, RenderedPage };

/** The query-cache entries the page's components read, under the keys the app's own query definitions use. */
function queriesFor(data: PageData): PreloadedQuery[] {
  switch (data.kind) {
    case 'category':
      return [{ queryKey: categoryProductsQuery({ category: data.category, brand: data.brand, page: data.page }).queryKey, data: data.list }];
    case 'brand':
      return [{ queryKey: brandProductsQuery({ brand: data.brand, page: data.page }).queryKey, data: data.list }];
    case 'product':
      return [{ queryKey: productQuery(data.id).queryKey, data: data.product }];
    case 'search':
      return data.list
        ? [{ queryKey: searchProductsQuery(data.search, SEARCH_RESULTS_PAGE_SIZE, (data.page - 1) * SEARCH_RESULTS_PAGE_SIZE).queryKey, data: data.list }]
        : [];
    case 'catalog':
      return [{ queryKey: catalogProductsQuery({ page: data.page, search: data.search }).queryKey, data: data.list }];
    case 'categories':
      return [{ queryKey: subcategoriesQuery().queryKey, data: data.subcategories }];
    case 'quote-view':
      return [
        { queryKey: quoteViewQuery(data.token).queryKey, data: data.view },
        ...(data.form ? [{ queryKey: quoteViewFormKey(data.token), data: data.form }] : []),
      ];
    case 'machine':
      return [{ queryKey: machineQuery(data.make, data.model).queryKey, data: data.machine }];
    case 'assembly':
      return [{ queryKey: assemblyQuery(data.make, data.model, data.assembly).queryKey, data: data.page }];
    case 'home':
    case 'static':
    case 'quote-list': // its form is for browsers without JavaScript only: nothing for the app
      return [];
  }
}

export async function renderPage(url: string, data: PageData): Promise<RenderedPage> {
  const client = createQueryClient();
  const queries = queriesFor(data);
  for (const q of queries) client.setQueryData(q.queryKey, q.data);
  const location = new URL(url, 'http://localhost');
  // The route's code is a lazy chunk in the browser; loaded here first, the page renders whole, not its spinner.
  await preloadRoute(location.pathname);
  // The same tree as main.tsx's <StrictMode><App/></StrictMode> (App = AppProviders around the router), so React's
  // generated ids (useId: labels, dialogs) come out the same on both sides.
  const html = renderToString(
    <StrictMode>
      <ServerQuoteFormContext.Provider value={data.kind === 'product' ? data.quote : undefined}>
        <ServerQuoteListContext.Provider value={data.kind === 'quote-list' ? data : undefined}>
          <AppProviders client={client}>
            <StaticRouter location={`${location.pathname}${location.search}`}>
              <AppRoutes />
            </StaticRouter>
          </AppProviders>
        </ServerQuoteListContext.Provider>
      </ServerQuoteFormContext.Provider>
    </StrictMode>,
  );
  client.clear();
  // The product itself travels in its own data block (#__PRELOADED_PRODUCT__, spec section 2); lists go in the query cache.
  return { html, queries: data.kind === 'product' ? [] : queries };
}
