import type { Browser, Page } from '@playwright/test';
import { signInAsAdmin } from './support/admin-sign-in.ts';
import { getJson, type ListResponse } from './support/catalog.ts';
import { expect, test } from './support/test.ts';

/**
 * Issue 36, "Done when": a buyer searches a code the catalogue does not know and finds nothing; the search reaches the
 * staff's zero-result queue; staff turn it into an alias of a part; the buyer searches it again and finds that part.
 * Also: the not-stocked mark puts the staff's note and "Ask for a quote" beside the results, and the privacy page
 * forgets this browser's searches.
 */

async function newBrowser(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 900 } });
  return context.newPage();
}

/** Search from the header and wait for the page's events to reach the seller (they go a few seconds after). */
async function searchFromHeader(page: Page, query: string) {
  const sent = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/search/events' && r.request().method() === 'POST');
  const box = page.getByRole('combobox', { name: /search parts/i }).first();
  await box.fill(query);
  await box.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: `Results for “${query}”` })).toBeVisible();
  return sent;
}

test('a zero-result search reaches the queue; staff make it an alias; the buyer then finds the part', async ({ browser, request }) => {
  const unique = `ZQ-ANVIL-${Date.now().toString(36).toUpperCase()}`;
  const { products } = await getJson<ListResponse>(request, '/api/catalog/products?limit=1&offset=7');
  const part = products[0]!;

  const buyer = await newBrowser(browser);
  await buyer.goto('/');
  const sent = await searchFromHeader(buyer, unique);
  expect(sent.status()).toBe(202);
  await expect(buyer.getByRole('heading', { name: 'No Products Found' })).toBeVisible();
  await expect(buyer.getByRole('button', { name: `Ask for a quote for “${unique}”` })).toBeVisible();

  const staff = await newBrowser(browser);
  await signInAsAdmin(staff);
  await staff.getByRole('tab', { name: 'Search insights' }).click();
  const queue = staff.getByRole('table', { name: 'Zero-result queries, most asked first' });
  // The server writes events in batches every two seconds: ask again until the query is in.
  await expect(async () => {
    await staff.getByRole('button', { name: 'Refresh' }).first().click();
    await expect(queue.getByText(unique, { exact: true })).toBeVisible({ timeout: 1_000 });
  }).toPass();

  await queue.getByRole('button', { name: `Add an alias for "${unique}"` }).click();
  const settle = staff.getByRole('group', { name: `Settle "${unique}"` });
  await settle.getByPlaceholder('Part number, e.g. 1R-0750').fill(part.partNumber || part.sku);
  await settle.getByRole('button', { name: 'Search', exact: true }).click();
  await settle.getByRole('row').filter({ hasText: part.sku }).getByRole('button', { name: 'Select' }).click();
  await expect(settle.getByRole('list', { name: 'Chosen parts' })).toContainText(part.sku);
  await settle.getByRole('button', { name: 'Save alias' }).click();
  await expect(staff.getByText(`"${unique}" now finds ${part.sku}`)).toBeVisible();
  // Settled: out of the queue, and in the aliases.
  await expect(queue.getByText(unique, { exact: true })).toBeHidden();
  await expect(staff.getByRole('list', { name: 'Aliases' })).toContainText(unique);

  await buyer.goto('/');
  await searchFromHeader(buyer, unique.toLowerCase().replaceAll('-', ' '));
  const first = buyer.getByRole('main').getByRole('article').first();
  await expect(first).toContainText(part.name);

  // Opening the part counts for that search: the report shows it opened.
  await first.getByRole('link').first().click();
  await expect(buyer.getByRole('heading', { level: 1 })).toContainText(part.name);
  const key = unique.toLowerCase().replaceAll('-', ' ');
  await expect
    .poll(
      async () => {
        const r = await staff.request.get('/api/admin/search/insights?days=1&limit=500');
        const body = (await r.json()) as { top: { query: string; opens: number; searches: number }[] };
        return body.top.find((q) => q.query === key);
      },
      { message: 'the open counted for the search' },
    )
    .toMatchObject({ searches: 2, opens: 1 });
});

test('not stocked: the staff note and "Ask for a quote" show beside the results; the privacy page forgets the searches', async ({ browser, request }) => {
  const unique = `Hensley XT${Date.now().toString(36)}`;
  const staff = await newBrowser(browser);
  await signInAsAdmin(staff);
  // Marked through the staff API with the staff's session (the queue's button does the same call).
  const marked = await staff.request.put('/api/admin/search/queries/status', {
    data: { query: unique, status: 'not_stocked', note: 'We source Hensley teeth on request.' },
    headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
  });
  expect(marked.status()).toBe(200);

  const buyer = await newBrowser(browser);
  await buyer.goto('/');
  await searchFromHeader(buyer, unique);
  const note = buyer.getByRole('note');
  await expect(note).toContainText('We source Hensley teeth on request.');
  await note.getByRole('button', { name: `Ask for a quote for “${unique}”` }).click();
  await buyer.goto('/quote');
  await expect(buyer.getByRole('main')).toContainText(unique);

  await buyer.goto('/privacy');
  const visitor = await buyer.evaluate('localStorage.getItem("fl-search-visitor")');
  expect(visitor).toBeTruthy();
  await buyer.getByRole('button', { name: 'Forget my searches on this device' }).click();
  await expect(buyer.getByRole('status').filter({ hasText: 'forgotten' })).toBeVisible();
  expect(await buyer.evaluate('localStorage.getItem("fl-search-visitor")')).toBeNull();
  expect((await request.delete(`/api/search/visitors/${visitor}`)).status()).toBe(200);
});
