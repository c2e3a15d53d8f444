/** Shown when a product has no image or its image fails to load. */
export const FALLBACK_PRODUCT_IMAGE = '/images/part-placeholder.svg';

/** Widths the media worker writes for every processed image: `<hash>-<width>.webp`. */
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

const PROCESSED = /^(\/media\/products\/.+\/[^/]+?)-(\d+)\.webp$/;

/**
 * The only place that knows the media variant naming. A processed image (/media/products/.../<hash>-<width>.webp)
 * gets a srcset over every variant and `src` at the width nearest `displayWidth`; any other URL is used as is.
 * `sizes` is the CSS width the image takes on screen.
 */
export function productImageSources(url: string, sizes: string, displayWidth = 480): ImageSources {
  const m = PROCESSED.exec(url);
  if (!m) return { src: url };
  const base = m[1];
  const srcSet = MEDIA_VARIANT_WIDTHS.map((w) => `${base}-${w}.webp ${w}w`).join(', ');
  const best = MEDIA_VARIANT_WIDTHS.find((w) => w >= displayWidth) ?? MEDIA_VARIANT_WIDTHS[MEDIA_VARIANT_WIDTHS.length - 1];
  return { src: `${base}-${best}.webp`, srcSet, sizes };
}
