/**
 * The size budget: `npm run budget` (and `npm test`, right after the e2e set-up builds web/dist) reads the Vite
 * manifest of the web build (web/dist/.vite/manifest.json) and holds the gzipped JavaScript and CSS to the limits in
 * web/bundle-budget.json, the one file where they live:
 *  - "entry": the index.html entry chunk plus every chunk it statically imports, what every first visit loads
 *    (the same files as index.html's module script and modulepreloads: `npm run lighthouse`'s "entry JS");
 *  - each lazy chunk (every route of web/src/app/router.tsx, and any other dynamic import): that chunk plus its static
 *    imports that are not already in the entry, what opening that route loads on top of the entry; for a chunk loaded
 *    only from inside other lazy chunks (an admin tab, from the admin page), not already in those either.
 * Sizes are gzip at level 9, as `npm run lighthouse` counts them (the gateway's `compression()` sends level 6 and
 * nginx level 5, 1-2% more on the wire). kB are 1,024 bytes.
 * Prints a table (name, size, limit, goal) and exits 1 naming every chunk over its limit. Builds web/dist first when
 * its sources are newer (as the e2e set-up does, which then reuses it); BUNDLE_DIST=/some/dist measures that folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUDGET_FILE = path.join(repoRoot, 'web/bundle-budget.json');

/** One chunk of Vite's build manifest (https://vite.dev/guide/backend-integration): `imports` are other keys. */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** The files a page loads for one entry or lazy chunk: its JS chunks and its stylesheets (output paths). */
export interface ChunkGroup {
  /** `entry`, or the lazy chunk's source path (e.g. src/features/brands/components/brand-page.tsx). */
  name: string;
  kind: 'entry' | 'lazy';
  js: string[];
  css: string[];
}

/** The manifest keys `key` loads before it runs: itself and its static imports, transitively. */
function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`bundle-budget: the manifest has no chunk "${key}"`);
  into.add(key);
  for (const i of chunk.imports ?? []) staticClosure(manifest, i, into);
  return into;
}

/**
 * What is already loaded when lazy chunk `key` is asked for: the entry, and, for a chunk that only ever loads from inside
 * other lazy chunks (an admin tab, from the admin page), what every one of those lazy chunks loaded with itself.
 */
function alreadyLoaded(manifest: Manifest, key: string, entryKeys: Set<string>, closures: Map<string, Set<string>>): Set<string> {
  const importers = Object.keys(manifest).filter((k) => manifest[k]!.dynamicImports?.includes(key));
  if (!importers.length || importers.some((k) => entryKeys.has(k))) return entryKeys;
  let common: Set<string> | undefined;
  for (const importer of importers) {
    // Every lazy chunk whose static closure holds the importer (not `key` itself): one of them is on the page.
    const around = [...closures].filter(([k, keys]) => k !== key && keys.has(importer)).map(([, keys]) => keys);
    if (!around.length) return entryKeys;
    const mine = around.reduce((a, b) => new Set([...a].filter((k) => b.has(k))));
    common = common ? new Set([...common].filter((k) => mine.has(k))) : mine;
  }
  return new Set([...entryKeys, ...(common ?? [])]);
}

/** The entry's files, then each lazy chunk's files beyond the entry's and beyond the lazy chunk that loads it (in manifest order). */
export function chunkGroups(manifest: Manifest): ChunkGroup[] {
  const entries = Object.keys(manifest).filter((k) => manifest[k]!.isEntry);
  if (entries.length !== 1) throw new Error(`bundle-budget: expected one entry chunk in the manifest, found ${entries.length}`);
  const entryKeys = staticClosure(manifest, entries[0]!);
  const files = (keys: Iterable<string>) => {
    const js: string[] = [];
    const css = new Set<string>();
    for (const k of keys) {
      js.push(manifest[k]!.file);
      for (const c of manifest[k]!.css ?? []) css.add(c);
    }
    return { js, css: [...css] };
  };
  const entry = files(entryKeys);
  const groups: ChunkGroup[] = [{ name: 'entry', kind: 'entry', ...entry }];
  const lazyKeys = Object.keys(manifest).filter((k) => manifest[k]!.isDynamicEntry);
  const closures = new Map(lazyKeys.map((k) => [k, staticClosure(manifest, k)]));
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isDynamicEntry) continue;
    const loaded = alreadyLoaded(manifest, key, entryKeys, closures);
    const own = files([...closures.get(key)!].filter((k) => !loaded.has(k)));
    groups.push({ name: chunk.src ?? key, kind: 'lazy', js: own.js, css: own.css.filter((c) => !entry.css.includes(c)) });
  }
  return groups;
}

