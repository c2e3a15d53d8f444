import { mailsMentioning } from './support/dev-mailbox.ts';
import { biggestCategory, getJson, literal, type ListResponse } from './support/catalog.ts';
import { expect, test } from './support/test.ts';

/**
 * A buyer without JavaScript (or tapping before the app has started: the same HTML) can browse, search, open a part
 * and ask for a quote. Every control here is the server's HTML: links and forms, nothing the app adds.
 */
test.use({ javaScriptEnabled: false });


test("the home page's hero copy stays hidden until its last line has arrived (no jump as the HTML streams in)", async ({ page, request }) => {
  // The server's home page cut off just after the first slide's title, as a slow connection may first paint it: the
  // copy is centred in its box, so a part painted early would jump up when the rest arrived (a layout shift).
  const html = await (await request.get('/', { headers: { accept: 'text/html' } })).text();
  const copy = html.indexOf('container-page py-14');
  const cut = html.indexOf('</h2>', copy);
  expect(copy).toBeGreaterThan(0);
  expect(cut).toBeGreaterThan(copy);
  const title = /<h2[^>]*>([^<]+)<\/h2>/.exec(html.slice(copy))![1]!;
  await page.route('**/partial-home', (route) => route.fulfill({ contentType: 'text/html', body: html.slice(0, cut + 5) }));
  await page.goto('/partial-home');
  const heading = page.getByRole('heading', { name: title, includeHidden: true });
  await expect(heading).toBeAttached();
  await expect(heading).toBeHidden();
  // Once the copy's last line is there, it shows.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
});

test('browse: from the brand index to a category, through its pages by the pagination links', async ({ page, request }) => {
  const big = (await biggestCategory(request)).category;
  test.skip(big.count <= 75, `the biggest category has ${big.count} products, one page only`);

  // The brand index is paged too, and its filter box is a form.
  await page.goto('/categories');
  await expect(page.getByRole('heading', { level: 1, name: 'Browse by Brand' })).toBeVisible();
  await page.getByPlaceholder('Search brands...').fill(big.name);
  await page.getByPlaceholder('Search brands...').press('Enter');
  await expect(page).toHaveURL(new RegExp(`/categories\\?filter=`));
  await page.getByRole('link', { name: new RegExp(`^View Parts: .* ${literal(big.name).source}$`) }).first().click();
  await expect(page).toHaveURL(new RegExp(`/category/${big.slug}/`));

  await page.goto(`/category/${big.slug}`);
  // The whole page of 75, not only the first screenful the app lays out first.
  const first = await getJson<ListResponse>(request, `/api/products?category=${big.slug}&limit=75&offset=0`);
  await expect(page.getByRole('link', { name: literal(first.products.at(-1)!.name) }).first()).toBeVisible();
  const top = page.getByRole('navigation', { name: /pagination/i }).first();
  await expect(top.getByRole('link', { name: /Previous/ })).toBeDisabled();
  await top.getByRole('link', { name: /Next/ }).click();
  await expect(page).toHaveURL(new RegExp(`/category/${big.slug}\\?page=2$`));
  await expect(page.getByText(/Page 2 of \d+/).first()).toBeVisible();
  const second = await getJson<ListResponse>(request, `/api/products?category=${big.slug}&limit=75&offset=75`);
  await expect(page.getByRole('link', { name: second.products[0]!.name }).first()).toBeVisible();
  // A link at the foot of a long list is followed from the keyboard: the cards above it may take their real height only as
  // they come near the screen (content-visibility), so a click aimed where the link was a frame ago can land beside it
  // (CI, 2026-11-29: a click on the search's "Page 2" went nowhere once, and passed on its retry).
  await page.getByRole('navigation', { name: /pagination/i }).last().getByRole('link', { name: 'Page 1' }).press('Enter');
  await expect(page).toHaveURL(new RegExp(`/category/${big.slug}\\?page=1$`));
});

