import { randomUUID } from 'node:crypto';
import { ADMIN_EMAIL, signInAsAdmin } from './support/admin-sign-in.ts';
import { getJson, type ListResponse } from './support/catalog.ts';
import { expect, test } from './support/test.ts';

/**
 * A member of staff works a quote request from new to quoted in the admin panel's Inbox tab: finds it, takes it,
 * moves it along, replies with a price, and sees the history. The request is sent through the gateway as a buyer's.
 */
test('an admin works a quote request from new to quoted in the Inbox tab', async ({ page, request }) => {
  const product = (await getJson<ListResponse>(request, '/api/catalog/products?limit=1&offset=11')).products[0]!;
  const buyer = `Inbox Buyer ${randomUUID().slice(0, 8)}`;
  const sent = await request.post('/api/quote-requests', {
    data: { productId: product.id, customerName: buyer, customerEmail: 'buyer@mine-co.example', customerCountry: 'Chile', quantity: 4, message: 'For a CAT 793' },
  });
  expect(sent.status()).toBe(201);

  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'Inbox' }).click();
  await expect(page.getByText('Requests this week')).toBeVisible();
  await page.getByLabel('Search', { exact: true }).fill(buyer);
  const row = page.getByRole('list', { name: 'Requests' }).getByRole('button', { name: new RegExp(buyer) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('New');
  await expect(row).toContainText('@mine-co.example');
  await row.click();

  const panel = page.getByRole('region', { name: buyer });
  // Opening it moves focus to it (on a phone it sits below the list).
  await expect(panel.getByRole('heading', { name: buyer })).toBeFocused();
  await expect(panel.getByRole('cell', { name: product.name })).toBeVisible();
  await expect(panel.getByText('For a CAT 793')).toBeVisible();

  await panel.getByLabel('Assignee').selectOption(ADMIN_EMAIL);
  await expect(panel.getByText(`Assigned to ${ADMIN_EMAIL}`)).toBeVisible();
  await panel.getByRole('button', { name: 'Mark In progress' }).click();
  await expect(panel.getByText('Moved from New to In progress')).toBeVisible();
  await expect(row).toContainText('In progress');

  await panel.getByLabel(/^Unit price/).fill('125.50');
  await panel.getByLabel(/^Lead time/).fill('2 weeks');
  await panel.getByLabel('Message to the buyer').fill('Our best price, ex works.');
  await panel.getByRole('button', { name: 'Send reply' }).click();
  await expect(panel.getByText('Replied to buyer@mine-co.example: Our best price, ex works.')).toBeVisible();
  await expect(panel.getByText('Moved from In progress to Quoted')).toBeVisible();
  await expect(row).toContainText('Quoted');
  // The status filter counts and finds it.
  await page.getByRole('group', { name: 'Status' }).getByRole('button', { name: /^Quoted/ }).click();
  await expect(row).toBeVisible();
  await expect(page.getByRole('group', { name: 'Status' }).getByRole('button', { name: /^Quoted \d/ })).toBeVisible();

  // The workflow holds in the panel too: a quoted request offers Won and Lost, not New.
  await expect(panel.getByRole('button', { name: 'Mark Won' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Mark New' })).toHaveCount(0);
});
