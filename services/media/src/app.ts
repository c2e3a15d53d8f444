import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Express, Request } from 'express';
import {
  BulkZipResultSchema,
  DiagramUploadParamsSchema,
  MediaJobParamsSchema,
  ProcessSkuImagesBodySchema,
  UploadImageParamsSchema,
  UploadIndividualSkuFieldsSchema,
  type BulkZipResult,
  type DiagramUploadResponse,
  type ProcessSkuImagesResponse,
  type SkippedItem,
  type UploadImageResponse,
  type UploadIndividualSkuResponse,
} from '@forgeline/contracts/media';
import { PRODUCT_IMAGE_HASH_LENGTH } from '@forgeline/contracts/media-paths';
import { ADMIN_EMAIL_HEADER } from '@forgeline/contracts/auth';
import { DIAGRAM_LIMITS } from '@forgeline/contracts/parts-diagrams';
import { HttpError, notFound, parseInput } from '@forgeline/service-kit/errors';
import { createServiceApp, finishApp, route } from '@forgeline/service-kit/http';
import type { Logger } from '@forgeline/service-kit/logger';
import { receiveMultipart, type MultipartLimits, type ReceivedFile } from '@forgeline/service-kit/multipart';
import type { Catalog, JobQueue, ObjectStore } from './ports.ts';
import type { ProcessSkuResult } from './jobs.ts';
import { keyForMediaPath, storedImageUrl } from './domain/keys.ts';
import { batchStatus } from './domain/batch.ts';
import type { ZipLimits } from './domain/zip-rules.ts';
import { contentId, createIngest, randomId } from './ingest.ts';
import { looksLikeZip, openZip } from './uploads/zip.ts';
import { extensionForFormat, inspectImage, NotAnImageError } from './images/inspect.ts';
import { extensionOfDiagram, inspectDiagram, NotADiagramError } from './images/diagram.ts';

export interface MediaLimits {
  /** One image file in any call. */
  maxFileBytes: number;
  /** Everything in one image-upload request. */
  maxRequestBytes: number;
  /** The ZIP file of a bulk or SKU upload. */
  maxZipBytes: number;
  zip: ZipLimits;
}