/** A limit and, where the code does not meet it yet, the goal: kB gzipped. */
export interface Limit {
  limit: number;
  goal?: number;
}
export interface Budget {
  entry: { js: Limit; css: Limit };
  /** Any lazy chunk (a route) beyond the entry, unless `routes` names it. */
  route: { js: Limit; css: Limit };
  /** Per-route exceptions, by source path, while a route is above the general limit. */
  routes?: Record<string, { js?: Limit; css?: Limit }>;
}

export interface Row {
  name: string;
  what: 'JS' | 'CSS';
  bytes: number;
  limit: Limit;
}

/** One row per group and kind, sized by `size` (bytes of a file as sent, gzipped). */
export function measure(groups: ChunkGroup[], budget: Budget, size: (file: string) => number): Row[] {
  const rows: Row[] = [];
  for (const g of groups) {
    const limits = g.kind === 'entry' ? budget.entry : { ...budget.route, ...budget.routes?.[g.name] };
    const sum = (list: string[]) => list.reduce((n, f) => n + size(f), 0);
    rows.push({ name: g.name, what: 'JS', bytes: sum(g.js), limit: limits.js });
    if (g.kind === 'entry' || g.css.length) rows.push({ name: g.name, what: 'CSS', bytes: sum(g.css), limit: limits.css });
  }
  return rows;
}

export const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
export const over = (r: Row) => r.bytes > r.limit.limit * 1024;

export function table(rows: Row[]): string {
  const head = ['chunk', 'gzip', 'limit', 'goal', ''];
  const body = rows.map((r) => [
    `${r.name} ${r.what}`,
    kB(r.bytes),
    `${r.limit.limit} kB`,
    r.limit.goal === undefined ? '' : `${r.limit.goal} kB`,
    over(r) ? 'OVER' : '',
  ]);
  const all = [head, ...body];
  const widths = head.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return all.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()).join('\n');
}

export function gzipSize(file: string): number {
  return gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

/** The entry and lazy chunk groups of a build folder (its .vite/manifest.json). */
export function readGroups(distDir: string): ChunkGroup[] {
  const file = path.join(distDir, '.vite/manifest.json');
  if (!fs.existsSync(file)) throw new Error(`bundle-budget: ${file} is missing: build the web app (build.manifest in web/vite.config.ts)`);
  return chunkGroups(JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest);
}

/** The scripts index.html loads at once: its module script and modulepreloads (what `npm run lighthouse` counts). */
export function htmlEntryScripts(html: string): string[] {
  const srcs = new Set<string>();
  for (const m of html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)) srcs.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) srcs.add(m[1]!);
  return [...srcs].map((src) => new URL(src, 'http://x').pathname.slice(1));
}

/** Prints the table; returns the failures (a chunk over its limit, or index.html loading other scripts than the entry's). */
export function checkBudget(distDir: string, log: (line: string) => void = console.log): string[] {
  const budget = JSON.parse(fs.readFileSync(BUDGET_FILE, 'utf8')) as Budget;
  const groups = readGroups(distDir);
  const rows = measure(groups, budget, (f) => gzipSize(path.join(distDir, f)));
  const where = path.relative(repoRoot, distDir);
  log(`Size budget (${path.relative(repoRoot, BUDGET_FILE)}), gzip level 9, ${where.startsWith('..') ? distDir : where}:\n`);
  log(table(rows));
  const failures = rows.filter(over).map((r) => {
    const what = r.name === 'entry' ? 'the entry' : `the lazy chunk ${r.name} (beyond the entry)`;
    const exact = (r.bytes / 1024).toFixed(2);
    return `${what}: ${r.what} is ${exact} kB gzipped, over its limit of ${r.limit.limit} kB by ${kB(r.bytes - r.limit.limit * 1024)}`;
  });
  // The manifest's entry is what index.html loads: the figure above is the one `npm run lighthouse` reports.
  const fromHtml = htmlEntryScripts(fs.readFileSync(path.join(distDir, 'index.html'), 'utf8')).sort();
  const fromManifest = [...groups[0]!.js].sort();
  if (fromHtml.join() !== fromManifest.join()) {
    failures.push(`index.html loads ${fromHtml.join(', ')} at once, the manifest's entry is ${fromManifest.join(', ')}: the budget would measure the wrong files`);
  }
  for (const f of failures) log(`\nbundle-budget: ${f} (${path.relative(repoRoot, BUDGET_FILE)}).`);
  if (!failures.length) log('\nbundle-budget: every chunk is within its limit.');
  return failures;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  let dist = path.join(repoRoot, 'web/dist');
  if (process.env.BUNDLE_DIST) dist = path.resolve(process.env.BUNDLE_DIST);
  // web/dist is built first when its sources are newer (npm test: the e2e set-up then finds it fresh and reuses it).
  else (await import('./lib/stack.ts')).ensureWebBuilt();
  if (checkBudget(dist).length) process.exit(1);
}
