import { expect, test, type APIRequestContext, type Page } from './support/test.ts';
import sharp from 'sharp';
import yazl from 'yazl';
import { zipBuffer } from '@forgeline/test-support/zip';
import { signInAsAdmin } from './support/admin-sign-in.ts';

/**
 * The admin panel's three upload tabs end to end: real uploads through the gateway to the media
 * service, processed by its worker, and the catalog's products updated. Products are taken from deep
 * in the seeded catalogue so other specs' pages are not touched.
 */

/** Sign in, logging the page's errors (an upload tab that throws shows up in the test output). */
async function signIn(page: Page) {
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message, e.stack));
  await signInAsAdmin(page);
}

interface Row {
  id: string;
  sku: string;
  name: string;
}

async function productsAt(request: APIRequestContext, offset: number, limit: number): Promise<Row[]> {
  const res = await request.get(`/api/catalog/products?limit=${limit}&offset=${offset}`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { products: Row[] }).products;
}

async function productImages(request: APIRequestContext, id: string): Promise<string[]> {
  const res = await request.get(`/api/products/${id}`);
  return ((await res.json()) as { images: string[] }).images;
}

const photo = (seed: number) =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: { r: (seed * 53) % 256, g: (seed * 101) % 256, b: 90 } } })
    .jpeg()
    .toBuffer();

function zipOf(entries: [string, Buffer][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of entries) zip.addBuffer(data, name);
  return zipBuffer(zip);
}

const seed = Date.now() % 10_000;

test('Product Upload: queue, remove a pending item, upload, a bad file errors alone, then the list reloads', async ({ page, request }) => {
  const [product] = await productsAt(request, 1900 + (seed % 50), 1);
  await signIn(page);
  await page.getByLabel('Search products', { exact: true }).fill(product!.sku);
  await page.getByRole('row', { name: new RegExp(product!.sku) }).getByRole('button', { name: 'Select' }).click();
  const uploader = page.getByTestId('product-image-uploader');
  await expect(uploader).toBeVisible();

  // Choose two images, remove one while pending.
  await uploader.getByLabel('Choose images').setInputFiles([
    { name: 'front.jpg', mimeType: 'image/jpeg', buffer: await photo(seed) },
    { name: 'unwanted.jpg', mimeType: 'image/jpeg', buffer: await photo(seed + 1) },
  ]);
  const queue = uploader.getByRole('list', { name: 'Upload queue' });
  await expect(queue.getByRole('listitem')).toHaveCount(2);
  await expect(queue.getByRole('img', { name: 'Preview of front.jpg' })).toBeVisible();
  await uploader.getByRole('button', { name: 'Remove unwanted.jpg' }).click();
  await expect(queue.getByRole('listitem')).toHaveCount(1);

  await uploader.getByRole('button', { name: 'Upload 1 image' }).click();
  await expect(page.getByText('All images uploaded successfully')).toBeVisible({ timeout: 30_000 });
  // Every item completed: the selection resets.
  await expect(uploader.getByRole('list', { name: 'Upload queue' })).toHaveCount(0);
  await expect.poll(() => productImages(request, product!.id)).toEqual([expect.stringMatching(/^\/media\/products\/[0-9a-f]{20}-480\.webp$/)]);
  // The reloaded list shows the processed image.
  await expect(page.getByRole('row', { name: new RegExp(product!.sku) }).locator('img')).toHaveAttribute('src', /\/media\/products\//);

  // A text file named .jpg errors alone; completed items have no remove button.
  await uploader.getByLabel('Choose images').setInputFiles([{ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a photo') }]);
  await uploader.getByRole('button', { name: 'Upload 1 image' }).click();
  await expect(page.getByText('Upload failed')).toBeVisible();
  const failed = uploader.getByRole('listitem').filter({ hasText: 'notes.jpg' });
  await expect(failed).toHaveAttribute('data-status', 'error');
  await expect(failed.getByRole('alert')).toContainText('is not an image');
  await expect(uploader.getByRole('button', { name: 'Remove notes.jpg' })).toHaveCount(0);
});

test('SKU Image Uploader: images for a SKU are uploaded and processed, then processed again on demand', async ({ page, request }) => {
  const [product] = await productsAt(request, 1960 + (seed % 20), 1);
  await signIn(page);
  await page.getByRole('tab', { name: 'SKU Image Uploader' }).click();
  await page.getByLabel('SKU', { exact: true }).fill(product!.sku);
  await page.getByLabel('Product name').fill(product!.name);
  await page.getByLabel('Images or .zip').setInputFiles([
    { name: 'a.jpg', mimeType: 'image/jpeg', buffer: await photo(seed + 10) },
    { name: 'b.jpg', mimeType: 'image/jpeg', buffer: await photo(seed + 11) },
    { name: 'readme.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') },
  ]);
  await page.getByRole('button', { name: 'Upload images' }).click();
  await expect(page.getByTestId('upload-result')).toContainText(`2 images uploaded for SKU ${product!.sku}`);
  await expect(page.getByRole('list', { name: 'Skipped files' })).toContainText('readme.txt');
  await expect(page.getByTestId('media-job')).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
  await expect(page.getByTestId('media-job')).toContainText('Processing Complete');
  await expect.poll(() => productImages(request, product!.id)).toHaveLength(2);

  await page.getByLabel('Force reprocess').check();
  await page.getByRole('button', { name: 'Process images' }).click();
  await expect(page.getByTestId('upload-result')).toContainText('Processing 1 SKU (forced)');
  await expect(page.getByTestId('media-job')).toContainText('2 processed', { timeout: 30_000 });
});

test('Bulk Upload: a ZIP of SKU folders shows its result, what was skipped, and live progress to completion', async ({ page, request }) => {
  const products = await productsAt(request, 1980 + (seed % 10), 2);
  const zip = await zipOf([
    [`${products[0]!.sku}/1.jpg`, await photo(seed + 20)],
    [`${products[1]!.sku}/1.jpg`, await photo(seed + 21)],
    [`${products[1]!.sku}/2.jpg`, await photo(seed + 22)],
    ['NO-SUCH-SKU-E2E/1.jpg', await photo(seed + 23)],
  ]);
  await signIn(page);
  await page.getByRole('tab', { name: 'Bulk Upload' }).click();
  await page.getByLabel('ZIP file').setInputFiles({ name: 'bulk.zip', mimeType: 'application/zip', buffer: zip });
  await page.getByRole('button', { name: 'Upload ZIP' }).click();
  const result = page.getByTestId('bulk-result');
  await expect(result).toContainText('SKUs processed2');
  await expect(result).toContainText('Files extracted3');
  await expect(page.getByRole('list', { name: 'Skipped files' })).toContainText('unknown SKU "NO-SUCH-SKU-E2E"');
  await expect(page.getByTestId('media-job')).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
  await expect(page.getByTestId('media-job')).toContainText('100%');
  await expect.poll(() => productImages(request, products[1]!.id)).toHaveLength(2);

  // Not a ZIP: refused with the server's reason.
  await page.getByLabel('ZIP file').setInputFiles({ name: 'fake.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip') });
  await page.getByRole('button', { name: 'Upload ZIP' }).click();
  await expect(page.getByText('Failed to upload ZIP')).toBeVisible();
});
