/**
 * Writes nginx's copy of the security headers, one snippet per route kind (NGINX_SNIPPETS: infra/nginx/
 * security-headers.conf, security-headers-admin.conf and security-headers-private.conf), from their one definition,
 * packages/service-kit/src/security-headers.ts. `npm run nginx-headers`; commit the result (test/nginx.test.ts fails
 * while the committed files differ).
 */
import fs from 'node:fs';
import path from 'node:path';
import { NGINX_SNIPPETS, renderNginxSnippet, type RouteKind } from '../packages/service-kit/src/security-headers.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

for (const [kind, file] of Object.entries(NGINX_SNIPPETS) as [RouteKind, string][]) {
  const target = path.join(repoRoot, 'infra/nginx', file);
  const text = renderNginxSnippet(kind);
  const before = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (before === text) {
    console.log(`${path.relative(repoRoot, target)}: up to date`);
    continue;
  }
  fs.writeFileSync(target, text);
  console.log(`${path.relative(repoRoot, target)}: written`);
}
