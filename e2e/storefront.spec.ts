import { biggestCategory, getJson, literal, type ListResponse, type Subcategory } from './support/catalog.ts';
import { expect, test, type Page } from './support/test.ts';

// Browser globals used inside page.evaluate callbacks (the root tsconfig has no DOM lib).
declare const window: Record<string, unknown> & {
  innerWidth: number;
  history: { pushState(state: object, unused: string, url: string): void };
  dispatchEvent(event: unknown): boolean;
};
declare const navigator: { share?: unknown; clipboard: { readText(): Promise<string> } };
declare const document: { documentElement: { scrollWidth: number }; getElementById(id: string): unknown };
declare const PopStateEvent: new (type: string) => unknown;

/**
 * The storefront's data-driven screens against the running stack (spec sections 2, 4, 5): headings of every route,
 * pagination kept in ?page=, the header search combobox, the gallery's page input, the product page, the phone menu.
 * Test data comes from the API at run time, so the tests hold for any seeded catalogue.
 */

const headerSearch = (page: Page) => page.getByRole('combobox', { name: /search parts/i });

test.describe('every route renders its heading', () => {
  test('home shows the hero, sections in order and the statistics', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Forgeline Parts/);
    await expect(page.getByRole('link', { name: 'Contact Us' }).first()).toHaveAttribute('href', '/contact');
    await expect(page.getByRole('link', { name: 'Browse Parts' }).first()).toHaveAttribute('href', '/categories');
    await expect(page.getByText('500,000+ Parts in Stock').first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Premium Industrial Equipment Parts' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Empowering Global Businesses' })).toBeVisible();
    for (const label of ['Clients Globally', 'Shipments Delivered', 'Products', 'Countries Served']) {
      await expect(page.locator('#stats-heading ~ dl dt', { hasText: label })).toBeVisible();
    }
    await expect(page.getByRole('heading', { name: 'What Our Clients Say' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Explore Our Products' })).toHaveAttribute('href', '/catalog');
    await expect(page.getByText('#1 Parts Store')).toBeVisible();
    // After load the static first slide gives way to the six-slide carousel.
    await expect(page.locator('[aria-roledescription="slide"]')).toHaveCount(6);
  });

  test('/categories, /catalog, a category, a category with brand, a brand page', async ({ page, request }) => {
    const { category, sub } = await biggestCategory(request);

    await page.goto('/categories');
    await expect(page.getByRole('heading', { level: 1, name: 'Browse by Brand' })).toBeVisible();
    await expect(page.getByPlaceholder('Search brands...')).toBeVisible();
    await expect(page.getByRole('link', { name: /^View Parts/ }).first()).toBeVisible();
    await page.getByPlaceholder('Search brands...').fill('no-such-brand-anywhere');
    await expect(page.getByRole('heading', { name: 'No categories found' })).toBeVisible();

    await page.goto('/catalog');
    await expect(page.getByRole('heading', { level: 1, name: 'Industrial Parts Image Gallery' })).toBeVisible();

    await page.goto(`/category/${category.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(category.name, { ignoreCase: true });
    await expect(page).toHaveTitle(new RegExp(`Page 1 of \\d+`));

    await page.goto(`/category/${sub.categorySlug}/${sub.brandSlug}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(sub.category, { ignoreCase: true });
    await expect(page.getByRole('link', { name: /Request Quote/ })).toHaveAttribute('href', /^https:\/\/wa\.me\/\d+\?text=/);

    await page.goto(`/brands-available/${sub.brandSlug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/ Parts$/);
    await expect(page.getByText(/^Showing \d+ of/)).toBeVisible();
  });

  test('product, invalid product URL, unknown product and error states', async ({ page, request }) => {
    const { products } = await getJson<ListResponse>(request, '/api/catalog/products?limit=1');
    const p = products[0]!;
    await page.goto(`/products/${p.id}/${p.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.name);
    await expect(page.getByRole('tab', { name: 'Description' })).toBeVisible();
    await page.getByRole('tab', { name: 'Reviews' }).click();
    await expect(page.getByText('9.8/10')).toBeVisible();

    const hasNativeShare = await page.evaluate(() => typeof navigator.share === 'function');
    if (!hasNativeShare) {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.getByRole('button', { name: 'Share' }).click();
      await expect(page.getByText('Link copied')).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    }
    const brandLabel = p.brandName.toLowerCase() === 'generic' ? 'OEM/Genuine' : p.brandName;
    const brandLink = page.getByRole('main').getByRole('link', { name: brandLabel, exact: true });
    await expect(brandLink).toHaveAttribute('href', /^\/category\/[a-z0-9-]+\/[a-z0-9-]+$/);

    await page.goto('/products');
    await expect(page.getByRole('heading', { level: 1, name: 'Invalid Product URL' })).toBeVisible();
    await expect(page.getByText('Please use a valid product URL format.')).toBeVisible();

    await page.goto('/products/00000000-0000-0000-0000-000000000000/nothing');
    await expect(page.getByRole('heading', { level: 1, name: 'Product Not Found' })).toBeVisible();

    await page.goto('/category/no-such-category-here');
    await expect(page.getByRole('heading', { level: 1, name: 'Category Not Found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');

    await page.goto('/brands-available/no-such-brand-here');
    await expect(page.getByRole('heading', { level: 1, name: 'Brand Not Found' })).toBeVisible();
  });

  test('a product page served with its data preloaded does not fetch it again, and drops it after ~100 ms', async ({ page, request }) => {
    const { products } = await getJson<ListResponse>(request, '/api/catalog/products?limit=2');
    const [a, b] = [products[0]!, products[1]!];
    const fetched: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/products\/[^/?]+$/.test(new URL(r.url()).pathname)) fetched.push(new URL(r.url()).pathname);
    });
    await page.goto(`/products/${a.id}/${a.slug}`);
    const html = await (await request.get(`/products/${a.id}/${a.slug}`)).text();
    test.skip(!html.includes('__PRELOADED_PRODUCT__'), 'the gateway does not preload product data');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(a.name);
    expect(fetched).toEqual([]);
    await expect.poll(() => page.evaluate(() => document.getElementById('__PRELOADED_PRODUCT__') === null)).toBe(true);

    // A later product is fetched as usual.
    await page.evaluate((path) => {
      window.history.pushState({}, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, `/products/${b.id}/${b.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(b.name);
    expect(fetched).toEqual([`/api/products/${b.id}`]);
  });

  test('an unknown path shows Page Not Found', async ({ page }) => {
    await page.goto('/this/path/does-not-exist');
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  test('static pages and the admin panel render a heading inside the app', async ({ page }) => {
    for (const path of ['/about', '/faq', '/contact', '/privacy', '/refund-policy', '/shipping-policy', '/disclaimer', '/admin']) {
      await page.goto(path);
      await expect(page.getByRole('heading').first(), path).toBeVisible();
    }
  });
});

test.describe('server-rendered for a first visit, readable before (and without) JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a category page shows its heading, count and first cards as links, page 2 included', async ({ page, request }) => {
    const { category } = await biggestCategory(request);
    const list = await getJson<ListResponse>(request, `/api/products?category=${category.slug}&limit=75&offset=0`);
    await page.goto(`/category/${category.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: category.name })).toBeVisible();
    await expect(page.getByText(`${list.pagination.totalProducts.toLocaleString('en-US')} products`)).toBeVisible();
    const first = list.products[0]!;
    const card = page.getByRole('link', { name: new RegExp(first.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).first();
    await expect(card).toBeVisible();
    await expect(card).toHaveAttribute('href', new RegExp(`^/products/${first.id}/`));
    // The first card's photo is in the HTML, styled (square, not its 480 px natural size) without the app.
    const box = await card.locator('img').first().boundingBox();
    expect(box!.width).toBeLessThan(400);
    expect(Math.abs(box!.width - box!.height)).toBeLessThan(2);

    if (category.count > 75) {
      const second = await getJson<ListResponse>(request, `/api/products?category=${category.slug}&limit=75&offset=75`);
      await page.goto(`/category/${category.slug}?page=2`);
      await expect(page.getByText(/Page 2 of \d+/).first()).toBeVisible();
      await expect(page.getByRole('link', { name: second.products[0]!.name }).first()).toBeVisible();
    }
  });

  test('the FAQ, contact and policy pages show their content', async ({ page }) => {
    await page.goto('/faq');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('button', { name: /ship/i }).first()).toBeVisible();
    await page.goto('/contact');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: /@/ }).first()).toBeVisible();
    await page.goto('/shipping-policy');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('a product page shows the product name, part number and photo', async ({ page, request }) => {
    const p = (await getJson<ListResponse>(request, '/api/catalog/products?limit=1')).products[0]!;
    const full = await getJson<{ partNumber: string }>(request, `/api/products/${p.id}`);
    await page.goto(`/products/${p.id}/${p.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: p.name })).toBeVisible();
    await expect(page.getByText(full.partNumber).first()).toBeVisible();
    await expect(page.getByRole('img', { name: p.name }).first()).toBeVisible();
  });
});

test('a server-rendered category page turns into the app with the same cards, without fetching them again', async ({ page, request }) => {
  const { category } = await biggestCategory(request);
  const list = await getJson<ListResponse>(request, `/api/products?category=${category.slug}&limit=75&offset=0`);
  const listRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/products?')) listRequests.push(r.url());
  });
  await page.goto(`/category/${category.slug}`);
  await expect(page.getByRole('link', { name: new RegExp(list.products[0]!.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).first()).toBeVisible();
  await expect(page.getByText(`Showing ${list.products.length}`)).toBeVisible();
  await expect(page.getByRole('listitem')).not.toHaveCount(0);
  await expect.poll(() => page.evaluate(() => document.getElementById('__PRELOADED_QUERIES__') === null)).toBe(true);
  // The app's category screen has mounted (it sets this title; the server's <title> reads differently).
  await expect(page).toHaveTitle(/Page 1 of \d+/);
  expect(listRequests).toEqual([]);
});

test('on a phone, a first-visit category page lays out its first 15 cards, and the rest once scrolled near', async ({ page, request }) => {
  const { category } = await biggestCategory(request);
  const list = await getJson<ListResponse>(request, `/api/products?category=${category.slug}&limit=75&offset=0`);
  test.skip(list.products.length <= 15, `the biggest category has ${list.products.length} products`);
  // (On a desktop screen the 15 cards end within 1,500 px of the fold, so the rest renders at once.)
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto(`/category/${category.slug}`);
  const grid = page.getByRole('list').filter({ has: page.getByRole('link', { name: list.products[0]!.name }) });
  await expect(grid.getByRole('listitem')).toHaveCount(15);
  await page.keyboard.press('End');
  await expect(grid.getByRole('listitem')).toHaveCount(list.products.length);
  await expect(page.getByRole('link', { name: list.products.at(-1)!.name }).first()).toBeAttached();
});

test('on a phone, the gallery lays out its first 18 cards, the rest once scrolled near; a listing page of /categories its first 12', async ({ page, request }) => {
  const list = await getJson<ListResponse>(request, '/api/catalog/products?limit=48&offset=0');
  test.skip(list.products.length <= 18, `the gallery's first page has ${list.products.length} products`);
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto('/catalog');
  // (The grid's own items: each card holds a list of its tags.)
  const cards = page.getByRole('list').filter({ has: page.getByRole('link', { name: literal(list.products[0]!.name) }) }).locator(':scope > li');
  await expect(cards).toHaveCount(18);
  await page.keyboard.press('End');
  await expect(cards).toHaveCount(list.products.length);

  const subs = await getJson<Subcategory[]>(request, '/api/subcategories');
  test.skip(subs.length <= 12, `the catalogue has ${subs.length} brand and category pairs`);
  await page.goto('/categories');
  // A new document opens at its top, not where the previous one (scrolled to its end) was.
  await expect(page.locator('html[data-app="ready"]')).toBeAttached();
  expect(await page.evaluate('window.scrollY')).toBe(0);
  const pairs = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: /^View Parts:/ }) });
  await expect(pairs).toHaveCount(12);
  await page.keyboard.press('End');
  await expect(pairs).toHaveCount(Math.min(60, subs.length));
});

