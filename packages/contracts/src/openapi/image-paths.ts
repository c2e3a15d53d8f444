import { z } from 'zod';
import {
  BulkZipResultSchema,
  DiagramUploadParamsSchema,
  DiagramUploadResponseSchema,
  MediaJobParamsSchema,
  MediaJobStatusSchema,
  ProcessSkuImagesBodySchema,
  ProcessSkuImagesResponseSchema,
  UploadImageParamsSchema,
  UploadImageResponseSchema,
  UploadIndividualSkuFieldsSchema,
  UploadIndividualSkuResponseSchema,
} from '../media.ts';
import { PRODUCT_IMAGE_FORMATS, PRODUCT_IMAGE_HASH_LENGTH, PRODUCT_IMAGE_WIDTHS } from '../media-paths.ts';
import { DIAGRAM_LIMITS } from '../parts-diagrams.ts';
import { GeneratedImageParamsSchema } from '../products.ts';
import { ADMIN_ERRORS, binary, body, errors, formFields, json, multipart, open, parameters, staff, type Paths } from './shared.ts';

const tags = ['Images'];

/** A stored variant's file name, by the naming rule of media-paths.ts: `<hash>-<width>.<format>`. */
const VariantFileSchema = z.object({
  file: z
    .string()
    .regex(new RegExp(`^[0-9a-f]{${PRODUCT_IMAGE_HASH_LENGTH}}-(${PRODUCT_IMAGE_WIDTHS.join('|')})\\.(${PRODUCT_IMAGE_FORMATS.join('|')})$`))
    .describe(`<hash>-<width>.<format>: the first ${PRODUCT_IMAGE_HASH_LENGTH} hex digits of the photo's SHA-256, a width of ${PRODUCT_IMAGE_WIDTHS.join(', ')} px, ${PRODUCT_IMAGE_FORMATS.join(' or ')}`),
});

/** A parts drawing's web copy (#38): `<hash>-<width>.webp`, the hash that of the uploaded file. */
const DiagramFileSchema = z.object({
  file: z
    .string()
    .regex(new RegExp(`^[0-9a-f]{${PRODUCT_IMAGE_HASH_LENGTH}}-\\d{2,4}\\.webp$`))
    .describe(`<hash>-<width>.webp: the first ${PRODUCT_IMAGE_HASH_LENGTH} hex digits of the uploaded drawing's SHA-256, and the copy's width in px`),
});

const image = (types: string[], description: string) => ({
  description,
  content: Object.fromEntries(types.map((t) => [t, { schema: binary() }])),
});

const skuFields = formFields(UploadIndividualSkuFieldsSchema);

/**
 * Product images: the pictures the storefront shows (served by media, generated ones by the catalog), and the staff's
 * uploads (media service; signed-in staff only: an API key is refused with 403).
 */
