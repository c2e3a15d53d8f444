import { Client } from 'minio';
import type { Readable } from 'node:stream';
import type { ObjectStore, StoredObject } from './ports.ts';
import { assertSafeKey, assertSafePrefix } from './safe-key.ts';
import { contentTypeOf } from './content-types.ts';

export interface MinioConfig {
  /** http(s)://host:port */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
}

const isMissing = (err: unknown) => {
  const code = (err as { code?: string })?.code;
  return code === 'NoSuchKey' || code === 'NotFound' || code === 'NoSuchObject';
};

/** The production object store: a MinIO (or any S3) bucket through the `minio` client; the bucket is made if absent. */
export function createMinioObjectStore(cfg: MinioConfig): ObjectStore {
  const url = new URL(cfg.endpoint);
  const useSSL = url.protocol === 'https:';
  const client = new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: cfg.accessKey,
    secretKey: cfg.secretKey,
    pathStyle: true,
  });
  const bucket = cfg.bucket;
  let bucketReady: Promise<void> | undefined;
  const ensureBucket = () =>
    (bucketReady ??= (async () => {
      if (!(await client.bucketExists(bucket))) {
        try {
          await client.makeBucket(bucket);
        } catch (err) {
          // Another process may have made it a moment ago.
          if (!(await client.bucketExists(bucket))) throw err;
        }
      }
    })().catch((err) => {
      bucketReady = undefined;
      throw err;
    }));

  async function statOf(key: string): Promise<StoredObject | null> {
    assertSafeKey(key);
    await ensureBucket();
    try {
      const s = await client.statObject(bucket, key);
      const meta = s.metaData as Record<string, string> | undefined;
      return { size: s.size, etag: `"${s.etag}"`, contentType: meta?.['content-type'] ?? contentTypeOf(key) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  return {
    async put(key, body, opts) {
      assertSafeKey(key);
      await ensureBucket();
      await client.putObject(bucket, key, body as Readable | Buffer, opts.size ?? (Buffer.isBuffer(body) ? body.length : undefined), {
        'Content-Type': opts.contentType,
      });
    },
    async putFile(key, filePath, opts) {
      assertSafeKey(key);
      await ensureBucket();
      await client.fPutObject(bucket, key, filePath, { 'Content-Type': opts.contentType });
    },
    async getBuffer(key) {
      assertSafeKey(key);
      await ensureBucket();
      try {
        const stream = await client.getObject(bucket, key);
        const chunks: Buffer[] = [];
        for await (const c of stream) chunks.push(c as Buffer);
        return Buffer.concat(chunks);
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async getStream(key) {
      const s = await statOf(key);
      if (!s) return null;
      try {
        return { ...s, body: await client.getObject(bucket, key) };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    stat: statOf,
    async list(prefix) {
      assertSafePrefix(prefix);
      await ensureBucket();
      const keys: string[] = [];
      for await (const item of client.listObjectsV2(bucket, prefix, true)) {
        if ((item as { name?: string }).name) keys.push((item as { name: string }).name);
      }
      return keys.sort();
    },
    async delete(key) {
      assertSafeKey(key);
      await ensureBucket();
      await client.removeObject(bucket, key);
    },
    async ready() {
      try {
        await ensureBucket();
        return true;
      } catch {
        return false;
      }
    },
    async close() {},
  };
}
