// No zod here: the web app imports this file, and the naming rule must not pull a validator into the bundle.

/**
 * Product image variants (spec section 7, admin uploads). Every processed photo becomes
 * `/media/products/<hash>-<width>.<format>` for each width and format below, where <hash> is the
 * first 20 hex digits of the SHA-256 of the uploaded file. The product stores the 480 px WebP
 * (`images[]` and `imageUrl`); the web app derives the other widths from it for `srcset`.
 */
export const PRODUCT_IMAGE_WIDTHS = [160, 480, 1200] as const;
export type ProductImageWidth = (typeof PRODUCT_IMAGE_WIDTHS)[number];
export const PRODUCT_IMAGE_FORMATS = ['webp', 'jpg'] as const;
export type ProductImageFormat = (typeof PRODUCT_IMAGE_FORMATS)[number];
/** The variant a product's `images[]` and `imageUrl` point at. */
export const PRODUCT_IMAGE_STORED_WIDTH: ProductImageWidth = 480;
export const PRODUCT_IMAGE_HASH_LENGTH = 20;
export const PRODUCT_MEDIA_PREFIX = '/media/products/';

/** The one naming rule: `/media/products/<hash>-<width>.<format>`. */
export function productImagePath(hash: string, width: ProductImageWidth, format: ProductImageFormat): string {
  return `${PRODUCT_MEDIA_PREFIX}${hash}-${width}.${format}`;
}

const VARIANT_PATTERN = /^\/media\/products\/([0-9a-f]{20})-(160|480|1200)\.(webp|jpg)$/;

/** The hash, width and format of a variant URL, or null for any other image URL (seeded, external). */
export function parseProductImagePath(url: string): { hash: string; width: ProductImageWidth; format: ProductImageFormat } | null {
  const m = VARIANT_PATTERN.exec(url);
  if (!m) return null;
  return { hash: m[1]!, width: Number(m[2]) as ProductImageWidth, format: m[3] as ProductImageFormat };
}