test('a link opens its page at the top; Back and a reload return to where the visitor was', async ({ page, request }) => {
  const list = await getJson<ListResponse>(request, '/api/catalog/products?limit=48&offset=0');
  test.skip(list.products.length < 16, `the gallery's first page has ${list.products.length} products`);
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto('/catalog');
  await expect(page.locator('html[data-app="ready"]')).toBeAttached();
  // A card far down the page, opened by the app (not a new document).
  const far = page.getByRole('link', { name: literal(list.products[15]!.name) }).first();
  await far.scrollIntoViewIfNeeded();
  const scrolled = Number(await page.evaluate('window.scrollY'));
  expect(scrolled).toBeGreaterThan(1000);
  await far.click();
  await expect(page).toHaveURL(/\/products\//);
  await expect(page.getByRole('heading', { level: 1, name: literal(list.products[15]!.name) })).toBeVisible();
  await expect.poll(() => page.evaluate('window.scrollY')).toBe(0);
  await page.goBack();
  await expect(page).toHaveURL(/\/catalog$/);
  await expect.poll(async () => Math.abs(Number(await page.evaluate('window.scrollY')) - scrolled)).toBeLessThan(2);
  // A reload comes back to where the visitor was (the position is kept in sessionStorage).
  await page.reload();
  await expect(page.locator('html[data-app="ready"]')).toBeAttached();
  await expect.poll(async () => Math.abs(Number(await page.evaluate('window.scrollY')) - scrolled)).toBeLessThan(2);
});

test('on a phone, a first-visit brand page lays out its first 15 cards, the rest once scrolled near, also after a filter', async ({ page, request }) => {
  const subs = await getJson<Subcategory[]>(request, '/api/subcategories');
  const byBrand = new Map<string, number>();
  for (const s of subs) byBrand.set(s.brandSlug, (byBrand.get(s.brandSlug) ?? 0) + s.productCount);
  const [brandSlug] = [...byBrand.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const list = await getJson<ListResponse>(request, `/api/brands/${brandSlug}/products?page=1&limit=75`);
  test.skip(list.products.length <= 15, `the biggest brand has ${list.products.length} products`);
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto(`/brands-available/${brandSlug}`);
  await expect(page.locator('html[data-app="ready"]')).toBeAttached();
  const cards = page.locator('main ul:has(article) > li');
  await expect(cards).toHaveCount(15);

  // The filter looks through every card of the page, laid out or not.
  const last = list.products.at(-1)!;
  const f = last.sku.toLowerCase();
  const matches = list.products.filter((p) => [p.name, p.sku, p.category].some((v) => v.toLowerCase().includes(f)));
  const box = page.getByRole('searchbox', { name: 'Filter this page by name, SKU or category' });
  await box.fill(last.sku);
  await expect(page.getByRole('link', { name: literal(last.name) }).first()).toBeVisible();
  await expect(cards).toHaveCount(Math.min(15, matches.length));
  // Cleared, the page is back to its first cards, and the rest still comes once scrolled near.
  await box.fill('');
  await expect(cards).toHaveCount(15);
  // (End would move the caret in the box.)
  await page.mouse.wheel(0, 10_000);
  await expect(cards).toHaveCount(list.products.length);
});

test('category pagination moves and keeps ?page= in the address', async ({ page, request }) => {
  const { category } = await biggestCategory(request);
  test.skip(category.count <= 75, `the seeded catalogue's biggest category has ${category.count} products, one page only`);
  await page.goto(`/category/${category.slug}`);
  const top = page.getByRole('navigation', { name: /pagination/i }).first();
  await top.getByRole('link', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/[?&]page=2\b/);
  await expect(page.getByText(/Page 2 of \d+/).first()).toBeVisible();
  await expect(top.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveTitle(/Page 2 of \d+/);

  await page.reload();
  await expect(page.getByRole('link', { name: 'Page 2' }).first()).toHaveAttribute('aria-current', 'page');

  await page.getByRole('navigation', { name: /pagination/i }).last().getByRole('link', { name: /Previous/ }).click();
  await expect(page).toHaveURL(/[?&]page=1\b/);
  await page.getByRole('navigation', { name: /pagination/i }).first().getByRole('link', { name: /Next/ }).click();
  await expect(page).toHaveURL(/[?&]page=2\b/);
});

test('full search results page through ?page= and keep the search', async ({ page, request }) => {
  const res = await getJson<ListResponse>(request, '/api/products?search=filter&limit=48');
  test.skip(res.pagination.totalPages < 3, `only ${res.pagination.totalPages} page(s) of results for "filter"`);
  await page.goto('/?search=filter');
  const nav = page.getByRole('navigation', { name: 'Search results pagination' });
  await nav.getByRole('link', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/\?search=filter&page=2$/);
  // The address changes before page 2's results (and their pagination) replace page 1's: a click on "Next" meanwhile
  // is page 1's Next, to page 2 again (CI caught it once). Wait for the pagination of page 2.
  await expect(nav.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await nav.getByRole('link', { name: /Next/ }).click();
  await expect(page).toHaveURL(/\?search=filter&page=3$/);
  await expect(nav.getByRole('link', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');
  await page.goBack();
  await expect(page).toHaveURL(/\?search=filter&page=2$/);
  await expect(nav.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
});

test('brand page pagination keeps ?page=', async ({ page, request }) => {
  const subs = await getJson<Subcategory[]>(request, '/api/subcategories');
  const byBrand = new Map<string, number>();
  for (const s of subs) byBrand.set(s.brandSlug, (byBrand.get(s.brandSlug) ?? 0) + s.productCount);
  const [brandSlug, count] = [...byBrand.entries()].sort((a, b) => b[1] - a[1])[0]!;
  test.skip(count <= 75, `the biggest brand has ${count} products, one page only`);
  await page.goto(`/brands-available/${brandSlug}?page=2`);
  await expect(page.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await page.getByRole('link', { name: 'Page 1' }).click();
  await expect(page).toHaveURL(/[?&]page=1\b/);
});

test('gallery page input accepts only 1 to the last page', async ({ page }) => {
  await page.goto('/catalog');
  const nav = page.getByRole('navigation', { name: 'Gallery pagination' }).first();
  const input = nav.getByRole('spinbutton', { name: 'Page' });
  await expect(input).toHaveValue('1');
  const last = Number(await input.getAttribute('max'));
  test.skip(last < 2, 'the gallery has a single page');

  await input.fill(String(last + 50));
  await expect(input).toHaveValue(String(last));
  await input.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]page=${last}\\b`));
  await expect(nav.getByRole('link', { name: 'Next page' })).toBeDisabled();

  await input.fill('0');
  await expect(input).toHaveValue('1');
  await input.press('Enter');
  await expect(page).toHaveURL(/[?&]page=1\b/);
  await expect(nav.getByRole('link', { name: 'First page' })).toBeDisabled();

  await nav.getByRole('link', { name: 'Last page' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]page=${last}\\b`));
  await nav.getByRole('link', { name: 'Previous page' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]page=${last - 1}\\b`));
});

test('gallery search goes back to page 1 and offers Clear Search when empty', async ({ page }) => {
  await page.goto('/catalog?page=3');
  await page.getByLabel('Search the gallery').fill('qqqxxzzy-nothing-matches');
  await expect(page.getByRole('heading', { name: 'No Products Found' })).toBeVisible();
  await expect(page).toHaveURL(/[?&]page=1\b/);
  await page.getByRole('button', { name: 'Clear Search', exact: true }).click();
  await expect(page.getByLabel('Search the gallery')).toHaveValue('');
  await expect(page.getByRole('navigation', { name: 'Gallery pagination' }).first()).toBeVisible();
});

test.describe('header search dropdown', () => {
  test('needs two characters, highlights the first hit and cycles with the arrow keys', async ({ page }) => {
    await page.goto('/');
    const box = headerSearch(page);
    await box.fill('f');
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('listbox')).toHaveCount(0);

    await box.fill('filter');
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByText(/^\d+ results? found$/)).toBeVisible();
    const options = page.getByRole('option');
    await expect(options.first()).toHaveAttribute('aria-selected', 'true');
    const n = await options.count();
    expect(n).toBeGreaterThan(1);
    await expect(options.first().locator('mark').first()).toBeVisible();
    await expect(options.first()).toContainText('Part #');

    await box.press('ArrowDown');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id'))!);
    await box.press('ArrowUp');
    await expect(options.first()).toHaveAttribute('aria-selected', 'true');
    await box.press('ArrowUp');
    await expect(options.nth(n - 1)).toHaveAttribute('aria-selected', 'true');
    await box.press('ArrowDown');
    await expect(options.first()).toHaveAttribute('aria-selected', 'true');

    await box.press('Escape');
    await expect(page.getByRole('listbox')).toHaveCount(0);
    await expect(box).toHaveValue('filter');

    await box.press('ArrowDown'); // reopens
    await expect(page.getByRole('listbox')).toBeVisible();
    await page.getByRole('heading', { name: 'Premium Industrial Equipment Parts' }).click();
    await expect(page.getByRole('listbox')).toHaveCount(0);

    await box.click();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(box).toHaveValue('');
  });

  test('Enter opens the highlighted result: the product page from a search result', async ({ page }) => {
    await page.goto('/catalog');
    const box = headerSearch(page);
    await box.fill('filter');
    const second = page.getByRole('option').nth(1);
    await expect(page.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    await box.press('ArrowDown');
    await expect(second).toHaveAttribute('aria-selected', 'true');
    const name = (await second.locator('div').first().textContent())!.trim();
    await box.press('Enter');
    await expect(page).toHaveURL(/\/products\/[^/]+\/[^/]+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    await expect(page.getByRole('link', { name: 'Get Instant Quote' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Chat on WhatsApp' })).toHaveAttribute('href', /^https:\/\/wa\.me\/\d+\?text=/);
    await expect(box).toHaveValue('');
  });

  test('clicking a result opens it; View all results and Enter without a hit run the full search', async ({ page }) => {
    await page.goto('/');
    const box = headerSearch(page);
    await box.fill('filter');
    const first = page.getByRole('option').first();
    const name = (await first.locator('div').first().textContent())!.trim();
    await first.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);

    await box.fill('filter');
    await page.getByRole('link', { name: 'View all results' }).click();
    await expect(page).toHaveURL(/\/\?search=filter$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('filter');
    await expect(page.getByText(/^\d+ results? found/).first()).toBeVisible();

    await box.fill('qqqxxzzy');
    await expect(page.getByText('No products found for "qqqxxzzy"')).toBeVisible();
    await box.press('Enter');
    await expect(page).toHaveURL(/\/\?search=qqqxxzzy$/);
    await expect(page.getByRole('heading', { name: 'No Products Found' })).toBeVisible();

    await box.fill('   ');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/\?search=qqqxxzzy$/);
  });
});

test.describe('at phone width', () => {
  test.use({ viewport: { width: 360, height: 780 } });

  test('the header menu opens, shows CATEGORIES and closes on navigation', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    await menu.getByRole('link', { name: 'CATEGORIES' }).click();
    await expect(page).toHaveURL(/\/categories$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Browse by Brand' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test('the menu button answers the keyboard: Enter and Space toggle it, and it stays on the page', async ({ page }) => {
    await page.goto('/faq');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
    await expect(page).toHaveURL(/\/faq$/); // the link's own target (#site-links) is for visitors without JavaScript
  });

  test('the phone search box works the same way', async ({ page }) => {
    await page.goto('/');
    const box = headerSearch(page);
    await box.fill('filter');
    await expect(page.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/products\//);
  });
});
