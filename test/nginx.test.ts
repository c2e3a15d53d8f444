/**
 * nginx's copy of the security headers (docker compose): the committed snippets are what the one definition
 * (packages/service-kit/src/security-headers.ts) generates, default.conf includes them wherever nginx would drop
 * them, and the real nginx with the compose config, in front of a real gateway, sends each header once.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@forgeline/service-kit/logger';
import {
  HSTS,
  NGINX_ADMIN_LOCATION,
  NGINX_PRIVATE_API_LOCATION,
  NGINX_PRIVATE_ANSWER_LOCATION,
  NGINX_PRIVATE_PAGE_LOCATION,
  NGINX_SNIPPETS,
  renderNginxSnippet,
  securityHeaders,
  type RouteKind,
} from '@forgeline/service-kit/security-headers';
import { serve, type Served } from '@forgeline/service-kit/serve';
import { freePort, tempDir } from '@forgeline/test-support/net';
import { startNginx, type RunningNginx } from '@forgeline/test-support/nginx';
import { createGatewayApp } from '../gateway/src/app.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nginxDir = path.join(root, 'infra/nginx');
const defaultConf = fs.readFileSync(path.join(nginxDir, 'default.conf'), 'utf8');
const logger = createLogger('nginx-test', 'silent');

/** The location blocks of default.conf: the line that opens each and its body. */
function locations(conf: string): { head: string; body: string }[] {
  const out: { head: string; body: string }[] = [];
  for (const m of conf.matchAll(/^\s*location\s+([^{]+)\{/gm)) {
    let depth = 1;
    let i = m.index! + m[0].length;
    const start = i;
    for (; depth > 0 && i < conf.length; i++) {
      if (conf[i] === '{') depth++;
      else if (conf[i] === '}') depth--;
    }
    out.push({ head: m[1]!.trim(), body: conf.slice(start, i - 1) });
  }
  return out;
}

/** A location's directives, one a line, without comments and the security header include. */
function directives(body: string): string[] {
  return body
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter((l) => l && !/^include security-headers[\w-]*\.conf;$/.test(l));
}

/** A made-up quote link's token: 43 base64url characters, as a real one's. */
const QUOTE_TOKEN = 'Qx7_k2-PZ3wYb9LmN4cD8fGh1JsT6vUaRe0iOlKjHn5';

describe('nginx security header snippets', () => {
  it('are what the definition generates (run `npm run nginx-headers` after changing it)', () => {
    for (const [kind, file] of Object.entries(NGINX_SNIPPETS) as [RouteKind, string][]) {
      expect(fs.readFileSync(path.join(nginxDir, file), 'utf8'), file).toBe(renderNginxSnippet(kind));
    }
  });

  it('are included at server level and again in every location with an add_header of its own, the admin one for /admin, the private one for the quote page and its API', () => {
    const serverLevel = defaultConf.slice(0, defaultConf.search(/^\s*location\b/m));
    expect(serverLevel).toMatch(/^\s*include security-headers\.conf;/m);
    // nginx drops the server's add_header lines in such a location: without the include it would send none.
    const locs = locations(defaultConf);
    expect(locs.length).toBeGreaterThan(5);
    for (const loc of locs.filter((l) => /\badd_header\b/.test(l.body))) {
      expect(loc.body, `location ${loc.head}`).toMatch(/^\s*include security-headers(?:-admin|-private)?\.conf;/m);
    }
    const admin = locs.filter((l) => l.body.includes('security-headers-admin.conf')).map((l) => l.head);
    expect(admin).toEqual([NGINX_ADMIN_LOCATION, '@admin-spa']);
    expect(locs.find((l) => l.head === NGINX_ADMIN_LOCATION)!.body).toContain('error_page 502 503 504 = @admin-spa;');
    const priv = locs.filter((l) => l.body.includes(NGINX_SNIPPETS.private)).map((l) => l.head);
    expect(priv).toEqual([NGINX_PRIVATE_ANSWER_LOCATION, NGINX_PRIVATE_PAGE_LOCATION, NGINX_PRIVATE_API_LOCATION, '@private-spa']);
    // Each location includes one set only.
    for (const loc of locs) expect(loc.body.match(/^\s*include security-headers[\w-]*\.conf;/gm)?.length ?? 0, `location ${loc.head}`).toBeLessThan(2);
  });

  it('proxies the private pages to the gateway as the site\'s pages and the rest of /api/ are', () => {
    const locs = locations(defaultConf);
    const body = (head: string) => {
      const loc = locs.find((l) => l.head === head);
      expect(loc, `location ${head}`).toBeDefined();
      return directives(loc!.body);
    };
    // The quote page as any other page (@page), its fallback the app shell with the private set (and not stored).
    expect(body(NGINX_PRIVATE_PAGE_LOCATION)).toEqual(body('@page').map((d) => d.replace('= @spa;', '= @private-spa;')));
    expect(body('@private-spa')).toEqual(body('@spa').map((d) => d.replace('"no-cache"', '"no-store"')));
    // Its API as the rest of /api/.
    expect(body(NGINX_PRIVATE_API_LOCATION)).toEqual(body('/api/'));
    // Its forms' answers as the product page's quote form (no error page in place of the gateway's filled-in form),
    // with room for an accept's PO document (10 MB).
    expect(body(NGINX_PRIVATE_ANSWER_LOCATION)).toEqual(body('= /quote-request').map((d) => d.replace('client_max_body_size 64k;', 'client_max_body_size 11m;')));
  });

  it('go into the nginx image beside default.conf', () => {
    const dockerfile = fs.readFileSync(path.join(root, 'infra/Dockerfile'), 'utf8');
    const web = dockerfile.slice(dockerfile.indexOf(' AS web'));
    expect(web).toContain('COPY infra/nginx/default.conf /etc/nginx/conf.d/default.conf');
    // default.conf includes them by a path relative to nginx's configuration folder, /etc/nginx.
    expect(web).toContain(`COPY ${Object.values(NGINX_SNIPPETS).map((f) => `infra/nginx/${f}`).join(' ')} /etc/nginx/`);
  });
});

/** Each header's values as sent, by lower-case name (raw headers: a header sent twice shows twice). */
function get(url: string, post?: { type: string; body: string }): Promise<{ status: number; headers: Map<string, string[]> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, post ? { method: 'POST', headers: { 'content-type': post.type, 'content-length': Buffer.byteLength(post.body) } } : {}, (res) => {
      const headers = new Map<string, string[]>();
      for (let i = 0; i < res.rawHeaders.length; i += 2) {
        const name = res.rawHeaders[i]!.toLowerCase();
        headers.set(name, [...(headers.get(name) ?? []), res.rawHeaders[i + 1]!]);
      }
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers }));
    });
    req.on('error', reject);
    req.end(post?.body);
  });
}

