import { getJson, type ListResponse, type Subcategory } from './support/catalog.ts';
import { expect, test, type APIRequestContext, type Page } from './support/test.ts';

/**
 * Every public route fits a 320 px and a 360 px phone with the brand's shipped fonts, and with them blocked (the
 * metric-matched fallbacks only, as on a slow connection before they arrive or where they are refused): no sideways
 * scrolling, nothing cut off at the right edge. The machine's own fonts do not matter: the app ships the ones it names.
 */

async function publicRoutes(request: APIRequestContext): Promise<string[]> {
  const subs = await getJson<Subcategory[]>(request, '/api/subcategories');
  const sub = [...subs].sort((a, b) => b.productCount - a.productCount)[0]!;
  const product = (await getJson<ListResponse>(request, '/api/catalog/products?limit=1')).products[0]!;
  return [
    '/',
    '/?search=hydraulic%20filter',
    '/categories',
    '/catalog',
    `/category/${sub.categorySlug}`,
    `/category/${sub.categorySlug}/${sub.brandSlug}`,
    `/brands-available/${sub.brandSlug}`,
    `/products/${product.id}/${product.slug}`,
    '/about',
    '/faq',
    '/contact',
    '/privacy',
    '/refund-policy',
    '/shipping-policy',
    '/disclaimer',
    '/no-such-page',
  ];
}

/**
 * In the page: the document's horizontal overflow, and the visible elements whose box ends past the viewport's
 * right edge (outside a sideways-scrolling container, a hidden carousel slide or a screen-reader-only label).
 */
const OVERFLOW = `(() => {
  const vw = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('[aria-hidden="true"], [inert], .sr-only, noscript, script, style, template')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= vw + 0.5) continue;
    let scroller = false;
    for (let a = el.parentElement; a; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll') { scroller = true; break; }
    }
    if (scroller) continue;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.position === 'fixed' && r.left >= vw) continue;
    out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + '.' + String(el.className).split(' ').slice(0, 4).join('.') + ' right=' + Math.round(r.right) + ' "' + (el.textContent || '').trim().slice(0, 40) + '"');
  }
  return { scrollWidth: document.documentElement.scrollWidth, viewport: vw, offenders: out.slice(0, 8), fonts: [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family + ' ' + f.weight) };
})()`;

async function check(page: Page, path: string, width: number, fonts: 'shipped' | 'blocked') {
  await page.goto(path);
  // After the visit's first page the fonts are switched on from the first paint (<html data-fonts>).
  if (fonts === 'shipped') await page.waitForSelector('html[data-fonts]', { state: 'attached' });
  await page.evaluate('document.fonts.ready');
  const r = (await page.evaluate(OVERFLOW)) as { scrollWidth: number; viewport: number; offenders: string[]; fonts: string[] };
  expect(r.offenders, `${path} at ${width} px: elements past the right edge`).toEqual([]);
  expect(r.scrollWidth, `${path} at ${width} px: page wider than the screen`).toBeLessThanOrEqual(r.viewport);
  return r;
}

for (const width of [320, 360]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 740 }, isMobile: true, hasTouch: true });

    test('with the shipped fonts, every public route fits', async ({ page, request }) => {
      // The visit's first page fetches the fonts after its largest paint; later pages use them from the start.
      await page.goto('/about');
      await page.waitForSelector('html[data-fonts-ready]', { state: 'attached' });
      const seen = new Set<string>();
      for (const path of await publicRoutes(request)) for (const f of (await check(page, path, width, 'shipped')).fonts) seen.add(f);
      // The brand's fonts really were used (and came from the app, not the machine).
      expect([...seen].some((f) => /^Inter \d/.test(f))).toBe(true);
      expect([...seen].some((f) => /^Barlow Condensed \d/.test(f))).toBe(true);
    });

    test('with the font files blocked (fallbacks only), every public route fits', async ({ page, request }) => {
      let blocked = 0;
      await page.route(/\.woff2(\?|$)/, (route) => {
        blocked++;
        return route.abort();
      });
      for (const path of await publicRoutes(request)) {
        const r = await check(page, path, width, 'blocked');
        expect(r.fonts.filter((f) => /^(Inter|Barlow Condensed) \d/.test(f)), path).toEqual([]);
      }
      expect(blocked).toBeGreaterThan(0);
    });
  });
}

test('the first page of a visit keeps its fonts while read; the fonts switch on at the next navigation, then from the first paint', async ({ page }) => {
  await page.goto('/faq');
  await page.waitForSelector('html[data-fonts-ready]', { state: 'attached' });
  // Fetched, but not swapped under the reader: no relayout of the page being read.
  expect(await page.evaluate('document.documentElement.hasAttribute("data-fonts")')).toBe(false);
  expect(await page.evaluate("getComputedStyle(document.body).fontFamily")).not.toMatch(/^"?Inter"?,/);
  await page.getByRole('link', { name: 'Company Info' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await page.waitForSelector('html[data-fonts]', { state: 'attached' });
  expect(await page.evaluate("getComputedStyle(document.body).fontFamily")).toMatch(/^"?Inter"?,/);
  await page.reload();
  expect(await page.evaluate('document.documentElement.hasAttribute("data-fonts")')).toBe(true);
});
