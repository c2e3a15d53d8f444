import { encodeSku, originalsPrefix } from './keys.ts';

/**
 * An original's key carries its order, content hash and (for messages) a short form of its name:
 *   originals/<sku>/<13-digit ms>-<5-digit index>-<hash>-<name>.<ext>
 */
export function originalKey(sku: string, o: { at: number; index: number; hash: string; name: string; ext: string }): string {
  const base = (o.name.split('/').pop() ?? o.name).replace(/\.[^.]*$/, '');
  const short = encodeSku(base).slice(0, 60) || 'image';
  return `${originalsPrefix(sku)}${String(o.at).padStart(13, '0')}-${String(o.index).padStart(5, '0')}-${o.hash}-${short}.${o.ext}`;
}

const ORIGINAL_PATTERN = /\/\d{13}-\d{5}-([0-9a-f]{20})-([^/]*)\.([a-z0-9]+)$/;

export function parseOriginalKey(key: string): { hash: string; name: string } | null {
  const m = ORIGINAL_PATTERN.exec(key);
  if (!m) return null;
  let name = m[2]!;
  try {
    name = decodeURIComponent(name);
  } catch {
    /* keep the encoded form */
  }
  return { hash: m[1]!, name: `${name}.${m[3]}` };
}