export const imagePaths: Paths = {
  '/media/products/{file}': {
    get: {
      tags,
      operationId: 'getProductImage',
      security: open,
      summary: "A processed product photo (one width and format); the name is its content's hash, so it is cached for a year",
      parameters: [
        ...parameters(VariantFileSchema, 'path'),
        { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'The ETag of a copy the client holds' },
      ],
      responses: {
        200: image(['image/webp', 'image/jpeg'], 'The image'),
        304: { description: 'The copy the client holds is current' },
        ...errors([404, 'No such image (or not a variant name)']),
      },
    },
  },
  '/media/generated/{category}/{brand}/{part}.svg': {
    get: {
      tags,
      operationId: 'getGeneratedPartImage',
      security: open,
      summary: 'The drawn picture of a part without photos (category, brand and part slugs); the same slugs give the same picture',
      parameters: parameters(GeneratedImageParamsSchema, 'path'),
      responses: { 200: image(['image/svg+xml'], 'The picture'), ...errors(400) },
    },
  },
  '/api/admin/products/{id}/upload-image': {
    post: {
      tags,
      operationId: 'uploadProductImage',
      summary: 'Upload one photo of a product (multipart field `image`); answered once it is processed, or 202 while it still is',
      security: staff,
      parameters: parameters(UploadImageParamsSchema, 'path', { id: "The product's id" }),
      requestBody: multipart({ image: binary('The photo (JPEG, PNG, WebP, …)') }, ['image']),
      responses: {
        200: json(UploadImageResponseSchema, 'Stored and processed: imageUrl is the variant the product shows'),
        202: json(UploadImageResponseSchema, 'Stored; processing goes on (follow it at /api/admin/media-jobs/{jobId})'),
        ...errors([400, 'Invalid id, no file in `image`, or not an image'], ...ADMIN_ERRORS, [404, 'No such product'], 413, [422, 'The image could not be processed'], 502),
      },
    },
  },
  '/api/admin/upload-individual-sku': {
    post: {
      tags,
      operationId: 'uploadSkuImages',
      summary: 'Upload photos (or ZIPs of photos) of one SKU (multipart fields `sku`, `productName`, files `images`) and process them',
      security: staff,
      requestBody: multipart(
        { ...skuFields.properties, images: { type: 'array', items: binary(), description: 'Photos, or ZIP files of photos' } },
        [...skuFields.required, 'images'],
      ),
      responses: {
        200: json(UploadIndividualSkuResponseSchema, 'Accepted: processing started (follow it at /api/admin/media-jobs/{jobId})'),
        ...errors(400, ...ADMIN_ERRORS, [404, 'No product has that SKU'], 413, 422),
      },
    },
  },
  '/api/admin/process-sku-images': {
    post: {
      tags,
      operationId: 'processSkuImages',
      summary: 'Process (again) the photos stored for SKUs',
      security: staff,
      requestBody: body(ProcessSkuImagesBodySchema),
      responses: {
        200: json(ProcessSkuImagesResponseSchema, 'Processing started; SKUs not known or without photos are in skipped'),
        ...errors(400, ...ADMIN_ERRORS, 413, [422, 'Nothing to process: every SKU is unknown or has no photos']),
      },
    },
  },
  '/api/admin/upload-bulk-zip': {
    post: {
      tags,
      operationId: 'uploadBulkZip',
      summary: 'Upload a ZIP of photos, one folder per SKU (multipart field `zip`), and process them',
      security: staff,
      requestBody: multipart({ zip: binary('The ZIP: <sku>/<photo> entries') }, ['zip']),
      responses: {
        200: json(BulkZipResultSchema, 'Extracted; processing started (follow it at /api/admin/media-jobs/{jobId})'),
        ...errors([400, 'No file in `zip`, not a ZIP, or an empty one'], ...ADMIN_ERRORS, [413, 'Too large, or too many entries: the message gives the limit'], [422, 'No photos of known SKUs in the ZIP']),
      },
    },
  },
  '/media/diagrams/{file}': {
    get: {
      tags,
      operationId: 'getDiagramImage',
      security: open,
      summary: "A parts drawing's web copy (one width); the name is its upload's hash, so it is cached for a year",
      parameters: [
        ...parameters(DiagramFileSchema, 'path'),
        { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'The ETag of a copy the client holds' },
      ],
      responses: {
        200: image(['image/webp'], 'The drawing'),
        304: { description: 'The copy the client holds is current' },
        ...errors([404, 'No such drawing (or not a copy name)']),
      },
    },
  },
  '/api/admin/diagrams/{assemblyId}': {
    post: {
      tags,
      operationId: 'uploadDiagram',
      summary: `Upload an assembly's parts drawing (multipart field \`file\`: one SVG, PNG or JPEG, up to ${DIAGRAM_LIMITS.imageMb} MB); the workers make its WebP copies (an SVG is drawn as pixels: nothing of its code is kept) and give it to the assembly as a new version`,
      security: staff,
      parameters: parameters(DiagramUploadParamsSchema, 'path', { assemblyId: "The assembly's id" }),
      requestBody: multipart({ file: binary('The drawing (SVG, PNG or JPEG; the content decides, not the name)') }, ['file']),
      responses: {
        202: json(DiagramUploadResponseSchema, 'Stored; processing started (follow it at /api/admin/media-jobs/{jobId})'),
        ...errors(
          [400, 'Invalid id, no file in `file`, or not an SVG, PNG or JPEG (an SVG declaring entities or holding other pictures included)'],
          ...ADMIN_ERRORS,
          [404, 'No such assembly'],
          [413, `Larger than ${DIAGRAM_LIMITS.imageMb} MB, or more than 100 megapixels`],
        ),
      },
    },
  },
  '/api/admin/media-jobs/{id}': {
    get: {
      tags,
      operationId: 'getMediaJob',
      summary: 'The progress of everything one upload call queued',
      security: staff,
      parameters: parameters(MediaJobParamsSchema, 'path', { id: 'The jobId an upload call answered with' }),
      responses: { 200: json(MediaJobStatusSchema, 'The job'), ...errors(400, ...ADMIN_ERRORS, 404) },
    },
  },
};
