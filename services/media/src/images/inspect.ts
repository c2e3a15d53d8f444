import sharp from 'sharp';

/** Formats taken as photos. SVG is refused on purpose (scripts, external references). */
export const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'avif', 'heif']);

export class NotAnImageError extends Error {
  override name = 'NotAnImageError';
}

/** Largest picture accepted, in pixels (a 100-megapixel photo); bigger headers are decompression bombs. */
export const MAX_INPUT_PIXELS = 100_000_000;

/**
 * Read the file's header (never its name) and say what image it is. Cheap: no pixel is decoded.
 * A text file renamed .jpg, an SVG, or a header promising too many pixels throws NotAnImageError.
 */
export async function inspectImage(input: string | Buffer): Promise<{ format: string; width: number; height: number }> {
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch (err) {
    throw new NotAnImageError(`not a readable image (${(err as Error).message})`);
  }
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format)) {
    throw new NotAnImageError(`not an accepted image format (${meta.format ?? 'unknown'})`);
  }
  if (!meta.width || !meta.height) throw new NotAnImageError('image has no size');
  if (meta.width * meta.height > MAX_INPUT_PIXELS) {
    throw new NotAnImageError(`image is ${meta.width}x${meta.height}; at most ${MAX_INPUT_PIXELS} pixels are accepted`);
  }
  return { format: meta.format, width: meta.width, height: meta.height };
}

/** File extension to store an original under, from its decoded format. */
export const extensionForFormat = (format: string) => (format === 'jpeg' ? 'jpg' : format === 'heif' ? 'heic' : format);
