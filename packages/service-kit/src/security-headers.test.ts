import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PAGE_SCRIPTS } from './page-scripts.ts';
import { cspDirectives, renderNginxSnippet, routeKindOf, scriptHash, securityHeaders } from './security-headers.ts';

describe('security headers definition', () => {
  it('treats /admin and everything under it as the admin panel, however it is spelled', () => {
    for (const p of ['/admin', '/admin/', '/admin/inbox', '/Admin', '/ADMIN/x', '/%61dmin', '//admin', '/admin%2Fx']) expect(routeKindOf(p), p).toBe('admin');
    for (const p of ['/', '/administrator', '/admins', '/api/admin/products', '/products/admin', '/%E0%A4%A']) expect(routeKindOf(p), p).toBe('site');
  });

  it('lets scripts run only from the site and, inline, only the fixed page scripts by their sha256', () => {
    const scriptSrc = cspDirectives('site').find(([name]) => name === 'script-src')![1];
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(scriptSrc).toEqual(["'self'", ...PAGE_SCRIPTS.map((s) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`)]);
    expect(new Set(scriptSrc).size).toBe(scriptSrc.length);
    expect(scriptHash('alert(1)')).toBe("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
  });

  it('differs between the kinds only in framing', () => {
    const site = securityHeaders('site', { hsts: false });
    const admin = securityHeaders('admin', { hsts: false });
    const differ = Object.keys(site).filter((k) => site[k] !== admin[k]);
    expect(differ.sort()).toEqual(['Content-Security-Policy', 'X-Frame-Options']);
    expect(admin['Content-Security-Policy']).toMatch(/;frame-ancestors 'none'$/);
    expect(site['Content-Security-Policy']).toMatch(/;frame-ancestors 'self'$/);
    expect(securityHeaders('site', { hsts: true })['Strict-Transport-Security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('writes nginx lines that send each header always and hide the gateway copy', () => {
    const snippet = renderNginxSnippet('admin');
    for (const [name, value] of Object.entries(securityHeaders('admin', { hsts: false }))) {
      expect(snippet).toContain(`add_header ${name} "${value}" always;\n`);
      expect(snippet).toContain(`proxy_hide_header ${name};\n`);
    }
    expect(snippet).not.toMatch(/^(add_header|proxy_hide_header) Strict-Transport-Security/m); // the gateway's, passed on
  });
});
