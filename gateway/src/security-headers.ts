/**
 * The security headers on every gateway response, set by helmet from the one definition
 * (packages/service-kit/src/security-headers.ts, which nginx's copy is generated from too).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import { routeKindOf, securityPolicy, type RouteKind } from '@forgeline/service-kit/security-headers';

export interface SecurityHeaderOptions {
  /** Strict-Transport-Security too: the site is served over https. */
  hsts: boolean;
}

/** Works on a plain node response as well as in Express (the edge cache answers before Express runs). */
export type SecurityHeaders = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

export function helmetOptions(kind: RouteKind, opts: SecurityHeaderOptions): HelmetOptions {
  const p = securityPolicy(kind);
  return {
    contentSecurityPolicy: { useDefaults: false, directives: Object.fromEntries(p.directives) },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: p.crossOriginOpenerPolicy },
    crossOriginResourcePolicy: { policy: p.crossOriginResourcePolicy },
    referrerPolicy: { policy: p.referrerPolicy },
    strictTransportSecurity: opts.hsts ? { maxAge: p.hsts.maxAge, includeSubDomains: p.hsts.includeSubDomains } : false,
    xContentTypeOptions: true,
    xFrameOptions: { action: p.frameOptions === 'DENY' ? 'deny' : 'sameorigin' },
    // Not in the definition (nginx would not send them): helmet's other defaults stay off, so both stacks agree.
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    xPoweredBy: true, // removes X-Powered-By
  };
}

const SET = Symbol('security headers set');

export function createSecurityHeaders(opts: SecurityHeaderOptions): SecurityHeaders {
  /** Per kind: helmet's middleware, and the headers helmet has no option for (Permissions-Policy, X-Robots-Tag). */
  const of = (kind: RouteKind) => {
    const p = securityPolicy(kind);
    const extra: [string, string][] = [['Permissions-Policy', p.permissionsPolicy]];
    if (p.robotsTag) extra.push(['X-Robots-Tag', p.robotsTag]);
    return { helmet: helmet(helmetOptions(kind, opts)), extra };
  };
  const kinds: Record<RouteKind, ReturnType<typeof of>> = { site: of('site'), admin: of('admin'), private: of('private') };
  return (req, res, next) => {
    const marked = res as ServerResponse & { [SET]?: true };
    if (marked[SET]) return next(); // already set for this response (withEdgeCache, then Express)
    marked[SET] = true;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const kind = kinds[routeKindOf(q < 0 ? url : url.slice(0, q))];
    for (const [name, value] of kind.extra) res.setHeader(name, value);
    kind.helmet(req, res, next);
  };
}
