import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { MAX_INPUT_PIXELS, NotAnImageError } from './inspect.ts';

/**
 * Parts drawings (#38): what an upload may be, and the web copies the worker makes of it. Every drawing becomes WebP,
 * an SVG included: sharp draws it with librsvg, which runs no script and loads nothing from outside, and only the
 * pixels leave the worker, so an SVG's <script> or onload handler never reaches a browser.
 */
export type DiagramFormat = 'svg' | 'png' | 'jpeg';

/** The largest copy's width; smaller drawings keep their own (never enlarged), except an SVG, which has no pixels of its own. */
export const DIAGRAM_MAX_WIDTH = 2400;
/** Smaller copies for phones, when narrower than the largest. */
export const DIAGRAM_VARIANT_WIDTHS = [1200, 800] as const;
/**
 * Pixels of the largest copy at most: a sheet more than twice as tall as wide is drawn narrower than 2400 px, so a
 * worker's memory stays bounded (11.5 megapixels are 35 MB of raw RGB).
 */
export const DIAGRAM_MAX_OUTPUT_PIXELS = DIAGRAM_MAX_WIDTH * DIAGRAM_MAX_WIDTH * 2;

export const extensionOfDiagram = (format: DiagramFormat) => (format === 'jpeg' ? 'jpg' : format);

/** Refused as a drawing: `status` 400 (not one) or 413 (too many pixels: a decompression bomb). */
export class NotADiagramError extends Error {
  override name = 'NotADiagramError';
  constructor(
    message: string,
    readonly status: 400 | 413 = 400,
  ) {
    super(message);
  }
}

/** How far into the file the SVG root is looked for (an XML declaration and comments may come first). */
const HEAD_BYTES = 64 * 1024;
/**
 * Whether a text starts as an SVG: its prolog (white space, an XML declaration, comments, processing instructions, a
 * DOCTYPE), then the root element `<svg` (or `<svg:svg`). Read by a scan, not one regular expression: a pattern that
 * lets a comment or declaration run lazily over the next one backtracks exponentially on a prolog that never reaches
 * `<svg` (64 kB of `<?a?>` kept a worker busy for minutes).
 */
export function startsAsSvg(text: string): boolean {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    const end = (close: string, from: number) => {
      const at = text.indexOf(close, from);
      return at < 0 ? -1 : at + close.length;
    };
    let next = -1;
    if (text.startsWith('<?', i)) next = end('?>', i + 2);
    else if (text.startsWith('<!--', i)) next = end('-->', i + 4);
    else if (/^<!DOCTYPE\s/i.test(text.slice(i, i + 10))) {
      // A DOCTYPE may hold an internal subset in [...] (entities: refused later, by SVG_HAZARDS).
      const bracket = text.indexOf('[', i);
      const close = text.indexOf('>', i);
      next = bracket >= 0 && (close < 0 || bracket < close) ? end('>', Math.max(bracket, text.indexOf(']', bracket))) : close < 0 ? -1 : close + 1;
    } else return /^<(?:svg:)?svg[\s/>]/i.test(text.slice(i, i + 9));
    if (next < 0) return false;
    i = next;
  }
}

/**
 * What an SVG drawing may not hold, anywhere in it: entity declarations (the "billion laughs" expand a few bytes into
 * gigabytes) and pictures inside the picture (`<image>`, `<feImage>`: a PNG of a few MB can declare billions of pixels,
 * which librsvg would decode in full). A parts drawing is lines and text; a scanned one is uploaded as PNG or JPEG.
 */
const SVG_HAZARDS: [RegExp, string][] = [
  [/<!ENTITY/i, 'an SVG that declares entities (<!ENTITY>) is not taken'],
  [/<(?:[\w-]+:)?(?:image|feImage)[\s/>]/i, 'an SVG that holds other pictures (<image>) is not taken: upload the drawing as PNG or JPEG'],
];
/** Longest text a hazard can span, kept from one chunk to the next. */
const HAZARD_OVERLAP = 32;

/** What the file's first bytes say it is (never its name): a PNG, a JPEG, an SVG, or null. */
export async function sniffDiagram(file: string): Promise<DiagramFormat | null> {
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await fh.read(head, 0, HEAD_BYTES, 0);
    const bytes = head.subarray(0, bytesRead);
    if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
    if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
    return startsAsSvg(bytes.toString('utf8').replace(/^\uFEFF/, '')) ? 'svg' : null;
  } finally {
    await fh.close();
  }
}

