/** The services the gateway fronts. */
export type ServiceName = 'catalog' | 'quotes' | 'auth' | 'media';

export interface RouteRule {
  prefix: string;
  service: ServiceName;
  /** Needs a live admin session (checked at the gateway before the service sees the request). */
  admin?: boolean;
  /** Needs a live buyer session: the gateway signs the buyer's assertion for the service (buyer-auth.ts). */
  buyer?: boolean;
  /** Uploads: longer timeout. */
  upload?: boolean;
  /** API keys may call it with `<keyScope>:read` (GET, HEAD) or `<keyScope>:write` (the rest); without it, keys get 403. */
  keyScope?: 'catalog' | 'quotes';
}

/**
 * Path prefix → service. The longest matching prefix wins, so the specific admin routes sit beside
 * the general `/api/admin` one. /internal is never routed: services' internal routes stay private.
 */
export const routeTable: RouteRule[] = [
  { prefix: '/api/products', service: 'catalog' },
  { prefix: '/api/catalog', service: 'catalog' },
  { prefix: '/api/brands', service: 'catalog' },
  { prefix: '/api/subcategories', service: 'catalog' },
  { prefix: '/api/testimonials', service: 'catalog' },
  { prefix: '/api/parts', service: 'catalog' },
  { prefix: '/api/fitment', service: 'catalog' },
  // Machines' parts books (#38): a model's assemblies and each assembly's drawing and table.
  { prefix: '/api/machines', service: 'catalog' },
  { prefix: '/api/search', service: 'catalog' },
  { prefix: '/media/generated', service: 'catalog' },
  { prefix: '/api/admin/products', service: 'catalog', admin: true, keyScope: 'catalog' },
  { prefix: '/api/admin/search-products-by-code', service: 'catalog', admin: true, keyScope: 'catalog' },
  { prefix: '/api/admin/search', service: 'catalog', admin: true, keyScope: 'catalog' },
  // The seller's catalogue: imports (files up to 700 MB), their status and errors, the export.
  { prefix: '/api/admin/catalog', service: 'catalog', admin: true, upload: true, keyScope: 'catalog' },
  // Parts diagrams (#38): the editor's assemblies, their CSV import (an upload) and export. Drawings go to media.
  { prefix: '/api/admin/assemblies', service: 'catalog', admin: true, upload: true, keyScope: 'catalog' },
  { prefix: '/api/quote-requests', service: 'quotes' },
  { prefix: '/api/captcha', service: 'quotes' },
  { prefix: '/api/contact', service: 'quotes' },
  // The buyer's own quote page (its link is the key: no session), and its answers.
  { prefix: '/api/quote-view', service: 'quotes' },
  { prefix: '/api/admin/auth', service: 'auth' },
  // A buyer's account (issue 35): sign-in by code into a buyer session (its own cookie; no staff route takes it).
  { prefix: '/api/account', service: 'auth' },
  // The buyer's own quote requests and orders: the quotes service answers for the company the gateway vouches for.
  { prefix: '/api/account/quotes', service: 'quotes', buyer: true },
  { prefix: '/api/account/orders', service: 'quotes', buyer: true },
  { prefix: '/api/admin/quotes', service: 'quotes', admin: true, keyScope: 'quotes' },
  // Orders the buyers' accepts made (issue 34): the quotes service keeps them with their requests.
  { prefix: '/api/admin/orders', service: 'quotes', admin: true, keyScope: 'quotes' },
  // The seller's webhook endpoints: staff only (an API key never adds where the seller's data is sent).
  { prefix: '/api/admin/webhooks', service: 'quotes', admin: true },
  // Staff only (a key never manages keys or reads the audit log): the auth service checks that too.
  { prefix: '/api/admin/api-keys', service: 'auth', admin: true },
  { prefix: '/api/admin/audit', service: 'auth', admin: true },
  { prefix: '/api/admin/sign-in-locks', service: 'auth', admin: true },
  // Staff see a buyer's company, its members and machines beside a request (issue 35); keys with quotes:read too.
  { prefix: '/api/admin/buyer-accounts', service: 'auth', admin: true, keyScope: 'quotes' },
  { prefix: '/api/admin', service: 'media', admin: true, upload: true },
  { prefix: '/media', service: 'media' },
];

/** Upload routes of the media service sit under /api/admin/products/{id}/upload-image too. */
const mediaUnderProducts = /^\/api\/admin\/products\/[^/]+\/upload-image\/?$/;

const sorted = [...routeTable].sort((a, b) => b.prefix.length - a.prefix.length);

export function matchRoute(pathname: string): RouteRule | undefined {
  if (mediaUnderProducts.test(pathname)) return { prefix: '/api/admin/products', service: 'media', admin: true, upload: true };
  return sorted.find((r) => pathname === r.prefix || pathname.startsWith(`${r.prefix}/`));
}
