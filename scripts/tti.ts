/**
 * npm run tti: how fast the app takes over server-rendered pages, in a real Chromium (Debian's).
 * "Ready" is when <html data-app="ready"> appears (web/src/app/app.tsx sets it once React has mounted);
 * "ready−load" is how long after the load event that happens, i.e. how long a page looks usable but its
 * buttons do nothing. CLS is summed over the whole visit, take-over included.
 *
 * Each page is loaded TTI_RUNS times (default 20), each in a fresh browser context (empty HTTP cache), at
 * 1350×940, without throttling ("desktop") and with Chromium's CPU slowed 4× ("4x CPU").
 * Starts its own stack on data/lighthouse (seeded once with 5,000 products) unless TTI_URL points at one.
 * TTI_PATHS=/about,/faq measures other pages instead of home, a category, a product and the gallery (and skips the
 * header search); TTI_SEARCH_ONLY=1 measures only the header search.
 * Then the header search on a category page, typed into at the load event: how soon it is the app's and how soon its
 * first result shows (issue 32).
 * Goals: ready−load p95 ≤ 300 ms (desktop), ≤ 1000 ms (4x CPU); CLS < 0.02; the header search usable ≤ 300 ms after
 * load at 4x CPU (p95). Exits 0 either way: a measurement.
 */
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { keyPages } from './lib/pages.ts';
import { ensureWebBuilt, repoRoot, startStack, type Stack } from './lib/stack.ts';
import { fmt, percentile } from './bench/lib/stats.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Math.max(1, Number(process.env.TTI_RUNS) || 20);
const READY_TIMEOUT = 15_000;
const SETTLE_MS = 500;
const profiles = [
  { name: 'desktop', cpuRate: 1, goal: 300 },
  { name: '4x CPU', cpuRate: 4, goal: 1_000 },
];
const CLS_GOAL = 0.02;

/**
 * Runs in the page before its own scripts. A string, not a function: the root tsconfig has no DOM types.
 * At that moment <html> may not be parsed yet, so the observer watches the document's subtree (which
 * includes <html> once it exists) rather than document.documentElement itself.
 */
const INIT_SCRIPT = `(() => {
  const t = (window.__tti = { ready: null, cls: 0, listbox: null });
  // The header search's dropdown, watched from the load event (by the page itself: no round trip to Playwright).
  addEventListener('load', () => {
    new MutationObserver((_, o) => {
      if (document.querySelector('[role="listbox"]')) { t.listbox = performance.now(); o.disconnect(); }
    }).observe(document.body, { childList: true, subtree: true });
  });
  const check = () => {
    if (t.ready === null && document.documentElement && document.documentElement.getAttribute('data-app') === 'ready') {
      t.ready = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-app'] });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) t.cls += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
})();`;

interface Sample {
  load: number;
  ready: number;
  cls: number;
}

/** One visit in a fresh context; a string saying what went wrong when the app never took over. */
async function loadOnce(browser: Browser, url: string, cpuRate: number): Promise<Sample | string> {
  // bypassCSP: the page's Content-Security-Policy refuses string evaluation, which waitForFunction's polling needs.
  const context = await browser.newContext({ viewport: { width: 1350, height: 940 }, bypassCSP: true });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.addInitScript(INIT_SCRIPT);
    if (cpuRate !== 1) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
    }
    const started = Date.now();
    const res = await page.goto(url, { waitUntil: 'commit', timeout: READY_TIMEOUT });
    if (res && !res.ok()) return `HTTP ${res.status()}`;
    try {
      await page.waitForFunction('window.__tti && window.__tti.ready !== null', undefined, { timeout: Math.max(1, READY_TIMEOUT - (Date.now() - started)) });
      // ready−load needs loadEventEnd, and the app can take over before the last image has loaded.
      await page.waitForLoadState('load', { timeout: READY_TIMEOUT });
    } catch {
      return `no ready within ${READY_TIMEOUT / 1000} s${errors.length ? ` (page error: ${errors[0]})` : ''}`;
    }
    await page.waitForTimeout(SETTLE_MS); // layout shifts caused by the take-over land just after it
    return (await page.evaluate(`(() => ({
      ready: window.__tti.ready,
      cls: window.__tti.cls,
      load: performance.getEntriesByType('navigation')[0].loadEventEnd,
    }))()`)) as Sample;
  } finally {
    await context.close();
  }
}

/**
 * Issue 32's "header search usable after load": on a category page, the visitor types "filter" into the header
 * search the moment the load event has fired; returns how long after that event (ms) its dropdown opened (the app
 * answered the typing: "usable") and the first search result showed (the 300 ms debounce of spec section 5 and the
 * catalogue's answer included).
 */