/** Read the whole SVG (streamed, a chunk at a time) for what SVG_HAZARDS refuses; throws NotADiagramError naming it. */
async function refuseSvgHazards(file: string): Promise<void> {
  let carry = '';
  for await (const chunk of createReadStream(file, { encoding: 'latin1', highWaterMark: 256 * 1024 })) {
    const text = carry + (chunk as string);
    for (const [pattern, reason] of SVG_HAZARDS) if (pattern.test(text)) throw new NotADiagramError(reason);
    carry = text.slice(-HAZARD_OVERLAP);
  }
}

/**
 * Check an uploaded drawing: its content is an SVG, PNG or JPEG that sharp reads as the same format, and its size is
 * within MAX_INPUT_PIXELS (read from the header alone: no pixel is decoded, so a bomb costs nothing to refuse).
 */
export async function inspectDiagram(file: string): Promise<{ format: DiagramFormat; width: number; height: number }> {
  const format = await sniffDiagram(file);
  if (!format) throw new NotADiagramError('not an SVG, PNG or JPEG drawing');
  if (format === 'svg') await refuseSvgHazards(file);
  let meta: Metadata;
  try {
    meta = await sharp(file, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw new NotADiagramError(`not a readable ${format.toUpperCase()} (${(err as Error).message})`);
  }
  if (meta.format !== format) throw new NotADiagramError(`starts like a ${format.toUpperCase()} but reads as ${meta.format ?? 'nothing known'}`);
  if (!meta.width || !meta.height) throw new NotADiagramError('the drawing has no size');
  if (meta.width * meta.height > MAX_INPUT_PIXELS) {
    throw new NotADiagramError(`the drawing is ${meta.width} × ${meta.height} pixels; at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels are taken`, 413);
  }
  return { format, width: meta.width, height: meta.height };
}

export interface DiagramImages {
  /** The largest copy's size. */
  width: number;
  height: number;
  /** The largest first, then each smaller width. */
  images: { width: number; data: Buffer }[];
}

/** The width of the largest copy: at most 2400 px and DIAGRAM_MAX_OUTPUT_PIXELS, never enlarged unless vector. */
export function diagramWidth(source: { width: number; height: number }, vector: boolean): number {
  const byPixels = Math.floor(Math.sqrt((DIAGRAM_MAX_OUTPUT_PIXELS * source.width) / source.height));
  return Math.max(1, Math.min(DIAGRAM_MAX_WIDTH, byPixels, vector ? Infinity : source.width));
}

/**
 * The drawing's web copies: decoded once (an SVG drawn at the largest copy's size, a photo turned upright by its
 * EXIF), laid on white (a drawing is read as paper; a transparent one would vanish on a dark screen), then WebP at
 * each width, with no metadata. A file that does not decode fully throws NotAnImageError.
 */
export async function makeDiagramImages(input: Buffer, format: DiagramFormat): Promise<DiagramImages> {
  let source: Metadata;
  try {
    source = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw new NotAnImageError(`drawing does not read (${(err as Error).message})`);
  }
  if (!source.width || !source.height || source.width * source.height > MAX_INPUT_PIXELS) throw new NotAnImageError('drawing has no size, or too many pixels');
  const vector = format === 'svg';
  const width = diagramWidth({ width: source.width, height: source.height }, vector);
  // An SVG is drawn at the density that gives the wanted width (72 dpi is its own size); libvips takes 1 to 100,000.
  const density = vector ? Math.min(100_000, Math.max(1, (72 * width) / source.width)) : undefined;
  let base: { data: Buffer; info: OutputInfo };
  try {
    // An SVG's input is its drawing at that density: about the output's pixels (give or take rounding).
    const limitInputPixels = vector ? Math.ceil(DIAGRAM_MAX_OUTPUT_PIXELS * 1.05) : MAX_INPUT_PIXELS;
    base = await sharp(input, { limitInputPixels, failOn: 'warning', ...(density ? { density } : {}) })
      .rotate()
      .resize({ width, withoutEnlargement: !vector })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw new NotAnImageError(`drawing does not decode (${(err as Error).message})`);
  }
  const raw = { width: base.info.width, height: base.info.height, channels: base.info.channels as 1 | 2 | 3 | 4 };
  const widths = [raw.width, ...DIAGRAM_VARIANT_WIDTHS.filter((w) => w < raw.width)];
  const images: DiagramImages['images'] = [];
  for (const w of widths) {
    const data = await sharp(base.data, { raw })
      .resize({ width: w, withoutEnlargement: true })
      // Line art: a higher quality than photos keeps thin lines and small callout digits sharp.
      .webp({ quality: 86, effort: 4 })
      .toBuffer();
    images.push({ width: w, data });
  }
  return { width: raw.width, height: raw.height, images };
}
