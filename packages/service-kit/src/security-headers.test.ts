import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PAGE_SCRIPTS } from './page-scripts.ts';
import {
  cspDirectives,
  NGINX_ADMIN_LOCATION,
  NGINX_PRIVATE_API_LOCATION,
  NGINX_PRIVATE_PAGE_LOCATION,
  NGINX_SNIPPETS,
  renderNginxSnippet,
  routeKindOf,
  scriptHash,
  securityHeaders,
  type RouteKind,
} from './security-headers.ts';

describe('security headers definition', () => {
  it('treats /admin and everything under it as the admin panel, however it is spelled', () => {
    for (const p of ['/admin', '/admin/', '/admin/inbox', '/Admin', '/ADMIN/x', '/%61dmin', '//admin', '/admin%2Fx', '/%61dmin/%E0%A4%A', '/%61dmin%2F%ZZ']) expect(routeKindOf(p), p).toBe('admin');
    for (const p of ['/', '/administrator', '/admins', '/api/admin/products', '/products/admin', '/%E0%A4%A']) expect(routeKindOf(p), p).toBe('site');
  });

  it('treats the quote page and its API, and everything under them, as private, however they are spelled', () => {
    const token = 'Qx7_k2-PZ3wYb9LmN4cD8fGh1JsT6vUaRe0iOlKjHn5'; // 43 characters, as a link's
    expect(token).toHaveLength(43);
    const privatePaths = [
      '/quote/view',
      '/quote/view/',
      `/quote/view/${token}`,
      `/quote/view/${token}/`,
      `/quote/view/${token}/accept`,
      `/quote/view/${token}/changes`,
      `/quote/view/${token}/decline`,
      `/Quote/VIEW/${token}`,
      `/%71uote/view/${token}`,
      `/quote%2Fview/${token}`,
      `//quote//view/${token}`,
      '/quote/view/%E0%A4%A', // a malformed escape after the prefix: still the prefix
      `/%71uote/view/${token}/%E0%A4%A`, // and before it, decoded as far as it goes
      `/%71uote%2Fview/%ZZ`,
      '/api/quote-view',
      `/api/quote-view/${token}`,
      `/api/quote-view/${token}/accept`,
      `/API/Quote-View/${token}`,
      `/api/quote%2Dview/${token}`,
      `/api%2Fquote-view/${token}`,
      `//api//quote-view/${token}/decline`,
    ];
    for (const p of privatePaths) expect(routeKindOf(p), p).toBe('private');
    const sitePaths = ['/quote', '/quote-request', '/quote/viewer', '/quote/views/x', '/quotes/view/x', '/api/quote-requests', '/api/quote-views/x', '/api/quote', '/products/quote/view', '/api/admin/quotes/x'];
    for (const p of sitePaths) expect(routeKindOf(p), p).toBe('site');
    expect(routeKindOf('/admin/quote/view/x')).toBe('admin');
  });

  it('lets scripts run only from the site and, inline, only the fixed page scripts by their sha256', () => {
    const scriptSrc = cspDirectives('site').find(([name]) => name === 'script-src')![1];
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(scriptSrc).toEqual(["'self'", ...PAGE_SCRIPTS.map((s) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`)]);
    expect(new Set(scriptSrc).size).toBe(scriptSrc.length);
    expect(scriptHash('alert(1)')).toBe("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
  });

  it('differs between the site and the admin panel only in framing', () => {
    const site = securityHeaders('site', { hsts: false });
    const admin = securityHeaders('admin', { hsts: false });
    const differ = Object.keys(site).filter((k) => site[k] !== admin[k]);
    expect(differ.sort()).toEqual(['Content-Security-Policy', 'X-Frame-Options']);
    expect(admin['Content-Security-Policy']).toMatch(/;frame-ancestors 'none'$/);
    expect(site['Content-Security-Policy']).toMatch(/;frame-ancestors 'self'$/);
    expect(securityHeaders('site', { hsts: true })['Strict-Transport-Security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('differs between the site and the private pages only in sending no referrer and asking not to be indexed', () => {
    const site = securityHeaders('site', { hsts: true });
    const priv = securityHeaders('private', { hsts: true });
    const differ = [...new Set([...Object.keys(site), ...Object.keys(priv)])].filter((k) => site[k] !== priv[k]);
    expect(differ.sort()).toEqual(['Referrer-Policy', 'X-Robots-Tag']);
    expect(priv['Referrer-Policy']).toBe('no-referrer');
    expect(priv['X-Robots-Tag']).toBe('noindex, nofollow');
    expect(site['X-Robots-Tag']).toBeUndefined();
    expect(securityHeaders('admin', { hsts: false })['X-Robots-Tag']).toBeUndefined();
  });

  it('writes nginx lines that send each header always and hide the gateway copy', () => {
    for (const kind of ['site', 'admin', 'private'] as const) {
      const snippet = renderNginxSnippet(kind);
      const headers = Object.entries(securityHeaders(kind, { hsts: false }));
      for (const [name, value] of headers) {
        expect(snippet, kind).toContain(`add_header ${name} "${value}" always;\n`);
        expect(snippet, kind).toContain(`proxy_hide_header ${name};\n`);
      }
      expect(snippet.match(/^add_header /gm), kind).toHaveLength(headers.length);
      expect(snippet.match(/^proxy_hide_header /gm), kind).toHaveLength(headers.length);
      expect(snippet, kind).not.toMatch(/^(add_header|proxy_hide_header) Strict-Transport-Security/m); // the gateway's, passed on
    }
    expect(renderNginxSnippet('private')).toContain('add_header Referrer-Policy "no-referrer" always;\n');
    expect(renderNginxSnippet('private')).toContain('add_header X-Robots-Tag "noindex, nofollow" always;\n');
  });

  it('has an nginx snippet for each kind, and location regexes that pick the same paths routeKindOf does', () => {
    expect(Object.keys(NGINX_SNIPPETS).sort()).toEqual(['admin', 'private', 'site']);
    expect(new Set(Object.values(NGINX_SNIPPETS)).size).toBe(3);
    // nginx matches the decoded, slash-merged path; `~*` is case-insensitive.
    const regex = (location: string) => new RegExp(location.replace(/^~\*\s+/, ''), 'i');
    const nginxKind = (decoded: string): RouteKind =>
      regex(NGINX_ADMIN_LOCATION).test(decoded)
        ? 'admin'
        : regex(NGINX_PRIVATE_PAGE_LOCATION).test(decoded) || regex(NGINX_PRIVATE_API_LOCATION).test(decoded)
          ? 'private'
          : 'site';
    const paths = ['/', '/admin', '/ADMIN/x', '/administrator', '/quote/view', '/quote/view/abc/accept', '/QUOTE/View/abc', '/quote/viewer', '/quote-request', '/api/quote-view/abc', '/API/QUOTE-VIEW', '/api/quote-views', '/api/quote-requests', '/api/products'];
    for (const p of paths) expect(nginxKind(p), p).toBe(routeKindOf(p));
  });
});