export interface MediaDeps {
  store: ObjectStore;
  queue: JobQueue;
  catalog: Catalog;
  logger: Logger;
  /** Upload temp files go here (one folder per request, removed after). */
  tmpDir: string;
  limits: MediaLimits;
  /** SERVICE_TOKEN: admin routes need the gateway's assertion signed with it. */
  serviceToken: string;
  /** How long POST .../upload-image waits for its image to be processed; 0 answers at once. */
  uploadWaitMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MB = 1024 * 1024;
/** Who made the call: the gateway's assertion names them (the guard sets the header from it). */
const actorOf = (req: Request) => String(req.headers[ADMIN_EMAIL_HEADER] ?? '').trim() || 'staff';
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Nothing usable: 422 naming each skipped item. */
const nothingUsable = (message: string, skipped: SkippedItem[]) =>
  new HttpError(
    422,
    skipped.length ? `${message}: ${skipped.slice(0, 5).map((s) => `${s.entry} (${s.reason})`).join('; ')}${skipped.length > 5 ? '; ...' : ''}` : message,
    skipped.map((s) => ({ path: s.entry, message: s.reason })),
  );

/**
 * The media API (spec section 7, admin uploads; all behind the gateway's admin token check) and the
 * image serving route. The worker side lives in worker/process-sku.ts and runs wherever main.ts
 * starts it (MEDIA_ROLE).
 */
export function createApp(deps: MediaDeps): Express {
  const { store, queue, catalog, logger, limits } = deps;
  const ingest = createIngest(deps);
  const app = createServiceApp({
    name: 'media',
    logger,
    adminGuard: { serviceToken: deps.serviceToken },
    ready: async () => (await store.ready()) && (await queue.ready()),
  });

  const imageLimits = (maxFiles: number): MultipartLimits => ({
    maxFileBytes: limits.maxFileBytes,
    maxRequestBytes: limits.maxRequestBytes,
    maxFiles,
  });
  const zipLimits: MultipartLimits = { maxFileBytes: limits.maxZipBytes, maxRequestBytes: limits.maxZipBytes + 1024 * 1024, maxFiles: 1 };
  const receive = (req: Request, fileFields: string[], l: MultipartLimits) =>
    receiveMultipart(req, { tmpRoot: deps.tmpDir, fileFields, limits: l, hashLength: PRODUCT_IMAGE_HASH_LENGTH });

  /** Check a received file decodes as an image; returns its stored extension or the reason it is not one. */
  async function imageExt(file: { path: string }): Promise<{ ext: string } | { reason: string }> {
    try {
      return { ext: extensionForFormat((await inspectImage(file.path)).format) };
    } catch (err) {
      if (err instanceof NotAnImageError) return { reason: err.message };
      throw err;
    }
  }

  // POST /api/admin/products/{id}/upload-image: one photo, processed before the answer when it can be.
  app.post(
    '/api/admin/products/:id/upload-image',
    route(async (req, res) => {
      const { id } = parseInput(UploadImageParamsSchema, req.params, 'params');
      const upload = await receive(req, ['image'], imageLimits(1));
      try {
        const file = upload.files[0];
        if (!file) throw new HttpError(400, 'Send the photo in the multipart field "image"');
        const product = await catalog.productById(id);
        if (!product) throw notFound('Product');
        const kind = await imageExt(file);
        if ('reason' in kind) throw new HttpError(400, `"${file.filename}" is not an image: ${kind.reason}`);
        const existing = await ingest.storedHashes(product.sku);
        await ingest.storeOriginal(product.sku, { ...file, name: file.filename, ext: kind.ext }, { at: Date.now(), index: 0 }, existing);
        const batchId = contentId('img', product.id, file.hash);
        const batch = await ingest.queueBatch({ id: batchId, kind: 'product-image', skipped: [] }, [
          { sku: product.sku, productId: product.id, images: 1 },
        ]);
        const jobId = batch.jobs[0]!.jobId;
        const imageUrl = storedImageUrl(file.hash);
        const deadline = Date.now() + deps.uploadWaitMs;
        for (;;) {
          const info = await queue.get(jobId);
          if (info?.state === 'failed') throw new HttpError(502, `Processing of "${file.filename}" failed: ${info.failedReason ?? 'unknown reason'}`);
          if (info?.state === 'completed') {
            const result = info.result as ProcessSkuResult | undefined;
            if (result && !result.images.includes(imageUrl)) {
              throw new HttpError(422, `"${file.filename}" could not be processed: ${result.failed[0]?.reason ?? 'it did not decode'}`);
            }
            const body: UploadImageResponse = { success: true, message: 'Image uploaded and processed', jobId: batchId, imageUrl, processed: true };
            res.json(body);
            return;
          }
          if (Date.now() >= deadline) break;
          await sleep(100);
        }
        const body: UploadImageResponse = {
          success: true,
          message: 'Image uploaded; processing continues in the background',
          jobId: batchId,
          imageUrl,
          processed: false,
        };
        res.status(202).json(body);
      } finally {
        await upload.cleanup();
      }
    }),
  );

  // POST /api/admin/upload-individual-sku: photos (or ZIPs of photos) for one SKU.
  app.post(
    '/api/admin/upload-individual-sku',
    route(async (req, res) => {
      const upload = await receive(req, ['images'], {
        maxFileBytes: Math.max(limits.maxFileBytes, limits.maxZipBytes),
        maxRequestBytes: Math.max(limits.maxRequestBytes, limits.maxZipBytes),
        maxFiles: 500,
      });
      try {
        const { sku } = parseInput(UploadIndividualSkuFieldsSchema, upload.fields, 'body');
        if (upload.files.length === 0) throw new HttpError(400, 'Send at least one photo or ZIP in the multipart field "images"');
        const product = await catalog.productBySku(sku);
        if (!product) throw new HttpError(404, `No product has SKU "${sku}"`);
        const skipped: SkippedItem[] = upload.ignored.map((entry) => ({ entry, reason: 'unexpected field' }));
        const existing = await ingest.storedHashes(sku);
        const at = Date.now();
        let index = 0;
        let accepted = 0;
        const hashes: string[] = [];
        const take = async (f: { path: string; hash: string; name: string }, size: number) => {
          if (size > limits.maxFileBytes) {
            skipped.push({ entry: f.name, reason: `larger than ${Math.round(limits.maxFileBytes / 1048576)} MB` });
            return;
          }
          const kind = await imageExt(f);
          if ('reason' in kind) {
            skipped.push({ entry: f.name, reason: kind.reason });
            return;
          }
          await ingest.storeOriginal(sku, { ...f, ext: kind.ext }, { at, index: index++ }, existing);
          hashes.push(f.hash);
          accepted += 1;
        };
        for (const file of upload.files) {
          if (await looksLikeZip(file.path)) {
            await eachZipImage(file, 'single', skipped, async (entry, extracted) => take(extracted, extracted.size));
          } else {
            await take({ path: file.path, hash: file.hash, name: file.filename }, file.size);
          }
        }
        if (accepted === 0) throw nothingUsable(`No photos found for SKU "${sku}"`, skipped);
        const batch = await ingest.queueBatch({ id: contentId('sku', sku, ...hashes.sort()), kind: 'sku-upload', skipped }, [
          { sku, productId: product.id, images: existing.size },
        ]);
        const body: UploadIndividualSkuResponse = {
          success: true,
          message: `${plural(accepted, 'image')} uploaded for SKU ${sku}; processing started`,
          jobId: batch.id,
          sku,
          filesAccepted: accepted,
          skipped,
        };
        res.json(body);
      } finally {
        await upload.cleanup();
      }
    }),
  );

  // POST /api/admin/process-sku-images: (re)process the photos stored for SKUs.
  app.post(
    '/api/admin/process-sku-images',
    route(async (req, res) => {
      const { skus, forceReprocess } = parseInput(ProcessSkuImagesBodySchema, req.body, 'body');
      const unique = [...new Set(skus.map((s) => s.sku))];
      const products = await ingest.resolveSkus(unique);
      const skipped: SkippedItem[] = [];
      const items: { sku: string; productId: string; images: number }[] = [];
      for (const sku of unique) {
        const product = products.get(sku);
        if (!product) {
          skipped.push({ entry: sku, reason: 'unknown SKU' });
          continue;
        }
        const stored = await ingest.storedHashes(sku);
        if (stored.size === 0) {
          skipped.push({ entry: sku, reason: 'no photos uploaded for this SKU' });
          continue;
        }
        items.push({ sku, productId: product.id, images: stored.size });
      }
      if (items.length === 0) throw nothingUsable('Nothing to process', skipped);
      const batch = await ingest.queueBatch({ id: randomId('proc'), kind: 'sku-process', skipped }, items, forceReprocess);
      const body: ProcessSkuImagesResponse = {
        success: true,
        message: `Processing ${plural(items.length, 'SKU')}${forceReprocess ? ' (forced)' : ''}`,
        jobId: batch.id,
        skus: items.map((i) => i.sku),
        skipped,
      };
      res.json(body);
    }),
  );

  /** Open an uploaded ZIP, and hand each image entry that decodes (extracted to a temp file) to `onImage`. */
  async function eachZipImage(
    file: ReceivedFile,
    mode: 'bulk' | 'single',
    skipped: SkippedItem[],
    onImage: (entry: { name: string; sku: string | null }, extracted: { path: string; hash: string; name: string; size: number }) => Promise<void>,
    accept: (sku: string | null) => boolean = () => true,
  ): Promise<void> {
    const zip = await openZip(file.path, mode, limits.zip);
    try {
      skipped.push(...zip.skipped);
      let n = 0;
      for (const item of zip.images) {
        if (!accept(item.sku)) continue;
        const target = `${file.path}.entry-${n++}`;
        try {
          const { hash, size } = await zip.extract(item, target);
          await onImage(item, { path: target, hash, name: item.name, size });
        } catch (err) {
          if (err instanceof HttpError) throw err;
          skipped.push({ entry: item.name, reason: `could not be extracted (${(err as Error).message})` });
        } finally {
          await rm(target, { force: true });
        }
      }
    } finally {
      zip.close();
    }
  }

  // POST /api/admin/upload-bulk-zip: one folder per SKU.
  app.post(
    '/api/admin/upload-bulk-zip',
    route(async (req, res) => {
      const upload = await receive(req, ['zip'], zipLimits);
      try {
        const file = upload.files[0];
        if (!file) throw new HttpError(400, 'Send the ZIP in the multipart field "zip"');
        if (!(await looksLikeZip(file.path))) throw new HttpError(400, `"${file.filename}" is not a ZIP file`);
        const skipped: SkippedItem[] = [];
        // First the directory (nothing inflated), to learn the SKUs and look them up.
        const listing = await openZip(file.path, 'bulk', limits.zip);
        const folders = [...new Set(listing.images.map((i) => i.sku!))];
        listing.close();
        const products = await ingest.resolveSkus(folders);
        const known = new Set(folders.filter((s) => products.get(s)));
        const perSku = new Map<string, { existing: Set<string>; added: number; images: number }>();
        const at = Date.now();
        let index = 0;
        let extracted = 0;
        await eachZipImage(
          file,
          'bulk',
          skipped,
          async (entry, x) => {
            const sku = entry.sku!;
            const kind = await imageExt(x);
            if ('reason' in kind) {
              skipped.push({ entry: entry.name, reason: kind.reason });
              return;
            }
            let state = perSku.get(sku);
            if (!state) perSku.set(sku, (state = { existing: await ingest.storedHashes(sku), added: 0, images: 0 }));
            await ingest.storeOriginal(sku, { ...x, ext: kind.ext }, { at, index: index++ }, state.existing);
            state.images += 1;
            extracted += 1;
          },
          (sku) => known.has(sku!),
        );
        for (const img of listing.images) {
          if (!known.has(img.sku!)) skipped.push({ entry: img.name, reason: `unknown SKU "${img.sku}"` });
        }
        const skus = [...perSku.keys()];
        if (skus.length === 0) throw nothingUsable('No photos of known SKUs in the ZIP', skipped);
        const batch = await ingest.queueBatch(
          { id: contentId('zip', file.hash), kind: 'bulk-zip', skipped },
          skus.map((sku) => ({ sku, productId: products.get(sku)!.id, images: perSku.get(sku)!.existing.size })),
        );
        const body: BulkZipResult = BulkZipResultSchema.parse({
          success: true,
          message: `Extracted ${plural(extracted, 'image')} for ${plural(skus.length, 'SKU')}; processing started${skipped.length ? ` (${skipped.length} skipped)` : ''}`,
          skusProcessed: skus.length,
          filesExtracted: extracted,
          skus,
          jobId: batch.id,
          skipped,
        });
        logger.info({ batchId: batch.id, skus: skus.length, extracted, skipped: skipped.length }, 'bulk zip accepted');
        res.json(body);
      } finally {
        await upload.cleanup();
      }
    }),
  );

  // GET /api/admin/media-jobs/{id}: progress of everything one upload call queued.
  app.get(
    '/api/admin/media-jobs/:id',
    route(async (req, res) => {
      const { id } = parseInput(MediaJobParamsSchema, req.params, 'params');
      const batch = await ingest.readBatch(id);
      if (!batch) throw notFound('Media job');
      const infos = await queue.getMany(batch.jobs.map((j) => j.jobId));
      res.json(batchStatus(batch, infos));
    }),
  );

  // POST /api/admin/diagrams/{assemblyId}: a parts drawing (#38). 202 once stored and queued; the workers make its web
  // copies and give it to the assembly (follow the job at /api/admin/media-jobs/{jobId}).
  app.post(
    '/api/admin/diagrams/:assemblyId',
    route(async (req, res) => {
      const { assemblyId } = parseInput(DiagramUploadParamsSchema, req.params, 'params');
      const maxBytes = DIAGRAM_LIMITS.imageMb * MB;
      let upload;
      try {
        // A declared size over the limit is refused before a byte is read; a body that runs over is cut off at the limit.
        upload = await receive(req, ['file'], { maxFileBytes: maxBytes, maxRequestBytes: maxBytes + MB, maxFiles: 1 });
      } catch (err) {
        if (err instanceof HttpError && err.status === 413) {
          throw new HttpError(413, `A drawing may be at most ${DIAGRAM_LIMITS.imageMb} MB (${err.message})`, [{ path: 'file', message: `is larger than ${DIAGRAM_LIMITS.imageMb} MB` }]);
        }
        throw err;
      }
      try {
        const file = upload.files[0];
        if (!file) throw new HttpError(400, 'Send the drawing in the multipart field "file" (an SVG, PNG or JPEG)', [{ path: 'file', message: 'is missing' }]);
        let drawing;
        try {
          drawing = await inspectDiagram(file.path);
        } catch (err) {
          if (!(err instanceof NotADiagramError)) throw err;
          throw new HttpError(err.status, `"${file.filename}" is not taken as a drawing: ${err.message}`, [{ path: 'file', message: err.message }]);
        }
        const assembly = await catalog.assemblyById(assemblyId);
        if (!assembly) throw notFound(`Assembly ${assemblyId}`);
        const batch = await ingest.queueDiagram(assemblyId, { path: file.path, hash: file.hash, format: drawing.format, ext: extensionOfDiagram(drawing.format) }, actorOf(req));
        const body: DiagramUploadResponse = {
          success: true,
          message: `Drawing "${file.filename}" (${drawing.format.toUpperCase()}, ${drawing.width} × ${drawing.height}) uploaded for "${assembly.name}"; processing started`,
          jobId: batch.id,
          assemblyId,
        };
        res.status(202).json(body);
      } finally {
        await upload.cleanup();
      }
    }),
  );

  // GET /media/products/<hash>-<width>.<webp|jpg> and /media/diagrams/<hash>-<width>.webp: content-addressed, so
  // cached for a year.
  const serveStored = (folder: 'products' | 'diagrams') =>
    route(async (req, res) => {
      const key = keyForMediaPath(`${folder}/${String(req.params.file)}`);
      if (!key) throw notFound('Image');
      const obj = await store.getStream(key);
      if (!obj) throw notFound('Image');
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.setHeader('ETag', obj.etag);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      const given = req.headers['if-none-match'];
      if (given && given.split(',').some((t) => t.trim().replace(/^W\//, '') === obj.etag)) {
        obj.body.destroy();
        res.status(304).end();
        return;
      }
      res.setHeader('Content-Type', obj.contentType);
      res.setHeader('Content-Length', String(obj.size));
      if (req.method === 'HEAD') {
        obj.body.destroy();
        res.end();
        return;
      }
      try {
        await pipeline(obj.body, res);
      } catch (err) {
        // The browser went away mid-download (navigation, cancelled lazy image): nothing to answer.
        if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || res.destroyed) return;
        throw err;
      }
    });
  app.get('/media/products/:file', serveStored('products'));
  app.get('/media/diagrams/:file', serveStored('diagrams'));

  return finishApp(app, logger);
}
