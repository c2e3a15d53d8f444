import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadImageResponseSchema } from '@forgeline/contracts/media';
import { MB, fileOf, photo, post, productId, productOf, startMedia, asGateway, type MediaUnderTest } from './harness.ts';
import { sha256Prefix } from '../src/domain/keys.ts';

let media: MediaUnderTest;
beforeAll(async () => {
  media = await startMedia();
});
afterAll(async () => {
  await media?.stop();
});

const upload = (n: number | string, file?: File, field = 'image') => {
  const form = new FormData();
  if (file) form.append(field, file);
  return post(`${media.url}/api/admin/products/${typeof n === 'number' ? productId(n) : n}/upload-image`, form);
};

describe('POST /api/admin/products/{id}/upload-image', () => {
  it('processes a photo into upright, metadata-free variants and tells the catalog', async () => {
    // 800x600 stored sideways (EXIF orientation 6): upright it is 600 wide and 800 high.
    const jpeg = await photo(1, { orientation: 6 });
    const hash = sha256Prefix(jpeg);
    const res = await upload(1, fileOf(jpeg, 'front.jpg', 'image/jpeg'));
    expect(res.status).toBe(200);
    const body = UploadImageResponseSchema.parse(res.body);
    expect(body).toMatchObject({ success: true, processed: true, imageUrl: `/media/products/${hash}-480.webp` });

    const product = await productOf(media, 1);
    expect(product.images).toEqual([`/media/products/${hash}-480.webp`]);
    expect(product.imageUrl).toBe(`/media/products/${hash}-480.webp`);

    for (const width of [160, 480, 1200]) {
      for (const ext of ['webp', 'jpg']) {
        const r = await fetch(`${media.url}/media/products/${hash}-${width}.${ext}`);
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toBe(ext === 'webp' ? 'image/webp' : 'image/jpeg');
        const meta = await sharp(Buffer.from(await r.arrayBuffer())).metadata();
        // Never enlarged: the upright photo is 600 wide.
        expect(meta.width).toBe(Math.min(width, 600));
        expect(meta.height).toBe(Math.round((Math.min(width, 600) * 800) / 600));
        expect(meta.exif).toBeUndefined();
        expect(meta.orientation ?? 1).toBe(1);
      }
    }
  });

  it('serves variants cached for a year with an ETag, and answers 304 to a matching If-None-Match', async () => {
    const product = await productOf(media, 1);
    const url = `${media.url}${product.imageUrl}`;
    const first = await fetch(url);
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const again = await fetch(url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('changes nothing when the same photo is uploaded again', async () => {
    const before = await productOf(media, 1);
    const jpeg = await photo(1, { orientation: 6 });
    const res = await upload(1, fileOf(jpeg, 'front-again.jpg', 'image/jpeg'));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const after = await productOf(media, 1);
    expect(after.images).toEqual(before.images);
  });

  it('appends a second photo after the first, in upload order', async () => {
    const first = await photo(2);
    const second = await photo(3, { format: 'png' });
    expect((await upload(2, fileOf(first, 'a.jpg'))).status).toBe(200);
    expect((await upload(2, fileOf(second, 'b.png'))).status).toBe(200);
    const product = await productOf(media, 2);
    expect(product.images).toEqual([`/media/products/${sha256Prefix(first)}-480.webp`, `/media/products/${sha256Prefix(second)}-480.webp`]);
    expect(product.imageUrl).toBe(product.images[0]);
  });

  it('refuses a text file renamed .jpg: the content decides, not the name', async () => {
    const res = await upload(3, fileOf(Buffer.from('just some notes, not a picture\n'.repeat(20)), 'notes.jpg', 'image/jpeg'));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/"notes\.jpg" is not an image/);
    expect((await productOf(media, 3)).images[0]).toMatch(/^\/media\/generated\//);
  });

  it('refuses a file that is not an image at all', async () => {
    const res = await upload(3, fileOf(Buffer.from('%PDF-1.4\n'), 'manual.pdf', 'application/pdf'));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/is not an image/);
  });

  it('fails a corrupt photo alone, with the reason, and leaves the product as it was', async () => {
    const jpeg = await photo(4, { width: 1600, height: 1200 });
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 3));
    const res = await upload(4, fileOf(truncated, 'broken.jpg', 'image/jpeg'));
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/"broken\.jpg" could not be processed/);
    expect((await productOf(media, 4)).images[0]).toMatch(/^\/media\/generated\//);
  });

  it('answers 413 with a message for a photo over the per-file limit', async () => {
    const res = await upload(5, fileOf(Buffer.alloc(3 * MB, 7), 'huge.jpg', 'image/jpeg'));
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/"huge\.jpg" is larger than 2 MB/);
  });

  it('answers 404 for an unknown product and 400 without a file', async () => {
    const jpeg = await photo(5);
    const unknown = await upload('no-such-product', fileOf(jpeg, 'a.jpg'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Product not found');
    const none = await upload(5);
    expect(none.status).toBe(400);
    const wrongField = await upload(5, fileOf(jpeg, 'a.jpg'), 'photo');
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.message).toMatch(/multipart field "image"/);
  });

  it('refuses a body that is not multipart', async () => {
    const res = await fetch(`${media.url}/api/admin/products/${productId(5)}/upload-image`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await asGateway()) },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/multipart/);
  });

  it('leaves no temp files behind', async () => {
    const tmp = path.join(media.dataDir, 'tmp');
    const { readdirSync } = await import('node:fs');
    expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
  });
});

describe('GET /media/products/*', () => {
  it('answers 404 for a missing variant and for names that are not variants', async () => {
    expect((await fetch(`${media.url}/media/products/${'a'.repeat(20)}-480.webp`)).status).toBe(404);
    expect((await fetch(`${media.url}/media/products/..%2Fmedia-queue.sqlite`)).status).toBe(404);
    expect((await fetch(`${media.url}/media/products/whatever.svg`)).status).toBe(404);
  });
});