async function searchAfterLoad(browser: Browser, url: string, cpuRate: number): Promise<{ usable: number; dropdown: number } | string> {
  const context = await browser.newContext({ viewport: { width: 1350, height: 940 }, bypassCSP: true });
  try {
    const page = await context.newPage();
    await page.addInitScript(INIT_SCRIPT);
    if (cpuRate !== 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
    await page.goto(url, { waitUntil: 'commit', timeout: READY_TIMEOUT });
    const box = page.getByRole('combobox', { name: /search parts/i }).first();
    // Playwright's own page script (~330 kB, 65 ms of main thread at 4x CPU) is injected on a locator's first use:
    // done here, while the page loads, it is not counted against the app after the load event.
    await box.count();
    await page.waitForLoadState('load', { timeout: READY_TIMEOUT });
    await box.pressSequentially('filter');
    await page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first().waitFor({ timeout: READY_TIMEOUT });
    return (await page.evaluate(`(() => {
      const load = performance.getEntriesByType('navigation')[0].loadEventEnd;
      return { usable: window.__tti.listbox - load, dropdown: performance.now() - load };
    })()`)) as { usable: number; dropdown: number };
  } catch (err) {
    return err instanceof Error ? err.message.split('\n')[0]! : String(err);
  } finally {
    await context.close();
  }
}

async function main() {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  let base = process.env.TTI_URL;
  const tables: string[] = [];
  const missed: string[] = [];
  try {
    if (!base) {
      ensureWebBuilt();
      stack = await startStack({ dataDir: path.join(repoRoot, 'data/lighthouse'), port: 0, seedProducts: 5_000, quiet: true });
      base = stack.url;
    }
    const pages = process.env.TTI_SEARCH_ONLY
      ? []
      : process.env.TTI_PATHS
      ? process.env.TTI_PATHS.split(',').map((p) => ({ name: p.trim(), path: p.trim() }))
      : await keyPages(base, ['home', 'category', 'product', 'gallery']);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
    for (const profile of profiles) {
      const rows: string[][] = [];
      for (const page of pages) {
        const url = new URL(page.path, base).href;
        process.stdout.write(`${profile.name}: ${page.name} ${url} ×${RUNS} ...\n`);
        const samples: Sample[] = [];
        const failures = new Map<string, number>();
        for (let i = 0; i < RUNS; i++) {
          // A navigation that throws (server gone, goto timeout) is a failed run too, not the end of the measurement.
          const r = await loadOnce(browser, url, profile.cpuRate).catch((err: unknown) => (err instanceof Error ? err.message.split('\n')[0]! : String(err)));
          if (typeof r === 'string') failures.set(r, (failures.get(r) ?? 0) + 1);
          else samples.push(r);
        }
        for (const [why, n] of failures) process.stdout.write(`  ${n} run(s) failed: ${why}\n`);
        const sorted = (f: (s: Sample) => number) => samples.map(f).sort((a, b) => a - b);
        const load = sorted((s) => s.load);
        const ready = sorted((s) => s.ready);
        const gap = sorted((s) => s.ready - s.load);
        const cls = samples.length ? Math.max(...samples.map((s) => s.cls)) : NaN;
        const ms = (n: number) => (Number.isNaN(n) ? '-' : fmt(n));
        rows.push([
          page.name,
          ms(percentile(load, 50)),
          ms(percentile(ready, 50)),
          ms(percentile(ready, 95)),
          ms(percentile(gap, 50)),
          ms(percentile(gap, 95)),
          Number.isNaN(cls) ? '-' : cls.toFixed(3),
          `${samples.length}/${RUNS}`,
        ]);
        const gap95 = percentile(gap, 95);
        if (gap95 > profile.goal) missed.push(`goal missed: ${profile.name} ${page.name}: ready−load p95 ${fmt(gap95)} ms > ${profile.goal} ms`);
        if (cls >= CLS_GOAL) missed.push(`goal missed: ${profile.name} ${page.name}: CLS max ${cls.toFixed(3)} ≥ ${CLS_GOAL}`);
        if (samples.length < RUNS) missed.push(`goal missed: ${profile.name} ${page.name}: ${RUNS - samples.length} of ${RUNS} runs never became ready`);
      }
      const head = ['page', 'load p50', 'ready p50', 'ready p95', 'ready−load p50', 'ready−load p95', 'CLS max', 'runs'];
      const table = [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
      tables.push(`### ${profile.name} (times in ms from navigation start)\n\n${table}`);
    }
    // The header search on a category page, typed into at the load event (issue 32: usable within 300 ms at 4x CPU).
    const category = process.env.TTI_PATHS ? undefined : (await keyPages(base, ['category']))[0];
    if (category) {
      const rows: string[][] = [];
      for (const profile of profiles) {
        const url = new URL(category.path, base).href;
        process.stdout.write(`${profile.name}: header search on ${url} ×${RUNS} ...\n`);
        const usable: number[] = [];
        const dropdown: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const r = await searchAfterLoad(browser, url, profile.cpuRate);
          if (typeof r === 'string') process.stdout.write(`  a run failed: ${r}\n`);
          else {
            usable.push(r.usable);
            dropdown.push(r.dropdown);
          }
        }
        usable.sort((a, b) => a - b);
        dropdown.sort((a, b) => a - b);
        rows.push([profile.name, fmt(percentile(usable, 50)), fmt(percentile(usable, 95)), fmt(percentile(dropdown, 50)), fmt(percentile(dropdown, 95)), `${usable.length}/${RUNS}`]);
        const p95 = percentile(usable, 95);
        if (profile.cpuRate === 4 && !(p95 <= 300)) missed.push(`goal missed: ${profile.name} header search usable ${fmt(p95)} ms after load (p95) > 300 ms`);
      }
      const head = ['profile', 'usable after load p50', 'usable p95', 'first result after load p50', 'first result p95', 'runs'];
      tables.push(
        `### Header search on ${category.path}, "filter" typed at the load event (ms after load; "usable" = its dropdown opened for the typing, the first result includes the 300 ms debounce)\n\n` +
          [head, head.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n'),
      );
    }
  } finally {
    await browser?.close();
    await stack?.stop();
  }
  process.stdout.write(`\nApp take-over, Chromium 1350×940, ${RUNS} fresh loads per page, ${new Date().toISOString()}\n\n${tables.join('\n\n')}\n`);
  process.stdout.write(
    `\nGoals: ready−load p95 ≤ ${profiles.map((p) => `${p.goal} ms (${p.name})`).join(', ≤ ')}; CLS < ${CLS_GOAL}.\n`,
  );
  process.stdout.write(missed.length ? `${missed.join('\n')}\n` : 'Every goal met.\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`tti: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
