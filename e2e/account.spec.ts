import { randomUUID } from 'node:crypto';
import { mailsMentioning } from './support/dev-mailbox.ts';
import { expect, test } from './support/test.ts';

/** A buyer's sign-in (issue 35): by the mailed code, or by the mail's link; a session of its own. */
const unwrapped = (eml: string) => eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

/** A code mailed to the address that is none of `used` (an earlier one): its code and its link. */
async function mailedCode(email: string, used: string[] = []) {
  const fresh = () =>
    mailsMentioning(email)
      .map(unwrapped)
      .map((mail) => ({ code: /sign-in code is (\d{6})/.exec(mail)?.[1], link: /(https?:\/\/\S+\/account\/sign-in#code=\S+)/.exec(mail)?.[1] }))
      .find((m) => m.code && m.link && !used.includes(m.code));
  await expect.poll(() => Boolean(fresh())).toBe(true);
  return fresh() as { code: string; link: string };
}

test('a buyer signs in from the header with the mailed code, signs out, and signs in again by the mail link', async ({ page }) => {
  const email = `planner-${randomUUID().slice(0, 8)}@quarry.example`;
  await page.goto('/');
  await page.getByRole('link', { name: 'Your account' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Your work e-mail').fill(email);
  await page.getByRole('button', { name: 'E-mail me a code' }).click();
  await expect(page.getByRole('status')).toContainText(`We sent a code to ${email}`);
  const first = await mailedCode(email);
  // A wrong code first: said beside the field, the form kept.
  await page.getByLabel('The 6-digit code').fill(String((Number(first.code) + 1) % 1_000_000).padStart(6, '0'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid OTP');
  await page.getByLabel('The 6-digit code').fill(first.code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await expect(page.getByText(`Signed in as ${email}.`)).toBeVisible();
  // The buyer's cookie is no staff session: the admin panel still asks staff to sign in.
  expect((await page.request.get('/api/admin/auth/session')).status()).toBe(401);
  await page.reload();
  await expect(page.getByText(`Signed in as ${email}.`)).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect((await page.request.get('/api/account/session')).status()).toBe(401);

  // Again, by the link in the mail: the code is filled in from the address's fragment, then cleared from it.
  await page.getByLabel('Your work e-mail').fill(email);
  await page.getByRole('button', { name: 'E-mail me a code' }).click();
  await expect(page.getByRole('status')).toContainText('We sent a code');
  const second = await mailedCode(email, [first.code]);
  await page.goto(second.link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByLabel('The 6-digit code')).toHaveValue(second.code);
  await expect(page).toHaveURL(/\/account\/sign-in$/);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${email}.`)).toBeVisible();
});

test('the account page at phone width: the sign-in form fits and works by keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
  // The header has no room for the account's button on a phone: the menu has it.
  await page.getByRole('button', { name: /menu/i }).click();
  await expect(page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'YOUR ACCOUNT' })).toBeVisible();
  await page.getByLabel('Your work e-mail').focus();
  await page.keyboard.type('not-an-address');
  await page.keyboard.press('Enter');
  // The browser's own check holds the form; nothing was sent.
  await expect(page.getByRole('status')).toHaveCount(0);
});
