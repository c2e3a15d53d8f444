/**
 * The server-rendering contract between the gateway (gateway/src/seo/ssr.ts) and the web app's SSR bundle
 * (web/src/entry-server.tsx, built to web/dist/.ssr/entry-server.js). Types only: the bundle is plain JavaScript.
 */
import type { BrandProductsResponse, Product, ProductListResponse } from './products.ts';

/** What the gateway read for the page; `category`, `brand` and `id` are the address's segments, decoded. */
export type PageData =
  | { kind: 'category'; category: string; brand?: string; page: number; list: ProductListResponse }
  | { kind: 'brand'; brand: string; page: number; list: BrandProductsResponse }
  | { kind: 'product'; id: string; product: Product }
  /** About, FAQ, Contact and the policies: content from the site configuration, no catalogue data. */
  | { kind: 'static' };

export interface RenderedMain {
  /** The inside of <main>, as the app's route renders it. */
  html: string;
  /** Query-cache entries for the browser (window.__PRELOADED_QUERIES__), so its first render has the data. */
  queries: { queryKey: readonly unknown[]; data: unknown }[];
}

/** What the bundle exports. */
export interface EntryServer {
  renderMain(url: string, data: PageData): RenderedMain;
}
