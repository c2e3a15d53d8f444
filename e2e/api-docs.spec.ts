import { expect, test } from '@playwright/test';

/**
 * /api/docs: the API reference Redoc renders in the browser from /api/openapi.json, with its script from the site's
 * own origin and under the site's Content-Security-Policy (gateway/src/api-docs.ts). Not the storefront's page
 * fixture (./support/test.ts): this page is not the app, so there is no app to wait for.
 */

interface Doc {
  tags: { name: string }[];
  paths: Record<string, Record<string, { operationId: string; summary: string }>>;
}

test('renders every area and every call of the OpenAPI document, fetching nothing from elsewhere', async ({ page, baseURL }, testInfo) => {
  const origin = new URL(baseURL!).origin;
  const pageErrors: string[] = [];
  const policy: string[] = [];
  const outside: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) policy.push(m.text());
  });
  // What the browser really fetched (a request the CSP refuses never finishes).
  page.on('requestfinished', (r) => {
    if (!r.url().startsWith(`${origin}/`) && !r.url().startsWith('data:')) outside.push(r.url());
  });

  const doc = (await (await page.request.get('/api/openapi.json')).json()) as Doc;
  const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops));
  expect(operations.length).toBeGreaterThan(40);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { level: 1, name: /Forgeline Parts API/ })).toBeVisible();

  // Every area in the side menu, every call as a section of its own with its summary.
  const menu = page.locator('.menu-content');
  for (const tag of doc.tags) await expect(menu.getByText(tag.name, { exact: true }).first()).toBeVisible();
  for (const op of operations) {
    const section = page.locator(`[data-section-id="operation/${op.operationId}"]`);
    await expect(section, op.operationId).toHaveCount(1);
    await expect(section.getByRole('heading', { level: 2 }).first(), op.operationId).toHaveText(op.summary);
  }
  // A staff call shows the credentials it takes, an API key with its scope.
  const list = page.locator('[data-section-id="operation/listAdminProducts"]');
  await list.getByText('Authorizations:').click();
  await expect(list.getByText('sessionCookie', { exact: true }).first()).toBeVisible();
  await expect(list.getByText('Required scopes: catalog:read')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('api-docs-desktop.png') });

  // At phone width the menu folds away and the reference still reads.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { level: 1, name: /Forgeline Parts API/ })).toBeVisible();
  await expect(page.locator('[data-section-id="operation/listProducts"]')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('api-docs-phone.png') });

  expect(pageErrors, 'script errors').toEqual([]);
  // The one thing the policy refuses: the logo of Redoc's footer, an image on Redocly's CDN, which then hides itself.
  expect(policy.filter((p) => !/img-src[\s\S]*cdn\.redoc\.ly|cdn\.redoc\.ly[\s\S]*img-src/.test(p)), 'CSP violations').toEqual([]);
  expect(outside, 'answers from outside the site').toEqual([]);
});