test('search from the header, page through the results, open a part', async ({ page, request }) => {
  const results = await getJson<ListResponse>(request, '/api/products?search=filter&limit=48');
  await page.goto('/about');
  const box = page.getByRole('combobox', { name: /search parts/i }).first();
  await box.fill('filter');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/\?search=filter$/);
  await expect(page.getByRole('heading', { level: 1, name: /Results for .filter./ })).toBeVisible();
  const hit = results.products[0]!;
  if (results.pagination.totalPages > 1) {
    await page.getByRole('navigation', { name: 'Search results pagination' }).getByRole('link', { name: 'Page 2' }).press('Enter');
    await expect(page).toHaveURL(/\/\?search=filter&page=2$/);
    await page.goBack();
  }
  await page.getByRole('link', { name: literal(hit.name) }).first().click();
  await expect(page).toHaveURL(new RegExp(`/products/${hit.id}/`));
  await expect(page.getByRole('heading', { level: 1, name: hit.name })).toBeVisible();
});

test('the gallery: every card of the page is there, and its page box and search box are forms', async ({ page, request }) => {
  const list = await getJson<ListResponse>(request, '/api/catalog/products?limit=48&offset=0');
  await page.goto('/catalog');
  // The app lays out the first screenful and the rest as the buyer scrolls; without it, the rest is in a <noscript>.
  for (const p of [list.products[0]!, list.products.at(-1)!]) await expect(page.getByRole('link', { name: literal(p.name) }).first()).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Gallery pagination' }).first();
  const input = nav.getByRole('spinbutton', { name: 'Page' });
  test.skip(Number(await input.getAttribute('max')) < 3, 'the gallery has fewer than 3 pages');
  await input.fill('3');
  await input.press('Enter');
  await expect(page).toHaveURL(/\/catalog\?page=3$/);
  await expect(page.getByText(/Page 3 of \d+/).first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Search the gallery' }).fill('filter');
  await page.getByRole('textbox', { name: 'Search the gallery' }).press('Enter');
  await expect(page).toHaveURL(/\/catalog\?search=filter$/);
  await expect(page.getByText(/products for “filter”/)).toBeVisible();
});

test('ask for a quote: Get Instant Quote leads to a form that sends the request, and a mistake keeps what was typed', async ({ page, request }) => {
  const p = (await getJson<ListResponse>(request, '/api/catalog/products?limit=1&offset=7')).products[0]!;
  await page.goto(`/products/${p.id}/${p.slug}`);
  await page.getByRole('link', { name: 'Get Instant Quote' }).click();
  await expect(page).toHaveURL(new RegExp(`/products/${p.id}/${p.slug}\\?quote=1#quote$`));
  const form = page.getByRole('region', { name: 'Get Instant Quote' });
  await expect(form).toBeVisible();

  const email = `nojs-${Date.now()}@example.com`;
  await form.getByLabel('Full Name').fill('Grace Buyer');
  await form.getByLabel('Business Email').fill(email);
  await form.getByLabel('Country').selectOption({ label: 'Chile (+56)' });
  await form.getByLabel('Quantity Required').fill('6');
  await form.getByLabel('Additional Requirements & Message').fill('For the 793F fleet');
  // A wrong sum first: the page comes back with the reason and everything typed.
  await form.getByLabel(/Security check/).fill('999');
  await form.getByRole('button', { name: 'Send Quote Request' }).click();
  const again = page.getByRole('region', { name: 'Get Instant Quote' });
  await expect(again.getByText(/math problem/i)).toBeVisible();
  await expect(again.getByLabel('Full Name')).toHaveValue('Grace Buyer');
  await expect(again.getByLabel('Business Email')).toHaveValue(email);
  await expect(again.getByLabel('Quantity Required')).toHaveValue('6');
  await expect(again.getByLabel('Additional Requirements & Message')).toHaveValue('For the 793F fleet');

  const question = (await again.getByText(/Security check: what is \d+ \+ \d+\?/).textContent())!;
  const [, a, b] = /what is (\d+) \+ (\d+)/.exec(question)!;
  await again.getByLabel(/Security check/).fill(String(Number(a) + Number(b)));
  await again.getByRole('button', { name: 'Send Quote Request' }).click();
  await expect(page).toHaveURL(new RegExp(`\\?quote=sent#quote$`));
  await expect(page.getByRole('region', { name: 'Quote Request Sent' }).getByRole('status')).toContainText('received');
  // The same request the dialog sends: stored and confirmed to the buyer by mail.
  await expect.poll(() => mailsMentioning(email).length, { timeout: 15_000 }).toBeGreaterThan(0);
});

test('the phone menu button leads to the page links without JavaScript', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/faq');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page).toHaveURL(/#site-links$/);
  await page.getByRole('link', { name: 'Image Gallery' }).click();
  await expect(page).toHaveURL(/\/catalog$/);
});
