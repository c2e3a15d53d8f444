/** Shown when a product has no image or its image fails to load. */
export const FALLBACK_PRODUCT_IMAGE = '/images/part-placeholder.svg';

/**
 * Widths the media worker writes for every processed photo: `/media/products/<hash>-<width>.<webp|jpg>`
 * (the rule of packages/contracts/src/media.ts; repeated here because importing that module would pull zod
 * into the browser bundle).
 */
export const MEDIA_VARIANT_WIDTHS = [160, 480, 1200] as const;

/** The image a list shows for a product: the first of `images`, else `imageUrl`, else the fallback (spec section 2). */
export function primaryImage(p: { images?: readonly string[] | null; imageUrl?: string | null }): string {
  const first = p.images?.find((u) => u && u.trim());
  return first || p.imageUrl || FALLBACK_PRODUCT_IMAGE;
}

export interface ImageSources {
  src: string;
  srcSet?: string;
  sizes?: string;
}

const PROCESSED = /^\/media\/products\/([0-9a-f]{20})-(160|480|1200)\.(webp|jpg)$/;

/**
 * The only place that knows the media variant naming. A processed image gets a srcset over every variant and
 * `src` at the smallest width not below `displayWidth`; any other URL (seeded drawings, external) is used as is.
 * `sizes` is the CSS width the image takes on screen.
 */
export function productImageSources(url: string, sizes: string, displayWidth = 480): ImageSources {
  const m = PROCESSED.exec(url);
  if (!m) return { src: url };
  const [, hash, , format] = m;
  const at = (w: number) => `/media/products/${hash}-${w}.${format}`;
  const srcSet = MEDIA_VARIANT_WIDTHS.map((w) => `${at(w)} ${w}w`).join(', ');
  const best: number = MEDIA_VARIANT_WIDTHS.find((w) => w >= displayWidth) ?? 1200;
  return { src: at(best), srcSet, sizes };
}
