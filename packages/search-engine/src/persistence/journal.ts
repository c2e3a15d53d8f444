import { createReadStream } from 'node:fs';
import { open, rename, stat, truncate } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { SearchDoc } from '../documents/search-doc.ts';

/**
 * The index's journal: one JSON line per change since the snapshot ({ u: documents } or { r: ids }), appended in the
 * write queue, so every line is whole once its write returns and a byte offset at a line's end is a point in the
 * index's history (the full merge covers the journal up to such a point).
 */
export interface JournalEntry {
  u?: SearchDoc[];
  r?: string[];
}

export async function fileSize(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}

function parseEntry(line: string): JournalEntry | null {
  if (!line) return null;
  try {
    return JSON.parse(line) as JournalEntry;
  } catch {
    return null; // a line torn by a crash mid-write
  }
}

/** The entries of the journal's first `end` bytes (all of it when not given), a line at a time. */
export async function* readJournal(file: string, end?: number): AsyncGenerator<JournalEntry> {
  const size = end ?? (await fileSize(file));
  if (size === 0) return;
  const lines = createInterface({ input: createReadStream(file, { end: size - 1 }), crlfDelay: Infinity });
  for await (const line of lines) {
    const entry = parseEntry(line);
    if (entry) yield entry;
  }
}

/** The entries in a piece of journal text. */
export function* journalEntries(text: string): Generator<JournalEntry> {
  for (const line of text.split('\n')) {
    const entry = parseEntry(line);
    if (entry) yield entry;
  }
}

/** The journal from byte `from` to its end. */
export async function readFrom(file: string, from: number): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const size = (await fh.stat()).size;
    const buf = Buffer.alloc(Math.max(0, size - from));
    for (let at = 0; at < buf.length; ) {
      const { bytesRead } = await fh.read(buf, at, buf.length - at, from + at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return buf;
  } finally {
    await fh.close();
  }
}

/** Replaces a file's content whole (a temporary file renamed over it): a crash leaves the old or the new. */
export async function replaceFile(file: string, content: Buffer): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(content);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, file);
}

/** Cuts a last line without its newline (a crash mid-append) off the journal, so the next entry starts a line. */
export async function cutTornTail(file: string): Promise<void> {
  const size = await fileSize(file);
  if (size === 0) return;
  const fh = await open(file, 'r');
  let keep = 0;
  try {
    const chunk = Buffer.alloc(64 * 1024);
    for (let end = size; end > 0; ) {
      const start = Math.max(0, end - chunk.length);
      const { bytesRead } = await fh.read(chunk, 0, end - start, start);
      const at = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (end === size && at === bytesRead - 1) return; // ends with a newline: whole
      if (at >= 0) {
        keep = start + at + 1;
        break;
      }
      end = start;
    }
  } finally {
    await fh.close();
  }
  await truncate(file, keep);
}
