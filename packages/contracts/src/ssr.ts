/**
 * The server-rendering contract between the gateway (gateway/src/seo/ssr.ts) and the web app's SSR bundle
 * (web/src/entry-server.tsx, built to web/dist/.ssr/entry-server.js): types (the bundle is plain JavaScript), and
 * the ids of the data blocks the gateway puts in a page for the browser's app.
 */
import type { BrandProductsResponse, ProductDetail, ProductListResponse, ProductSummary, Subcategory } from './products.ts';
import type { Captcha } from './quotes.ts';
import type { QuoteView } from './quote-view.ts';
import type { AssemblyPage, MachinePage } from './parts-diagrams.ts';

/**
 * The buyer's quote page after a refused answer (its forms post to the gateway: gateway/src/seo/quote-view-page.ts):
 * which form, what was typed and what was wrong. It travels to the browser in the query cache (QUOTE_VIEW_FORM_KEY),
 * so the app hydrates the same page.
 */
export interface QuoteViewFormState {
  action: 'accept' | 'changes' | 'decline' | 'reopen';
  values: Record<string, string>;
  /** Field name as the form names it ('' for the whole form) and message. */
  errors: { field: string; message: string }[];
}
/** The query-cache key of a quote page's form state. */
export const quoteViewFormKey = (token: string) => ['quote-view-form', token] as const;

/**
 * The quote form a product page carries for visitors without JavaScript (`?quote=1`): the gateway's security check,
 * and after a refused POST /quote-request what they typed and what was wrong, so nothing they typed is lost.
 */
export interface QuoteFormState {
  /** null when the quotes service could not issue one: the form says so and offers WhatsApp and e-mail. */
  captcha: Captcha | null;
  values?: Record<string, string>;
  /** Field name ('' for the whole form) and message. */
  errors?: { field: string; message: string }[];
}

/** A part as the no-JavaScript quote list shows it. */
export type QuoteListFormPart = Pick<ProductSummary, 'id' | 'name' | 'sku' | 'partNumber' | 'brandName' | 'slug'>;

/**
 * The quote list page for a link that adds parts (`/quote?add=…`, quote-list-link.ts) as a visitor without JavaScript
 * gets it: the parts the catalogue sells with the quantities asked, and a plain form asking one quote for all of them
 * (posted to the gateway like the product page's, `form` being its state). With JavaScript the app puts the parts on
 * the buyer's own list instead, and this form is not shown.
 */
export interface QuoteListFormData {
  lines: { product: QuoteListFormPart; quantity: number }[];
  /** Ids asked for that the catalogue does not sell, with the part that replaced one where there is one. */
  notSold: { id: string; replacedBy: QuoteListFormPart | null }[];
  form: QuoteFormState;
}

/**
 * The page's data for the app travels in JSON data blocks, `<script type="application/json" id="…">` (never executed,
 * so the Content-Security-Policy needs no inline script for them), read once by web/src/lib/page-data.ts.
 * The product a product page shows (spec section 2: the product preloaded for the first request).
 */
export const PRELOADED_PRODUCT_ID = '__PRELOADED_PRODUCT__';
/** The query-cache entries a server-rendered page was rendered with (RenderedPage.queries). */
export const PRELOADED_QUERIES_ID = '__PRELOADED_QUERIES__';

/** What the gateway read for the page; `category`, `brand` and `id` are the address's segments, decoded. */
export type PageData =
  /** Home; `search` (with its first results page) when the address has ?search=. */
  | { kind: 'home' }
  | { kind: 'search'; search: string; page: number; list: ProductListResponse | null }
  | { kind: 'categories'; subcategories: Subcategory[] }
  | { kind: 'catalog'; page: number; search: string; list: ProductListResponse }
  | { kind: 'category'; category: string; brand?: string; page: number; list: ProductListResponse }
  | { kind: 'brand'; brand: string; page: number; list: BrandProductsResponse }
  | { kind: 'product'; id: string; product: ProductDetail; quote?: QuoteFormState }
  /** The buyer's quote page (/quote/view/<token>): null when the link opens nothing (404). */
  | { kind: 'quote-view'; token: string; view: QuoteView | null; form?: QuoteViewFormState }
  /** The quote list (/quote) opened with parts to add (?add=): see QuoteListFormData. */
  | ({ kind: 'quote-list' } & QuoteListFormData)
  /** A machine model's parts book (#38): `make` and `model` as the address has them (slugs or names). */
  | { kind: 'machine'; make: string; model: string; machine: MachinePage }
  /** One assembly of it: its drawing and callout table. */
  | { kind: 'assembly'; make: string; model: string; assembly: string; page: AssemblyPage }
  /** About, FAQ, Contact and the policies: content from the site configuration, no catalogue data. */
  | { kind: 'static' };

export interface RenderedPage {
  /** The inside of <div id="root">: the whole app (header, page, footer) as it renders that address. */
  html: string;
  /** Query-cache entries for the browser (the `#__PRELOADED_QUERIES__` data block), so it hydrates with the same data. */
  queries: { queryKey: readonly unknown[]; data: unknown }[];
}

/** What the bundle exports. */
export interface EntryServer {
  renderPage(url: string, data: PageData): Promise<RenderedPage>;
}
