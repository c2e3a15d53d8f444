import { randomUUID } from 'node:crypto';
import { signInAsAdmin } from './support/admin-sign-in.ts';
import { getJson, type ListResponse } from './support/catalog.ts';
import { expect, test } from './support/test.ts';

/**
 * The Catalogue tab: a CSV with good and bad rows, as a dry run (nothing changes) and then for real: the progress,
 * the summary and the error table; the new part is then on the storefront, found by its part number.
 */
test('an admin imports a catalogue file: dry run, then the import, its summary and errors, and the storefront follows', async ({ page, request }) => {
  const tag = randomUUID().slice(0, 6).toUpperCase();
  const existing = (await getJson<ListResponse>(request, '/api/catalog/products?limit=1&offset=21')).products[0]!;
  const csv = [
    'SKU,Name,Part Number,Brand,Category,Price,In Stock,Colour',
    `E2E-${tag}-1,Track Adjuster Seal ${tag},TA-${tag},Zeta Hydraulics,Track Adjusters,145.50,yes,black`,
    `E2E-${tag}-2,Idler Bolt ${tag},IB-${tag},Zeta Hydraulics,Track Adjusters,not-a-price,yes,`,
    `E2E-${tag}-3,,NN-${tag},Zeta Hydraulics,Track Adjusters,5,maybe,`,
    `${existing.sku},,,,,,,`,
  ].join('\n');
  const file = { name: `catalogue-${tag}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) };

  await signInAsAdmin(page);
  await page.getByRole('tab', { name: 'Catalogue' }).click();
  await expect(page.getByRole('heading', { name: 'Catalogue' })).toBeVisible();

  // Dry run (the default): the same counts, nothing changed.
  await page.getByLabel(/^Catalogue file/).setInputFiles(file);
  await page.getByRole('button', { name: 'Start dry run' }).click();
  const status = page.getByTestId('import-status');
  await expect(status.getByRole('heading', { level: 3 })).toHaveText('Dry run: Completed with errors');
  const summary = status.locator('dl');
  await expect(summary).toContainText('New1');
  await expect(summary).toContainText('Unchanged1');
  await expect(summary).toContainText('Errors2');
  await expect(status.getByText('Nothing was changed')).toBeVisible();
  await expect(status.getByText('Columns not read (not catalogue columns): Colour')).toBeVisible();
  const withNumber = async () =>
    (await getJson<ListResponse>(request, `/api/products?search=TA-${tag}&limit=5`)).products.filter((p) => p.partNumber === `TA-${tag}`).map((p) => p.name);
  expect(await withNumber()).toEqual([]);

  // For real.
  await page.getByLabel(/^Dry run/).uncheck();
  await page.getByLabel(/^Catalogue file/).setInputFiles(file);
  await page.getByRole('button', { name: 'Start import' }).click();
  await expect(status.getByRole('heading', { level: 3 })).toHaveText('Completed with errors');
  await expect(status.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('aria-valuenow', '100');
  await expect(status).toContainText('4 of 4 rows');
  const errors = status.getByRole('table', { name: 'Import errors by row and column' }).getByRole('row');
  await expect(errors).toHaveCount(3);
  await expect(errors.nth(1)).toContainText('3price"not-a-price" is not a price');
  await expect(errors.nth(2)).toContainText('4in_stock"maybe" is not true/false');

  // The storefront: the new part is found by its part number, and its page shows it.
  await expect.poll(withNumber).toEqual([`Track Adjuster Seal ${tag}`]);
  await page.goto(`/?search=TA-${tag}`);
  await expect(page.getByRole('heading', { name: `Track Adjuster Seal ${tag}` })).toBeVisible();
});
