import { expect, test, type Page } from './support/test.ts';
import { ADMIN_EMAIL, mailedCode, signInAsAdmin } from './support/admin-sign-in.ts';

/**
 * Admin sign-in end to end: the code is read from the dev mailbox the stack writes (`${E2E_DATA_DIR}/mail/`),
 * as a newcomer running `npm start` would read it.
 */

const SESSION_KEY = 'forgeline.adminSession';

/** The stored admin session (localStorage), read in the page. */
async function storedSession(page: Page): Promise<{ token?: string } | null> {
  const raw = (await page.evaluate(`localStorage.getItem(${JSON.stringify(SESSION_KEY)})`)) as string | null;
  return raw ? (JSON.parse(raw) as { token?: string }) : null;
}

const emailInput = (page: Page) => page.getByLabel('Email');
const otpInput = (page: Page) => page.getByLabel('OTP code');

test('signs in with the mailed code, sees the three tabs and the product list, and logs out', async ({ page }) => {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  await expect(emailInput(page)).toHaveValue(ADMIN_EMAIL);
  await expect(otpInput(page)).toHaveCount(0);

  // Send needs a non-empty address.
  await emailInput(page).fill('');
  await expect(page.getByRole('button', { name: 'Send OTP' })).toBeDisabled();
  await emailInput(page).fill(ADMIN_EMAIL);

  const sent = page.waitForResponse((r) => r.url().endsWith('/api/admin/auth/send-otp'));
  await page.getByRole('button', { name: 'Send OTP' }).click();
  const { sessionId } = (await (await sent).json()) as { sessionId: string };
  await expect(page.getByText('OTP Sent')).toBeVisible();
  await expect(page.getByText('Check your email for the OTP code')).toBeVisible();

  // Verify stays disabled until exactly 6 characters.
  const verify = page.getByRole('button', { name: 'Verify OTP' });
  await expect(verify).toBeDisabled();
  const code = await mailedCode(sessionId);
  await otpInput(page).fill(code.slice(0, 5));
  await expect(verify).toBeDisabled();

  // A wrong code: 'Invalid OTP', still on the login screen.
  await otpInput(page).fill(code === '000000' ? '111111' : '000000');
  await expect(verify).toBeEnabled();
  await verify.click();
  await expect(page.getByText('Invalid OTP')).toBeVisible();

  await otpInput(page).fill(code);
  await verify.click();
  await expect(page.getByText('Login Successful')).toBeVisible();
  for (const name of ['Product Upload', 'SKU Image Uploader', 'Bulk Upload']) {
    await expect(page.getByRole('tab', { name })).toBeVisible();
  }
  await expect(page.getByTestId('admin-email')).toHaveText(ADMIN_EMAIL);
  const rows = page.getByRole('table', { name: 'Products' }).locator('tbody tr');
  await expect(rows.first()).toBeVisible();

  // The part-number search does nothing when empty, and says so when nothing matches.
  const partSearch = page.getByRole('search', { name: 'Part number search' });
  let codeSearches = 0;
  page.on('request', (r) => void (r.url().includes('/api/admin/search-products-by-code') && codeSearches++));
  await partSearch.getByRole('button', { name: 'Search' }).click();
  await partSearch.getByLabel('Part number').fill('ZZ-NO-SUCH-PART-999');
  await partSearch.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No products found with that part number')).toBeVisible();
  expect(codeSearches).toBe(1);

  // Tabs switch.
  await page.getByRole('tab', { name: 'Bulk Upload' }).click();
  await expect(page.getByRole('tab', { name: 'Bulk Upload' })).toHaveAttribute('aria-selected', 'true');

  // The session survives a reload while unexpired.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Product Upload' })).toBeVisible();

  const token = (await storedSession(page))?.token;
  expect(token).toBeTruthy();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  await expect(emailInput(page)).toHaveValue(ADMIN_EMAIL);
  await expect(otpInput(page)).toHaveCount(0);
  expect(await storedSession(page)).toBeNull();

  // Logout revoked it on the server too: the old token no longer opens admin routes.
  const after = await page.request.get('/api/admin/products', { headers: { authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
});

test('a session revoked behind the panel\'s back sends it to the login screen with "Session Expired"', async ({ page }) => {
  await signInAsAdmin(page);
  const token = (await storedSession(page))?.token;
  const out = await page.request.post('/api/admin/auth/logout', { headers: { authorization: `Bearer ${token}` } });
  expect(out.status()).toBe(200);

  // The next admin call (a product search) gets 401.
  await page.getByPlaceholder('Search products by name, SKU or part number...').fill('pump');
  await expect(page.getByText('Session Expired')).toBeVisible();
  await expect(page.getByText('Please log in again')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  expect(await storedSession(page)).toBeNull();
});

test('a stored session past its expiry is dropped on load', async ({ page }) => {
  await page.goto('/admin');
  const stale = { token: 'stale-token', email: ADMIN_EMAIL, expiresAt: '2020-01-01T00:00:00.000Z' };
  await page.evaluate(`localStorage.setItem(${JSON.stringify(SESSION_KEY)}, ${JSON.stringify(JSON.stringify(stale))})`);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  expect(await storedSession(page)).toBeNull();
});

test('admin routes refuse a request without a token at the gateway', async ({ request }) => {
  const res = await request.get('/api/admin/products');
  expect(res.status()).toBe(401);
  expect(((await res.json()) as { message: string }).message).toMatch(/sign-in required/i);
});
