import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkZipResultSchema, MediaJobStatusSchema } from '@forgeline/contracts/media';
import { MB, fileOf, photo, post, productOf, startMedia, waitForJob, zipOf, zipWithRawName, type MediaUnderTest } from './harness.ts';
import { sha256Prefix } from '../src/domain/keys.ts';

let media: MediaUnderTest;
beforeAll(async () => {
  media = await startMedia({});
});
afterAll(async () => {
  await media?.stop();
});

const uploadZip = (zip: Buffer, name = 'bulk.zip') => {
  const form = new FormData();
  form.append('zip', fileOf(zip, name, 'application/zip'));
  return post(`${media.url}/api/admin/upload-bulk-zip`, form);
};
const sku = (n: number) => `TP-${String(n).padStart(3, '0')}`;

describe('POST /api/admin/upload-bulk-zip', () => {
  let first: Buffer;
  let bulk: Buffer;
  let photos: Map<number, Buffer[]>;

  it('processes a ZIP of 50 SKU folders end to end, and the products then show the new images', async () => {
    photos = new Map();
    const entries: [string, Buffer][] = [];
    for (let n = 1; n <= 50; n++) {
      const mine = [await photo(100 + n, { width: 320, height: 240 })];
      if (n % 5 === 0) mine.push(await photo(200 + n, { width: 240, height: 320, format: 'png' }));
      photos.set(n, mine);
      mine.forEach((p, i) => entries.push([`export/${sku(n)}/${i + 1}.${i === 0 ? 'jpg' : 'png'}`, p]));
    }
    first = photos.get(1)![0]!;
    entries.push(['export/UNKNOWN-9/1.jpg', await photo(999)]);
    entries.push(['export/TP-001/specs.pdf', Buffer.from('%PDF-1.4')]);
    entries.push(['export/TP-002/fake.jpg', Buffer.from('renamed text')]);
    entries.push(['loose.jpg', await photo(998)]);
    entries.push(['__MACOSX/export/._TP-001', Buffer.from('junk')]);
    bulk = await zipOf(entries);

    const res = await uploadZip(bulk);
    expect(res.status).toBe(200);
    const body = BulkZipResultSchema.parse(res.body);
    expect(body).toMatchObject({ success: true, skusProcessed: 50, filesExtracted: 60 });
    expect(body.skus).toHaveLength(50);
    expect(body.skus).toContain('TP-050');
    expect(body.skipped).toEqual(
      expect.arrayContaining([
        { entry: 'export/UNKNOWN-9/1.jpg', reason: 'unknown SKU "UNKNOWN-9"' },
        { entry: 'export/TP-001/specs.pdf', reason: 'not an image (.pdf)' },
        { entry: 'export/TP-002/fake.jpg', reason: expect.stringMatching(/not a readable image/) },
        { entry: 'loose.jpg', reason: 'not inside a SKU folder' },
        { entry: '__MACOSX/export/._TP-001', reason: 'system file, not a photo' },
      ]),
    );
    expect(body.skipped).toHaveLength(5);

    const status = MediaJobStatusSchema.parse(await waitForJob(media, body.jobId));
    expect(status).toMatchObject({
      kind: 'bulk-zip',
      state: 'completed',
      progress: 100,
      skus: { total: 50, completed: 50, failed: 0 },
      images: { total: 60, processed: 60, failed: 0 },
    });
    for (let n = 1; n <= 50; n++) {
      const product = await productOf(media, n);
      const expected = photos.get(n)!.map((p) => `/media/products/${sha256Prefix(p)}-480.webp`);
      expect(product.images, sku(n)).toEqual(expected);
      expect(product.imageUrl).toBe(expected[0]);
    }
    // The product page's image is served.
    const product = await productOf(media, 7);
    const img = await fetch(`${media.url}${product.imageUrl}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/webp');
  });

  it('treats the same ZIP again as the same job and changes nothing', async () => {
    const before = await productOf(media, 5);
    const res = await uploadZip(bulk);
    expect(res.status).toBe(200);
    const status = await waitForJob(media, res.body.jobId);
    expect(status.state).toBe('completed');
    expect((await productOf(media, 5)).images).toEqual(before.images);
  });

  it('refuses an entry that escapes its folder (../evil.jpg) and writes nothing outside', async () => {
    const good = await photo(300);
    const zip = await zipWithRawName([['TP-051/1.jpg', good]], '../evil.jpg', await photo(301));
    const res = await uploadZip(zip);
    expect(res.status).toBe(200);
    expect(res.body.skipped).toEqual([{ entry: '../evil.jpg', reason: 'path escapes its folder (..) refused' }]);
    expect(res.body.skus).toEqual(['TP-051']);
    await waitForJob(media, res.body.jobId);
    expect(existsSync(path.join(media.dataDir, 'evil.jpg'))).toBe(false);
    expect(readdirSync(path.join(media.dataDir, 'media')).sort()).toEqual(['.tmp', 'batches', 'originals', 'products']);
  });

  it('refuses an absolute entry path', async () => {
    const zip = await zipWithRawName([['TP-052/1.jpg', await photo(302)]], '/etc/evil.jpg', await photo(303));
    const res = await uploadZip(zip);
    expect(res.status).toBe(200);
    expect(res.body.skipped).toEqual([{ entry: '/etc/evil.jpg', reason: 'absolute path refused' }]);
  });

  it('refuses a ZIP bomb before inflating it', async () => {
    const zip = await zipOf([['TP-053/bomb.jpg', Buffer.alloc(1.5 * MB, 0)]]);
    expect(zip.length).toBeLessThan(20_000);
    const res = await uploadZip(zip);
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/compression ratio of \d+:1 \(limit 100:1\); refusing a likely ZIP bomb/);
  });

  it('refuses a ZIP that inflates past the per-file limit', async () => {
    const zip = await zipOf([['TP-053/huge.jpg', Buffer.alloc(3 * MB, 1)]], { compress: false });
    const res = await uploadZip(zip);
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/inflates to \d+ bytes; at most \d+ are allowed per file/);
  });

  it('refuses an empty ZIP, a file that is not a ZIP, and a ZIP over the upload limit', async () => {
    const empty = await uploadZip(await zipOf([]));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('The ZIP is empty');
    const notZip = await uploadZip(Buffer.from('plain text'), 'photos.zip');
    expect(notZip.status).toBe(400);
    expect(notZip.body.message).toBe('"photos.zip" is not a ZIP file');
    const big = await uploadZip(Buffer.alloc(11 * MB, 3), 'big.zip');
    expect(big.status).toBe(413);
  });

  it('answers 422 listing the reasons when the ZIP holds no photo of a known SKU', async () => {
    const res = await uploadZip(await zipOf([['NOPE-1/a.jpg', await photo(304)], ['notes.txt', Buffer.from('x')]]));
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/No photos of known SKUs in the ZIP/);
    expect(res.body.issues).toEqual(
      expect.arrayContaining([
        { path: 'notes.txt', message: 'not an image (.txt)' },
        { path: 'NOPE-1/a.jpg', message: 'unknown SKU "NOPE-1"' },
      ]),
    );
  });

  it('answers 400 without the zip field', async () => {
    const form = new FormData();
    form.append('file', fileOf(await zipOf([['TP-001/a.jpg', first]]), 'x.zip'));
    const res = await post(`${media.url}/api/admin/upload-bulk-zip`, form);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/multipart field "zip"/);
  });
});
