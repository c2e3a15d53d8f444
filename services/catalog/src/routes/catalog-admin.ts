import { createHash, randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Express, Request, Response } from 'express';
import { stringify } from 'csv-stringify';
import {
  CATALOG_IMPORT_MAX_MB,
  CatalogImportParamsSchema,
  CatalogImportQuerySchema,
  ProductCreateSchema,
  ProductPatchSchema,
  type CatalogAuditEntry,
  type CatalogImportJob,
} from '@forgeline/contracts/catalog-admin';
import { ProductIdParamsSchema, type Product } from '@forgeline/contracts/products';
import { HttpError, notFound, parseInput } from '@forgeline/service-kit/errors';
import { route } from '@forgeline/service-kit/http';
import { receiveMultipart } from '@forgeline/service-kit/multipart';
import { applyRow, CATALOG_COLUMNS, CatalogFileError, exportRow, readHeader } from '../domain/catalog-import.ts';
import type { ImportRunner } from '../jobs/catalog-import.ts';
import { readTabularRows, TabularFileError } from '../adapters/spreadsheet/tabular-file.ts';
import { CATALOG_IMPORT_XLSX_LIMITS } from '../adapters/spreadsheet/xlsx-limits.ts';
import type { ProductRepository, SearchIndex } from '../ports.ts';

export const CATALOG_IMPORT_MAX_BYTES = CATALOG_IMPORT_MAX_MB * 1024 * 1024;

const adminOf = (req: Request) => String(req.headers['x-admin-email'] ?? '').trim() || 'unknown';
const today = () => new Date().toISOString().slice(0, 10);

/** Streams `rows` as CSV (with a BOM, so spreadsheet programs read UTF-8) as a download named `fileName`. */
export async function sendCsv(res: Response, fileName: string, rows: AsyncIterable<string[]>) {
  res.status(200).set({
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${fileName}"`,
    'Cache-Control': 'no-store',
  });
  res.write('\uFEFF');
  await pipeline(Readable.from(rows), stringify(), res);
}

/**
 * The seller's catalogue (admin; the gateway checks the session): POST an import (a background job: 202 with its
 * id), follow it, download its errors, export the catalogue in the same columns.
 */