describe('nginx with the compose config, in front of a real gateway', () => {
  const dist = tempDir('forgeline-nginx-dist-');
  const served: Served[] = [];
  const stubs: http.Server[] = [];
  let nginx: RunningNginx | undefined;
  let skip = '';

  beforeAll(async () => {
    fs.writeFileSync(path.join(dist.dir, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
    fs.writeFileSync(path.join(dist.dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.mkdirSync(path.join(dist.dir, 'assets'));
    fs.writeFileSync(path.join(dist.dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    // What the build keeps beside the site but not for browsers: the SSR bundle and the manifest the size budget reads.
    fs.mkdirSync(path.join(dist.dir, '.ssr'));
    fs.writeFileSync(path.join(dist.dir, '.ssr', 'entry-server.js'), 'export {}');
    fs.mkdirSync(path.join(dist.dir, '.vite'));
    fs.writeFileSync(path.join(dist.dir, '.vite', 'manifest.json'), '{}');
    const down = `http://127.0.0.1:${await freePort()}`; // the services: down, so /api answers 502 from the gateway
    // The quotes service: a 404 for every quote link (they are all made up here), without headers of its own, so what
    // makes the answer private is the gateway's and nginx's set.
    const quotes = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ message: 'No quote at this link.' }));
      });
    });
    await new Promise<void>((resolve) => quotes.listen(0, '127.0.0.1', resolve));
    stubs.push(quotes);
    const app = createGatewayApp({
      logger,
      services: { catalog: down, quotes: `http://127.0.0.1:${(quotes.address() as { port: number }).port}`, auth: down, media: down },
      upstreamTimeoutMs: 2_000,
      uploadTimeoutMs: 2_000,
      webDistDir: dist.dir,
      hsts: true, // as behind TLS: nginx passes the gateway's Strict-Transport-Security on
    });
    const gateway = await serve(app, { port: 0, logger, handleSignals: false });
    served.push(gateway);
    // The compose config with only what points outside this machine changed: the gateway, the port and the files.
    const replace = (text: string, from: string, to: string) => {
      expect(text.split(from), `default.conf has exactly one "${from}"`).toHaveLength(2);
      return text.replace(from, to);
    };
    const started = await startNginx({
      server: (port) =>
        replace(
          replace(replace(defaultConf, 'server gateway:8080;', `server 127.0.0.1:${gateway.port};`), 'listen 80;', `listen 127.0.0.1:${port};`),
          'root /usr/share/nginx/html;',
          `root ${dist.dir};`,
        ),
      files: Object.fromEntries(Object.values(NGINX_SNIPPETS).map((f) => [f, fs.readFileSync(path.join(nginxDir, f), 'utf8')])),
    });
    if ('skip' in started) skip = started.skip;
    else nginx = started;
  });

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(served.map((s) => s.close()));
    await Promise.all(stubs.map((s) => new Promise((resolve) => s.close(resolve))));
    dist.remove();
  });

  const form = { type: 'application/x-www-form-urlencoded', body: 'version=1' };
  const json = { type: 'application/json', body: '{"reason":"price","text":""}' };
  const cases: { path: string; kind: RouteKind; status: number; from: 'nginx' | 'gateway'; post?: { type: string; body: string } }[] = [
    { path: '/', kind: 'site', status: 200, from: 'gateway' }, // pages go through the gateway (the app shell here)
    { path: '/catalog', kind: 'site', status: 200, from: 'gateway' },
    { path: '/admin', kind: 'admin', status: 200, from: 'gateway' },
    { path: '/admin/inbox', kind: 'admin', status: 200, from: 'gateway' },
    { path: '/ADMIN', kind: 'admin', status: 200, from: 'gateway' },
    { path: '/%61dmin', kind: 'admin', status: 200, from: 'gateway' },
    { path: '/administrator', kind: 'site', status: 200, from: 'gateway' },
    { path: '/assets/index-abc123.js', kind: 'site', status: 200, from: 'nginx' },
    { path: '/assets/missing.js', kind: 'site', status: 404, from: 'nginx' },
    { path: '/favicon.svg', kind: 'site', status: 200, from: 'nginx' },
    { path: '/api/products', kind: 'site', status: 502, from: 'gateway' },
    { path: '/healthz', kind: 'site', status: 200, from: 'nginx' },
    // The quote page (the app shell here: this gateway renders no pages) and its API (404: no such quote), whatever
    // the quotes service sends: the private set, Referrer-Policy no-referrer once.
    { path: `/quote/view/${QUOTE_TOKEN}`, kind: 'private', status: 200, from: 'gateway' },
    { path: `/quote/view/${QUOTE_TOKEN}?done=accept`, kind: 'private', status: 200, from: 'gateway' },
    { path: `/Quote/VIEW/${QUOTE_TOKEN}`, kind: 'private', status: 200, from: 'gateway' },
    { path: `//quote//view/${QUOTE_TOKEN}`, kind: 'private', status: 200, from: 'gateway' },
    { path: `/quote/view/${QUOTE_TOKEN}/accept`, kind: 'private', status: 404, from: 'gateway', post: form },
    { path: `/api/quote-view/${QUOTE_TOKEN}`, kind: 'private', status: 404, from: 'gateway' },
    { path: `/API/Quote-View/${QUOTE_TOKEN}`, kind: 'private', status: 200, from: 'gateway' }, // no API route: the app shell
    { path: `/api/quote%2Dview/${QUOTE_TOKEN}`, kind: 'private', status: 404, from: 'gateway' },
    { path: `/api/quote-view/${QUOTE_TOKEN}/decline`, kind: 'private', status: 404, from: 'gateway', post: json },
    { path: '/quote/viewer', kind: 'site', status: 200, from: 'gateway' },
    { path: '/api/quote-views', kind: 'site', status: 404, from: 'gateway' },
  ];

  for (const c of cases) {
    it(`${c.post ? 'POST ' : ''}${c.path}: every security header once, the ${c.kind} set`, async ({ skip: skipTest }) => {
      if (skip) skipTest(skip);
      const res = await get(`${nginx!.url}${c.path}`, c.post);
      expect(res.status).toBe(c.status);
      for (const [name, value] of Object.entries(securityHeaders(c.kind, { hsts: false }))) {
        expect(res.headers.get(name.toLowerCase()), name).toEqual([value]);
      }
      // Strict-Transport-Security is the gateway's (it knows from PUBLIC_URL whether the site is on https): once on
      // what it answers, absent on nginx's own files.
      const hsts = `max-age=${HSTS.maxAge}; includeSubDomains`;
      expect(res.headers.get('strict-transport-security')).toEqual(c.from === 'gateway' ? [hsts] : undefined);
      if (c.kind === 'private') {
        expect(res.headers.get('referrer-policy')).toEqual(['no-referrer']);
        expect(res.headers.get('x-robots-tag')).toEqual(['noindex, nofollow']);
      }
    });
  }

  it("serves neither the SSR bundle nor the build's manifest, from nginx or from the gateway", async ({ skip: skipTest }) => {
    if (skip) skipTest(skip);
    for (const p of ['/.ssr/entry-server.js', '/.vite/manifest.json']) {
      expect((await get(`${nginx!.url}${p}`)).status, `nginx ${p}`).toBe(404);
      const direct = await fetch(`http://127.0.0.1:${served[0]!.port}${p}`);
      expect(await direct.text(), `gateway ${p}`).not.toMatch(/^\{\}$|^export \{\}$/);
    }
  });

  it('falls back to the app shell with the admin set, or the private one, when the gateway is down', async ({ skip: skipTest }) => {
    if (skip) skipTest(skip);
    await served.pop()!.close();
    for (const [p, kind] of [['/admin', 'admin'], ['/catalog', 'site'], [`/quote/view/${QUOTE_TOKEN}`, 'private']] as const) {
      const res = await get(`${nginx!.url}${p}`);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('cache-control'), p).toEqual([kind === 'private' ? 'no-store' : 'no-cache']);
      for (const [name, value] of Object.entries(securityHeaders(kind, { hsts: false }))) {
        expect(res.headers.get(name.toLowerCase()), `${p} ${name}`).toEqual([value]);
      }
    }
    // A quote page's answer is never swapped for a file nginx cannot give a POST (405): the gateway's absence says so.
    const answer = await fetch(`${nginx!.url}/quote/view/${QUOTE_TOKEN}/accept`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'version=1' });
    expect(answer.status).toBe(502);
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
  });
});
