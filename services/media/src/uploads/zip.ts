import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { HttpError } from '@forgeline/service-kit/errors';
import type { SkippedItem } from '@forgeline/contracts/media';
import { sha256Prefix } from '../domain/keys.ts';
import { checkArchive, classifyEntry, type ZipLimits } from '../domain/zip-rules.ts';

export interface ZipImageEntry {
  entry: yauzl.Entry;
  /** The entry's name as listed (for messages). */
  name: string;
  /** The SKU folder (bulk) or null (single-SKU upload). */
  sku: string | null;
}

export interface OpenedZip {
  images: ZipImageEntry[];
  skipped: SkippedItem[];
  /** Inflate one entry to a file, hashing it. Fails if it inflates past its declared size. */
  extract(entry: ZipImageEntry, target: string): Promise<{ hash: string; size: number }>;
  close(): void;
}

/** True when the file starts like a ZIP (local header, or the end record of an empty archive). */
export async function looksLikeZip(file: string): Promise<boolean> {
  const fh = await openFile(file, 'r');
  try {
    const buf = Buffer.alloc(4);
    await fh.read(buf, 0, 4, 0);
    return buf.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) || buf.equals(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  } finally {
    await fh.close();
  }
}

const decodeName = (entry: yauzl.Entry) => {
  const raw = entry.fileName as unknown as Buffer;
  // Bit 11: the name is UTF-8; otherwise CP437, which matches latin1 for the ASCII names SKU folders use.
  return (entry.generalPurposeBitFlag & 0x800) !== 0 ? raw.toString('utf8') : raw.toString('latin1');
};

/**
 * Read a ZIP's central directory (no entry is inflated yet), refuse it whole when it breaks the
 * limits (too many entries, too big inflated, a compression ratio of a ZIP bomb), and sort its
 * entries into images to extract and skipped ones with their reason. Entries are read from the
 * file on demand (yauzl, random access): the archive is never held in memory.
 */
export async function openZip(file: string, mode: 'bulk' | 'single', limits: ZipLimits): Promise<OpenedZip> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (err, z) =>
      err || !z ? reject(new HttpError(400, `Not a readable ZIP: ${err?.message ?? 'unknown error'}`)) : resolve(z),
    ),
  );
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new HttpError(413, `The ZIP lists ${zip.entryCount} entries; at most ${limits.maxEntries} are allowed`);
    }
    const all: { entry: yauzl.Entry; name: string }[] = [];
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        all.push({ entry, name: decodeName(entry) });
        zip.readEntry();
      });
      zip.once('end', resolve);
      // `on`, not `once`: a second error after the first, unheard, would end the process.
      zip.on('error', (err: Error) => reject(new HttpError(400, `Not a readable ZIP: ${err.message}`)));
      zip.readEntry();
    });
    const refusal = checkArchive(
      all.map(({ entry, name }) => ({ fileName: name, compressedSize: entry.compressedSize, uncompressedSize: entry.uncompressedSize })),
      limits,
    );
    if (refusal) throw new HttpError(refusal.startsWith('The ZIP is empty') ? 400 : 413, refusal);

    const images: ZipImageEntry[] = [];
    const skipped: SkippedItem[] = [];
    for (const { entry, name } of all) {
      const verdict = classifyEntry(name, mode);
      if (verdict.kind === 'folder') continue;
      if (verdict.kind === 'skip') skipped.push({ entry: name, reason: verdict.reason });
      else if (entry.generalPurposeBitFlag & 0x1) skipped.push({ entry: name, reason: 'encrypted entry' });
      else if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        skipped.push({ entry: name, reason: `unsupported compression method ${entry.compressionMethod}` });
      } else images.push({ entry, name: verdict.name, sku: verdict.sku });
    }
    images.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));

    return {
      images,
      skipped,
      async extract(item, target) {
        const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
          zip.openReadStream(item.entry, (err, s) => (err || !s ? reject(err ?? new Error('no stream')) : resolve(s))),
        );
        const hash = createHash('sha256');
        let size = 0;
        const tap = new Transform({
          transform(chunk: Buffer, _enc, cb) {
            size += chunk.length;
            if (size > limits.maxEntryUncompressed) return cb(new Error('entry inflates past the per-file limit'));
            hash.update(chunk);
            cb(null, chunk);
          },
        });
        await pipeline(stream, tap, createWriteStream(target));
        return { hash: hash.digest('hex').slice(0, sha256Prefix('').length), size };
      },
      close: () => zip.close(),
    };
  } catch (err) {
    zip.close();
    throw err;
  }
}
