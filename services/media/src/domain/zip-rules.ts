/**
 * What may come out of an uploaded ZIP. Rules only (no I/O): the reader in uploads/zip.ts applies them.
 */

export interface ZipLimits {
  /** Most entries (files and folders) a ZIP may list. */
  maxEntries: number;
  /** Most bytes all entries may hold once inflated. */
  maxTotalUncompressed: number;
  /** Largest inflated size of one entry. */
  maxEntryUncompressed: number;
  /** Highest inflated/compressed ratio of one entry; beyond it the entry is a ZIP bomb. */
  maxRatio: number;
}

/** Extensions taken as photos. The file's content decides in the end (see images/inspect.ts). */
export const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'webp', 'gif', 'tif', 'tiff', 'avif', 'heic', 'heif']);

export const extensionOf = (name: string) => {
  const base = name.split('/').pop() ?? name;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
};

export type EntryVerdict =
  | { kind: 'folder' }
  | { kind: 'skip'; reason: string }
  | { kind: 'image'; sku: string | null; name: string };

/**
 * Classify one entry name. `bulk`: the SKU is the folder the file sits in (`SKU-1/front.jpg`,
 * also `export/SKU-1/front.jpg`); files outside any folder are skipped. `single`: every image
 * belongs to the SKU given with the upload, whatever folder it sits in.
 */
export function classifyEntry(fileName: string, mode: 'bulk' | 'single'): EntryVerdict {
  const name = fileName.replace(/\\/g, '/');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return { kind: 'skip', reason: 'absolute path refused' };
  const parts = name.split('/');
  if (parts.some((p) => p === '..')) return { kind: 'skip', reason: 'path escapes its folder (..) refused' };
  if (name.endsWith('/')) return { kind: 'folder' };
  if (parts.some((p) => p === '__MACOSX') || (parts.at(-1) ?? '').startsWith('._') || parts.at(-1) === '.DS_Store' || parts.at(-1) === 'Thumbs.db') {
    return { kind: 'skip', reason: 'system file, not a photo' };
  }
  const clean = parts.filter((p) => p !== '' && p !== '.');
  const ext = extensionOf(name);
  if (!IMAGE_EXTENSIONS.has(ext)) return { kind: 'skip', reason: ext ? `not an image (.${ext})` : 'not an image (no extension)' };
  if (mode === 'single') return { kind: 'image', sku: null, name: clean.join('/') };
  if (clean.length < 2) return { kind: 'skip', reason: 'not inside a SKU folder' };
  return { kind: 'image', sku: clean[clean.length - 2]!.trim(), name: clean.join('/') };
}

export interface ZipEntryHeader {
  fileName: string;
  compressedSize: number;
  uncompressedSize: number;
}

/** Whole-archive checks on the central directory, before anything is inflated. Returns the refusal or null. */
export function checkArchive(entries: ZipEntryHeader[], limits: ZipLimits): string | null {
  if (entries.length === 0) return 'The ZIP is empty';
  if (entries.length > limits.maxEntries) return `The ZIP lists ${entries.length} entries; at most ${limits.maxEntries} are allowed`;
  let total = 0;
  for (const e of entries) {
    total += e.uncompressedSize;
    if (e.uncompressedSize > limits.maxEntryUncompressed) {
      return `Entry "${e.fileName}" inflates to ${e.uncompressedSize} bytes; at most ${limits.maxEntryUncompressed} are allowed per file`;
    }
    const ratio = e.uncompressedSize / Math.max(1, e.compressedSize);
    if (e.uncompressedSize > 1024 * 1024 && ratio > limits.maxRatio) {
      return `Entry "${e.fileName}" has a compression ratio of ${Math.round(ratio)}:1 (limit ${limits.maxRatio}:1); refusing a likely ZIP bomb`;
    }
  }
  if (total > limits.maxTotalUncompressed) {
    return `The ZIP inflates to ${total} bytes; at most ${limits.maxTotalUncompressed} are allowed`;
  }
  return null;
}
