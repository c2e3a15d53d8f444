import { randomUUID } from 'node:crypto';
import { getJson, type ListResponse, type Summary } from './support/catalog.ts';
import { mailsMentioning } from './support/dev-mailbox.ts';
import { expect, test, type Page } from './support/test.ts';

/**
 * A link that adds parts to the quote list (`/quote?add=<id>~<quantity>&…`, where an assembly page's form leads):
 * with JavaScript the parts go on the buyer's list once, however often the page is reloaded or the link followed;
 * without it the page is a plain form for those lines, which sends one request for all of them.
 */

const link = (adds: [Summary, number][]) => `/quote?${adds.map(([p, n]) => `add=${p.id}~${n}`).join('&')}`;
const lines = (page: Page) => page.getByRole('list', { name: 'Quote list lines' }).getByRole('listitem');

async function twoParts(page: Page): Promise<[Summary, Summary]> {
  const { products } = await getJson<ListResponse>(page.request, '/api/catalog/products?limit=2&offset=11');
  return [products[0]!, products[1]!];
}

test('with JavaScript: the parts go on the list with their quantities, the address becomes /quote, and nothing is added twice', async ({ page }) => {
  const [a, b] = await twoParts(page);
  await page.goto(link([[a, 2], [b, 1]]));
  await expect(page.getByRole('status').filter({ hasText: '2 parts added to your quote list.' })).toBeVisible();
  await expect(page).toHaveURL(/\/quote$/);
  await expect(lines(page)).toHaveCount(2);
  await expect(lines(page).nth(0).getByRole('link', { name: a.name })).toBeVisible();
  await expect(page.getByLabel(/^Quantity for line 1/)).toHaveValue('2');
  await expect(page.getByLabel(/^Quantity for line 2/)).toHaveValue('1');

  // A reload is of /quote now: nothing more is added.
  await page.reload();
  await expect(lines(page)).toHaveCount(2);
  await expect(page.getByLabel(/^Quantity for line 1/)).toHaveValue('2');
  await expect(page.getByText(/added to your quote list/)).toHaveCount(0);

  // Following the same link again raises nothing already there; a bigger quantity raises the line, never doubles it.
  await page.goto(link([[a, 2], [b, 3]]));
  await expect(page.getByRole('status').filter({ hasText: '1 part already on it: quantity raised' })).toContainText('1 part already on it with as many or more');
  await expect(page.getByLabel(/^Quantity for line 1/)).toHaveValue('2');
  await expect(page.getByLabel(/^Quantity for line 2/)).toHaveValue('3');

  // A part the catalogue does not sell is reported, not added.
  await page.goto(`/quote?add=${randomUUID()}~1`);
  await expect(page.getByRole('status').filter({ hasText: 'No part from the link was added.' })).toContainText('1 part from the link is not in the catalogue');
  await expect(lines(page)).toHaveCount(2);
  await expect(page.getByRole('region', { name: 'Request a quote for these parts' })).toHaveCount(0);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the link is a form for its lines; a mistake keeps what was typed; answered, it sends one request for every line', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const [a, b] = await twoParts(page);
    await page.goto(link([[a, 2], [b, 1]]));
    const form = page.getByRole('region', { name: 'Request a quote for these parts' });
    await expect(form).toBeVisible();
    // The list that needs JavaScript is not shown beside it.
    await expect(page.getByText('Loading your list...')).toBeHidden();
    await expect(form.getByRole('link', { name: a.name })).toBeVisible();
    await expect(form.getByLabel(/^Quantity for line 1/)).toHaveValue('2');
    await expect(form.getByLabel(/^Quantity for line 2/)).toHaveValue('1');

    const email = `nojs-list-${randomUUID().slice(0, 8)}@example.com`;
    await form.getByLabel(/^Quantity for line 1/).fill('3');
    await form.getByLabel('Full Name').fill('Lin Buyer');
    await form.getByLabel('Business Email').fill(email);
    await form.getByLabel('Country').selectOption({ label: 'Chile (+56)' });
    await form.getByLabel(/^Delivery location/).fill('For the 320D at Antofagasta');
    // A wrong sum first: the page comes back with the reason and everything typed.
    await form.getByLabel(/Security check/).fill('999');
    await form.getByRole('button', { name: 'Send Quote Request (2 parts)' }).click();
    const again = page.getByRole('region', { name: 'Request a quote for these parts' });
    await expect(again.getByText(/math problem/i)).toBeVisible();
    await expect(again.getByLabel(/^Quantity for line 1/)).toHaveValue('3');
    await expect(again.getByLabel(/^Quantity for line 2/)).toHaveValue('1');
    await expect(again.getByLabel('Full Name')).toHaveValue('Lin Buyer');
    await expect(again.getByLabel('Business Email')).toHaveValue(email);
    await expect(again.getByLabel(/^Delivery location/)).toHaveValue('For the 320D at Antofagasta');

    const question = (await again.getByText(/Security check: what is \d+ \+ \d+\?/).textContent())!;
    const [, x, y] = /what is (\d+) \+ (\d+)/.exec(question)!;
    await again.getByLabel(/Security check/).fill(String(Number(x) + Number(y)));
    await again.getByRole('button', { name: 'Send Quote Request (2 parts)' }).click();
    await expect(page).toHaveURL(/\/quote\?sent=2#quote-list-request$/);
    await expect(page.getByRole('region', { name: 'Quote Request Sent' }).getByRole('status')).toContainText('request for 2 parts has been received');

    // One request with both lines: the seller's mail and the buyer's confirmation name both parts.
    await expect.poll(() => mailsMentioning(email).length, { timeout: 15_000 }).toBe(2);
    for (const mail of mailsMentioning(email)) {
      const flat = mail.replace(/=\r?\n/g, '');
      expect(flat).toMatch(/Subject: .*2 parts/);
      for (const sku of [a.sku, b.sku]) expect(flat).toContain(sku);
    }
  });
});
