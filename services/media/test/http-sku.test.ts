import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessSkuImagesResponseSchema, UploadIndividualSkuResponseSchema } from '@forgeline/contracts/media';
import { MB, fileOf, photo, post, productOf, startMedia, waitForJob, zipOf, asGateway, type MediaUnderTest } from './harness.ts';
import { sha256Prefix } from '../src/domain/keys.ts';

let media: MediaUnderTest;
beforeAll(async () => {
  media = await startMedia();
});
afterAll(async () => {
  await media?.stop();
});

const uploadSku = (fields: Record<string, string>, files: File[]) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('images', f);
  return post(`${media.url}/api/admin/upload-individual-sku`, form);
};
const processSkus = async (body: unknown) => {
  const res = await fetch(`${media.url}/api/admin/process-sku-images`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(await asGateway()) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
const url480 = (b: Buffer) => `/media/products/${sha256Prefix(b)}-480.webp`;

describe('POST /api/admin/upload-individual-sku', () => {
  it('takes photos for a SKU, lists a renamed text file as skipped, and updates the product', async () => {
    const a = await photo(11);
    const b = await photo(12);
    const res = await uploadSku({ sku: 'TP-010', productName: 'Test Part 10' }, [
      fileOf(a, 'a.jpg', 'image/jpeg'),
      fileOf(Buffer.from('hello'), 'c.jpg', 'image/jpeg'),
      fileOf(b, 'b.jpg', 'image/jpeg'),
    ]);
    expect(res.status).toBe(200);
    const body = UploadIndividualSkuResponseSchema.parse(res.body);
    expect(body).toMatchObject({ success: true, sku: 'TP-010', filesAccepted: 2 });
    expect(body.skipped).toEqual([{ entry: 'c.jpg', reason: expect.stringMatching(/not a readable image/) }]);
    const status = await waitForJob(media, body.jobId);
    expect(status).toMatchObject({ state: 'completed', progress: 100, images: { total: 2, processed: 2, failed: 0 } });
    expect((await productOf(media, 10)).images).toEqual([url480(a), url480(b)]);
  });

  it('takes a ZIP of photos for a SKU, whatever folders it holds', async () => {
    const a = await photo(13);
    const b = await photo(14);
    const zip = await zipOf([
      ['front.jpg', a],
      ['more/', Buffer.alloc(0)],
      ['more/back.jpg', b],
      ['readme.txt', Buffer.from('notes')],
    ]);
    const res = await uploadSku({ sku: 'TP-011' }, [fileOf(zip, 'photos.zip', 'application/zip')]);
    expect(res.status).toBe(200);
    expect(res.body.filesAccepted).toBe(2);
    expect(res.body.skipped).toEqual([{ entry: 'readme.txt', reason: 'not an image (.txt)' }]);
    await waitForJob(media, res.body.jobId);
    expect((await productOf(media, 11)).images).toEqual([url480(a), url480(b)]);
  });

  it('answers 404 for an unknown SKU and 400 without a SKU or without files', async () => {
    const a = await photo(15);
    const unknown = await uploadSku({ sku: 'NO-SUCH-SKU' }, [fileOf(a, 'a.jpg')]);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('No product has SKU "NO-SUCH-SKU"');
    const noSku = await uploadSku({}, [fileOf(a, 'a.jpg')]);
    expect(noSku.status).toBe(400);
    expect(noSku.body.issues[0].path).toBe('sku');
    const noFiles = await uploadSku({ sku: 'TP-012' }, []);
    expect(noFiles.status).toBe(400);
  });

  it('answers 422 naming each file when none is a photo', async () => {
    const res = await uploadSku({ sku: 'TP-012' }, [fileOf(Buffer.from('text'), 'a.jpg'), fileOf(Buffer.from('more'), 'b.png')]);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/No photos found for SKU "TP-012": a\.jpg \(.+\); b\.png/);
    expect(res.body.issues.map((i: { path: string }) => i.path)).toEqual(['a.jpg', 'b.png']);
  });

  it('answers 413 when the request is over the per-request limit', async () => {
    const files = Array.from({ length: 6 }, (_, i) => fileOf(Buffer.alloc(1.9 * MB, i), `big-${i}.jpg`));
    const res = await uploadSku({ sku: 'TP-012' }, files);
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/per request/);
  });
});

describe('POST /api/admin/process-sku-images', () => {
  it('changes nothing when the photos were processed already', async () => {
    const before = await productOf(media, 10);
    const res = await processSkus({ skus: [{ sku: 'TP-010', productName: 'Test Part 10' }] });
    expect(res.status).toBe(200);
    const body = ProcessSkuImagesResponseSchema.parse(res.body);
    expect(body).toMatchObject({ success: true, skus: ['TP-010'], skipped: [] });
    const status = await waitForJob(media, body.jobId);
    expect(status.images).toMatchObject({ total: 2, processed: 0, unchanged: 2 });
    expect((await productOf(media, 10)).images).toEqual(before.images);
  });

  it('redoes every photo with forceReprocess', async () => {
    const res = await processSkus({ skus: [{ sku: 'TP-010', productName: '' }], forceReprocess: true });
    expect(res.status).toBe(200);
    const status = await waitForJob(media, res.body.jobId);
    expect(status.images).toMatchObject({ total: 2, processed: 2, unchanged: 0 });
  });

  it('skips unknown SKUs and SKUs without photos, listing them', async () => {
    const res = await processSkus({ skus: [{ sku: 'TP-010' }, { sku: 'NOPE-1' }, { sku: 'TP-020' }] });
    expect(res.status).toBe(200);
    expect(res.body.skus).toEqual(['TP-010']);
    expect(res.body.skipped).toEqual([
      { entry: 'NOPE-1', reason: 'unknown SKU' },
      { entry: 'TP-020', reason: 'no photos uploaded for this SKU' },
    ]);
    await waitForJob(media, res.body.jobId);
  });

  it('answers 422 when nothing can be processed and 400 for a bad body', async () => {
    const none = await processSkus({ skus: [{ sku: 'NOPE-1' }] });
    expect(none.status).toBe(422);
    expect(none.body.message).toMatch(/Nothing to process: NOPE-1 \(unknown SKU\)/);
    const empty = await processSkus({ skus: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.issues[0].path).toBe('skus');
    const wrong = await processSkus({ skus: [{ sku: { $ne: '' } }], forceReprocess: 'yes' });
    expect(wrong.status).toBe(400);
  });
});

describe('GET /api/admin/media-jobs/{id}', () => {
  it('answers 404 for an unknown job and 400 for a malformed id', async () => {
    const headers = await asGateway();
    expect((await fetch(`${media.url}/api/admin/media-jobs/zip-0000000000000000`, { headers })).status).toBe(404);
    expect((await fetch(`${media.url}/api/admin/media-jobs/${encodeURIComponent('a b')}`, { headers })).status).toBe(400);
  });

  it('refuses a call that did not come through the gateway with 401, before reading it', async () => {
    const direct = await fetch(`${media.url}/api/admin/process-sku-images`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-email': 'ops@example.com' },
      body: '{"not":',
    });
    expect(direct.status).toBe(401);
    expect(((await direct.json()) as { message: string }).message).toMatch(/through the gateway/);
  });
});
