import { expect, test } from './support/test.ts';
import { ADMIN_EMAIL, SECOND_ADMIN_EMAIL, signInAsAdmin } from './support/admin-sign-in.ts';

/** The API keys and Audit log tabs: a key made, shown once, used by a script within its scopes, revoked; the log read. */
test('an admin makes an API key, a script uses it within its scopes, the admin revokes it and reads the audit log', async ({ page, playwright, baseURL }) => {
  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'API keys' }).click();
  await expect(page.getByText('No API keys yet').or(page.getByRole('table', { name: 'API keys' }))).toBeVisible();

  // Validation: a name and a scope are needed.
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('alert')).toHaveText(/Give the key a name/);
  const name = `ERP sync ${Date.now()}`;
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('alert')).toHaveText(/at least one scope/);
  await page.getByRole('checkbox', { name: /catalog:read/ }).check();
  await page.getByRole('checkbox', { name: /quotes:read/ }).check();
  await page.getByRole('button', { name: 'Create key' }).click();

  // Shown once, with a way to copy it and an example call.
  const dialog = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('you will not see this key again');
  const key = await dialog.getByLabel('API key').inputValue();
  expect(key).toMatch(/^flk_[\w-]{43}$/);
  await expect(dialog.locator('pre')).toContainText(`Bearer ${key}`);
  await dialog.getByRole('button', { name: 'Close' }).click();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Active');
  await expect(row).toContainText('never');
  await expect(page.getByRole('table', { name: 'API keys' })).not.toContainText(key);

  // A script with the key: its scopes work, others are refused.
  const script = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${key}` } });
  try {
    const exported = await script.get('/api/admin/catalog/export.csv');
    expect(exported.status()).toBe(200);
    expect((await exported.text()).split('\n')[0]).toContain('sku,name,part_number');
    expect((await script.get('/api/admin/quotes?limit=1')).status()).toBe(200);
    const write = await script.patch('/api/admin/products/anything', { data: { price: 1 } });
    expect(write.status()).toBe(403);
    expect(((await write.json()) as { message: string }).message).toBe('This API key lacks the scope catalog:write');
    expect((await script.get('/api/admin/api-keys')).status()).toBe(403);

    // Revoked: refused at once; the table says so.
    await page.reload();
    await page.getByRole('tab', { name: 'API keys' }).click();
    await expect(row).not.toContainText('never'); // its use was recorded
    await row.getByRole('button', { name: `Revoke ${name}` }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('cannot be undone');
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await expect(row).toContainText('Revoked');
    expect((await script.get('/api/admin/catalog/export.csv')).status()).toBe(401);
  } finally {
    await script.dispose();
  }

  // The audit log: the sign-in, the key's creation and its calls; filters narrow it.
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const log = page.getByRole('table', { name: 'Audit log' });
  await expect(log).toContainText('sign-in');
  await expect(log).toContainText('api-key.create');
  await expect(log).toContainText(`key:${name}`);
  await expect(log).toContainText('catalog.export');
  await page.getByLabel('Action').fill('api-key.');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(log.locator('tbody tr').first()).toContainText('api-key.');
  // Waits for the filtered answer: the unfiltered table can also start with an api-key entry (the revoke just made).
  await expect(log.locator('tbody tr td:nth-child(3)').filter({ hasNotText: /^api-key\./ })).toHaveCount(0);
  await page.getByLabel('Who').fill(ADMIN_EMAIL);
  await page.getByLabel('Action').fill('sign-in');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(log.locator('tbody tr').first()).toContainText(ADMIN_EMAIL);
  await page.getByLabel('Action').fill('no-such-action');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No entry matches these filters.')).toBeVisible();
});

test('the API keys and Audit log tabs fit a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page);
  for (const tab of ['API keys', 'Audit log']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tabpanel')).toBeVisible();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow, tab).toBeLessThanOrEqual(0);
  }
  // The audit table is wider than a phone: its box scrolls sideways, from the keyboard too.
  const box = page.getByRole('region', { name: 'Audit log' });
  await expect(box.getByRole('table', { name: 'Audit log' })).toBeVisible();
  await box.focus();
  await expect(box).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => box.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
});

/** Sign-in locks: a guesser's wrong codes lock another admin's address; an admin sees it and lifts it, in the log too. */
test('an admin lifts the sign-in lock a guesser left on a colleague’s address', async ({ page, playwright, baseURL }) => {
  const colleague = SECOND_ADMIN_EMAIL;
  const guesser = await playwright.request.newContext({ baseURL });
  try {
    // Ten wrong codes over two code requests (each takes five): the address is locked.
    for (let round = 0; round < 2; round++) {
      const sent = await guesser.post('/api/admin/auth/send-otp', { data: { email: colleague } });
      expect(sent.status()).toBe(200);
      const { sessionId } = (await sent.json()) as { sessionId: string };
      for (let i = 0; i < 5; i++) {
        const tried = await guesser.post('/api/admin/auth/verify-otp', { data: { sessionId, otp: String(100000 + round * 5 + i) } });
        expect([401, 429]).toContain(tried.status());
      }
    }
  } finally {
    await guesser.dispose();
  }

  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const locks = page.getByRole('table', { name: 'Sign-in locks' });
  const row = locks.getByRole('row', { name: new RegExp(colleague) });
  await expect(row).toContainText('Locked until');
  await expect(row).toContainText('10 since');
  await row.getByRole('button', { name: `Lift the lock of ${colleague}` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('10 wrong codes were tried');
  await confirm.getByRole('button', { name: 'Lift lock' }).click();
  await expect(page.getByText('Sign-in lock lifted')).toBeVisible();
  await expect(row).toHaveCount(0);

  const log = page.getByRole('table', { name: 'Audit log' });
  await page.getByLabel('Action').fill('sign-in.');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(log).toContainText('sign-in.unlocked');
  await expect(log).toContainText('sign-in.locked');
});
