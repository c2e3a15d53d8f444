import {
  AdminProductFilterSchema,
  CATALOG_IMPORT_MAX_MB,
  CatalogImportCreatedSchema,
  CatalogImportJobSchema,
  CatalogImportParamsSchema,
  CatalogImportQuerySchema,
  ProductCreateSchema,
  ProductPatchSchema,
} from '../catalog-admin.ts';
import { AdminCodeSearchQuerySchema, AdminCodeSearchResponseSchema, AdminProductListSchema, AdminProductsQuerySchema, ProductIdParamsSchema, ProductSchema } from '../products.ts';
import { binary, body, csv, errors, ifMatch, json, KEY_ERRORS, multipart, parameters, staffOrKey, type Paths } from './shared.ts';

const tags = ['Catalogue'];
const productId = parameters(ProductIdParamsSchema, 'path', { id: "The part's id (a UUID)" });
const importId = parameters(CatalogImportParamsSchema, 'path', { id: "The import's id (a UUID)" });

/** The seller's catalogue (catalog service): read, create and edit parts, import and export the whole of it. */
export const cataloguePaths: Paths = {
  '/api/admin/products': {
    get: {
      tags,
      operationId: 'listAdminProducts',
      summary: 'List parts by name, narrowed by search, brand, category and stock',
      security: staffOrKey('catalog:read'),
      parameters: [...parameters(AdminProductsQuerySchema, 'query'), ...parameters(AdminProductFilterSchema, 'query')],
      responses: { 200: json(AdminProductListSchema, 'Rows'), ...errors(400, ...KEY_ERRORS) },
    },
    post: {
      tags,
      operationId: 'createProduct',
      summary: 'Create a part',
      security: staffOrKey('catalog:write'),
      requestBody: body(ProductCreateSchema),
      responses: { 201: json(ProductSchema, 'Created (with its ETag)'), ...errors(400, ...KEY_ERRORS, [409, 'A part with that SKU exists already'], 413) },
    },
  },
  '/api/admin/products/{id}': {
    get: {
      tags,
      operationId: 'getAdminProduct',
      summary: 'Read a part, with its ETag',
      security: staffOrKey('catalog:read'),
      parameters: productId,
      responses: { 200: json(ProductSchema, 'The part (ETag header: its version)'), ...errors(400, ...KEY_ERRORS, 404, 410) },
    },
    patch: {
      tags,
      operationId: 'updateProduct',
      summary: 'Change fields of a part (If-Match: the ETag as read)',
      security: staffOrKey('catalog:write'),
      parameters: [...productId, ifMatch(true, 'The ETag of the part as read (or `*` to overwrite whatever is there)')],
      requestBody: body(ProductPatchSchema),
      responses: { 200: json(ProductSchema, 'The part as it is now (with its new ETag)'), ...errors(400, ...KEY_ERRORS, 404, 412, 413, 428) },
    },
  },
  '/api/admin/search-products-by-code': {
    get: {
      tags,
      operationId: 'searchProductsByCode',
      summary: 'Parts whose SKU or part number starts with the code (ignoring case, spaces and punctuation), at most 50',
      security: staffOrKey('catalog:read'),
      parameters: parameters(AdminCodeSearchQuerySchema, 'query', { q: 'A part number or SKU, or its start' }),
      responses: { 200: json(AdminCodeSearchResponseSchema, 'The parts found'), ...errors(400, ...KEY_ERRORS) },
    },
  },
  '/api/admin/catalog/imports': {
    post: {
      tags,
      operationId: 'startCatalogImport',
      summary: 'Import a catalogue file (CSV or XLSX, one row per part keyed by sku) as a background job',
      security: staffOrKey('catalog:write'),
      parameters: parameters(CatalogImportQuerySchema, 'query'),
      requestBody: multipart({ file: binary(`The catalogue as CSV or XLSX (at most ${CATALOG_IMPORT_MAX_MB} MB)`) }, ['file']),
      responses: {
        202: json(CatalogImportCreatedSchema, 'Accepted: follow the job at /api/admin/catalog/imports/{id}'),
        ...errors([400, 'Invalid query, no file in `file`, or not a catalogue file (the message says why)'], ...KEY_ERRORS, 413),
      },
    },
  },
  '/api/admin/catalog/imports/{id}': {
    get: {
      tags,
      operationId: 'getCatalogImport',
      summary: "An import's state, counts and first 1,000 errors",
      security: staffOrKey('catalog:read'),
      parameters: importId,
      responses: { 200: json(CatalogImportJobSchema, 'The job'), ...errors(400, ...KEY_ERRORS, 404) },
    },
  },
  '/api/admin/catalog/imports/{id}/errors.csv': {
    get: {
      tags,
      operationId: 'getCatalogImportErrors',
      summary: 'Every error of an import (row, column, message)',
      security: staffOrKey('catalog:read'),
      parameters: importId,
      responses: { 200: csv('row,column,message'), ...errors(400, ...KEY_ERRORS, 404) },
    },
  },
  '/api/admin/catalog/export.csv': {
    get: {
      tags,
      operationId: 'exportCatalogue',
      summary: 'The whole catalogue in the import columns (importing it back changes nothing)',
      security: staffOrKey('catalog:read'),
      responses: {
        200: csv('sku,name,part_number,brand,category,description,in_stock,availability,price,weight,dimensions,tags,specifications,images,replaces,cross_references,fits'),
        ...errors(...KEY_ERRORS),
      },
    },
  },
};
