import fc from 'fast-check';
import type { Express } from 'express';
import { signGatewayAssertion } from '@forgeline/service-kit/gateway-assertion';
import { httpRequest, rawRequest } from './raw-http.ts';
import { appRoutes } from './app-routes.ts';

/**
 * The paths a guard and a router might read differently: for every route of a service under /api/admin or /internal,
 * spellings a hostile caller inside the network would try (letter case, trailing and doubled slashes, dot segments,
 * percent-escapes, `;` parameters, queries), sent without a valid credential. Each must be refused (401) or be no route
 * at all (404): never an answer from behind the guard.
 */

export interface GuardedRoute {
  method: string;
  path: string;
}

/** Every route of an Express app under /api/admin or /internal, read from its router (so a new route joins itself). */
export function guardedRoutesOf(app: Express, opts: { open?: (path: string) => boolean } = {}): GuardedRoute[] {
  return appRoutes(app).filter((r) => /^\/(api\/admin|internal)(\/|$)/i.test(r.path) && !opts.open?.(r.path));
}

/** A route's path with its `:params` filled in. */
export const concretePath = (path: string) => path.replace(/:(\w+)/g, (_m, name: string) => `${name}-1`);

type Edit =
  | { kind: 'case'; flips: boolean[] }
  | { kind: 'double-slash'; at: number }
  | { kind: 'trailing'; text: string }
  | { kind: 'dot'; at: number; segment: string }
  | { kind: 'escape'; picks: boolean[]; upper: boolean }
  | { kind: 'param'; at: number; text: string }
  | { kind: 'query'; text: string };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('case' as const), flips: fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }) }),
  fc.record({ kind: fc.constant('double-slash' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('trailing' as const), text: fc.constantFrom('/', '//', '/.', '/..', '%2F', '%2f', '.', '%20', '%00', '%09') }),
  fc.record({
    kind: fc.constant('dot' as const),
    at: fc.nat(),
    segment: fc.constantFrom('.', '..', 'x/..', '%2e', '%2E', '%2e%2e', '.%2e', 'x/%2e%2e', 'x%2F..', '..%2F', '%2e%2e%2f', '..;', '.;'),
  }),
  fc.record({ kind: fc.constant('escape' as const), picks: fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), upper: fc.boolean() }),
  fc.record({ kind: fc.constant('param' as const), at: fc.nat(), text: fc.constantFrom(';', ';x=1', ';jsessionid=a', ';/', ';%2F') }),
  fc.record({ kind: fc.constant('query' as const), text: fc.constantFrom('?', '?x=1', '?/api/admin', '??', '?%00', '#x') }),
);

const slashes = (p: string) => [...p.matchAll(/\//g)].map((m) => m.index);
const hex = (c: string, upper: boolean) => {
  const h = c.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${upper ? h.toUpperCase() : h}`;
};

function apply(path: string, e: Edit): string {
  switch (e.kind) {
    case 'case': {
      let i = 0;
      return path.replace(/[a-z]/gi, (c) => (e.flips[i++ % e.flips.length] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c));
    }
    case 'double-slash': {
      const at = slashes(path)[e.at % slashes(path).length]!;
      return `${path.slice(0, at)}/${path.slice(at)}`;
    }
    case 'trailing':
      return path + e.text;
    case 'dot': {
      const at = slashes(path)[e.at % slashes(path).length]!;
      return `${path.slice(0, at)}/${e.segment}${path.slice(at)}`;
    }
    case 'escape': {
      let i = 0;
      // Letters, digits, '-', '.', '/' and '_': the characters routes are spelled with; not the first '/', without
      // which the target is no path (the HTTP parser refuses it before any router sees it).
      return path[0] + path.slice(1).replace(/[\w./-]/g, (c) => (e.picks[i++ % e.picks.length] ? hex(c, e.upper) : c));
    }
    case 'param': {
      const cuts = [...slashes(path).slice(1), path.length];
      const at = cuts[e.at % cuts.length]!;
      return path.slice(0, at) + e.text + path.slice(at);
    }
    case 'query':
      return path + e.text;
  }
}

/** A spelling of `path` after one to three edits (none of them may leave it as it was: then it is the path itself). */
export const pathVariant = (path: string): fc.Arbitrary<string> =>
  fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) => edits.reduce(apply, path));

/** What a caller without the gateway's key can put beside the path: nothing, or headers services once believed. */
const forgery = fc.constantFrom('none', 'x-admin-email', 'foreign assertion', 'service token', 'all');

/**
 * The property, against a running service: `runs` generated variants of its guarded routes, each answered 401 or 404.
 * The routes' own paths, sent as they are without a credential, must answer 401: proof that each is behind its guard
 * (a property that met only 404s would prove nothing).
 */
export async function assertGuardedPaths(opts: { port: number; routes: GuardedRoute[]; runs?: number; seed?: number }): Promise<void> {
  const { port, routes } = opts;
  if (routes.length === 0) throw new Error('no guarded routes found: is the app the service under test?');
  const foreign = await signGatewayAssertion('not-the-gateway-but-a-long-enough-key', { kind: 'admin', name: 'intruder@example.com' });
  const send = async (method: string, target: string, how: string) => {
    const headers: [string, string][] = [['Host', `127.0.0.1:${port}`]];
    if (how === 'x-admin-email' || how === 'all') headers.push(['x-admin-email', 'admin@forgeline-parts.example']);
    if (how === 'foreign assertion' || how === 'all') headers.push(['x-gateway-assertion', foreign]);
    if (how === 'service token' || how === 'all') headers.push(['x-service-token', 'dev-service-token-change-me']);
    const body = method === 'GET' || method === 'HEAD' ? '' : '{}';
    if (body) headers.push(['Content-Type', 'application/json']);
    return rawRequest(port, httpRequest(method, target, headers, body), { timeoutMs: 30_000 });
  };
  for (const r of routes) {
    const answer = await send(r.method, concretePath(r.path), 'x-admin-email');
    if (answer.status !== 401) throw new Error(`${r.method} ${r.path} without a credential answered ${answer.status}, not 401:\n${answer.text.slice(0, 400)}`);
  }
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...routes).chain((r) => fc.tuple(fc.constant(r), pathVariant(concretePath(r.path)), forgery)),
      async ([r, target, how]) => {
        const answer = await send(r.method, target, how);
        if (answer.status !== 401 && answer.status !== 404) {
          throw new Error(`${r.method} ${target} (${how}) answered ${answer.status}:\n${answer.text.slice(0, 400)}`);
        }
      },
    ),
    { numRuns: opts.runs ?? 300, seed: opts.seed },
  );
}
