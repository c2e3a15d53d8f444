/**
 * The security headers of every response, defined once for both ways the site is served: the gateway sets them with
 * helmet (gateway/src/security-headers.ts), and nginx (docker compose) includes infra/nginx/security-headers*.conf,
 * generated from this file by `npm run nginx-headers` (a test fails when the committed files differ).
 *
 * Three kinds of route: the admin panel (/admin and below) may not be framed at all; every other page only by the
 * site itself. The private pages, whose address holds a secret (the buyer's quote page /quote/view/<token> and its
 * API /api/quote-view/<token>, with the answers posted under both), are the site's but send no referrer and are not
 * indexed (Referrer-Policy: no-referrer, X-Robots-Tag: noindex, nofollow), so the token leaves neither in a Referer
 * header nor through a search engine.
 *
 * Scripts run only from the site's own files and the fixed inline scripts of page-scripts.ts (by hash); styles may be
 * inline (React and Radix set style attributes; server-rendered pages inline their stylesheet).
 * Strict-Transport-Security only when the site is served over https (the gateway: PUBLIC_URL starts with https://).
 */
import { createHash } from 'node:crypto';
import { PAGE_SCRIPTS } from './page-scripts.ts';

export type RouteKind = 'site' | 'admin' | 'private';

/**
 * 'admin' for /admin and every path under it, 'private' for the quote page and its API (/quote/view and
 * /api/quote-view, and every path under them), however a browser or nginx may spell them (case, %-escapes, doubled
 * slashes); 'site' for the rest.
 */
export function routeKindOf(pathname: string): RouteKind {
  let p = pathname;
  try {
    p = decodeURIComponent(pathname);
  } catch {
    // A malformed escape somewhere: the well-formed ASCII ones decoded still, so one bad byte hides no prefix.
    p = pathname.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  if (ADMIN_PATH.test(p)) return 'admin';
  return PRIVATE_PATH.test(p) ? 'private' : 'site';
}
const ADMIN_PATH = /^\/+admin(?:\/|$)/i;
/** Slashes doubled anywhere count as one, as nginx merges them before it picks a location. */
const PRIVATE_PATH = /^\/+(?:quote\/+view|api\/+quote-view)(?:\/|$)/i;
/** The same paths as nginx location regexes (nginx matches the decoded, slash-merged path). */
export const NGINX_ADMIN_LOCATION = '~* ^/admin(?:/|$)';
/**
 * The answers the quote page's forms post (/quote/view/<token>/<action>): proxied as they are, the gateway's own page
 * (the form again, filled in) being the answer to a refused or failed one. Listed before the page's location in
 * default.conf, since nginx tries regex locations in order.
 */
export const NGINX_PRIVATE_ANSWER_LOCATION = '~* ^/quote/view/[^/]+/[^/]+/?$';
/** The quote page, proxied to the gateway as the site's other pages are. */
export const NGINX_PRIVATE_PAGE_LOCATION = '~* ^/quote/view(?:/|$)';
/** Its API, proxied to the gateway as the rest of /api/ is. */
export const NGINX_PRIVATE_API_LOCATION = '~* ^/api/quote-view(?:/|$)';

/** `'sha256-…'` of a script's exact text, as script-src wants it. */
export function scriptHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The CSP directives, in the order they are sent. */
export function cspDirectives(kind: RouteKind): [name: string, values: string[]][] {
  return [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...PAGE_SCRIPTS.map(scriptHash)]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', [kind === 'admin' ? "'none'" : "'self'"]],
  ];
}

/**
 * Powerful features the site never uses, denied to it and to anything it might embed. Not listed because the site
 * uses them: clipboard-write and web-share (a product page's Share button).
 */
export const DENIED_FEATURES = [
  'accelerometer',
  'browsing-topics',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
] as const;

export const HSTS = { maxAge: 31_536_000, includeSubDomains: true } as const;

