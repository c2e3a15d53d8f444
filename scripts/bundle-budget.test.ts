import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUDGET_FILE, chunkGroups, htmlEntryScripts, measure, over, table, type Budget, type Manifest } from './bundle-budget.ts';

/** A small build: the entry imports react and a shared chunk; two routes share a chunk of their own; one has CSS. */
const manifest: Manifest = {
  'index.html': { file: 'assets/index.js', src: 'index.html', isEntry: true, imports: ['_react.js', '_shared.js'], css: ['assets/index.css'], dynamicImports: ['src/a.tsx', 'src/b.tsx'] },
  '_react.js': { file: 'assets/react.js' },
  '_shared.js': { file: 'assets/shared.js', imports: ['_react.js'] },
  '_lists.js': { file: 'assets/lists.js', imports: ['_shared.js', '_react.js'], css: ['assets/lists.css'] },
  'src/a.tsx': { file: 'assets/a.js', src: 'src/a.tsx', isDynamicEntry: true, imports: ['_lists.js', '_react.js'], css: ['assets/index.css'] },
  'src/b.tsx': { file: 'assets/b.js', src: 'src/b.tsx', isDynamicEntry: true, imports: ['_lists.js'], dynamicImports: ['src/c.tsx', 'src/d.tsx'] },
  'src/c.tsx': { file: 'assets/c.js', src: 'src/c.tsx', isDynamicEntry: true, imports: ['_shared.js'] },
  // Loaded only from route b (as the admin page loads its tabs): what b already loaded (lists) is not d's.
  'src/d.tsx': { file: 'assets/d.js', src: 'src/d.tsx', isDynamicEntry: true, imports: ['_lists.js', '_tab.js'] },
  '_tab.js': { file: 'assets/tab.js' },
};

/** Every file's "gzipped size" in bytes, chosen so sums are easy to check. */
const sizes: Record<string, number> = {
  'assets/index.js': 50 * 1024,
  'assets/react.js': 40 * 1024,
  'assets/shared.js': 10 * 1024,
  'assets/lists.js': 30 * 1024,
  'assets/a.js': 5 * 1024,
  'assets/b.js': 31 * 1024,
  'assets/c.js': 1024,
  'assets/d.js': 3 * 1024,
  'assets/tab.js': 4 * 1024,
  'assets/index.css': 8 * 1024,
  'assets/lists.css': 2 * 1024,
};

const budget: Budget = {
  entry: { js: { limit: 101, goal: 90 }, css: { limit: 9 } },
  route: { js: { limit: 60 }, css: { limit: 1 } },
  routes: { 'src/b.tsx': { js: { limit: 62, goal: 60 } } },
};

describe('the size budget (scripts/bundle-budget.ts)', () => {
  it('counts the entry chunk and its static imports, each file once', () => {
    const [entry] = chunkGroups(manifest);
    expect(entry).toEqual({ name: 'entry', kind: 'entry', js: ['assets/index.js', 'assets/react.js', 'assets/shared.js'], css: ['assets/index.css'] });
  });

  it('counts a lazy chunk with its static imports that the entry does not already load', () => {
    const groups = chunkGroups(manifest);
    expect(groups.map((g) => g.name)).toEqual(['entry', 'src/a.tsx', 'src/b.tsx', 'src/c.tsx', 'src/d.tsx']);
    expect(groups[1]).toEqual({ name: 'src/a.tsx', kind: 'lazy', js: ['assets/a.js', 'assets/lists.js'], css: ['assets/lists.css'] });
    // A lazy chunk's own dynamic imports are not part of it; they are measured as chunks of their own.
    expect(groups[2]!.js).toEqual(['assets/b.js', 'assets/lists.js']);
    expect(groups[3]!.js).toEqual(['assets/c.js']);
    // Loaded only from inside route b: beyond what b loaded with itself.
    expect(groups[4]!.js).toEqual(['assets/d.js', 'assets/tab.js']);
  });

  it('sums the sizes and holds each group to its limit, a named route to its own', () => {
    const rows = measure(chunkGroups(manifest), budget, (f) => sizes[f]!);
    expect(rows.map((r) => [r.name, r.what, r.bytes / 1024, r.limit.limit])).toEqual([
      ['entry', 'JS', 100, 101],
      ['entry', 'CSS', 8, 9],
      ['src/a.tsx', 'JS', 35, 60],
      ['src/a.tsx', 'CSS', 2, 1],
      ['src/b.tsx', 'JS', 61, 62],
      ['src/b.tsx', 'CSS', 2, 1],
      ['src/c.tsx', 'JS', 1, 60],
      ['src/d.tsx', 'JS', 7, 60],
    ]);
    expect(rows.filter(over).map((r) => `${r.name} ${r.what}`)).toEqual(['src/a.tsx CSS', 'src/b.tsx CSS']);
  });

  it('fails a chunk one byte over its limit, not one at it', () => {
    const rows = measure(chunkGroups(manifest), budget, (f) => sizes[f]! + (f === 'assets/index.js' ? 1024 : 0));
    expect(over(rows[0]!)).toBe(false);
    const oneMore = measure(chunkGroups(manifest), budget, (f) => sizes[f]! + (f === 'assets/index.js' ? 1025 : 0));
    expect(over(oneMore[0]!)).toBe(true);
    expect(table(oneMore)).toMatch(/^entry JS\s+101\.0 kB\s+101 kB\s+90 kB\s+OVER$/m);
  });

  it('reads the scripts index.html loads at once, as npm run lighthouse counts them', () => {
    const html = `<script type="module" crossorigin src="/assets/index.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/react.js"><link rel="modulepreload" crossorigin href="/assets/shared.js">
      <link rel="stylesheet" href="/assets/index.css"><script>inline()</script>`;
    expect(htmlEntryScripts(html)).toEqual(['assets/index.js', 'assets/react.js', 'assets/shared.js']);
  });

  it('refuses a manifest without exactly one entry', () => {
    expect(() => chunkGroups({ 'a.js': { file: 'a.js' } })).toThrow(/one entry chunk/);
  });

  it('has a limit for the entry and for routes in web/bundle-budget.json, a goal only below its limit', () => {
    const real = JSON.parse(fs.readFileSync(BUDGET_FILE, 'utf8')) as Budget;
    const limits = [real.entry.js, real.entry.css, real.route.js, real.route.css, ...Object.values(real.routes ?? {}).flatMap((r) => [r.js, r.css])];
    for (const l of limits.filter((x) => x !== undefined)) {
      expect(l.limit).toBeGreaterThan(0);
      if (l.goal !== undefined) expect(l.limit).toBeGreaterThan(l.goal);
    }
  });
});
