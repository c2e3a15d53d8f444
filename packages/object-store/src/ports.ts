import type { Readable } from 'node:stream';

export interface StoredObject {
  size: number;
  /** A strong validator for the stored bytes (quoted, as it goes into the ETag header). */
  etag: string;
  contentType: string;
}

/**
 * Where originals, variants and job records live. Keys are slash-separated ASCII paths
 * (`products/<hash>-480.webp`); an adapter refuses a key with `..`, a leading slash or odd characters.
 */
export interface ObjectStore {
  put(key: string, body: Buffer | Readable, opts: { contentType: string; size?: number }): Promise<void>;
  /** Upload a file from disk (streamed). */
  putFile(key: string, filePath: string, opts: { contentType: string }): Promise<void>;
  getBuffer(key: string): Promise<Buffer | null>;
  getStream(key: string): Promise<(StoredObject & { body: Readable }) | null>;
  stat(key: string): Promise<StoredObject | null>;
  /** Every key under the prefix, in lexical order. */
  list(prefix: string): Promise<string[]>;
  delete(key: string): Promise<void>;
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
