import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMinio, type RunningMinio } from '@forgeline/test-support/minio';
import { createMinioObjectStore } from '@forgeline/object-store/minio';
import { sha256Prefix } from '../src/domain/keys.ts';
import { fileOf, photo, post, productId, productOf, startMedia, type MediaUnderTest } from './harness.ts';

// The production object store under the HTTP calls and the image route: a real MinIO server.
const minio = await startMinio();
if ('skip' in minio) {
  console.warn(`[media] uploads over MinIO skipped: ${minio.skip}`);
  describe.skip(`uploads over MinIO (skipped: ${minio.skip})`, () => it('needs MinIO', () => {}));
} else {
  describe('uploads over MinIO', () => {
    let media: MediaUnderTest;
    const running = minio as RunningMinio;
    beforeAll(async () => {
      media = await startMedia({
        store: () =>
          createMinioObjectStore({ endpoint: running.endpoint, accessKey: running.accessKey, secretKey: running.secretKey, bucket: 'media-http' }),
      });
    });
    afterAll(async () => {
      await media?.stop();
      await running.stop();
    });

    it('stores the variants in the bucket and serves them with cache headers, ETag and 304', async () => {
      const jpeg = await photo(601);
      const form = new FormData();
      form.append('image', fileOf(jpeg, 'a.jpg'));
      const res = await post(`${media.url}/api/admin/products/${productId(3)}/upload-image`, form);
      expect(res.status).toBe(200);
      const url = `/media/products/${sha256Prefix(jpeg)}-480.webp`;
      expect((await productOf(media, 3)).images).toEqual([url]);
      const img = await fetch(`${media.url}${url}`);
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toBe('image/webp');
      expect(img.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const etag = img.headers.get('etag')!;
      expect((await fetch(`${media.url}${url}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
      expect(await media.store.stat(`products/${sha256Prefix(jpeg)}-1200.jpg`)).toMatchObject({ contentType: 'image/jpeg' });
    });
  });
}