export interface SecurityPolicy {
  directives: [name: string, values: string[]][];
  frameOptions: 'DENY' | 'SAMEORIGIN';
  referrerPolicy: 'strict-origin-when-cross-origin' | 'no-referrer';
  /** X-Robots-Tag, for the private pages only (the others leave indexing to each page and robots.txt). */
  robotsTag?: 'noindex, nofollow';
  permissionsPolicy: string;
  crossOriginOpenerPolicy: 'same-origin';
  crossOriginResourcePolicy: 'same-origin';
  /** Only sent when the site is served over https. */
  hsts: typeof HSTS;
}

export function securityPolicy(kind: RouteKind): SecurityPolicy {
  return {
    directives: cspDirectives(kind),
    // For browsers without frame-ancestors.
    frameOptions: kind === 'admin' ? 'DENY' : 'SAMEORIGIN',
    // The private pages' address holds their key: not a byte of it in a Referer header, even to this site.
    referrerPolicy: kind === 'private' ? 'no-referrer' : 'strict-origin-when-cross-origin',
    ...(kind === 'private' ? { robotsTag: 'noindex, nofollow' as const } : {}),
    permissionsPolicy: DENIED_FEATURES.map((f) => `${f}=()`).join(', '),
    crossOriginOpenerPolicy: 'same-origin',
    crossOriginResourcePolicy: 'same-origin',
    hsts: HSTS,
  };
}

/** The CSP as sent (helmet's form: `name value value;name value`). */
export function cspValue(kind: RouteKind): string {
  return cspDirectives(kind)
    .map(([name, values]) => (values.length ? `${name} ${values.join(' ')}` : name))
    .join(';');
}

export const hstsValue = () => `max-age=${HSTS.maxAge}${HSTS.includeSubDomains ? '; includeSubDomains' : ''}`;

/** Every header of the set with its value, as a response of this kind carries it. */
export function securityHeaders(kind: RouteKind, opts: { hsts: boolean }): Record<string, string> {
  const p = securityPolicy(kind);
  return {
    'Content-Security-Policy': cspValue(kind),
    'Cross-Origin-Opener-Policy': p.crossOriginOpenerPolicy,
    'Cross-Origin-Resource-Policy': p.crossOriginResourcePolicy,
    'Permissions-Policy': p.permissionsPolicy,
    'Referrer-Policy': p.referrerPolicy,
    ...(opts.hsts ? { 'Strict-Transport-Security': hstsValue() } : {}),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': p.frameOptions,
    ...(p.robotsTag ? { 'X-Robots-Tag': p.robotsTag } : {}),
  };
}

/** The snippet files nginx includes (infra/nginx/), by route kind. */
export const NGINX_SNIPPETS: Record<RouteKind, string> = {
  site: 'security-headers.conf',
  admin: 'security-headers-admin.conf',
  private: 'security-headers-private.conf',
};

/** What each snippet's heading calls its set. */
const SNIPPET_OF: Record<RouteKind, string> = {
  site: "The site's security headers",
  admin: "The admin panel's security headers",
  private: 'The security headers of the private pages (the quote page and its API: no referrer, not indexed)',
};

/**
 * An nginx snippet: `add_header … always;` for each header (nginx drops a server's add_header lines in a location
 * that has its own, so every such location includes this again), and `proxy_hide_header` for the copies the gateway
 * sends, so each header goes out once. Strict-Transport-Security is left to the gateway, which knows from PUBLIC_URL
 * whether the site is served over https (nginx listens on plain HTTP behind whatever terminates TLS).
 */
export function renderNginxSnippet(kind: RouteKind): string {
  const headers = securityHeaders(kind, { hsts: false });
  const lines = [
    `# Generated from packages/service-kit/src/security-headers.ts by \`npm run nginx-headers\`: do not edit.`,
    `# ${SNIPPET_OF[kind]}; Strict-Transport-Security comes from the gateway (PUBLIC_URL).`,
  ];
  for (const [name, value] of Object.entries(headers)) {
    if (/["\\$\n]/.test(value)) throw new Error(`${name}: the value cannot be written as an nginx string`);
    lines.push(`add_header ${name} "${value}" always;`);
  }
  for (const name of Object.keys(headers)) lines.push(`proxy_hide_header ${name};`);
  return `${lines.join('\n')}\n`;
}
