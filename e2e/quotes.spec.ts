import { randomUUID } from 'node:crypto';
import { expect, test, type Locator, type Page } from './support/test.ts';
import { mailsMentioning } from './support/dev-mailbox.ts';

/**
 * The quote dialog and the contact form, from the browser to the seller's inbox: the stack's dev mailbox
 * (`${E2E_DATA_DIR}/mail/`) must hold the .eml files each send produces.
 */

const uniqueEmail = (what: string) => `e2e-${what}-${randomUUID().slice(0, 8)}@example.com`;

/** Reads "… what is 7 + 12?" from a label and answers it. */
async function solve(label: Locator, offset = 0): Promise<string> {
  await expect(label).toHaveText(/what is \d+ \+ \d+\?/);
  const [, a, b] = /what is (\d+) \+ (\d+)\?/.exec((await label.textContent()) ?? '')!;
  return String(Number(a) + Number(b) + offset);
}

async function openProduct(page: Page) {
  const res = await page.request.get('/api/catalog/products?limit=1');
  expect(res.ok()).toBe(true);
  const { products } = (await res.json()) as { products: { id: string; name: string; sku: string; slug: string }[] };
  const product = products[0]!;
  await page.goto(`/products/${product.id}/${product.slug}`);
  await page.getByRole('link', { name: 'Get Instant Quote' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Get Instant Quote' })).toBeVisible();
  return { product, dialog };
}

async function fillQuote(dialog: Locator, email: string) {
  await dialog.getByLabel(/^Full Name/).fill('Playwright Buyer');
  await dialog.getByLabel(/^Business Email/).fill(email);
  await dialog.getByLabel(/^Country/).selectOption('India');
  await dialog.getByLabel(/^Phone Number/).fill('+91 98765 43210');
  await dialog.getByLabel(/^Quantity Required/).fill('4');
  await dialog.getByLabel(/^Additional Requirements & Message/).fill('Please ship <fast> & insured.');
}

test.describe('quote dialog', () => {
  test("opens from the quote link's address (?quote=1), and closing it takes ?quote out of the address", async ({ page }) => {
    const res = await page.request.get('/api/catalog/products?limit=1&offset=3');
    const product = ((await res.json()) as { products: { id: string; slug: string }[] }).products[0]!;
    await page.goto(`/products/${product.id}/${product.slug}?quote=1`);
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Get Instant Quote' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/products/${product.id}/${product.slug}$`));
  });

  test('sends a quote request: success view, toast, and both mails in the dev mailbox', async ({ page }) => {
    const { product, dialog } = await openProduct(page);
    const email = uniqueEmail('quote');
    await fillQuote(dialog, email);
    await dialog.getByLabel(/Security check/).fill(await solve(dialog.locator('label', { hasText: 'Security check' })));
    await dialog.getByRole('button', { name: 'Send Quote Request' }).click();

    await expect(page.getByText('Quote Request Sent Successfully! ✅')).toBeVisible();
    await expect(page.getByText(`Confirmation email sent to ${email}. We'll contact you within 2-4 hours.`)).toBeVisible();
    await expect(dialog.getByText(/within 24 hours/)).toBeVisible();

    // the buyer's confirmation and the seller's notification, with the request's details
    await expect.poll(() => mailsMentioning(email).length, { message: `two mails mentioning ${email}` }).toBe(2);
    const mails = mailsMentioning(email);
    expect(mails.some((m) => /^To: .*e2e-quote-/m.test(m))).toBe(true);
    expect(mails.some((m) => new RegExp(`^Reply-To: ${email.replace(/[.+]/g, '\\$&')}`, 'm').test(m))).toBe(true);
    expect(mails.every((m) => m.includes(product.sku))).toBe(true);

    // closing resets: the form is empty again next time, with a new math check
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(dialog).toBeHidden();
    await page.getByRole('link', { name: 'Get Instant Quote' }).click();
    await expect(page.getByRole('dialog').getByLabel(/^Full Name/)).toHaveValue('');
  });

  test('refuses a wrong math answer with a new challenge, keeping what was typed', async ({ page }) => {
    const { dialog } = await openProduct(page);
    const email = uniqueEmail('math');
    await fillQuote(dialog, email);
    const label = dialog.locator('label', { hasText: 'Security check' });
    await dialog.getByLabel(/Security check/).fill(await solve(label, 1));
    await dialog.getByRole('button', { name: 'Send Quote Request' }).click();
    await expect(page.getByText('Math Verification Failed')).toBeVisible();
    await expect(page.getByText('Please solve the math problem correctly to continue.')).toBeVisible();
    await expect(dialog.getByLabel(/Security check/)).toHaveValue('');
    await expect(dialog.getByLabel(/^Business Email/)).toHaveValue(email);
    expect(mailsMentioning(email)).toEqual([]);
  });

  test("while submitting shows 'Processing...', disables the buttons and cannot be closed", async ({ page }) => {
    const { dialog } = await openProduct(page);
    const email = uniqueEmail('busy');
    await fillQuote(dialog, email);
    // hold the request at the browser's edge until the checks are done; the server that answers is real
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/quote-requests', async (route) => {
      await held;
      await route.continue();
    });
    await dialog.getByLabel(/Security check/).fill(await solve(dialog.locator('label', { hasText: 'Security check' })));
    await dialog.getByRole('button', { name: 'Send Quote Request' }).click();
    await expect(dialog.getByRole('button', { name: 'Processing...' })).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5);
    await expect(dialog).toBeVisible();
    release();
    await expect(page.getByText('Quote Request Sent Successfully! ✅')).toBeVisible();
    await expect.poll(() => mailsMentioning(email).length).toBe(2);
  });

  test('asks for the country', async ({ page }) => {
    const { dialog } = await openProduct(page);
    await dialog.getByLabel(/^Full Name/).fill('No Country');
    await dialog.getByLabel(/^Business Email/).fill(uniqueEmail('country'));
    await dialog.getByRole('button', { name: 'Send Quote Request' }).click();
    await expect(dialog.getByText('Please select your country')).toBeVisible();
  });

  test('on a failed send shows the failure toast and keeps the input', async ({ page }) => {
    const { dialog } = await openProduct(page);
    const email = uniqueEmail('fail');
    await fillQuote(dialog, email);
    // the network drops the request (fault injection at the browser's edge; the server is real)
    await page.route('**/api/quote-requests', (route) => route.abort('connectionreset'));
    await dialog.getByLabel(/Security check/).fill(await solve(dialog.locator('label', { hasText: 'Security check' })));
    await dialog.getByRole('button', { name: 'Send Quote Request' }).click();
    await expect(page.getByText('Failed to Send Quote Request')).toBeVisible();
    await expect(page.getByText('Please check your details and try again, or contact us directly via WhatsApp.')).toBeVisible();
    await expect(dialog.getByLabel(/^Business Email/)).toHaveValue(email);
    await expect(dialog.getByLabel(/^Full Name/)).toHaveValue('Playwright Buyer');
  });
});

