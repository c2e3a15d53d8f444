import { expect, test, type Page } from './support/test.ts';
import { ADMIN_EMAIL, mailedCode, signInAsAdmin } from './support/admin-sign-in.ts';

/**
 * Admin sign-in end to end: the code is read from the dev mailbox the stack writes (`${E2E_DATA_DIR}/mail/`),
 * as a newcomer running `npm start` would read it.
 */

/** The session cookie as the browser holds it (the test can read it; the page's scripts cannot). */
async function sessionCookie(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === 'fl_admin') ?? null;
}

/** What any script on the page could read: cookies it can see and both storages, as text. */
async function readableByScripts(page: Page): Promise<string> {
  return (await page.evaluate(
    '[document.cookie, JSON.stringify(Object.entries(localStorage)), JSON.stringify(Object.entries(sessionStorage))].join("\\n")',
  )) as string;
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

  // The session is an HttpOnly, SameSite=Strict cookie that no script on the page can read, and nothing is stored.
  const cookie = await sessionCookie(page);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
  const token = cookie!.value;
  expect(await readableByScripts(page)).not.toContain(token);
  expect(await readableByScripts(page)).not.toMatch(/adminSession/);

  // The session survives a reload through the cookie.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Product Upload' })).toBeVisible();
  await expect(page.getByTestId('admin-email')).toHaveText(ADMIN_EMAIL);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  await expect(emailInput(page)).toHaveValue(ADMIN_EMAIL);
  await expect(otpInput(page)).toHaveCount(0);
  await expect.poll(() => sessionCookie(page)).toBeNull();

  // Logout ended it on the server too: the old token no longer opens admin routes, and a reload shows the login.
  const after = await page.request.get('/api/admin/products', { headers: { authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
});

test('a session revoked behind the panel\'s back sends it to the login screen with "Session Expired"', async ({ page }) => {
  await signInAsAdmin(page);
  const token = (await sessionCookie(page))!.value;
  // Ended elsewhere (another tab, a script with the token): this context keeps its cookie.
  const out = await fetch(new URL('/api/admin/auth/logout', page.url()), { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  expect(out.status).toBe(200);

  // The next admin call (a product search) gets 401.
  await page.getByPlaceholder('Search products by name, SKU or part number...').fill('pump');
  await expect(page.getByText('Session Expired')).toBeVisible();
  await expect(page.getByText('Please log in again')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
});

test('an unknown session cookie, or a token an older panel left in localStorage, signs no one in (and the token is wiped)', async ({ page }) => {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  const legacy = { token: 'stale-token', email: ADMIN_EMAIL, expiresAt: '2099-01-01T00:00:00.000Z' };
  await page.evaluate(`localStorage.setItem('forgeline.adminSession', ${JSON.stringify(JSON.stringify(legacy))})`);
  await page.context().addCookies([{ name: 'fl_admin', value: 'not-a-session', url: page.url(), httpOnly: true, sameSite: 'Strict' }]);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  expect(await readableByScripts(page)).not.toContain('stale-token');
});

test('admin routes refuse a request without a token at the gateway', async ({ request }) => {
  const res = await request.get('/api/admin/products');
  expect(res.status()).toBe(401);
  expect(((await res.json()) as { message: string }).message).toMatch(/sign-in required/i);
});
