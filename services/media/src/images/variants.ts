import sharp from 'sharp';
import { PRODUCT_IMAGE_WIDTHS, type ProductImageFormat, type ProductImageWidth } from '@forgeline/contracts/media-paths';
import { inspectImage, MAX_INPUT_PIXELS, NotAnImageError } from './inspect.ts';

export interface Variant {
  width: ProductImageWidth;
  format: ProductImageFormat;
  data: Buffer;
}

/** Libvips threads per image and no cache, so a worker's memory stays flat however many images pass. */
export function configureSharp(threads: number): void {
  sharp.concurrency(threads);
  sharp.cache(false);
}

const MAX_WIDTH = Math.max(...PRODUCT_IMAGE_WIDTHS);

/**
 * Every variant of one photo: decoded once (by content), turned upright by its EXIF orientation,
 * scaled to the largest width, then each width in WebP and JPEG (on white, since JPEG has no alpha).
 * Metadata (EXIF, GPS, ICC beyond sRGB) is not copied into any output. Never enlarges a small photo.
 * A file that does not decode completely (truncated, corrupt, not an image) throws NotAnImageError.
 */
export async function makeVariants(input: Buffer): Promise<Variant[]> {
  await inspectImage(input);
  let base: { data: Buffer; info: { width: number; height: number; channels: number } };
  try {
    base = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' })
      .rotate()
      .resize({ width: MAX_WIDTH, withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw new NotAnImageError(`image does not decode (${(err as Error).message})`);
  }
  const raw = { width: base.info.width, height: base.info.height, channels: base.info.channels as 1 | 2 | 3 | 4 };
  const out: Variant[] = [];
  for (const width of PRODUCT_IMAGE_WIDTHS) {
    const scaled = () => sharp(base.data, { raw }).resize({ width, withoutEnlargement: true });
    // effort 2 of 6: the WebP encode of the 1200 px variant dominates a photo's cost; effort 4 took
    // about twice as long for files a few percent smaller (measured with scripts/bench/media.bench.ts).
    out.push({ width, format: 'webp', data: await scaled().webp({ quality: 80, effort: 2 }).toBuffer() });
    out.push({
      width,
      format: 'jpg',
      data: await scaled().flatten({ background: '#ffffff' }).jpeg({ quality: 82, progressive: true }).toBuffer(),
    });
  }
  return out;
}
