import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { signInAsAdmin } from './support/admin-sign-in.ts';
import { getJson, type ListResponse } from './support/catalog.ts';
import { mailsMentioning } from './support/dev-mailbox.ts';
import { expect, test } from './support/test.ts';

/**
 * Issue 34: the buyer's own quote page, opened from the link in the reply mail. A buyer asks for a change, staff
 * revise in the Inbox tab, the buyer accepts version 2 with a PO number, and gets the order's confirmation; without
 * JavaScript, on a phone, the accept works the same (its forms are plain HTML posting to the gateway).
 */

/** A .eml's text with quoted-printable soft line breaks joined (a long link is split across lines). */
const unwrapped = (eml: string) => eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

/** The path of the newest quote-page link mailed to `email` (each reply mails a new one). */
async function mailedQuoteLink(email: string, replies: number): Promise<string> {
  let links: string[] = [];
  await expect
    .poll(() => {
      links = mailsMentioning(email).flatMap((t) => [...unwrapped(t).matchAll(/https?:\/\/[^/\s"]+(\/quote\/view\/[A-Za-z0-9_-]{43})/g)].map((m) => m[1]!));
      return new Set(links).size;
    }, { message: `${replies} quote link(s) mailed to ${email}` })
    .toBeGreaterThanOrEqual(replies);
  return links.at(-1)!;
}

async function quoteRequest(request: Page['request'], email: string, buyer: string) {
  const products = (await getJson<ListResponse>(request, '/api/catalog/products?limit=2&offset=21')).products;
  const sent = await request.post('/api/quote-requests', {
    data: {
      customerName: buyer,
      customerEmail: email,
      customerCountry: 'Chile',
      message: 'For two CAT 793s',
      lines: products.map((p, i) => ({ productId: p.id, quantity: 4 + i })),
    },
  });
  expect(sent.status()).toBe(201);
  return { id: ((await sent.json()) as { id: string }).id, products };
}

/** Staff open the request in the Inbox tab and reply with a price per line. */
async function replyInPanel(page: Page, buyer: string, prices: string[], message: string, quantity?: string, validUntil?: string) {
  await page.getByRole('tab', { name: 'Inbox' }).click();
  await page.getByLabel('Search', { exact: true }).fill(buyer);
  const row = page.getByRole('list', { name: 'Requests' }).getByRole('button', { name: new RegExp(buyer) });
  await row.click();
  const panel = page.getByRole('region', { name: buyer });
  const priceInputs = panel.getByLabel(/^Unit price/);
  await expect(priceInputs).toHaveCount(prices.length);
  for (const [i, price] of prices.entries()) await priceInputs.nth(i).fill(price);
  if (quantity) await panel.getByLabel(/^Quantity/).first().fill(quantity);
  if (validUntil) await panel.getByLabel('Prices valid until').fill(validUntil);
  await panel.getByLabel('Message to the buyer').fill(message);
  await panel.getByRole('button', { name: 'Send reply' }).click();
  await expect(panel.getByText(`: ${message}`)).toBeVisible();
  return { panel, row };
}

async function buyerPage(browser: Browser, opts: { javaScriptEnabled?: boolean; width?: number } = {}) {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    javaScriptEnabled: opts.javaScriptEnabled ?? true,
    viewport: { width: opts.width ?? 1280, height: 900 },
  });
  return context.newPage();
}

test('a buyer asks for a change from the mailed link, staff revise, the buyer accepts version 2 with a PO number and file', async ({ page, browser }) => {
  const email = `buyer-${randomUUID().slice(0, 8)}@quarry.example`;
  const buyer = `Quote Page Buyer ${randomUUID().slice(0, 6)}`;
  const { products } = await quoteRequest(page.request, email, buyer);
  await signInAsAdmin(page);
  const { panel } = await replyInPanel(page, buyer, ['120', '35.5'], 'Our prices for both parts.');

  const buyerTab = await buyerPage(browser);
  await buyerTab.goto(await mailedQuoteLink(email, 1));
  await expect(buyerTab.getByRole('heading', { level: 1, name: /^Quote [0-9A-F]{8}$/ })).toBeVisible();
  await expect(buyerTab.getByRole('heading', { name: 'Version 1' })).toBeVisible();
  await expect(buyerTab.getByRole('cell', { name: products[0]!.name })).toBeVisible();
  await expect(buyerTab.getByText('Our prices for both parts.')).toBeVisible();
  await expect(buyerTab.getByRole('rowheader', { name: /^Total USD$/ })).toBeVisible();
  const pdf = await buyerTab.request.get((await buyerTab.getByRole('link', { name: 'Download PDF of version 1' }).getAttribute('href'))!);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // Ask for changes: six of the first part, at a lower price.
  const changes = buyerTab.getByRole('region', { name: 'Ask for changes' });
  await changes.getByLabel(/^Quantity:/).first().fill('6');
  await changes.getByLabel(/^Target price/).first().fill('110');
  await changes.getByLabel('Message').fill('Six at 110 and we order today.');
  await changes.getByRole('button', { name: 'Ask for changes' }).click();
  await expect(buyerTab.getByRole('status')).toContainText('Your request for changes has been sent');
  await expect(buyerTab.getByText('Changes asked: a revised quote will follow')).toBeVisible();
  await expect(buyerTab.getByRole('region', { name: 'Accept and order' })).toHaveCount(0);

  // Staff see the buyer's answer and revise: six at 110.
  await page.reload();
  await page.getByRole('tab', { name: 'Inbox' }).click();
  await page.getByLabel('Search', { exact: true }).fill(buyer);
  await page.getByRole('list', { name: 'Requests' }).getByRole('button', { name: new RegExp(buyer) }).click();
  await expect(panel.getByText(/Asked for changes to version 1 \(line 1: qty 6, target 110\): Six at 110/)).toBeVisible();
  await panel.getByLabel(/^Quantity/).first().fill('6');
  const prices = panel.getByLabel(/^Unit price/);
  await prices.nth(0).fill('110');
  await prices.nth(1).fill('35.5');
  await panel.getByLabel('Message to the buyer').fill('Revised: six at 110.');
  await panel.getByRole('button', { name: 'Send reply' }).click();
  await expect(panel.getByText(': Revised: six at 110.')).toBeVisible();

  // The buyer's page (same link) shows version 2, and version 1 among the earlier ones.
  await buyerTab.goto(await mailedQuoteLink(email, 2));
  await expect(buyerTab.getByRole('heading', { name: 'Version 2' })).toBeVisible();
  await expect(buyerTab.getByText('Version 1,', { exact: false })).toBeVisible();
  const accept = buyerTab.getByRole('region', { name: 'Accept and order' });
  await expect(accept.getByLabel(/quoted 6/)).toHaveValue('6');
  await accept.getByLabel('Your purchase order number').fill('PO-44120');
  await accept.getByLabel('Delivery address').fill('Quarry Road 1\nAntofagasta');
  await accept.getByLabel('Contact for the delivery').fill('Ana Planner');
  // First a picture named .pdf: refused by its bytes, beside the field, with what was typed kept.
  const poPdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% PO-44120, signed\n%%EOF\n');
  await accept.getByLabel('Your purchase order as a PDF (optional)').setInputFiles({ name: 'PO-44120.pdf', mimeType: 'application/pdf', buffer: Buffer.from('89504e470d0a1a0a', 'hex') });
  await accept.getByRole('button', { name: 'Accept version 2 and order' }).click();
  await expect(accept.getByText('The PO document must be a PDF document ("PO-44120.pdf" is not one).')).toBeVisible();
  await expect(accept.getByLabel('Your purchase order number')).toHaveValue('PO-44120');
  await expect(accept.getByLabel('Your purchase order as a PDF (optional)')).toHaveAttribute('aria-invalid', 'true');
  await accept.getByLabel('Your purchase order as a PDF (optional)').setInputFiles({ name: 'PO-44120 signed.pdf', mimeType: 'application/pdf', buffer: poPdf });
  await accept.getByRole('button', { name: 'Accept version 2 and order' }).click();
  const done = buyerTab.getByRole('status');
  await expect(done).toContainText('your order is confirmed');
  const number = /Order number: (\d{4}-\d{5})/.exec((await done.textContent()) ?? '')?.[1];
  expect(number).toBeDefined();
  await expect(buyerTab.getByText('Accepted', { exact: true })).toBeVisible();
  await expect(buyerTab.getByText(`You accepted version 2: order ${number}`)).toBeVisible();
  await expect(buyerTab.getByText('(PO-44120 signed.pdf attached)')).toBeVisible();
  // The buyer is mailed the order; the request is won in the inbox.
  await expect.poll(() => mailsMentioning(email).some((t) => unwrapped(t).includes(`Order ${number} confirmed`))).toBe(true);
  await page.reload();
  await page.getByRole('tab', { name: 'Inbox' }).click();
  await page.getByLabel('Search', { exact: true }).fill(buyer);
  await expect(page.getByRole('list', { name: 'Requests' }).getByRole('button', { name: new RegExp(buyer) })).toContainText('Won');

  // Staff ship it from the Orders tab; the buyer is mailed, and their page says so.
  await page.getByRole('tab', { name: 'Orders' }).click();
  await page.getByLabel('Search', { exact: true }).fill('PO-44120');
  const orderRow = page.getByRole('list', { name: 'Orders' }).getByRole('button', { name: new RegExp(number!) });
  await expect(orderRow).toContainText('Confirmed');
  await orderRow.click();
  const order = page.getByRole('region', { name: `Order ${number}` });
  await expect(order).toContainText('Quarry Road 1');
  // The buyer's PO document, as they sent it, a click away.
  const [download] = await Promise.all([page.waitForEvent('download'), order.getByRole('link', { name: 'PO-44120 signed.pdf' }).click()]);
  expect(download.suggestedFilename()).toBe(`PO-${number}-PO-44120 signed.pdf`);
  expect(fs.readFileSync((await download.path())!).equals(poPdf)).toBe(true);
  await order.getByLabel('Carrier').fill('DHL');
  await order.getByLabel('Tracking number').fill('JD014600003');
  await order.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(orderRow).toContainText('Shipped');
  await expect.poll(() => mailsMentioning(email).some((t) => unwrapped(t).includes(`Order ${number} shipped`))).toBe(true);
  await buyerTab.reload();
  await expect(buyerTab.getByText('Shipped: DHL JD014600003')).toBeVisible();
  await buyerTab.context().close();
});

test('without JavaScript, on a phone, the buyer accepts from the mailed link; a bad answer comes back filled in', async ({ page, browser }) => {
  const email = `nojs-${randomUUID().slice(0, 8)}@quarry.example`;
  const buyer = `No JS Buyer ${randomUUID().slice(0, 6)}`;
  await quoteRequest(page.request, email, buyer);
  await signInAsAdmin(page);
  await replyInPanel(page, buyer, ['99', '12'], 'Prices as asked.');

  const phone = await buyerPage(browser, { javaScriptEnabled: false, width: 360 });
  const link = await mailedQuoteLink(email, 1);
  const res = await phone.goto(link);
  expect(res?.headers()['referrer-policy']).toBe('no-referrer');
  expect(res?.headers()['x-robots-tag']).toMatch(/noindex/);
  await expect(phone.locator('meta[name="referrer"]')).toHaveAttribute('content', 'no-referrer');
  await expect(phone.getByRole('heading', { name: 'Version 1' })).toBeVisible();
  // Nothing wider than the phone but the price table, which scrolls in its own box.
  expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);

  const accept = phone.getByRole('region', { name: 'Accept and order' });
  // The browser holds a quantity above the quoted one (max); a PO number of spaces only the server refuses, and the
  // page comes back with the reason beside the field and everything typed kept.
  await expect(accept.getByLabel(/quoted 4/)).toHaveAttribute('max', '4');
  await accept.getByLabel('Your purchase order number').fill('   ');
  await accept.getByLabel('Delivery address').fill('Pit 3, Calama');
  await accept.getByLabel('Contact for the delivery').fill('Luis');
  await accept.getByRole('button', { name: /^Accept version 1/ }).click();
  await expect(accept.locator('#accept-poNumber-error')).toHaveText('The purchase order number is required.');
  await expect(accept.getByLabel('Your purchase order number')).toHaveAttribute('aria-invalid', 'true');
  await expect(accept.getByLabel('Delivery address')).toHaveValue('Pit 3, Calama');
  await accept.getByLabel('Your purchase order number').fill('PO-NOJS-1');
  await accept.getByRole('button', { name: /^Accept version 1/ }).click();
  await expect(phone.getByRole('status')).toContainText('your order is confirmed');
  await expect(phone.getByRole('region', { name: 'Accept and order' })).toHaveCount(0);
  // A second accept (the form resent) is refused: one order.
  const again = await phone.request.post(`${link}/accept`, { form: { version: '1', poNumber: 'PO-2', address: 'x', contactName: 'y' }, maxRedirects: 0 });
  expect(again.status()).toBe(409);
  expect(await again.text()).toContain('already accepted');
  await phone.context().close();
});

test('without JavaScript, a buyer whose quote expired asks for a new one, and the request is back in the inbox', async ({ page, browser }) => {
  const email = `expired-${randomUUID().slice(0, 8)}@quarry.example`;
  const buyer = `Expired Buyer ${randomUUID().slice(0, 6)}`;
  await quoteRequest(page.request, email, buyer);
  await signInAsAdmin(page);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const { row } = await replyInPanel(page, buyer, ['10', '20'], 'Old prices.', undefined, yesterday);

  const phone = await buyerPage(browser, { javaScriptEnabled: false, width: 360 });
  await phone.goto(await mailedQuoteLink(email, 1));
  await expect(phone.getByText(/This quote expired on/)).toBeVisible();
  await expect(phone.getByRole('region', { name: 'Accept and order' })).toHaveCount(0);
  await phone.getByRole('button', { name: 'Ask for a new quote' }).click();
  await expect(phone.getByRole('status')).toContainText('we will send you a new quote');
  await expect(phone.getByText('A new quote is on its way')).toBeVisible();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(row).toContainText('In progress');
  await phone.context().close();
});

test('a guessed quote link is a 404 page that says the link is not valid', async ({ page }) => {
  const res = await page.request.get(`/quote/view/${'x'.repeat(43)}`, { headers: { accept: 'text/html' } });
  expect(res.status()).toBe(404);
  expect(await res.text()).toContain('This quote link is not valid');
});

test("staff add the ERP's webhook endpoint: a private address is refused, the secret is shown once, and it can be removed", async ({ page }) => {
  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await expect(page.getByText('No endpoints yet')).toBeVisible();
  const address = page.getByLabel('Address');
  // Into the deployment's own network: refused.
  await address.fill('https://10.0.0.7/hooks');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByText('Not added')).toBeVisible();
  await expect(page.getByText(/private network address/)).toBeVisible();
  // A public address (literal, so no DNS is needed here).
  await address.fill('https://93.184.215.14/hooks/forgeline');
  await page.getByLabel('Description (optional)').fill('ERP');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'shown this once' })).toContainText(/whsec_[A-Za-z0-9_-]{20,}/);
  const endpoints = page.getByRole('list', { name: 'Webhook endpoints' });
  await expect(endpoints).toContainText('https://93.184.215.14/hooks/forgeline');
  await expect(endpoints).toContainText('No delivery yet');
  await endpoints.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('No endpoints yet')).toBeVisible();
});