test.describe('contact form', () => {
  test('validates, refuses a wrong answer with the server message, then sends and mails the seller', async ({ page }) => {
    await page.goto('/contact');
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Send Message' }) });
    const label = form.locator('label', { hasText: 'Security check' });
    await expect(label).toHaveText(/what is \d+ \+ \d+\?/);
    await expect(form.getByLabel('Country code')).toHaveValue('+91');
    await expect(form.getByLabel(/^Message/)).toHaveAttribute('rows', '5');

    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Please fill in all required fields.')).toBeVisible();

    const email = uniqueEmail('contact');
    await form.getByLabel(/^Name/).fill('Playwright Visitor');
    await form.getByLabel(/^Email/).fill(email);
    await form.getByLabel(/^Subject/).fill('Bulk filters');
    await form.getByLabel(/^Message/).fill('Do you ship to Chennai?');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Please solve the math problem.')).toBeVisible();

    // a wrong answer: the server's message, and a new captcha
    const firstToken = await label.textContent();
    await form.getByLabel(/Security check/).fill(await solve(label, 1));
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Incorrect answer to the math problem. Please try again.')).toBeVisible();
    await expect(form.getByLabel(/Security check/)).toHaveValue('');
    await expect(form.getByRole('button', { name: 'Send Message' })).toBeEnabled();
    expect(firstToken).toBeTruthy();

    await form.getByLabel(/Security check/).fill(await solve(label));
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Message Sent')).toBeVisible();
    await expect(page.getByText("Thank you for contacting us. We'll get back to you soon!")).toBeVisible();
    await expect(form.getByLabel(/^Name/)).toHaveValue('');
    await expect(form.getByLabel(/^Email/)).toHaveValue('');
    await expect(label).toHaveText(/what is \d+ \+ \d+\?/);

    await expect.poll(() => mailsMentioning(email).length, { message: `a mail mentioning ${email}` }).toBe(1);
    const [mail] = mailsMentioning(email);
    expect(mail).toMatch(new RegExp(`^Reply-To: ${email.replace(/[.+]/g, '\\$&')}`, 'm'));
    expect(mail).toContain('Do you ship to Chennai?');
  });
});

test.describe('at phone width, by keyboard', () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test('the quote dialog fits the screen, is driven by keyboard, and Escape closes it', async ({ page }) => {
    const { dialog } = await openProduct(page);
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    // focus starts inside the dialog and Tab walks its fields in order
    await dialog.getByLabel(/^Full Name/).focus();
    await page.keyboard.type('Keyboard Buyer');
    await page.keyboard.press('Tab');
    await expect(dialog.getByLabel(/^Business Email/)).toBeFocused();
    await dialog.getByRole('button', { name: 'Send Quote Request' }).scrollIntoViewIfNeeded();
    await expect(dialog.getByRole('button', { name: 'Send Quote Request' })).toBeInViewport();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('the contact form fits the screen', async ({ page }) => {
    await page.goto('/contact');
    const send = page.getByRole('button', { name: 'Send Message' });
    await send.scrollIntoViewIfNeeded();
    const box = await send.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    expect(scrollWidth).toBeLessThanOrEqual(375);
  });
});
