import {
  PRODUCT_IMAGE_WIDTHS,
  parseProductImagePath,
  productImagePath,
  type ProductImageWidth,
} from '@forgeline/contracts/media-paths';

/** Shown when a product has no image or its image fails to load. */
export const FALLBACK_PRODUCT_IMAGE = '/images/part-placeholder.svg';

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

/**
 * A processed image (the media worker's naming rule, packages/contracts/src/media-paths.ts) gets a srcset over
 * every variant and `src` at the smallest width not below `displayWidth`; any other URL (seeded drawings,
 * external) is used as is. `sizes` is the CSS width the image takes on screen.
 */
export function productImageSources(url: string, sizes: string, displayWidth = 480): ImageSources {
  const variant = parseProductImagePath(url);
  if (!variant) return { src: url };
  const at = (w: ProductImageWidth) => productImagePath(variant.hash, w, variant.format);
  const srcSet = PRODUCT_IMAGE_WIDTHS.map((w) => `${at(w)} ${w}w`).join(', ');
  const best = at(PRODUCT_IMAGE_WIDTHS.find((w) => w >= displayWidth) ?? 1200);
  return { src: best, srcSet, sizes };
}
