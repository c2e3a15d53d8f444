import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import type { ObjectStore, StoredObject } from './ports.ts';
import { assertSafeKey, assertSafePrefix } from './safe-key.ts';
import { contentTypeOf } from './content-types.ts';

/**
 * The embedded object store: one file per key under `root` (DATA_DIR/media by default). Writes go to
 * a temp name and are renamed into place, so a reader never sees half a file. The content type comes
 * from the key's extension; the ETag from size and modification time.
 */
export function createLocalObjectStore(root: string): ObjectStore {
  const tmpDir = path.join(root, '.tmp');
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(root, ...key.split('/'));
  };
  const ensure = mkdir(tmpDir, { recursive: true });

  async function place(key: string, write: (tmp: string) => Promise<void>) {
    await ensure;
    const target = fileOf(key);
    const tmp = path.join(tmpDir, randomUUID());
    try {
      await write(tmp);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async function statOf(key: string): Promise<StoredObject | null> {
    try {
      const s = await stat(fileOf(key));
      if (!s.isFile()) return null;
      return { size: s.size, etag: `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`, contentType: contentTypeOf(key) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async function walk(dir: string, rel: string, out: string[]) {
    let names: import('node:fs').Dirent[];
    try {
      names = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const d of names) {
      if (rel === '' && d.name === '.tmp') continue;
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) await walk(path.join(dir, d.name), r, out);
      else if (d.isFile()) out.push(r);
    }
  }

  return {
    async put(key, body) {
      await place(key, async (tmp) => {
        if (Buffer.isBuffer(body)) await pipeline(Readable.from([body]), createWriteStream(tmp));
        else await pipeline(body, createWriteStream(tmp));
      });
    },
    async putFile(key, filePath) {
      await place(key, (tmp) => copyFile(filePath, tmp));
    },
    async getBuffer(key) {
      try {
        return await readFile(fileOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async getStream(key) {
      const s = await statOf(key);
      if (!s) return null;
      return { ...s, body: createReadStream(fileOf(key)) };
    },
    stat: statOf,
    async list(prefix) {
      assertSafePrefix(prefix);
      // Walk only the folder the prefix names, then filter by the rest of the prefix.
      const slash = prefix.lastIndexOf('/');
      const dirRel = slash >= 0 ? prefix.slice(0, slash) : '';
      const out: string[] = [];
      await walk(dirRel ? path.join(root, ...dirRel.split('/')) : root, dirRel, out);
      return out.filter((k) => k.startsWith(prefix)).sort();
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    async ready() {
      await ensure;
      return true;
    },
    async close() {},
  };
}
