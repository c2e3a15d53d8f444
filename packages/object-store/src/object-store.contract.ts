import { Readable } from 'node:stream';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectStore } from './ports.ts';

/** The ObjectStore contract, run once per adapter. */
export function describeObjectStore(name: string, factory: () => Promise<{ store: ObjectStore; cleanup: () => Promise<void> }>) {
  describe(`ObjectStore contract: ${name}`, () => {
    let store: ObjectStore;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ store, cleanup } = await factory());
    });
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });

    it('is ready', async () => {
      expect(await store.ready()).toBe(true);
    });

    it('stores a buffer and reads it back with size, etag and content type', async () => {
      const body = Buffer.from('webp bytes');
      await store.put('products/aaaaaaaaaaaaaaaaaaaa-160.webp', body, { contentType: 'image/webp' });
      expect(await store.getBuffer('products/aaaaaaaaaaaaaaaaaaaa-160.webp')).toEqual(body);
      const s = await store.stat('products/aaaaaaaaaaaaaaaaaaaa-160.webp');
      expect(s).toMatchObject({ size: body.length, contentType: 'image/webp' });
      expect(s!.etag).toMatch(/^".+"$/);
      const streamed = await store.getStream('products/aaaaaaaaaaaaaaaaaaaa-160.webp');
      const chunks: Buffer[] = [];
      for await (const c of streamed!.body) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks)).toEqual(body);
      expect(streamed!.etag).toBe(s!.etag);
    });

    it('stores a stream and a file', async () => {
      await store.put('originals/SKU-1/a.jpg', Readable.from([Buffer.from('one'), Buffer.from('two')]), { contentType: 'image/jpeg' });
      expect((await store.getBuffer('originals/SKU-1/a.jpg'))!.toString()).toBe('onetwo');
      const file = path.join(os.tmpdir(), `objstore-${process.pid}-${Date.now()}.jpg`);
      writeFileSync(file, 'from a file');
      await store.putFile('originals/SKU-1/b.jpg', file, { contentType: 'image/jpeg' });
      expect((await store.getBuffer('originals/SKU-1/b.jpg'))!.toString()).toBe('from a file');
    });

    it('overwrites a key in place', async () => {
      await store.put('batches/x.json', Buffer.from('{"v":1}'), { contentType: 'application/json' });
      await store.put('batches/x.json', Buffer.from('{"v":2}'), { contentType: 'application/json' });
      expect((await store.getBuffer('batches/x.json'))!.toString()).toBe('{"v":2}');
    });

    it('answers null for a missing key', async () => {
      expect(await store.getBuffer('products/missing.webp')).toBeNull();
      expect(await store.stat('products/missing.webp')).toBeNull();
      expect(await store.getStream('products/missing.webp')).toBeNull();
    });

    it('lists keys under a prefix in lexical order, and nothing else', async () => {
      await store.put('originals/SKU-2/0002-b.jpg', Buffer.from('2'), { contentType: 'image/jpeg' });
      await store.put('originals/SKU-2/0001-a.jpg', Buffer.from('1'), { contentType: 'image/jpeg' });
      await store.put('originals/SKU-20/0001-a.jpg', Buffer.from('x'), { contentType: 'image/jpeg' });
      expect(await store.list('originals/SKU-2/')).toEqual(['originals/SKU-2/0001-a.jpg', 'originals/SKU-2/0002-b.jpg']);
      expect(await store.list('originals/nobody/')).toEqual([]);
    });

    it('deletes, and deleting a missing key is fine', async () => {
      await store.put('originals/SKU-3/a.jpg', Buffer.from('1'), { contentType: 'image/jpeg' });
      await store.delete('originals/SKU-3/a.jpg');
      expect(await store.stat('originals/SKU-3/a.jpg')).toBeNull();
      await store.delete('originals/SKU-3/a.jpg');
    });

    it('refuses keys that could escape (.., absolute, odd characters)', async () => {
      for (const key of ['../evil.jpg', '/etc/passwd', 'a/../../b', 'a//b', 'a b']) {
        await expect(store.put(key, Buffer.from('x'), { contentType: 'image/jpeg' })).rejects.toThrow(/Unsafe object key/);
      }
    });
  });
}