export function registerCatalogAdminRoutes(
  app: Express,
  deps: { repo: ProductRepository; search: SearchIndex; imports: ImportRunner; tmpDir: string; onChange: () => void },
) {
  const { repo, imports } = deps;

  /** A part's version as an ETag: any change to any field changes it. */
  const etagOf = (p: Product) => `"${createHash('sha256').update(JSON.stringify(p)).digest('base64url').slice(0, 22)}"`;

  async function write(req: Request, product: Product, action: CatalogAuditEntry['action'], fields: string[]) {
    const entry: CatalogAuditEntry = { at: new Date().toISOString(), actor: adminOf(req), source: 'edit', productId: product.id, sku: product.sku, action, fields };
    await deps.repo.applyChanges([product], [entry]);
    deps.onChange();
    await deps.search.upsert([product]);
    deps.onChange(); // again: a read between the two writes may have kept the old search answer
    req.log.info({ productId: product.id, sku: product.sku, action, fields, by: entry.actor }, 'product edited');
  }

  app.get(
    '/api/admin/products/:id',
    route(async (req, res) => {
      const { id } = parseInput(ProductIdParamsSchema, req.params, 'params');
      const product = await repo.getById(id);
      if (!product) {
        if (await repo.getDeactivated(id)) throw new HttpError(410, `Product ${id} was taken off the storefront by an import; import its row again to bring it back`);
        throw notFound(`Product ${id}`);
      }
      res.setHeader('cache-control', 'no-store');
      res.setHeader('etag', etagOf(product));
      res.json(product);
    }),
  );

  app.patch(
    '/api/admin/products/:id',
    route(async (req, res) => {
      const { id } = parseInput(ProductIdParamsSchema, req.params, 'params');
      const ifMatch = req.headers['if-match'];
      if (!ifMatch) throw new HttpError(428, 'Send If-Match with the ETag of the product as you read it, so that no one else\'s change is overwritten');
      const patch = parseInput(ProductPatchSchema, req.body, 'body');
      const product = await repo.getById(id);
      if (!product) throw notFound(`Product ${id}`);
      if (ifMatch !== '*' && !ifMatch.split(',').map((t) => t.trim()).includes(etagOf(product))) {
        res.setHeader('etag', etagOf(product));
        throw new HttpError(412, 'Someone else changed this product since you opened it; reload it and make your change again');
      }
      const outcome = applyRow({ row: 0, sku: product.sku, fields: patch }, product, new Date().toISOString());
      if (outcome.kind === 'updated') await write(req, outcome.product, 'updated', outcome.changed);
      const now = outcome.kind === 'updated' ? outcome.product : product;
      res.setHeader('etag', etagOf(now));
      res.json(now);
    }),
  );

  app.post(
    '/api/admin/products',
    route(async (req, res) => {
      const body = parseInput(ProductCreateSchema, req.body, 'body');
      const { sku, ...fields } = body;
      const existing = (await repo.getBySkus([sku])).get(sku);
      if (existing) {
        throw new HttpError(
          409,
          existing.active
            ? `A product with SKU "${sku}" exists already (id ${existing.product.id}); change it with PATCH /api/admin/products/${existing.product.id}`
            : `A product with SKU "${sku}" was taken off the storefront; import its row again to bring it back`,
          [{ path: 'sku', message: 'is taken' }],
        );
      }
      const outcome = applyRow({ row: 0, sku, fields }, null, new Date().toISOString());
      if (outcome.kind !== 'created') throw new HttpError(400, 'Invalid body: name and category are required for a new product');
      await write(req, outcome.product, 'created', []);
      res.status(201).location(`/api/admin/products/${outcome.product.id}`).setHeader('etag', etagOf(outcome.product));
      res.json(outcome.product);
    }),
  );

  app.post(
    '/api/admin/catalog/imports',
    route(async (req, res) => {
      const q = parseInput(CatalogImportQuerySchema, req.query, 'query');
      const received = await receiveMultipart(req, {
        tmpRoot: deps.tmpDir,
        fileFields: ['file'],
        limits: { maxFileBytes: CATALOG_IMPORT_MAX_BYTES, maxRequestBytes: CATALOG_IMPORT_MAX_BYTES + 1024 * 1024, maxFiles: 1 },
      });
      const file = received.files[0];
      if (!file) {
        await received.cleanup();
        throw new HttpError(400, 'Send the catalogue as the multipart field "file" (a CSV or XLSX file)', [{ path: 'file', message: 'is missing' }]);
      }
      // The file's kind and header are checked now, so a wrong file is a 400 at once rather than a failed job (a
      // workbook past the limits included: its ZIP directory is checked before its first row is read).
      try {
        for await (const { cells } of readTabularRows(file.path, { maxRows: 50, limits: CATALOG_IMPORT_XLSX_LIMITS })) {
          if (cells.some((c) => c.trim())) {
            readHeader(cells);
            break;
          }
        }
      } catch (err) {
        await received.cleanup();
        if (err instanceof TabularFileError || err instanceof CatalogFileError) {
          throw new HttpError(400, `Invalid catalogue file "${file.filename}": ${err.message}`, [{ path: 'file', message: err.message }]);
        }
        throw err;
      }
      const job: CatalogImportJob = {
        id: randomUUID(),
        state: 'queued',
        dryRun: q.dryRun,
        missing: q.missing,
        fileName: file.filename.slice(0, 200),
        total: 0,
        processed: 0,
        created: 0,
        updated: 0,
        unchanged: 0,
        deactivated: 0,
        errorCount: 0,
        errors: [],
        unknownColumns: [],
        message: null,
        createdBy: adminOf(req),
        createdAt: new Date().toISOString(),
        startedAt: null,
        finishedAt: null,
      };
      // The runner owns the file from here (it removes it when the import ends); the request's folder goes now.
      const kept = path.join(deps.tmpDir, `import-${job.id}`);
      await rename(file.path, kept);
      await received.cleanup();
      try {
        await imports.start({ job, path: kept });
      } catch (err) {
        await rm(kept, { force: true });
        throw err;
      }
      req.log.info({ importId: job.id, file: job.fileName, bytes: file.size, dryRun: job.dryRun, missing: job.missing, by: job.createdBy }, 'catalogue import queued');
      res.status(202).location(`/api/admin/catalog/imports/${job.id}`).json({ id: job.id });
    }),
  );

  app.get(
    '/api/admin/catalog/imports/:id',
    route(async (req, res) => {
      const { id } = parseInput(CatalogImportParamsSchema, req.params, 'params');
      const job = await imports.get(id);
      if (!job) throw notFound(`Import ${id}`);
      res.setHeader('cache-control', 'no-store');
      res.json(job);
    }),
  );

  app.get(
    '/api/admin/catalog/imports/:id/errors.csv',
    route(async (req, res) => {
      const { id } = parseInput(CatalogImportParamsSchema, req.params, 'params');
      const job = await imports.get(id);
      if (!job) throw notFound(`Import ${id}`);
      async function* rows() {
        yield ['row', 'column', 'message'];
        for await (const batch of repo.importErrors(id, 5000)) for (const e of batch) yield [String(e.row), e.column, e.message];
      }
      await sendCsv(res, `import-${id.slice(0, 8)}-errors.csv`, rows());
    }),
  );

  app.get(
    '/api/admin/catalog/export.csv',
    route(async (req, res) => {
      const started = Date.now();
      let count = 0;
      async function* rows() {
        yield [...CATALOG_COLUMNS];
        for await (const batch of repo.scan(2000)) {
          for (const p of batch) yield exportRow(p);
          count += batch.length;
        }
      }
      await sendCsv(res, `catalogue-${today()}.csv`, rows());
      req.log.info({ products: count, ms: Date.now() - started, by: adminOf(req) }, 'catalogue exported');
    }),
  );
}
