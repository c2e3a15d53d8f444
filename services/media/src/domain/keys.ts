import { createHash } from 'node:crypto';
import {
  PRODUCT_IMAGE_HASH_LENGTH,
  PRODUCT_IMAGE_STORED_WIDTH,
  PRODUCT_MEDIA_PREFIX,
  productImagePath,
  type ProductImageFormat,
  type ProductImageWidth,
} from '@forgeline/contracts/media-paths';

/**
 * Object-store keys. Everything media stores sits under these prefixes:
 *   originals/<sku>/<order>-<hash>-<name>.<ext>  uploaded files: the truth of a product's photos and their order
 *   products/<hash>-<width>.<webp|jpg>     variants, served at /media/products/...
 *   diagram-originals/<assembly>/<ms>-<hash>.<svg|png|jpg>  uploaded parts drawings (#38), newest last
 *   diagrams/<hash>-<width>.webp           a drawing's web copies, served at /media/diagrams/...
 *   batches/<id>.json                      what one upload call queued (for the status call)
 * A SKU is encoded so it is one safe path segment whatever it holds; an assembly id is one already (a-z, 0-9, -).
 */

export function encodeSku(sku: string): string {
  return Array.from(Buffer.from(sku, 'utf8'))
    .map((b) => (/[A-Za-z0-9_-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}

export const originalsPrefix = (sku: string) => `originals/${encodeSku(sku)}/`;

export const variantKey = (hash: string, width: ProductImageWidth, format: ProductImageFormat) =>
  productImagePath(hash, width, format).slice('/media/'.length);

/** The URL a product stores for a processed photo. */
/** The variant a worker writes last: when it exists, every variant of that photo does. */
export const doneMarker = (hash: string) => variantKey(hash, 1200, 'jpg');

export const storedImageUrl = (hash: string) => productImagePath(hash, PRODUCT_IMAGE_STORED_WIDTH, 'webp');

export const batchKey = (id: string) => `batches/${id}.json`;

export const diagramOriginalsPrefix = (assemblyId: string) => `diagram-originals/${assemblyId}/`;
/** The upload time leads the name, so the newest drawing of an assembly sorts last. */
export const diagramOriginalKey = (assemblyId: string, o: { at: number; hash: string; ext: string }) =>
  `${diagramOriginalsPrefix(assemblyId)}${String(o.at).padStart(13, '0')}-${o.hash}.${o.ext}`;
export const diagramImageKey = (hash: string, width: number) => `diagrams/${hash}-${width}.webp`;
export const diagramImageUrl = (hash: string, width: number) => `/media/${diagramImageKey(hash, width)}`;

/** Key of a served URL path below /media/ (`products/<file>`, `diagrams/<file>`), or null if it is not a variant name. */
export function keyForMediaPath(rest: string): string | null {
  return /^(products\/[0-9a-f]{20}-\d{2,4}\.(webp|jpg)|diagrams\/[0-9a-f]{20}-\d{2,4}\.webp)$/.test(rest) ? rest : null;
}

export function sha256Prefix(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex').slice(0, PRODUCT_IMAGE_HASH_LENGTH);
}

export { PRODUCT_MEDIA_PREFIX };
