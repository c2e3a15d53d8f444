import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { TabularFileError } from './tabular-file-error.ts';
import { formatBytes, formatCount, formatName, type XlsxLimits } from './xlsx-limits.ts';

/**
 * An XLSX file's ZIP, read from the file on demand (yauzl: random access, nothing written anywhere). Opening it checks
 * the central directory against the limits before any entry is inflated; inflating an entry counts its bytes, and
 * yauzl (validateEntrySizes) fails an entry that inflates past the size its directory declares.
 */
export interface XlsxZip {
  /** The entry of that name (exact, else ignoring case: some writers vary it). */
  entry(name: string): yauzl.Entry | undefined;
  names(): string[];
  /** The entry's inflated bytes, counted against the limits; stopping early (break) releases the stream. */
  inflate(entry: yauzl.Entry): AsyncGenerator<Buffer>;
  /** Releases the file; the file descriptor closes once no entry stream is open. */
  close(): void;
}

const unreadable = (detail: string) => new TabularFileError(`the XLSX workbook could not be read: ${detail}`);
const bomb = '(a "zip bomb"?)';

export async function openXlsxZip(path: string, limits: XlsxLimits): Promise<XlsxZip> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (err, z) => (err || !z ? reject(unreadable(err?.message ?? 'no ZIP')) : resolve(z))),
  );
  try {
    const entries = await checkedEntries(zip, limits);
    return handle(zip, entries, limits);
  } catch (err) {
    zip.close();
    throw err;
  }
}

/** The central directory, refused whole if it breaks a limit (nothing inflated yet). */
async function checkedEntries(zip: yauzl.ZipFile, limits: XlsxLimits): Promise<Map<string, yauzl.Entry>> {
  if (zip.entryCount > limits.maxEntries) {
    throw new TabularFileError(`the workbook holds ${formatCount(zip.entryCount)} files; at most ${formatCount(limits.maxEntries)} are allowed`);
  }
  const entries = new Map<string, yauzl.Entry>();
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (e: yauzl.Entry) => {
      try {
        const size = e.uncompressedSize;
        const ratio = size / Math.max(e.compressedSize, 1);
        if (size > limits.ratioFloorBytes && ratio > limits.maxRatio) {
          throw new TabularFileError(`${formatName(e.fileName)} in the workbook is compressed ${formatCount(ratio)}:1, more than the ${formatCount(limits.maxRatio)}:1 allowed ${bomb}`);
        }
        if (size > limits.maxEntryBytes) {
          throw new TabularFileError(`${formatName(e.fileName)} in the workbook inflates to ${formatBytes(size)}, more than the ${formatBytes(limits.maxEntryBytes)} allowed for one file ${bomb}`);
        }
        total += size;
        if (total > limits.maxTotalBytes) throw new TabularFileError(`the workbook inflates to more than ${formatBytes(limits.maxTotalBytes)} ${bomb}`);
        if (!entries.has(e.fileName)) entries.set(e.fileName, e);
        zip.readEntry();
      } catch (err) {
        reject(err);
      }
    });
    zip.once('end', () => resolve());
    // `on`, not `once`: a second error after the first, unheard, would end the process.
    zip.on('error', (err: Error) => reject(unreadable(err.message)));
    zip.readEntry();
  });
  return entries;
}

function handle(zip: yauzl.ZipFile, entries: Map<string, yauzl.Entry>, limits: XlsxLimits): XlsxZip {
  const folded = new Map<string, yauzl.Entry>();
  for (const [name, e] of entries) if (!folded.has(name.toLowerCase())) folded.set(name.toLowerCase(), e);
  let inflatedInAll = 0;

  async function* inflate(entry: yauzl.Entry): AsyncGenerator<Buffer> {
    const name = formatName(entry.fileName);
    const stream = await new Promise<Readable>((resolve, reject) =>
      zip.openReadStream(entry, (err, s) => (err || !s ? reject(unreadable(`${name}: ${err?.message ?? 'no stream'}`)) : resolve(s))),
    );
    let bytes = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        inflatedInAll += chunk.length;
        // The directory's sizes were checked; these hold even if yauzl's own check were off.
        if (bytes > limits.maxEntryBytes) throw new TabularFileError(`${name} in the workbook inflates to more than the ${formatBytes(limits.maxEntryBytes)} allowed for one file ${bomb}`);
        if (inflatedInAll > limits.maxTotalBytes) throw new TabularFileError(`the workbook inflates to more than ${formatBytes(limits.maxTotalBytes)} ${bomb}`);
        yield chunk;
      }
    } catch (err) {
      if (err instanceof TabularFileError) throw err;
      const message = (err as Error).message;
      // yauzl's validateEntrySizes: more bytes than the central directory declares.
      if (/too many bytes in the stream/.test(message)) {
        throw new TabularFileError(`${name} in the workbook inflates to more than the ${formatCount(entry.uncompressedSize)} bytes its ZIP directory declares ${bomb}`);
      }
      throw unreadable(`${name}: ${message}`);
    } finally {
      stream.destroy();
    }
  }

  let closed = false;
  return {
    entry: (name) => entries.get(name) ?? folded.get(name.toLowerCase()),
    names: () => [...entries.keys()],
    inflate,
    close: () => {
      if (!closed) zip.close(); // yauzl throws on a second close
      closed = true;
    },
  };
}
